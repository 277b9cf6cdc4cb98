// The desktop app for real: where an Electron binary exists (ELECTRON_PATH, or the one `npm install electron`
// downloads), build the app, start it in demo mode through Playwright's Electron driver, watch a live event and see
// its odds tick in the window; close the window and see it keep monitoring from the tray (a settlement still
// notifies); quit and find the database flushed and closed. On a machine without the binary (such as the one this
// was written on, where it cannot be downloaded) the tests are skipped with the reason printed, and count as
// skipped, never as passed.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { ElectronApplication } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  if (fromEnv)
    return isExecutableFile(fromEnv)
      ? { path: fromEnv }
      : { reason: `Electron binary not present: ELECTRON_PATH=${fromEnv} is not an executable file` };
  let installed: string;
  try {
    // The electron package exports the path of the binary it downloaded, and throws when there is none.
    installed = createRequire(import.meta.url)('electron') as string;
  } catch (e) {
    return {
      reason: `Electron binary not present: ${(e as Error).message.split('\n')[0]} (set ELECTRON_PATH to use another one)`,
    };
  }
  if (!isExecutableFile(installed))
    return { reason: `Electron binary not present: ${installed} is not an executable file` };
  if (process.platform === 'linux' && !process.env['DISPLAY'] && !process.env['WAYLAND_DISPLAY']) {
    return { reason: 'Electron binary present but no display: run under xvfb-run' };
  }
  return { path: installed };
}

const electron = findElectron();
if (electron.reason) console.log(`skipped: Electron end-to-end test: ${electron.reason}`);

async function launch(userData: string): Promise<ElectronApplication> {
  const { _electron } = await import('@playwright/test');
  return _electron.launch({
    executablePath: electron.path!,
    // Root in a container: Chromium's own sandbox needs user namespaces it may not have.
    args: [root, ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])],
    env: { ...process.env, ODDSDESK_USER_DATA: userData } as Record<string, string>,
    timeout: 60_000,
  });
}

/** Watches the demo's soonest matches through the page's own API; returns their ids. */
async function watchSoonest(
  page: Awaited<ReturnType<ElectronApplication['firstWindow']>>,
  count: number,
): Promise<number[]> {
  return page.evaluate(async (n) => {
    const api = (globalThis as unknown as { oddsdesk: OddsdeskApi }).oddsdesk;
    const r = await api.invoke('fixtures:list', {});
    if (!r.ok) throw new Error(r.error.message);
    const soonest = [...r.value].sort((a, b) => a.starts.localeCompare(b.starts)).slice(0, n);
    for (const f of soonest) {
      const added = await api.invoke('watch:add', f.event_id);
      if (!added.ok) throw new Error(added.error.message);
    }
    return soonest.map((f) => f.event_id);
  }, count);
}

describe('Electron app', () => {
  const userData = mkdtempSync(path.join(tmpdir(), 'oddsdesk-electron-'));
  afterAll(() => rmSync(userData, { recursive: true, force: true }));
  beforeAll(() => {
    if (!electron.path) return;
    for (const [cmd, ...args] of [
      ['npm', 'run', 'build'],
      ['node', 'scripts/electron-native.mjs'],
    ] as const) {
      const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8' });
      expect(r.status, `${cmd} ${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
  }, 600_000);

  it.skipIf(!electron.path)(
    'starts in demo mode and shows live odds for a watched event',
    async () => {
      const app = await launch(userData);
      try {
        const page = await app.firstWindow();
        await page.getByTestId('badge-demo').waitFor({ timeout: 30_000 });
        expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.getTitle())).toBe(
          'Oddsdesk — DEMO',
        );

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
        expect(
          first.some((t) => /\d+\.\d{3}/.test(t)),
          `decimal odds shown: ${first.join(' | ')}`,
        ).toBe(true);
        // Live: within a minute of demo time at least one price changes on screen.
        await expect
          .poll(async () => (await prices.allInnerTexts()).join('|'), { timeout: 60_000, interval: 500 })
          .not.toBe(first.join('|'));
      } finally {
        await app.close();
      }
    },
    240_000,
  );

  it.skipIf(!electron.path)(
    'keeps monitoring from the tray after the window is closed: a watched settlement still notifies',
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-electron-tray-'));
      const app = await launch(dir);
      try {
        const page = await app.firstWindow();
        await page.getByTestId('badge-demo').waitFor({ timeout: 30_000 });
        // Count the notifications main shows, without changing what they do.
        await app.evaluate(({ Notification }) => {
          const shown: string[] = [];
          (globalThis as unknown as { shownTitles: string[] }).shownTitles = shown;
          const show = Notification.prototype.show;
          Notification.prototype.show = function (this: Electron.Notification) {
            shown.push(this.title);
            return show.call(this);
          };
        });
        await watchSoonest(page, 4);
        await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.close());
        // Hidden, not gone: the process, the core and the window object all stay.
        const after = await app.evaluate(({ BrowserWindow }) =>
          BrowserWindow.getAllWindows().map((w) => ({ visible: w.isVisible(), destroyed: w.isDestroyed() })),
        );
        expect(after).toEqual([{ visible: false, destroyed: false }]);
        // The first close says so, once.
        await expect
          .poll(() => app.evaluate(() => (globalThis as unknown as { shownTitles: string[] }).shownTitles), {
            timeout: 5_000,
          })
          .toContain('Oddsdesk is still running');
        // Demo time runs 60x: the soonest matches settle within a few real minutes.
        await expect
          .poll(
            () =>
              app.evaluate(() =>
                (globalThis as unknown as { shownTitles: string[] }).shownTitles.filter((t) =>
                  t.startsWith('Settled: '),
                ),
              ),
            { timeout: 300_000, interval: 1000 },
          )
          .not.toEqual([]);
        expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
      } finally {
        await app.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
    420_000,
  );

  it.skipIf(!electron.path)(
    'quits from the tray or menu by flushing the ticks and closing the database cleanly',
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-electron-quit-'));
      const app = await launch(dir);
      try {
        const page = await app.firstWindow();
        await page.getByTestId('badge-demo').waitFor({ timeout: 30_000 });
        const [eventId] = await watchSoonest(page, 1);
        await page.locator(`[data-testid^="price-${eventId}-"]`).first().waitFor({ timeout: 30_000 });
        const exited = new Promise<void>((r) => app.process().once('exit', () => r()));
        // What the tray's Quit item and the menu's Quit role both call.
        await app.evaluate(({ app: electronApp }) => electronApp.quit());
        await exited;
      } finally {
        if (app.process().exitCode === null) await app.close();
      }
      const dbFile = path.join(dir, 'oddsdesk.db');
      // Closed cleanly: the write-ahead log was checkpointed and removed, and the file is whole.
      expect(existsSync(`${dbFile}-wal`) ? statSync(`${dbFile}-wal`).size : 0).toBe(0);
      const db = new Database(dbFile, { readonly: true });
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        expect((db.prepare('SELECT COUNT(*) AS n FROM odds_ticks').get() as { n: number }).n).toBeGreaterThan(0);
      } finally {
        db.close();
      }
      const logText = readFileSync(path.join(dir, 'logs', 'main.log'), 'utf8');
      // The store's threads started from main's bundle, with Electron's build of the native binding: its checkpoints and
      // the stream's writes ran off the main process's event loop.
      expect(logText).toContain('History store open: WAL checkpoints on thread, stream writes on thread');
      expect(logText).toContain('Shutting down: quit');
      expect(logText).toContain('Ticks flushed and the database closed');
      rmSync(dir, { recursive: true, force: true });
    },
    240_000,
  );
});
