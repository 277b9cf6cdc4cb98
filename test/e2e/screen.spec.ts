// The screen a trader trusts all day (issue 15, part B), in browser mode against the real core:
// - the demo's first run watches live events whose prices move, in a grid that fits beside the detail pane at
//   1600 px, and the page loads without a 404;
// - an id typed and entered leaves the box, so the next letter is a shortcut;
// - a watched match that finishes shows FT with no prices on its row, and the detail pane agrees (never LIVE);
// - a basketball score in the Settlements view is shown whole;
// - with the service gone, a watched row dims its prices and the banner and status bar say since when.
// The simulator of the last four runs on the manual clock; the demo runs on the wall clock, as a trader sees it, in
// the world of a fixed seed at twice its own pace (seededDemo): the same matches and moves each run, whatever the load.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base, expect } from '@playwright/test';
import { startSimulator, type Simulator } from '../../src/sim';
import { formatHourMinute } from '../../src/shared/formats';
import { E2E_TIME_ZONE } from '../support/e2eZone';
import { cli, seededDemo, startWebHost, type WebHost } from './helpers';

const KEY = 'e2e-screen-trader-key';
const PEEK_KEY = 'e2e-screen-peek-key';

interface Fixture {
  event_id: number;
  runner_away: string;
  sport_id: number;
  runner_home: string;
  live_status: number;
  starts: string;
}

const test = base.extend<{
  open: (o?: { demo?: boolean }) => Promise<{ sim: Simulator; host: WebHost; fixtures(): Promise<Fixture[]> }>;
}>({
  open: async ({ page: _page }, use) => {
    const cleanup: Array<() => Promise<void>> = [];
    await use(async (o = {}) => {
      const sim = await startSimulator({
        port: 0,
        seed: 9,
        clock: 'manual',
        historyHours: 4,
        keys: [
          { key: KEY, plan: 'enterprise' },
          { key: PEEK_KEY, plan: 'enterprise' },
        ],
      });
      cleanup.push(() => sim.close());
      const dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-screen-'));
      cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
      const service = o.demo ? [] : ['--base-url', sim.url];
      const host = await startWebHost(
        [...cli(), 'web', '--port', '0', ...service, '--db', path.join(dir, 'screen.db')],
        o.demo ? seededDemo(25, 20) : { ODDSDESK_API_KEY: KEY },
      );
      cleanup.push(() => host.stop());
      return {
        sim,
        host,
        async fixtures() {
          const res = await fetch(new URL('/api/fixtures', sim.url), { headers: { 'X-API-Key': PEEK_KEY } });
          return (await res.json()) as Fixture[];
        },
      };
    });
    for (const stop of cleanup.reverse()) await stop().catch(() => undefined);
  },
});

