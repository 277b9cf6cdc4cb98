// The desktop app for real: where an Electron binary exists (ELECTRON_PATH, or the one `npm install electron`
// downloads), build the app, start it in demo mode through Playwright's Electron driver, watch a live event and see
// its odds tick in the window. On a machine without the binary (such as the one this was written on, where it
// cannot be downloaded) the test is skipped with the reason printed, and counts as skipped, never as passed.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { OddsdeskApi } from '../../src/shared/ipc/contract';

const root = path.resolve(__dirname, '../..');

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The Electron binary to drive, or why there is none. */
function findElectron(): { path: string; reason?: undefined } | { path?: undefined; reason: string } {
  const fromEnv = process.env['ELECTRON_PATH'];
  if (fromEnv) return isExecutableFile(fromEnv) ? { path: fromEnv } : { reason: `Electron binary not present: ELECTRON_PATH=${fromEnv} is not an executable file` };
  let installed: string;
  try {
    // The electron package exports the path of the binary it downloaded, and throws when there is none.
    installed = createRequire(import.meta.url)('electron') as string;
  } catch (e) {
    return { reason: `Electron binary not present: ${(e as Error).message.split('\n')[0]} (set ELECTRON_PATH to use another one)` };
  }
  if (!isExecutableFile(installed)) return { reason: `Electron binary not present: ${installed} is not an executable file` };
  if (process.platform === 'linux' && !process.env['DISPLAY'] && !process.env['WAYLAND_DISPLAY']) {
    return { reason: 'Electron binary present but no display: run under xvfb-run' };
  }
  return { path: installed };
}

const electron = findElectron();
if (electron.reason) console.log(`skipped: Electron end-to-end test: ${electron.reason}`);

describe('Electron app', () => {
  const userData = mkdtempSync(path.join(tmpdir(), 'oddsdesk-electron-'));
  afterAll(() => rmSync(userData, { recursive: true, force: true }));

  it.skipIf(!electron.path)('starts in demo mode and shows live odds for a watched event', async () => {
    for (const [cmd, ...args] of [['npm', 'run', 'build'], ['node', 'scripts/electron-native.mjs']] as const) {
      const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8' });
      expect(r.status, `${cmd} ${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
    const { _electron } = await import('@playwright/test');
    const app = await _electron.launch({
      executablePath: electron.path!,
      // Root in a container: Chromium's own sandbox needs user namespaces it may not have.
      args: [root, ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])],
      env: { ...process.env, ODDSDESK_USER_DATA: userData } as Record<string, string>,
      timeout: 60_000,
    });
    try {
      const page = await app.firstWindow();
      await page.getByTestId('badge-demo').waitFor({ timeout: 30_000 });
      expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.getTitle())).toBe('Oddsdesk — DEMO');

      // Watch a live event through the same contract the renderer uses.
      const eventId = await page.evaluate(async () => {
        // Runs in the page: the preload's API is the only door, exactly as for the renderer.
        const api = (globalThis as unknown as { oddsdesk: OddsdeskApi }).oddsdesk;
        for (let i = 0; i < 30; i++) {
          const r = await api.invoke('fixtures:list', { liveOnly: true });
          const live = r.ok ? r.value[0] : undefined;
          if (live) {
            const added = await api.invoke('watch:add', live.event_id);
            if (!added.ok) throw new Error(added.error.message);
            return live.event_id;
          }
          await new Promise((res) => setTimeout(res, 1000));
        }
        throw new Error('the demo simulator offered no live event within 30 s');
      });

      const prices = page.locator(`[data-testid^="price-${eventId}-"]`);
      await prices.first().waitFor({ timeout: 30_000 });
      const first = await prices.allInnerTexts();
      expect(first.some((t) => /\d+\.\d{3}/.test(t)), `decimal odds shown: ${first.join(' | ')}`).toBe(true);
      // Live: within a minute of demo time at least one price changes on screen.
      await expect.poll(async () => (await prices.allInnerTexts()).join('|'), { timeout: 60_000, interval: 500 }).not.toBe(first.join('|'));
    } finally {
      await app.close();
    }
  }, 240_000);
});
