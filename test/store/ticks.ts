// Generated odds load for the compaction test and bench: many lines, each a random walk of three-decimal odds with
// an occasional max_win change or offline moment, ticking at a steady rate on simulated time. Deterministic
// (seeded), so a run can be checked tick by tick.
import Database from 'better-sqlite3';
import type { Market } from '../../src/shared/api';
import type { TickBatch } from '../../src/core/store';

export interface TickLoad {
  events: number;
  linesPerEvent: number;
  /** Market updates (stored ticks) per simulated second, over all lines. */
  updatesPerSecond: number;
  /** On average one max_win change per line every this many of its ticks (default 150: ~10 min at 1 tick / 4 s). */
  maxWinEvery?: number;
  seed?: number;
}

interface LineState {
  eventId: number;
  market: Market;
  milli: number[];
}

const MARKETS = ['moneyline', 'spread', 'totals'] as const;

export function createTickLoad(load: TickLoad) {
  let seed = load.seed ?? 12345;
  const rnd = () => {
    // mulberry32
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const maxWinEvery = load.maxWinEvery ?? 150;
  const lines: LineState[] = [];
  for (let e = 0; e < load.events; e++) {
    for (let k = 0; k < load.linesPerEvent; k++) {
      const kind = MARKETS[k % 3] as (typeof MARKETS)[number];
      const sides = kind === 'moneyline' ? 3 : 2;
      lines.push({
        eventId: 1000 + e,
        milli: Array.from({ length: sides }, () => 1500 + Math.floor(rnd() * 2500)),
        market: {
          line_id: (1000 + e) * 100 + k,
          period: k % 2,
          market: kind,
          side: null,
          line: kind === 'moneyline' ? null : ((k % 9) - 4) / 2,
          prices: null,
          max_win: 1000 + 250 * Math.floor(rnd() * 20),
          updated_at: '2026-01-01T00:00:00',
        },
      });
    }
  }
  let carry = 0;

  function tick(l: LineState): Market {
    for (let i = 0; i < l.milli.length; i++)
      l.milli[i] = Math.max(1010, (l.milli[i] as number) + Math.floor(rnd() * 31) - 15);
    const [a, b, c] = l.milli.map((m) => m / 1000) as [number, number, number?];
    let prices: Market['prices'];
    if (rnd() < 1 / 2000) prices = null;
    else if (l.market.market === 'moneyline') prices = { home: a, draw: c, away: b };
    else if (l.market.market === 'spread') prices = { home: a, away: b };
    else prices = { over: a, under: b };
    if (rnd() < 1 / maxWinEvery) l.market = { ...l.market, max_win: 1000 + 250 * Math.floor(rnd() * 20) };
    return { ...l.market, prices };
  }

  return {
    lineIds: lines.map((l) => ({ eventId: l.eventId, lineId: l.market.line_id })),
    /** The ticks of the next `ms` of simulated time starting at `from`, spread evenly, one market per message. */
    next(from: number, ms: number): TickBatch[] {
      const exact = (load.updatesPerSecond * ms) / 1000 + carry;
      const n = Math.floor(exact);
      carry = exact - n;
      const out: TickBatch[] = [];
      for (let i = 0; i < n; i++) {
        const l = lines[Math.floor(rnd() * lines.length)] as LineState;
        out.push({ eventId: l.eventId, markets: [tick(l)], at: from + Math.floor((i * ms) / n) });
      }
      return out;
    },
  };
}

/** The odds ticks a store's file holds, read from a connection of its own. */
export function tickCount(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM odds_ticks').pluck().get() as number;
  } finally {
    db.close();
  }
}
