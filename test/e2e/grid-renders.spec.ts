// Rows render structure, cells render prices (issue 33, item 3), in Chromium against the real core: while the
// simulator's load ticker moves the watched events' prices, the price cells' text changes hundreds of times and the
// rows themselves hardly render (only when their structure changes: another main line, a stream's state). The page
// counts each row's renders in `window.__rowRenders` when a test sets it before the page loads (WatchlistView.tsx).
import { test as base, expect } from '@playwright/test';
import type { Simulator } from '../../src/sim';
import { liveLoadHost, watchThroughBridge } from './fixtures';
import type { WebHost } from './helpers';

const KEY = 'e2e-grid-renders-key';

const test = base.extend<{ app: { sim: Simulator; host: WebHost } }>({
  app: liveLoadHost({ key: KEY, name: 'grid-renders', seed: 11, oddsRate: 1000 }),
});

type Counts = { renders: number; priceWrites: number };

test('a price tick writes its cells and renders no row', async ({ page, app }) => {
  const { sim, host } = app;
  const ids = sim.truth
    .bookIds()
    .filter((id) => sim.truth.event(id)?.markets.some((m) => m.prices !== null))
    .slice(0, 12);
  expect(ids.length).toBeGreaterThanOrEqual(6);
  await watchThroughBridge(host.url, ids);
  await page.addInitScript(() => {
    (window as unknown as { __rowRenders: Record<number, number> }).__rowRenders = {};
  });
  await page.setViewportSize({ width: 1600, height: 900 });
  await page.goto(host.url);
  await expect(page.getByTestId('watch-count')).toContainText(`${ids.length} events`);
  await expect(page.locator('[data-testid^="watch-row-"]')).toHaveCount(ids.length);
  await expect(page.locator('[data-testid^="price-"]').first()).toBeVisible();

  // Every write of a price's text in the grid, counted as it happens.
  await page.evaluate(() => {
    const w = window as unknown as { priceWrites: number };
    w.priceWrites = 0;
    new MutationObserver((records) => {
      for (const r of records)
        if ((r.target.parentElement ?? (r.target as Element)).closest?.('.price')) w.priceWrites++;
    }).observe(document.querySelector('[data-testid="watch-grid"] .rows')!, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  });
  const counts = () =>
    page.evaluate((): Counts => {
      const w = window as unknown as { __rowRenders: Record<number, number>; priceWrites: number };
      return { renders: Object.values(w.__rowRenders).reduce((a, b) => a + b, 0), priceWrites: w.priceWrites };
    });
  // Settled: the first pushes (headers, streams going live) have shaped the rows.
  await expect.poll(async () => (await counts()).priceWrites, { timeout: 30_000 }).toBeGreaterThan(50);
  const before = await counts();
  await expect
    .poll(async () => (await counts()).priceWrites - before.priceWrites, { timeout: 60_000 })
    .toBeGreaterThan(400);
  const after = await counts();
  const writes = after.priceWrites - before.priceWrites;
  const renders = after.renders - before.renders;
  // A row renders when its structure changes (another spread or total becomes the most balanced line, a market goes
  // off); a price tick renders none. Before the cells wrote themselves, rows and their cells rendered with the ticks.
  expect(renders, `${renders} row renders over ${writes} price writes`).toBeLessThanOrEqual(writes / 20);
});
