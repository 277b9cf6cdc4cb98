// Synthetic books for the rule lab, where the right answer is known. Every match has one two-way line priced every
// minute for the three hours before kick-off (3% margin, equal on both sides), steady but for one move of the home
// side's fair price, then its close at kick-off and a settlement drawn from the close's fair probability:
//   informative: half the matches have a big move (8.5-9.5%) that goes on falling 6% by the close (a drop that knows
//                something), the other half a small one (2.5-6.5%) that reverts within five minutes (a drop that
//                knows nothing);
//   noise:       every move (2.5-9.5%) wanders up to 1.5% either way five minutes later, and closes there;
//   reversed:    small moves go on, big ones revert (for the date split: the opposite of informative).
// Each match draws from its own seed, so a book's earlier matches are the same whatever its later part is.
import type { LabEvent, LabTick } from '../../src/core/lab/replay';
import type { LabSource } from '../../src/core/lab/run';
import { matchTime } from '../../src/core/lab/run';
import { seeded } from './syntheticLines';

export type BookKind = 'informative' | 'noise' | 'reversed';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
export const BOOK_START = Date.UTC(2026, 0, 1);
const MARGIN = 1.03;

/** One match of a book: `kind` per match, so a book can change its nature at a date. */
export function bookEvent(id: number, at: number, kind: BookKind, seed = 1): LabEvent {
  const r = seeded(id * 7919 + seed);
  const p0 = 0.3 + 0.4 * r();
  const big = r() < 0.5;
  const size = kind === 'noise' ? 0.025 + 0.07 * r() : big ? 0.085 + 0.01 * r() : 0.025 + 0.04 * r();
  const goesOn = kind === 'informative' ? big : !big;
  // Where a noise move goes after it: anywhere within 1.5%, the alert's price no guide to the close.
  const wander = 0.015 * (2 * r() - 1);
  const moveAt = 30 + Math.floor(r() * 100);
  const ticks: LabTick[] = [];
  const starts = at + 180 * MIN;
  let fairHome = 1 / p0;
  for (let m = 0; m <= 180; m++) {
    let f = 1 / p0;
    if (m >= moveAt) {
      f *= 1 - size;
      const after = m - moveAt;
      if (goesOn && kind !== 'noise') f *= 1 - 0.06 * Math.min(1, after / 20);
      else if (kind === 'noise') f *= after < 5 ? 1 : 1 + wander;
      else if (after >= 5) f = 1 / p0;
    }
    // A little jitter, far below any rule: the book is never quite still.
    f *= 1 + 0.0005 * (r() - 0.5);
    fairHome = f;
    const p = 1 / f;
    ticks.push({
      at: at + m * MIN,
      line: null,
      prices: { home: round3(1 / (p * MARGIN)), away: round3(1 / ((1 - p) * MARGIN)) },
      byBar: false,
    });
  }
  const close = ticks[ticks.length - 1]!.prices!;
  const homeWins = r() < 1 / fairHome;
  return {
    eventId: id,
    sportId: 29,
    liveFrom: starts,
    score: homeWins ? { home: 1, away: 0 } : { home: 0, away: 1 },
    status: 'ended',
    lines: [
      {
        lineId: id * 10,
        period: 0,
        market: 'moneyline',
        team: null,
        ticks,
        close: { line: null, prices: close, at: starts },
        settled: {
          period: 0,
          market: 'moneyline',
          line: null,
          outcome_home: homeWins ? 'win' : 'loss',
          outcome_draw: '',
          outcome_away: homeWins ? 'loss' : 'win',
        },
      },
    ],
  };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** A book of `days` days, `perDay` matches a day; `kindOf(day)` says what the day's drops are. */
export function book(days: number, perDay: number, kindOf: (day: number) => BookKind, seed = 1): LabEvent[] {
  const out: LabEvent[] = [];
  for (let d = 0; d < days; d++)
    for (let i = 0; i < perDay; i++)
      out.push(bookEvent(d * 1000 + i + 1, BOOK_START + d * DAY + 10 * 60 * MIN + i * 20 * MIN, kindOf(d), seed));
  return out;
}

/** A book as the lab's source. */
export function bookSource(events: readonly LabEvent[]): LabSource {
  return {
    span() {
      if (!events.length) return null;
      const at = events.map(matchTime);
      return { from: Math.min(...at), to: Math.max(...at), events: events.length };
    },
    events: () => events,
  };
}
