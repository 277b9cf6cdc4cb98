// Issue 34, classes 4, 6 and 7 (browser mode, the simulator on the manual clock), at 1280x720 and 1920x1080: the
// Bets report's P/L axis on two bets placed today reads today's times; in implied-% mode a rising probability reads
// as a rise in Top movers (sign, colour, arrow) and on the price chart's axis (higher % higher up); a single click
// opens the detail also after Esc; the fixtures picker moves and watches from its search box by keys; offline, the
// status bar claims no live stream; a settlement of a sport without draws (basketball, tennis) shows no draw result. The axis labels are read from the
// chart's element (data-x-labels, data-y-labels: what uPlot drew on its canvas).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { formatDayMonth } from '../../src/shared/formats';
import { startSimulator, type Simulator } from '../../src/sim';
import { SPORTS } from '../../src/sim/catalog';
import { walkSettledEvery, watchById } from './fixtures';
import { cli, startWebHost, type WebHost } from './helpers';

const KEY = 'e2e-polish-trader-key';
const SIZES = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
] as const;

interface App {
  sim: Simulator;
  host: WebHost;
}

const test = base.extend<{ open: (size: { width: number; height: number }) => Promise<App> }>({
  open: async ({ page }, use) => {
    const cleanup: Array<() => Promise<void>> = [];
    await use(async (size) => {
      const sim = await startSimulator({ port: 0, seed: 4, clock: 'manual', keys: [{ key: KEY, plan: 'enterprise' }] });
      cleanup.push(() => sim.close());
      const dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-polish-e2e-'));
      cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
      const host = await startWebHost(
        [...cli(), 'web', '--port', '0', '--base-url', sim.url, '--db', path.join(dir, 'polish.db')],
        { ODDSDESK_API_KEY: KEY },
      );
      cleanup.push(() => host.stop());
      await page.setViewportSize(size);
      await page.goto(host.url);
      await expect(page.getByTestId('status-bar')).toBeVisible();
      return { sim, host };
    });
    // The offline test has closed its simulator already: a second close is no failure.
    for (const stop of cleanup.reverse()) await stop().catch(() => undefined);
  },
});

/** A match hours before its start with a two-way moneyline, priced `home` / `away`; its id and moneyline's. */
function twoWayMatch(sim: Simulator, home: number, away: number): { id: number; ml: number } {
  const event = sim.truth
    .bookIds()
    .map((id) => sim.truth.event(id)!)
    .find(
      (e) =>
        e.live_status !== 1 &&
        Date.parse(`${e.starts}Z`) - sim.now() > 2 * 3_600_000 &&
        e.markets.every((m) => m.prices) &&
        e.markets[0]!.prices!.draw === undefined,
    )!;
  const id = event.event_id;
  sim.script.setMarket(id, id * 10, { home, away });
  return { id, ml: id * 10 };
}

async function recordBet(page: Page, side: 'home' | 'away', stake: string) {
  await page.keyboard.press('r');
  await expect(page.getByTestId('record-bet')).toBeVisible();
  await page.getByTestId('record-bet-side').selectOption(side);
  await page.getByTestId('record-bet-stake').fill(stake);
  await page.getByTestId('record-bet-stake').press('Enter');
}

const labelsOf = async (page: Page, testId: string, which: 'x' | 'y') =>
  ((await page.getByTestId(testId).getAttribute(`data-${which}-labels`)) ?? '').split(' | ').filter(Boolean);

