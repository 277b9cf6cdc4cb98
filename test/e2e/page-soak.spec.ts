// Issue 37, a day open (the short form of the page soak, bench/pageSoak.ts), browser mode against the real core and
// the simulator: opening and closing the event detail with its price and max-stake charts, the command palette and
// the event in a tab of its own (Shift+Enter), 20 times over, leaves the page holding what it held before: the same
// DOM event listeners, the same store subscribers, market-channel listeners, bridge push listeners (the app's own
// counts: src/renderer/src/listenerCounts.ts) and the same DOM nodes (in the document, and detached but held, as a
// heap snapshot finds them). The counts are read after a few walks: the first openings leave what V8 keeps of a
// first chart or two once (its hidden classes hold a destroyed uPlot's closures: a few dozen of uPlot's own nodes and
// their listeners, at a time V8 chooses; see Chart.tsx). So the app's counts must come back exactly, the DOM's to
// less than one walk could leak: fewer listeners than half the walks, fewer nodes than a closed detail alone holds.
import { test as base, expect } from '@playwright/test';
import type { Simulator } from '../../src/sim';
import { ASK_FOR_COUNTS, countingSession, openAndCloseWalk, pageCounts, snapshotDomNodes } from '../support/pageWalk';
import { simulatorAndHost, twoWayMatch, watchById } from './fixtures';

const KEY = 'e2e-page-soak-trader-key';
const WARMUP_WALKS = 5;
/** Less than a closed detail's tree (about 180 nodes) or a palette's. */
const NODES_SLACK = 100;
const WALKS = 20;

const test = base.extend<{ sim: Simulator }>({
  sim: simulatorAndHost({
    key: KEY,
    name: 'page-soak',
    viewport: { width: 1600, height: 900 },
    env: { TZ: 'UTC' },
    beforeGoto: (page) => page.addInitScript({ content: ASK_FOR_COUNTS }),
  }),
});

test('opening and closing the detail with its charts, the palette and a second window leaves no listener, subscription or DOM node behind', async ({
  page,
  sim,
}) => {
  test.setTimeout(180_000);
  const event = twoWayMatch(sim);
  const id = event.event_id;
  const ml = id * 10;
  // Two ticks of the moneyline, the detail's first line: its charts draw from the second.
  sim.script.setMarket(id, ml, { home: 2.5, away: 1.6 });
  await watchById(page, id);
  sim.script.setMarket(id, ml, { home: 2.6, away: 1.55 });
  await expect(page.getByTestId(`watch-row-${id}`).getByTestId(`price-${id}-${ml}-home`)).toHaveText(/2\.600$/);
  // The grid alone: a watch just added may have its detail open.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('event-detail')).toHaveCount(0);

  const cdp = await countingSession(page);
  for (let i = 0; i < WARMUP_WALKS; i++) await openAndCloseWalk(page, id);
  const before = await pageCounts(page, cdp);
  const beforeDom = await snapshotDomNodes(cdp);
  // The counts are the app's: the grid's cells listen to their markets, the store has subscribers, the wiring its
  // push listeners.
  expect(before.app['store']).toBeGreaterThan(0);
  expect(before.app['marketBus']).toBeGreaterThan(0);
  expect(before.app['api']).toBeGreaterThan(0);
  expect(before.domListeners).toBeGreaterThan(0);

  // An open detail is counted: its price cells listen to their markets, its charts' canvases to the pointer.
  await page.getByTestId(`watch-row-${id}`).click();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('chart-price')).toBeVisible();
  const open = await pageCounts(page, cdp);
  expect(open.app['marketBus']).toBeGreaterThan(before.app['marketBus']!);
  expect(open.domListeners).toBeGreaterThan(before.domListeners);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('event-detail')).toHaveCount(0);

  for (let i = 0; i < WALKS; i++) await openAndCloseWalk(page, id);
  const after = await pageCounts(page, cdp);
  const afterDom = await snapshotDomNodes(cdp);
  expect(after.app).toEqual(before.app);
  expect(after.domListeners - before.domListeners).toBeLessThan(WALKS / 2);
  expect(afterDom.attached).toBe(beforeDom.attached);
  expect(afterDom.detached - beforeDom.detached).toBeLessThan(NODES_SLACK);
});