test('must-show 4: the first run of the demo watches live events whose prices move; the grid fits beside the detail at 1600 px; no 404', async ({
  page,
  open,
}) => {
  await page.setViewportSize({ width: 1600, height: 900 });
  const missing: string[] = [];
  page.on('response', (r) => {
    if (r.status() === 404) missing.push(r.url());
  });
  const app = await open({ demo: true });
  await page.goto(app.host.url);
  await expect(page.getByTestId('badge-demo')).toBeVisible();

  // At least three watched events, live, named (not "Event 1234"), without the trader doing anything.
  const liveRows = page.locator('[data-testid^="watch-row-"]').filter({ has: page.locator('.badge.live') });
  await expect.poll(() => liveRows.count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
  for (const text of await liveRows.locator('.teams').allTextContents()) expect(text).toMatch(/ v /);
  await expect(page.getByTestId('watch-empty')).toHaveCount(0);

  // Their prices move: a price cell of a live row changes within a minute of wall time. In that minute a row may also
  // kick off, finish or be suspended: cells are compared by event, line and side, and only a cell priced in both
  // looks counts.
  const prices = liveRows.locator('.price:not(.empty)');
  await expect.poll(() => prices.count(), { timeout: 30_000 }).toBeGreaterThan(0);
  const priceCells = () =>
    liveRows.evaluateAll((rows) => {
      const out: Record<string, string> = {};
      for (const row of rows) {
        // A priced cell is named by event, line and side (data-testid); its last child holds the price.
        for (const cell of row.querySelectorAll('.price[data-testid]:not(.offline)'))
          out[cell.getAttribute('data-testid')!] = cell.lastChild?.textContent ?? '';
      }
      return out;
    });
  const before = await priceCells();
  await expect
    .poll(
      async () => {
        const now = await priceCells();
        return Object.entries(now).some(([cell, text]) => before[cell] !== undefined && before[cell] !== text);
      },
      { timeout: 60_000, intervals: [500] },
    )
    .toBe(true);
  // The row says how old its prices are.
  await expect(liveRows.first().locator('.cell.age')).toHaveText(/^(now|\d+[smh])$/);

  // The detail pane open at 1600 px: every column of the grid is inside the view, nothing scrolls sideways.
  await liveRows.first().click();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('event-detail')).toBeVisible();
  // The grid picks its columns for its new width once the resize is observed (a frame later, longer on a busy page).
  await expect.poll(() => page.locator('.wbody').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await expect
    .poll(async () => {
      const maxWinHeader = (await page.getByTestId('sort-maxWin').boundingBox())!;
      const grid = (await page.getByTestId('watch-grid').boundingBox())!;
      return maxWinHeader.x + maxWinHeader.width <= grid.x + grid.width;
    })
    .toBe(true);
  // The price chart is on a log scale. A chart needs two ticks of its line, and the demo's seed decides which events
  // are offered live and which of their lines have moved yet: open the live rows and their market rows in turn until
  // one of them has a chart.
  const chart = page.getByTestId('chart-price');
  await expect
    .poll(
      async () => {
        const events = await liveRows.count();
        for (let e = 0; e < events && !(await chart.count()); e++) {
          await liveRows.nth(e).click();
          await page.keyboard.press('Enter');
          const rows = page.getByTestId('event-detail').locator('[data-testid^="market-"]');
          const n = await rows.count();
          for (let i = 0; i < n && !(await chart.count()); i++) {
            await rows.nth(i).click();
            // Chosen, and its history loaded: the chart, or the words saying why there is none yet.
            await expect(rows.nth(i)).toHaveClass(/\bchosen\b/);
            await expect(page.getByTestId('event-detail').getByText("Loading the line's history…")).toHaveCount(0);
          }
        }
        return (await chart.count()) > 0;
      },
      { timeout: 60_000, intervals: [2000] },
    )
    .toBe(true);
  await expect(chart).toHaveAttribute('data-scale', 'log');

  expect(missing).toEqual([]);
});

test('an id typed and entered: the row gets its teams from the stream without a reload, and the next letter is a shortcut', async ({
  page,
  open,
}) => {
  const app = await open();
  await page.goto(app.host.url);
  const f = (await app.fixtures()).find((x) => x.live_status !== 1)!;
  const input = page.getByTestId('add-watch-input');
  await input.click();
  await input.pressSequentially(String(f.event_id));
  await input.press('Enter');
  await expect(page.getByTestId(`watch-row-${f.event_id}`)).toBeVisible();
  await expect(input).not.toBeFocused();
  // Nothing was known of it but its id: the stream's snapshot names it.
  await expect(page.getByTestId(`watch-row-${f.event_id}`).locator('.teams')).toHaveText(
    new RegExp(`^${f.runner_home} v `),
  );
  await page.keyboard.press('t');
  await expect(page.getByTestId('settlement-list').or(page.getByTestId('settlements-empty'))).toBeVisible();
  await page.keyboard.press('w');
  await expect(page.getByTestId('add-watch-input')).toHaveValue('');
});

test('a watched match that finishes: FT on the row with its prices gone, and the detail pane says FT too, never LIVE', async ({
  page,
  open,
}) => {
  const app = await open();
  await page.goto(app.host.url);
  // The live match that started first finishes first.
  const live = (await app.fixtures())
    .filter((x) => x.live_status === 1)
    .sort((a, b) => a.starts.localeCompare(b.starts))[0]!;
  const id = live.event_id;
  await page.getByTestId('add-watch-input').fill(String(id));
  await page.getByTestId('add-watch-input').press('Enter');
  const row = page.getByTestId(`watch-row-${id}`);
  await expect(row.locator('.badge.live')).toBeVisible();
  await expect(row.locator('.price:not(.empty)').first()).toBeVisible();
  await row.click();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('detail-badge')).toHaveText('LIVE');

  // Play the match out: it leaves the book (the stream's end) and its settlement is published.
  for (let i = 0; i < 24 * 6 && app.sim.truth.event(id); i++) await app.sim.advance(600);
  expect(app.sim.truth.event(id)).toBeNull();
  await expect(row.getByTestId(`badge-${id}`)).toHaveText('FT', { timeout: 20_000 });
  await expect(row.locator('.price:not(.empty)')).toHaveCount(0);
  await expect(page.getByTestId('detail-badge')).toHaveText('FT');
});