for (const size of SIZES) {
  const at = `${size.width}x${size.height}`;

  test(`${at}: the Bets report's P/L axis on two bets placed today reads today's clock times`, async ({
    page,
    open,
  }) => {
    test.setTimeout(240_000);
    const { sim } = await open(size);
    // Settlements walked every 10 s, so the played-out match settles the bets soon.
    await walkSettledEvery(page, 10);
    const { id } = twoWayMatch(sim, 2.0, 1.9);
    await watchById(page, id);
    await page.getByTestId(`watch-row-${id}`).click();
    await expect(page.getByTestId('event-detail')).toBeVisible();
    await recordBet(page, 'home', '50');
    await expect(page.getByText('Bet recorded: Home at 2.000 for 50.00')).toBeVisible();
    await recordBet(page, 'away', '30');
    await expect(page.getByText('Bet recorded: Away at 1.900 for 30.00')).toBeVisible();
    const placed = Date.now();
    expect(sim.script.kickOff(id)).toBe(true);
    for (let i = 0; i < 300 && !sim.truth.settled().some((s) => s.event_id === id); i++) await sim.advance(600);
    await page.keyboard.press('Escape');
    // The report adds up when it opens: opened again until the settled walk has brought the settlement.
    await expect(async () => {
      await page.keyboard.press('w');
      await page.keyboard.press('b');
      await page.keyboard.press('4');
      await expect(page.getByTestId('report-settled')).toHaveText('2', { timeout: 1000 });
    }).toPass({ timeout: 60_000 });
    const chart = page.getByTestId('report-chart');
    await expect(chart).toHaveAttribute('data-points', '2');
    await expect(chart).toHaveAttribute('data-x-labels', /\d/);
    const zone = (await chart.getAttribute('data-zone'))!;
    const labels = await labelsOf(page, 'report-chart', 'x');
    // Clock times of the day ("14:05"; the first with its day under it, "14:05 23 Nov"): no year's months, no
    // thousandths of a second, and every day named is today.
    expect(labels.length, labels.join(' | ')).toBeGreaterThanOrEqual(2);
    for (const l of labels) expect(l, labels.join(' | ')).toMatch(/^\d\d:\d\d( \d{1,2} [A-Z][a-z]{2})?$/);
    const days = labels.map((l) => / (\d{1,2} [A-Z][a-z]{2})$/.exec(l)?.[1]).filter(Boolean);
    expect(days, labels.join(' | ')).toEqual([formatDayMonth(placed, zone)]);
    // And the histogram's title agrees in number.
    await expect(page.getByTestId('report-histogram')).toBeVisible();
  });

  test(`${at}: in implied-% mode a rising probability reads as a rise in Top movers and on the price chart`, async ({
    page,
    open,
  }) => {
    const { sim } = await open(size);
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('odds-format-select').selectOption('implied');
    await page.keyboard.press('w');
    const { id, ml } = twoWayMatch(sim, 2.0, 1.9);
    await watchById(page, id);
    // The first price seen (home 2.00 = 50.0%) before the move, so that there is a move.
    await expect(page.getByTestId(`price-${id}-${ml}-home`).first()).toHaveText(/50\.0%$/);
    // Home shortens 2.00 -> 1.80 (more likely), away drifts 1.90 -> 2.10. Fair under MPTO: home 2.054054 -> 1.852941
    // (probability 48.7% -> 54.0%, +10.9%), away 1.948718 -> 2.172414 (51.3% -> 46.0%, -10.3%).
    sim.script.setMarket(id, ml, { home: 1.8, away: 2.1 });
    await expect(page.getByTestId(`watch-row-${id}`)).toContainText('55.6%');
    await page.keyboard.press('m');
    await page.keyboard.press('1');
    await expect(page.getByTestId('mover-side-0')).toHaveText('Home');
    await expect(page.getByTestId('mover-move-0')).toHaveText('▲ +10.9%');
    await expect(page.getByTestId('mover-move-0')).toHaveClass(/\bpos\b/);
    await expect(page.getByTestId('mover-side-1')).toHaveText('Away');
    await expect(page.getByTestId('mover-move-1')).toHaveText('▼ -10.3%');
    await expect(page.getByTestId('mover-move-1')).toHaveClass(/\bneg\b/);
    // The legend promises arrows the cells have, in this mode's words.
    await expect(page.getByTestId('colour-legend')).toContainText('probability rising');

    // The price chart: higher probabilities higher up.
    await page.keyboard.press('w');
    await page.getByTestId(`watch-row-${id}`).click();
    const chart = page.getByTestId('chart-price');
    await expect(chart).toHaveAttribute('data-points', /^([2-9]|\d\d+)$/);
    await expect(chart).toHaveAttribute('data-y-labels', /%/);
    const pct = (await labelsOf(page, 'chart-price', 'y')).map((l) => Number(l.replace('%', '')));
    expect(pct.length).toBeGreaterThanOrEqual(2);
    expect(pct, 'top to bottom').toEqual([...pct].sort((a, b) => b - a));
    // And its time axis, on two ticks moments apart, reads clock times, not thousandths of a second.
    for (const l of await labelsOf(page, 'chart-price', 'x'))
      expect(l).toMatch(/^\d\d:\d\d(:\d\d)?( \d{1,2} [A-Z][a-z]{2})?$/);
  });

  test(`${at}: a single click opens the detail, also after Esc closed it`, async ({ page, open }) => {
    const { sim } = await open(size);
    const { id } = twoWayMatch(sim, 2.0, 1.9);
    await watchById(page, id);
    const row = page.getByTestId(`watch-row-${id}`);
    await row.click();
    await expect(page.getByTestId('event-detail')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('event-detail')).toHaveCount(0);
    await row.click();
    await expect(page.getByTestId('event-detail')).toBeVisible();
  });

  test(`${at}: the fixtures picker moves with Down and watches with Enter from its search box`, async ({
    page,
    open,
  }) => {
    const { sim } = await open(size);
    await page.getByTestId('open-fixtures').click();
    const filter = page.getByTestId('fixture-filter');
    await expect(filter).toBeFocused();
    // A league with several fixtures: the second one down is the one Enter watches.
    const league = sim.truth.event(sim.truth.bookIds()[0]!)!.league_name;
    await filter.fill(league);
    const rows = page.locator('[data-testid^="fixture-row-"]');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(2);
    await expect(rows.nth(0)).toHaveAttribute('aria-selected', 'true');
    await filter.press('ArrowDown');
    await expect(rows.nth(1)).toHaveAttribute('aria-selected', 'true');
    await expect(rows.nth(0)).toHaveAttribute('aria-selected', 'false');
    const second = Number((await rows.nth(1).getAttribute('data-testid'))!.replace('fixture-row-', ''));
    await expect(filter).toBeFocused();
    await filter.press('Enter');
    await expect(page.getByTestId(`fixture-add-${second}`)).toHaveText('Watched');
    await expect(page.getByTestId(`watch-row-${second}`)).toBeVisible();
  });

  test(`${at}: offline, the status bar claims no live stream`, async ({ page, open }) => {
    const { sim, host } = await open(size);
    const { id } = twoWayMatch(sim, 2.0, 1.9);
    await watchById(page, id);
    await expect(page.getByTestId('status-streams')).toHaveText(/stream 1\/1 live/);
    // The page loses Oddsdesk itself: the last status it had said "1/1 live", which no longer holds.
    await host.stop();
    await expect(page.getByTestId('badge-offline')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('status-streams')).not.toHaveText(/[1-9]\d*\/\d+ live/);
    await expect(page.getByTestId('status-streams')).toHaveText(/1 stream waiting \(offline\)/);
  });

  test(`${at}: the service offline, the status bar claims no live stream`, async ({ page, open }) => {
    const { sim } = await open(size);
    const { id } = twoWayMatch(sim, 2.0, 1.9);
    await watchById(page, id);
    await expect(page.getByTestId('status-streams')).toHaveText(/stream 1\/1 live/);
    await sim.close();
    // The next request finds the service gone (the trader's look at the fixtures asks at once).
    await page.getByTestId('open-fixtures').click();
    await expect(page.getByTestId('badge-offline')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('status-streams')).toHaveText(/1 stream waiting \(offline\)/);
    await expect(page.getByTestId('status-streams')).not.toHaveText(/[1-9]\d*\/\d+ live/);
  });

  test(`${at}: a settlement of a sport without draws (basketball, tennis) shows no draw result`, async ({
    page,
    open,
  }) => {
    const { sim } = await open(size);
    // Basketball, tennis and the rest are played to a winner; the service still sends their moneyline's draw, a loss.
    const drawless = new Set(SPORTS.filter((s) => !s.draw).map((s) => s.id));
    const ball = sim.truth
      .settled()
      .filter(
        (s) =>
          drawless.has(s.sport_id) && s.settlement.some((l) => l.market === 'moneyline' && l.outcome_draw === 'loss'),
      )
      .at(-1)!;
    expect(ball, 'a settled match of a sport without draws').toBeTruthy();
    const ml = ball.settlement.find((l) => l.market === 'moneyline')!;
    await page.keyboard.press('t');
    await page.getByTestId('settlement-team-filter').fill(ball.runner_home);
    const row = page.getByTestId(`settlement-row-${ball.event_id}`);
    await expect(row).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId(`ml-${ball.event_id}-home`)).toHaveText(/^[WLP]$/);
    await expect(page.getByTestId(`ml-${ball.event_id}-draw`)).toHaveText('');
    await row.click();
    const line = page.getByTestId('settlement-detail').getByTestId(`settled-line-${ml.line_id}`);
    await expect(line.locator('.oc')).toHaveCount(2);
    await expect(line).not.toContainText('Draw');
  });
}
