// Issue 35, must-show through the screen (browser mode): an upstream scripted in the test, in front of the simulator
// (its /api/settled answered by the test, the line values of its event streams rewritten by the test, everything
// else the simulator's; prices set by its script on the manual clock):
// - a bet on a quarter line of a match that is then abandoned shows void and 0.00 in Bets, and the settlement's
//   alert and notification read void, never "half won";
// - a handicap moved under its line id raises no drop alert, while a real drop on another line of the same match does;
// - a bet's CLV with a side quoted at 1.0 before kick-off is the three-way figure.
import { test as base, expect, type Page } from '@playwright/test';
import { formatServiceTime, type EventOdds, type Market, type SettledEvent } from '../../src/shared/api';
import { formatPercent } from '../../src/shared/formats';
import { clvByModel, isQuarterLine } from '../../src/shared/trading';
import type { Simulator } from '../../src/sim';
import { startRewritingProxy } from '../support/rewritingProxy';
import { simulatorAndHost } from './fixtures';
import { recordedNotes as notes, recordNotifications } from './recordNotifications';
import { openBets, scriptedSettled, untilBetsShow } from './settleFlow';

const KEY = 'e2e-issue35-money-key';

/** What the scripted /api/settled answers: nothing, then the match as the test settles it. */
let settlement: SettledEvent | null = null;
/** Line values the scripted stream gives, by line id (the simulator's own elsewhere). */
const lineValues = new Map<number, number>();

/** Every market in a stream message (a snapshot's or an odds message's) with the test's line value where it set one. */
function withLineValues(data: unknown): unknown {
  const d = data as { markets?: Market[] };
  if (!Array.isArray(d?.markets)) return data;
  return {
    ...d,
    markets: d.markets.map((m) => (lineValues.has(m.line_id) ? { ...m, line: lineValues.get(m.line_id)! } : m)),
  };
}

const test = base.extend<{ sim: Simulator }>({
  sim: simulatorAndHost({
    key: KEY,
    name: 'issue35-money',
    viewport: { width: 1400, height: 800 },
    // Each drop is its own episode: the host runs on the real clock and cannot wait out the 10 s quiet gap.
    env: { ODDSDESK_TEST_DROP_EPISODE_QUIET_MS: '1' },
    beforeGoto: (page) => page.addInitScript(recordNotifications),
    upstream: (sim) => {
      // Each test starts from an upstream that has settled nothing and moved no line (the host reads it at once).
      settlement = null;
      lineValues.clear();
      return startRewritingProxy(
        sim.url,
        {
          '/api/settled': scriptedSettled(() => settlement),
        },
        { streamData: withLineValues },
      );
    },
  }),
});

/** A soccer match well before its start whose lines satisfy `has`. */
function matchWith(sim: Simulator, has: (e: EventOdds) => boolean): EventOdds {
  const e = sim.truth
    .bookIds()
    .map((id) => sim.truth.event(id)!)
    .find(
      (x) =>
        x.sport_id === 1 && x.live_status !== 1 && Date.parse(`${x.starts}Z`) - sim.now() > 2 * 3_600_000 && has(x),
    );
  expect(e, 'a soccer match before its start with the lines this test needs').toBeDefined();
  return e!;
}

/** Watches the event and opens its detail. */
async function watchAndOpen(page: Page, id: number, shows: string): Promise<void> {
  const input = page.getByTestId('add-watch-input');
  await input.fill(String(id));
  await page.getByTestId('add-watch-button').click();
  await expect(page.getByTestId(`watch-row-${id}`)).toBeVisible();
  await expect(page.getByTestId(`watch-row-${id}`)).toContainText(shows);
  await input.blur();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('event-detail')).toBeVisible();
}

/** Records a bet from the detail's form (R): the line, the side, the price and the stake. */
async function recordBet(
  page: Page,
  lineId: number,
  side: string,
  price: string,
  stake: string,
  says: string,
): Promise<void> {
  await page.keyboard.press('r');
  await expect(page.getByTestId('record-bet')).toBeVisible();
  await page.getByTestId('record-bet-line').selectOption(String(lineId));
  await page.getByTestId('record-bet-side').selectOption(side);
  await page.getByTestId('record-bet-price').fill(price);
  await page.getByTestId('record-bet-stake').fill(stake);
  await page.getByTestId('record-bet-stake').press('Enter');
  await expect(page.getByText(says)).toBeVisible();
}

