// Latest price wins, in Chromium against the real core (issue 33): a page whose main thread was held while prices
// kept coming shows the newest prices in its next frames, and its status bar says the screen was behind, with the
// figure, until it had caught up. The simulator runs on the wall clock here, with its load ticker moving the watched
// events' prices: the host stamps each batch with its wall clock, which is what the page's age is measured against.
import { test as base, expect } from '@playwright/test';
import type { Simulator } from '../../src/sim';
import { liveLoadHost, watchThroughBridge } from './fixtures';
import type { WebHost } from './helpers';

const KEY = 'e2e-latest-wins-key';

const test = base.extend<{ app: { sim: Simulator; host: WebHost } }>({
  app: liveLoadHost({ key: KEY, name: 'latest-wins', seed: 42, oddsRate: 500 }),
});

test('a page held for 2.5 s says its screen is behind, with the figure, then catches up and says nothing', async ({
  page,
  app,
}) => {
  const { sim, host } = app;
  const ids = sim.truth
    .bookIds()
    .filter((id) => sim.truth.event(id)?.markets.some((m) => m.prices !== null))
    .slice(0, 8);
  expect(ids.length).toBeGreaterThanOrEqual(4);
  await watchThroughBridge(host.url, ids);
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
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { behindSeen: string[] }).behindSeen), { timeout: 15_000 })
    .toContainEqual(expect.stringMatching(/^screen [2-9]\.\d s behind$/));
  // Caught up: the warning goes.
  await expect(page.getByTestId('status-behind')).toHaveCount(0, { timeout: 15_000 });
});
