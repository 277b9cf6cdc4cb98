// A trader's bet log of a few months, for the Report tab's screenshot (scripts/screenshots.ts): bets written through
// the real store the way the app writes them (the match's snapshot, the bet, the line's closing-line operations up to
// kick-off, the settled walk's page), over the simulator's sports and leagues. The trader takes a price that beats
// the fair close by a little on average (CLV drawn around +1.5%), and each bet's side wins as often as its fair
// closing probability says, so the P/L wanders around the expected value. A few closes are stale (the match not
// followed to kick-off), one in a hundred spreads moves under its id, and the newest bets are still open.
import type { EventOdds, Market, SettledEvent } from '../../src/shared/api';
import { formatServiceTime } from '../../src/shared/api';
import type { PriceSide } from '../../src/shared/domain';
import { openStore } from '../../src/core/store';
import { SPORTS } from '../../src/sim/catalog';
import { Prng } from '../../src/sim/prng';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MARGIN = 1.045;

export interface LedgerHistoryOptions {
  db: string;
  /** Default 400. */
  bets?: number;
  /** Days the bets span, ending at `end` (default 90). */
  days?: number;
  /** When the newest bet is placed (default now). */
  end?: number;
  seed?: number;
}

/** Writes the bet log into `o.db` (a fresh file: stamped for its service by the first host that opens it). */
export function seedLedgerHistory(o: LedgerHistoryOptions): { bets: number } {
  const n = o.bets ?? 400;
  const days = o.days ?? 90;
  const end = o.end ?? Date.now();
  const rng = new Prng(o.seed ?? 27);
  let now = end - days * DAY;
  const store = openStore({ path: o.db, clock: () => now });
  try {
    store.odds.recordSports(SPORTS.map((s) => ({ sport_id: s.id, name: s.name })));
    const sports = SPORTS.filter((s) => ['Soccer', 'Basketball', 'Tennis', 'Baseball'].includes(s.name));
    for (let i = 0; i < n; i++) {
      const eventId = 9_000_000 + i;
      const sport = rng.pick(sports);
      const leagueIndex = rng.int(0, sport.leagues.length - 1);
      const placedAt = Math.round(end - days * DAY + ((i + rng.next() * 0.8) / n) * days * DAY);
      const kickoff = placedAt + rng.int(2, 30) * HOUR;
      now = placedAt;

      // The line at its close: fair probabilities, priced with the book's margin.
      const kind = rng.pick(['moneyline', 'moneyline', 'spread', 'totals'] as const);
      let fair: Partial<Record<PriceSide, number>>;
      if (kind === 'moneyline' && sport.draw) {
        const home = rng.range(0.22, 0.6);
        const draw = rng.range(0.22, 0.3);
        fair = { home, draw, away: 1 - home - draw };
      } else {
        const p = rng.range(0.3, 0.7);
        fair = kind === 'totals' ? { over: p, under: 1 - p } : { home: p, away: 1 - p };
      }
      const sides = Object.keys(fair) as PriceSide[];
      const close = Object.fromEntries(
        sides.map((s) => [s, Math.round((1 / (fair[s]! * MARGIN)) * 1000) / 1000]),
      ) as Market['prices'];
      const side = rng.pick(sides);
      const clv = Math.max(-12, Math.min(15, 1.5 + 3.5 * rng.normal()));
      const price = Math.max(1.02, Math.round((1 / fair[side]!) * (1 + clv / 100) * 100) / 100);
      const line =
        kind === 'spread'
          ? rng.pick([-1.5, -0.5, 0.5, 1.5])
          : kind === 'totals'
            ? rng.pick([2.5, 3.5, 200.5, 8.5])
            : null;
      const market: Market = {
        line_id: eventId * 10,
        period: 0,
        market: kind,
        side: null,
        line,
        prices: close,
        max_win: 1000,
        updated_at: formatServiceTime(placedAt),
      };
      const snapshot: EventOdds = {
        event_id: eventId,
        sport_id: sport.id,
        league_id: sport.id * 100 + leagueIndex,
        league_name: sport.leagues[leagueIndex]!,
        runner_home: `Home ${i}`,
        runner_away: `Away ${i}`,
        starts: formatServiceTime(kickoff),
        live_status: 0,
        score_home: null,
        score_away: null,
        markets: [market],
      };
      store.odds.recordSnapshot(snapshot, placedAt);
      store.bets.applyLineCloseOps([{ type: 'price', eventId, market, at: placedAt }]);
      store.bets.addBet(
        { eventId, lineId: market.line_id, side, price, stake: rng.pick([20, 25, 50, 50, 100]) },
        placedAt,
      );

      // The newest bets' matches have not kicked off yet.
      if (kickoff > end) continue;
      const stale = rng.chance(0.03);
      const moved = kind === 'spread' && rng.chance(0.05);
      const last = moved ? { ...market, line: line! - 1 } : market;
      if (!stale) store.bets.applyLineCloseOps([{ type: 'price', eventId, market: last, at: kickoff - 5 * 60_000 }]);
      store.bets.applyLineCloseOps([{ type: 'kickoff', eventId, at: kickoff, reason: 'started', confirmed: !stale }]);

      // Settled from the fair probabilities: one side wins.
      const u = rng.next();
      let acc = 0;
      const winner = sides.find((s) => (acc += fair[s]!) > u) ?? sides[sides.length - 1]!;
      const word = (s: PriceSide) => (s === winner ? 'win' : 'loss');
      const settledAt = kickoff + 3 * HOUR;
      now = settledAt;
      const settlement: SettledEvent = {
        event_id: eventId,
        sport_id: sport.id,
        league_id: snapshot.league_id,
        league_name: snapshot.league_name,
        runner_home: snapshot.runner_home,
        runner_away: snapshot.runner_away,
        starts: snapshot.starts,
        score_home: 1,
        score_away: 0,
        status: 'ended',
        settled_at: formatServiceTime(settledAt),
        settlement: [
          {
            line_id: market.line_id,
            period: 0,
            market: kind,
            line: last.line,
            outcome_home: word(kind === 'totals' ? 'over' : 'home'),
            outcome_draw: kind === 'moneyline' && sport.draw ? word('draw') : 'loss',
            outcome_away: word(kind === 'totals' ? 'under' : 'away'),
          },
        ],
      };
      store.settlements.recordSettledPage([settlement], Math.floor(settledAt / 1000));
      // A moved line's bet has no settlement of its own line: the trader settles it by hand.
      if (moved) store.bets.settleBetByHand(store.bets.listBets({ eventId })[0]!.id, word(side));
    }
    return { bets: n };
  } finally {
    store.close();
  }
}
