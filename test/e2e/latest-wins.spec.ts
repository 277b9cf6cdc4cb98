// Latest price wins, in Chromium against the real core (issue 33): a page whose main thread was held while prices
// kept coming shows the newest prices in its next frames, and its status bar says the screen was behind, with the
// figure, until it had caught up. The simulator runs on the wall clock here, with its load ticker moving the watched
// events' prices: the host stamps each batch with its wall clock, which is what the page's age is measured against.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base, expect } from '@playwright/test';
import { startSimulator, type Simulator } from '../../src/sim';
import { openBridgeSocket } from '../support/bridgeSocket';
import { cli, startWebHost, type WebHost } from './helpers';

const KEY = 'e2e-latest-wins-key';

const test = base.extend<{ app: { sim: Simulator; host: WebHost } }>({
  app: async ({ page: _page }, use) => {
    const sim = await startSimulator({ port: 0, seed: 42, clock: 'real', speed: 0.05, events: 30, oddsRate: 150, keys: [{ key: KEY, plan: 'enterprise' }] });
    const dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-latest-wins-e2e-'));
    const host = await startWebHost([...cli(), 'web', '--port', '0', '--base-url', sim.url, '--db', path.join(dir, 'latest-wins.db')], { ODDSDESK_API_KEY: KEY });
    await use({ sim, host });
    await host.stop();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  },
});

/** Watches `ids` through the bridge, as the page would (one at a time). */
async function watch(url: string, ids: readonly number[]): Promise<void> {
  const ws = await openBridgeSocket(url);
  try {
    for (const [i, id] of ids.entries()) {
      await new Promise<void>((resolve, reject) => {
        const onMessage = (d: Buffer) => {
          const m = JSON.parse(d.toString()) as { type: string; id?: number; result?: { ok: boolean } };
          if (m.type !== 'result' || m.id !== i) return;
          ws.off('message', onMessage);
          if (m.result?.ok) resolve();
          else reject(new Error(`watch:add ${id} failed: ${JSON.stringify(m.result)}`));
        };
        ws.on('message', onMessage);
        ws.send(JSON.stringify({ type: 'invoke', id: i, channel: 'watch:add', args: [id] }));
      });
    }
  } finally {
    ws.close();
  }
}

test('a page held for 2.5 s says its screen is behind, with the figure, then catches up and says nothing', async ({ page, app }) => {
  const { sim, host } = app;
  const ids = sim.truth
    .bookIds()
    .filter((id) => sim.truth.event(id)?.markets.some((m) => m.prices !== null))
    .slice(0, 8);
  expect(ids.length).toBeGreaterThanOrEqual(4);
  await watch(host.url, ids);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(host.url);
  await expect(page.getByTestId('watch-count')).toContainText(`${ids.length} events`);
  // Prices are moving on screen before the page is held.
  const firstCell = page.locator('[data-testid^="price-"]').first();
  await expect(firstCell).toBeVisible();
  await expect(page.getByTestId('status-behind')).toHaveCount(0);

  // Every text the status bar's behind segment showed, recorded as it happened (it may show for a frame or two only).
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { behindSeen: string[] }).behindSeen = seen;
    new MutationObserver(() => {
      const el = document.querySelector('[data-testid="status-behind"]');
      if (el?.textContent && seen[seen.length - 1] !== el.textContent) seen.push(el.textContent);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  // The page's main thread is held for 2.5 s while the host goes on pushing (a stalled page, a long task).
  await page.evaluate(() => {
    const until = Date.now() + 2_500;
    while (Date.now() < until) {
      // busy
    }
  });
  await expect.poll(() => page.evaluate(() => (window as unknown as { behindSeen: string[] }).behindSeen), { timeout: 15_000 }).toContainEqual(expect.stringMatching(/^screen [2-9]\.\d s behind$/));
  // Caught up: the warning goes.
  await expect(page.getByTestId('status-behind')).toHaveCount(0, { timeout: 15_000 });
});