test('a bet on a quarter line of a match then abandoned shows void and 0.00; the settlement alert and notification read void, never "half won"', async ({
  page,
  sim,
}) => {
  const event = matchWith(sim, (e) =>
    e.markets.some((m) => m.market === 'spread' && isQuarterLine(m.line) && m.prices),
  );
  const id = event.event_id;
  const q = event.markets.find((m) => m.market === 'spread' && isQuarterLine(m.line) && m.prices)!;
  // The example: Home -0.25 at 1.90 for 100.
  lineValues.set(q.line_id, -0.25);
  sim.script.setMarket(id, q.line_id, { home: 1.9, away: 1.95 });
  await watchAndOpen(page, id, event.runner_home);
  await expect(page.getByTestId('event-detail')).toContainText('-0.25');
  await recordBet(page, q.line_id, 'home', '1.9', '100', 'Bet recorded: Home -0.25 at 1.900 for 100.00');

  // The match is abandoned at 0-0 and the service settles it void: push on every side of every line.
  settlement = {
    event_id: id,
    sport_id: event.sport_id,
    league_id: event.league_id,
    league_name: event.league_name,
    runner_home: event.runner_home,
    runner_away: event.runner_away,
    starts: event.starts,
    score_home: 0,
    score_away: 0,
    status: 'abandoned',
    settled_at: formatServiceTime(Date.now() - 60_000),
    settlement: [
      {
        line_id: q.line_id,
        period: 0,
        market: 'spread',
        line: -0.25,
        outcome_home: 'push',
        outcome_draw: 'push',
        outcome_away: 'push',
      },
    ],
  };
  // On today's code: "half lost", -50.00.
  await untilBetsShow(page, () => expect(page.getByTestId('bet-result')).toHaveText('void', { timeout: 1000 }));
  await expect(page.getByTestId('bet-pnl')).toHaveText('0.00');
  await expect(page.getByTestId('bets-pnl')).toHaveText('0.00');

  // The settlement's alert and its notification: void, never a result read from the score.
  await page.keyboard.press('Escape');
  await page.getByTestId('nav-alerts').click();
  const row = page.locator(`[data-testid="alert-row"][data-kind="settled"][data-event-id="${id}"]`);
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('alert-text')).toHaveText(
    `Settled (abandoned): ${event.runner_home} v ${event.runner_away} 0–0 · Home -0.25 / Away +0.25: void`,
  );
  await expect
    .poll(async () => (await notes(page)).filter((n) => n.title.startsWith('Settled')))
    .toEqual([
      {
        title: `Settled (abandoned): ${event.runner_home} v ${event.runner_away} 0–0`,
        body: 'Home -0.25 / Away +0.25: void',
      },
    ]);
  for (const n of await notes(page)) expect(n.body).not.toContain('half');
  await openBets(page);
  await expect(page.getByTestId('bet-result')).toHaveText('void');
});

test('a handicap moved under its line id raises no drop alert; a real drop on another line of the same match does', async ({
  page,
  sim,
}) => {
  const spreadOf = (e: EventOdds) =>
    e.markets.find((m) => m.market === 'spread' && m.period === 0 && m.prices && !isQuarterLine(m.line));
  const totalOf = (e: EventOdds) =>
    e.markets.find((m) => m.market === 'totals' && m.period === 0 && m.prices && !isQuarterLine(m.line));
  const event = matchWith(sim, (e) => !!spreadOf(e) && !!totalOf(e));
  const id = event.event_id;
  const spread = spreadOf(event)!;
  const total = totalOf(event)!;
  // Spread -0.5 at 1.95 / 1.95 (fair 2.000 each), a total at 2.00 / 1.90.
  lineValues.set(spread.line_id, -0.5);
  sim.script.setMarket(id, spread.line_id, { home: 1.95, away: 1.95 });
  sim.script.setMarket(id, total.line_id, { over: 2.0, under: 1.9 });
  await watchAndOpen(page, id, event.runner_home);
  await expect(page.getByTestId('event-detail')).toContainText('1.950');

  // The same line id now carries -0.25 at 1.72 / 2.20: another line, not a drop of -0.5's home from 2.000 to 1.782.
  lineValues.set(spread.line_id, -0.25);
  sim.script.setMarket(id, spread.line_id, { home: 1.72, away: 2.2 });
  await expect(page.getByTestId('event-detail')).toContainText('1.720');
  // A real drop on the total: Over 2.00 -> 1.70.
  sim.script.setMarket(id, total.line_id, { over: 1.7, under: 2.25 });
  await expect(page.getByTestId('event-detail')).toContainText('1.700');

  await page.keyboard.press('Escape');
  await page.getByTestId('nav-alerts').click();
  const drops = page.locator(`[data-testid="alert-row"][data-kind="drop"][data-event-id="${id}"]`);
  await expect(drops).toHaveCount(1);
  await expect(drops.getByTestId('alert-text')).toContainText(/^Over \d+(\.\d+)? fair 2\.\d{3} → 1\.\d{3}/);
  // Give a false alert time to show (the episodes' quiet gap is 1 ms; batches are flushed within a second).
  await page.waitForTimeout(1500);
  await expect(drops).toHaveCount(1);
  await expect(page.getByTestId('alert-text').filter({ hasText: '-0.25' })).toHaveCount(0);
});

test("a bet's CLV with a side quoted at 1.0 before kick-off is the three-way figure", async ({ page, sim }) => {
  const event = matchWith(sim, (e) =>
    e.markets.some((m) => m.line_id === e.event_id * 10 && m.market === 'moneyline' && m.prices?.draw !== undefined),
  );
  const id = event.event_id;
  const ml = id * 10;
  sim.script.setMarket(id, ml, { home: 2.5, draw: 3.4, away: 2.9 });
  await watchAndOpen(page, id, '3.400');
  await recordBet(page, ml, 'home', '2.7', '100', 'Bet recorded: Home at 2.700 for 100.00');

  // Before kick-off the draw is quoted at 1.0 (decided, unpriced), then the match goes live.
  sim.script.setMarket(id, ml, { home: 2.5, draw: 1.0, away: 2.9 });
  expect(sim.script.kickOff(id)).toBe(true);
  // The three-way close 2.5 / 3.4 / 2.9 under the default model (MPTO): +4.00% or so; the two-way {2.5, 2.9} would
  // give about +45%.
  const threeWay = formatPercent(clvByModel(2.7, 'home', { home: 2.5, draw: 3.4, away: 2.9 })!.MPTO, {
    sign: true,
    decimals: 2,
  });
  const twoWay = formatPercent(clvByModel(2.7, 'home', { home: 2.5, away: 2.9 })!.MPTO, { sign: true, decimals: 2 });
  expect(threeWay).not.toBe(twoWay);
  await expect(async () => {
    await openBets(page);
    await expect(page.getByTestId('bet-clv')).toHaveText(threeWay, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByTestId('bet-close')).toHaveText('2.500');
});
