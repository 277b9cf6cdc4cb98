// A bet log of many bets for tests and the bench: `bets` bets spread over `matches` soccer matches (a three-way
// moneyline, a spread and a total each), every line closed at kick-off and settled, written as the app writes them
// (bets through the bet log, closes through the closing-line follower's operations, results through the settled
// walk's ingest). Used by test/bets/ledger-report.test.ts and bench/ledger.ts.
import { formatServiceTime, type EventOdds, type Market, type SettledEvent } from '../../src/shared/api';
import type { Store } from '../../src/core/store';
import { betsHandlers } from '../../src/core/handlers/bets';
import type { CoreContext } from '../../src/core/handlers/context';

export const T0 = Date.UTC(2026, 2, 2, 12);
const MIN = 60_000;
const HOUR = 60 * MIN;

/** The bet log's handlers around a real store, with the trader's model, at T0. */
export const ledgerHandlers = (s: Store, model = 'MPTO') =>
  betsHandlers({
    clock: { now: () => T0 },
    session: { current: () => ({ store: s }) },
    settings: { get: () => ({ devigModel: model, oddsFormat: 'decimal' }) },
  } as unknown as CoreContext);

export const market = (line_id: number, m: Partial<Market>): Market => ({
  line_id,
  period: 0,
  market: 'moneyline',
  side: null,
  line: null,
  prices: { home: 2.1, draw: 3.4, away: 3.6 },
  max_win: 500,
  updated_at: formatServiceTime(T0),
  ...m,
});
export const snapshot = (
  event_id: number,
  sport_id: number,
  league_id: number,
  league_name: string,
  markets: Market[],
  starts = T0 + HOUR,
): EventOdds => ({
  event_id,
  sport_id,
  league_id,
  league_name,
  runner_home: `Home ${event_id}`,
  runner_away: `Away ${event_id}`,
  starts: formatServiceTime(starts),
  live_status: 0,
  score_home: null,
  score_away: null,
  markets,
});
export const settlement = (
  e: EventOdds,
  lines: SettledEvent['settlement'],
  score: [number, number],
  at: number,
): SettledEvent => ({
  event_id: e.event_id,
  sport_id: e.sport_id,
  league_id: e.league_id,
  league_name: e.league_name,
  runner_home: e.runner_home,
  runner_away: e.runner_away,
  starts: e.starts,
  score_home: score[0],
  score_away: score[1],
  status: 'ended',
  settled_at: formatServiceTime(at),
  settlement: lines,
});
export const settled = (line_id: number, line: number | null, h: string, d: string, a: string, m = 'moneyline') => ({
  line_id,
  period: 0,
  market: m,
  line,
  outcome_home: h,
  outcome_draw: d,
  outcome_away: a,
});

/** The service's words for home -0.5, -0.75 and -1 at 2-1: won, won (the score makes it half), pushed. */
const spreadWords = (line: number): [string, string, string] =>
  line <= -1 ? ['push', 'loss', 'push'] : ['win', 'loss', 'loss'];

export function writeLedgerBets(
  store: Pick<Store, 'odds' | 'bets' | 'settlements'>,
  o: { matches: number; bets: number },
): void {
  const MATCHES = o.matches;
  store.odds.recordSports([{ sport_id: 29, name: 'Soccer' }]);
  const events: EventOdds[] = [];
  for (let e = 1; e <= MATCHES; e++) {
    const ev = snapshot(e, 29, 100 + (e % 20), `League ${e % 20}`, [
      market(e * 10, { prices: { home: 1.5 + (e % 7) * 0.3, draw: 3.4, away: 2.5 + (e % 5) * 0.4 } }),
      market(e * 10 + 1, { market: 'spread', line: -0.5 - (e % 3) * 0.25, prices: { home: 1.9, away: 1.95 } }),
      market(e * 10 + 2, { market: 'totals', line: 2.5, prices: { over: 1.85, under: 2.0 } }),
    ]);
    events.push(ev);
    store.odds.recordSnapshot(ev, T0);
    store.bets.applyLineCloseOps(ev.markets.map((m) => ({ type: 'price' as const, eventId: e, market: m, at: T0 })));
  }
  const sides = [
    [0, 'home'],
    [0, 'draw'],
    [0, 'away'],
    [1, 'home'],
    [1, 'away'],
    [2, 'over'],
    [2, 'under'],
  ] as const;
  for (let i = 0; i < o.bets; i++) {
    const e = (i % MATCHES) + 1;
    const [k, side] = sides[i % sides.length]!;
    const m = events[e - 1]!.markets[k]!;
    store.bets.addBet(
      { eventId: e, lineId: m.line_id, side, price: m.prices![side]! * (1 + (i % 9) / 100), stake: 10 + (i % 50) },
      T0 + i * MIN,
    );
  }
  for (const ev of events) {
    store.bets.applyLineCloseOps([
      ...ev.markets.map((m) => ({ type: 'price' as const, eventId: ev.event_id, market: m, at: T0 + 9_000 * MIN })),
      { type: 'kickoff', eventId: ev.event_id, at: T0 + 10_000 * MIN, reason: 'started', confirmed: true },
    ]);
  }
  store.settlements.recordSettledPage(
    events.map((ev) =>
      settlement(
        ev,
        [
          settled(ev.event_id * 10, null, 'win', 'loss', 'loss'),
          settled(ev.event_id * 10 + 1, ev.markets[1]!.line, ...spreadWords(ev.markets[1]!.line!), 'spread'),
          settled(ev.event_id * 10 + 2, 2.5, 'win', 'loss', 'loss', 'totals'),
        ],
        [2, 1],
        T0 + 10_200 * MIN,
      ),
    ),
    Math.floor((T0 + 10_200 * MIN) / 1000),
  );
}
