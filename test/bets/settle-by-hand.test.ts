// Issue 22: what the app cannot settle goes to the trader, with the reason; what it can, it settles by the trading
// rules (docs/trading.md), joined by line id AND line value. The store is real (SQLite in memory); the settlement
// comes through the same ingest as the settled walk's pages.
import { afterEach, describe, expect, it } from 'vitest';
import { formatServiceTime, type EventOdds, type Market, type SettledEvent } from '../../src/shared/api';
import { openStore, type Store } from '../../src/core/store';

const T0 = Date.UTC(2026, 10, 22, 12);
const market = (line_id: number, m: Partial<Market>): Market => ({
  line_id,
  period: 0,
  market: 'spread',
  side: null,
  line: -0.5,
  prices: { home: 1.9, away: 1.95 },
  max_win: 500,
  updated_at: formatServiceTime(T0),
  ...m,
});
const snapshot = (markets: Market[]): EventOdds => ({
  event_id: 1,
  sport_id: 1,
  league_id: 1,
  league_name: 'L',
  runner_home: 'Home FC',
  runner_away: 'Away FC',
  starts: formatServiceTime(T0 + 3_600_000),
  live_status: 0,
  score_home: null,
  score_away: null,
  markets,
});
const settlement = (
  lines: SettledEvent['settlement'],
  score: [number, number] = [1, 1],
  status = 'ended',
): SettledEvent => ({
  event_id: 1,
  sport_id: 1,
  league_id: 1,
  league_name: 'L',
  runner_home: 'Home FC',
  runner_away: 'Away FC',
  starts: formatServiceTime(T0 + 3_600_000),
  score_home: score[0],
  score_away: score[1],
  status,
  settled_at: formatServiceTime(T0 + 4 * 3_600_000),
  settlement: lines,
});
const line = (line_id: number, l: number | null, h: string, a: string, m = 'spread', period = 0) => ({
  line_id,
  period,
  market: m,
  line: l,
  outcome_home: h,
  outcome_draw: 'loss',
  outcome_away: a,
});

let store: Store | null = null;
afterEach(() => {
  store?.close();
  store = null;
});

describe('bets the app cannot settle', () => {
  it('an unknown word, a quarter line of a period, a missing line and a moved line each say why; the trader settles by hand', () => {
    store = openStore({ path: ':memory:', clock: () => T0 });
    store.odds.recordSnapshot(
      snapshot([
        market(10, {}),
        market(11, { line: -0.25, period: 1 }),
        market(12, { line: 1 }),
        market(13, { line: -0.5 }),
        market(14, { market: 'team_total', side: 'away', line: 1.25, prices: { over: 2.1, under: 1.7 } }),
      ]),
      T0,
    );
    const add = (lineId: number, side: 'home' | 'away' | 'over') =>
      store!.bets.addBet({ eventId: 1, lineId, side, price: 2, stake: 100 }, T0).id;
    const unknown = add(10, 'home');
    const periodQuarter = add(11, 'home');
    const missing = add(12, 'away');
    const moved = add(13, 'home');
    const teamQuarter = add(14, 'over');
    // Line 13 moved to -1 under the same id before it settled; line 12 is not in the settlement (spoilt upstream).
    store.settlements.recordSettledPage(
      [
        settlement(
          [
            line(10, -0.5, 'void', 'void'),
            line(11, -0.25, 'loss', 'win', 'spread', 1),
            line(13, -1, 'win', 'loss'),
            line(14, 1.25, 'win', 'loss', 'team_total'),
          ],
          [1, 2],
        ),
      ],
      Math.floor((T0 + 4 * 3_600_000) / 1000),
    );
    const byId = new Map(store.bets.listBets().map((b) => [b.id, b]));
    expect(byId.get(unknown)).toMatchObject({
      result: null,
      pnl: null,
      settleByHand: 'the service\'s word for Home is "void", which the app does not know',
    });
    expect(byId.get(periodQuarter)!.settleByHand).toMatch(/^a quarter line of a period other than the full match/);
    expect(byId.get(missing)!.settleByHand).toBe(
      'the match is settled but its settlement has no line 12 (it may have been spoilt upstream)',
    );
    expect(byId.get(moved)!.settleByHand).toBe("the settled line is -1, the bet's is -0.5");
    // Away team total over 1.25 with the away side scoring 2: over 1 wins, over 1.5 wins: a full win from the score.
    expect(byId.get(teamQuarter)).toMatchObject({
      sideWords: 'Away team total Over 1.25',
      result: 'win',
      resultBy: 'score',
      pnl: 100,
      settleByHand: null,
    });
    // Open until settled: the four wait for the trader (status open), the team total is settled.
    expect(
      store.bets
        .listBets({ status: 'open' })
        .map((b) => b.id)
        .sort(),
    ).toEqual([unknown, periodQuarter, missing, moved].sort());
    expect(store.bets.settleBetByHand(unknown, 'push')).toMatchObject({
      result: 'push',
      resultBy: 'hand',
      pnl: 0,
      settleByHand: null,
    });
    expect(store.bets.settleBetByHand(missing, 'half_win')).toMatchObject({
      result: 'half_win',
      resultBy: 'hand',
      pnl: 50,
    });
    expect(store.bets.listBets({ status: 'settled' })).toHaveLength(3);
  });
});