test('a basketball score is shown whole in the Settlements view', async ({ page, open }) => {
  const app = await open();
  await page.goto(app.host.url);
  const ball = app.sim.truth
    .settled()
    .filter((s) => s.sport_id === 2 && (s.score_home ?? 0) >= 100 && (s.score_away ?? 0) >= 100)
    .at(-1);
  expect(ball, 'a basketball settlement with two three-digit scores').toBeTruthy();
  await page.keyboard.press('t');
  await page.getByTestId('settlement-team-filter').fill(ball!.runner_home);
  const cell = page.getByTestId(`settlement-row-${ball!.event_id}`).locator('.cell.num').first();
  await expect(cell).toHaveText(`${ball!.score_home}–${ball!.score_away}`, { timeout: 30_000 });
  const { scroll, client } = await cell.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(scroll).toBeLessThanOrEqual(client);
});

test('the service goes away: the watched row dims its prices as stale, and the banner and status bar say offline since when', async ({
  page,
  open,
}) => {
  const app = await open();
  await page.goto(app.host.url);
  // A live match offered in play (one that is not has no price to go stale: its row says it is suspended).
  const priced = (id: number) => app.sim.truth.event(id)?.markets.some((m) => m.prices !== null) ?? false;
  const live = (await app.fixtures())
    .filter((x) => x.live_status === 1 && priced(x.event_id))
    .sort((a, b) => b.starts.localeCompare(a.starts))[0]!;
  await page.getByTestId('add-watch-input').fill(String(live.event_id));
  await page.getByTestId('add-watch-input').press('Enter');
  const row = page.getByTestId(`watch-row-${live.event_id}`);
  await expect(row.locator('.price:not(.empty)').first()).toBeVisible();
  await expect(page.getByTestId('status-streams')).toHaveText(/stream 1\/1 live/);
  await expect(row).not.toHaveClass(/\bstale\b/);
  await expect(row.getByTestId(`age-${live.event_id}`)).toHaveText(/^(now|\d+[smh])$/);

  const before = Date.now();
  await app.sim.close();
  await expect(row).toHaveClass(/\bstale\b/, { timeout: 30_000 });
  // The next request finds the service gone (the settled walk would, within its minute; the trader's look at the
  // fixtures does at once).
  await page.getByTestId('open-fixtures').click();
  await expect(page.getByTestId('banner-offline')).toBeVisible({ timeout: 30_000 });
  // "since HH:MM" (today) on this machine's clock: the minute it went, give or take the one the test crossed.
  const since = (await page.getByTestId('offline-since').textContent())!;
  const minutes = [before, Date.now()].map((t) => formatHourMinute(t, E2E_TIME_ZONE));
  expect(minutes).toContain(since);
  await expect(page.getByTestId('badge-offline')).toHaveText(`OFFLINE since ${since}`);
});
