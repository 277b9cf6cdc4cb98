// Issue 36, item 7 (browser mode): a settlement sent again with other scores is a re-settlement the trader sees. A
// bet is recorded on a match from its detail; an upstream scripted in front of the simulator (its /api/settled
// rewritten, everything else the simulator's) settles the match 2-3, then sends it again 99-99. The Bets view shows
// the bet's new result, marked re-settled from the old one, and the alert list has "Re-settled: …"; sent again
// unchanged, nothing more.
import { test as base, expect } from '@playwright/test';
import { formatServiceTime, type SettledEvent } from '../../src/shared/api';
import type { Simulator } from '../../src/sim';
import { startRewritingProxy } from '../support/rewritingProxy';
import { simulatorAndHost } from './fixtures';
import { checkSettlementsNow, openBets, scriptedSettled, untilBetsShow } from './settleFlow';

const KEY = 'e2e-resettle-trader-key';

/** What the scripted /api/settled answers: nothing, then the match as the test settles it. */
let settlement: SettledEvent | null = null;

const test = base.extend<{ sim: Simulator }>({
  sim: simulatorAndHost({
    key: KEY,
    name: 'resettle',
    viewport: { width: 1400, height: 800 },
    upstream: (sim) =>
      startRewritingProxy(sim.url, {
        '/api/settled': scriptedSettled(() => settlement),
      }),
  }),
});

test('a match settled 2-3 and sent again 99-99: the bet shows its new result, re-settled from the old one, and the alert says so', async ({
  page,
  sim,
}) => {
  settlement = null;
  // A match hours before its start with a 1X2 moneyline.
  const event = sim.truth
    .bookIds()
    .map((id) => sim.truth.event(id)!)
    .find(
      (e) =>
        e.live_status !== 1 &&
        Date.parse(`${e.starts}Z`) - sim.now() > 2 * 3_600_000 &&
        e.markets.some(
          (m) => m.line_id === e.event_id * 10 && m.market === 'moneyline' && m.prices?.draw !== undefined,
        ),
    )!;
  const id = event.event_id;
  const ml = id * 10;
  expect(event.markets.some((m) => m.line_id === ml && m.market === 'moneyline')).toBe(true);
  sim.script.setMarket(id, ml, { home: 2.1, draw: 3.4, away: 3.0 });

  const input = page.getByTestId('add-watch-input');
  await input.fill(String(id));
  await page.getByTestId('add-watch-button').click();
  await expect(page.getByTestId(`watch-row-${id}`)).toBeVisible();
  await expect(page.getByTestId(`watch-row-${id}`)).toContainText('3.400');
  await input.blur();

  // Away at 3.00 for 10, from the detail.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('event-detail')).toBeVisible();
  await page.keyboard.press('r');
  await expect(page.getByTestId('record-bet')).toBeVisible();
  await page.getByTestId('record-bet-side').selectOption('away');
  await page.getByTestId('record-bet-price').fill('3');
  await page.getByTestId('record-bet-stake').fill('10');
  await page.getByTestId('record-bet-stake').press('Enter');
  await expect(page.getByText('Bet recorded: Away at 3.000 for 10.00')).toBeVisible();

  // The match leaves the book and the service settles it 2-3: away won.
  const settledAs = (home: number, away: number, at: number): SettledEvent => ({
    event_id: id,
    sport_id: event.sport_id,
    league_id: event.league_id,
    league_name: event.league_name,
    runner_home: event.runner_home,
    runner_away: event.runner_away,
    starts: event.starts,
    score_home: home,
    score_away: away,
    status: 'ended',
    settled_at: formatServiceTime(at),
    settlement: [
      {
        line_id: ml,
        period: 0,
        market: 'moneyline',
        line: null,
        outcome_home: home > away ? 'win' : 'loss',
        outcome_draw: home === away ? 'win' : 'loss',
        outcome_away: away > home ? 'win' : 'loss',
      },
    ],
  });
  const first = Date.now() - 60_000;
  settlement = settledAs(2, 3, first);
  await untilBetsShow(page, () => expect(page.getByTestId('bet-result')).toHaveText('won', { timeout: 1000 }));
  await expect(page.getByTestId('bets-count')).toHaveText('1');
  await expect(page.getByTestId('bet-pnl')).toHaveText('+20.00');
  await expect(page.getByTestId('bet-resettled')).toHaveCount(0);

  // Sent again with other scores: 99-99, a draw. The bet is lost now, and says it was re-settled from won.
  settlement = settledAs(99, 99, first + 30_000);
  await untilBetsShow(page, () =>
    expect(page.getByTestId('bet-result')).toHaveText('lost re-settled won → lost, 2–3 → 99–99', { timeout: 1000 }),
  );
  await expect(page.getByTestId('bet-pnl')).toHaveText('-10.00');
  await expect(page.getByTestId('bet-resettled')).toHaveText('re-settled');
  await expect(page.getByTestId('bet-resettled-from')).toHaveText('won → lost, 2–3 → 99–99');
  await expect(page.getByTestId('bet-resettled')).toHaveAttribute(
    'title',
    'The match was settled again with another result: won → lost, 2–3 → 99–99',
  );

  // The alert list: the settlement, then the re-settlement.
  await page.keyboard.press('Escape');
  await page.getByTestId('nav-alerts').click();
  const resettled = page.locator(`[data-testid="alert-row"][data-kind="resettled"][data-event-id="${id}"]`);
  await expect(resettled).toHaveCount(1);
  await expect(resettled).toContainText(`Re-settled: ${event.runner_home} v ${event.runner_away}: 2–3 → 99–99`);
  await expect(page.locator(`[data-testid="alert-row"][data-kind="settled"][data-event-id="${id}"]`)).toHaveCount(1);

  // The same 99-99 again: nothing changes, nothing more alerts.
  await checkSettlementsNow(page);
  await page.keyboard.press('Escape');
  await page.getByTestId('nav-alerts').click();
  await expect(resettled).toHaveCount(1);
  await openBets(page);
  await expect(page.getByTestId('bet-resettled-from')).toHaveText('won → lost, 2–3 → 99–99');
});
