// The rule lab's reads (src/core/lab): a recorded profile's matches as the lab replays them, one at a time in order of
// their first price: each line's raw ticks and, beyond the full-detail hours, its one-minute bars (each bar's close at
// the bar's end, marked as a bar's), its close, how it settled, and when the match went in play. Its own read-only
// connection to the file, so a long run never holds the store's writer or its statements. Filters: the match's
// kick-off at or after `since`, and its sport.
import Database from 'better-sqlite3';
import type { Prices } from '../../../shared/api';
import type { SettledLineInput } from '../../../shared/trading';
import { BAR_MS, barPrices, decodeBars, HOUR_MS } from './bars';
import { pricesFromRow, type PriceColumns } from './rows';

export interface LabFilter {
  since?: number | null;
  sportId?: number | null;
}

/** One price point of a line: a raw tick, or a one-minute bar's close at the bar's end (`byBar`). */
export interface LabTickRow {
  at: number;
  line: number | null;
  prices: Prices | null;
  /** A bar's close: its time is known to the minute only, so an alert it raises is counted apart, never scored. */
  byBar: boolean;
}

export interface LabLineRow {
  lineId: number;
  period: number;
  market: string;
  /** A team total's team. */
  team: 'home' | 'away' | null;
  /** Time order. */
  ticks: LabTickRow[];
  /** The line's close (its last price before kick-off) and when it closed; null: never closed. */
  close: { line: number | null; prices: Prices; at: number } | null;
  /** How the line settled; null: not settled (yet). */
  settled: SettledLineInput | null;
}

export interface LabEventRow {
  eventId: number;
  sportId: number | null;
  /** When the match went in play (the stream's live state, else its scheduled start); null: not known. */
  liveFrom: number | null;
  score: { home: number; away: number } | null;
  /** The settlement's status ('ended', abandoned, ...); null: not settled. */
  status: string | null;
  lines: LabLineRow[];
}

export interface LabReads {
  span(f: LabFilter): { from: number; to: number; events: number } | null;
  /** The matches in scope, in order of their first price (then id). */
  events(f: LabFilter): IterableIterator<LabEventRow>;
  close(): void;
}

type FilterParams = { since: number | null; sport: number | null };
type FirstRow = { event_id: number; first: number; at: number };
type EventRow = {
  sport_id: number | null;
  starts: number | null;
  live_at: number | null;
  status: string | null;
  score_home: number | null;
  score_away: number | null;
};
type LineRow = {
  line_id: number;
  period: number;
  market: string;
  side: string | null;
  close_line: number | null;
  closed_at: number | null;
  last_home: number | null;
  last_draw: number | null;
  last_away: number | null;
  last_over: number | null;
  last_under: number | null;
  s_line: number | null;
  s_period: number | null;
  s_market: string | null;
  outcome_home: string | null;
  outcome_draw: string | null;
  outcome_away: string | null;
};
type TickRow = PriceColumns & { line_id: number; at: number; line: number | null };
type BarRow = { line_id: number; hour: number; bars: Buffer };

/** Opens the lab's read-only connection to a store file. */
export function openLabReads(path: string, o: { nativeBinding?: string } = {}): LabReads {
  const db = new Database(path, {
    readonly: true,
    fileMustExist: true,
    ...(o.nativeBinding ? { nativeBinding: o.nativeBinding } : {}),
  });
  db.pragma('busy_timeout = 5000');
  const scope = `(@since IS NULL OR e.starts >= @since) AND (@sport IS NULL OR e.sport_id = @sport)`;
  // Each match's first price time (raw ticks and bars alike: a bar block starts at its clock hour) and its time for
  // the split: its kick-off (the stream saying live, else the scheduled start), else that first price.
  const firsts = db.prepare<[FilterParams], FirstRow>(`
    SELECT f.event_id AS event_id, min(f.first) AS first,
      coalesce((SELECT min(at) FROM live_states l WHERE l.event_id = f.event_id AND l.live_status = 1), e.starts,
        min(f.first)) AS at
    FROM (
      SELECT event_id, min(at) AS first FROM odds_ticks GROUP BY event_id
      UNION ALL
      SELECT event_id, min(hour) * ${HOUR_MS} AS first FROM line_bars GROUP BY event_id
    ) f JOIN events e ON e.event_id = f.event_id
    WHERE ${scope}
    GROUP BY f.event_id ORDER BY first, f.event_id`);
  const eventOf = db.prepare<[number], EventRow>(`
    SELECT e.sport_id, e.starts,
      (SELECT min(at) FROM live_states l WHERE l.event_id = e.event_id AND l.live_status = 1) AS live_at,
      s.status, s.score_home, s.score_away
    FROM events e LEFT JOIN settlements s ON s.event_id = e.event_id WHERE e.event_id = ?`);
  const linesOf = db.prepare<[number], LineRow>(`
    SELECT m.line_id, m.period, m.market, m.side,
      c.line AS close_line, c.closed_at, c.last_home, c.last_draw, c.last_away, c.last_over, c.last_under,
      sl.line AS s_line, sl.period AS s_period, sl.market AS s_market, sl.outcome_home, sl.outcome_draw, sl.outcome_away
    FROM market_lines m
    LEFT JOIN line_closes c ON c.event_id = m.event_id AND c.line_id = m.line_id
    LEFT JOIN settlement_lines sl ON sl.event_id = m.event_id AND sl.line_id = m.line_id
    WHERE m.event_id = ? ORDER BY m.line_id`);
  const ticksOf = db.prepare<[number], TickRow>(`
    SELECT line_id, at, line, price_home, price_draw, price_away, price_over, price_under
    FROM odds_ticks WHERE event_id = ? ORDER BY line_id, at`);
  const barsOf = db.prepare<[number], BarRow>(
    `SELECT line_id, hour, bars FROM line_bars WHERE event_id = ? ORDER BY line_id, hour`,
  );

  const params = (f: LabFilter): FilterParams => ({ since: f.since ?? null, sport: f.sportId ?? null });

  function eventRow(eventId: number): LabEventRow | null {
    const e = eventOf.get(eventId);
    if (!e) return null;
    const lines = new Map<number, LabLineRow>();
    for (const r of linesOf.iterate(eventId)) {
      const prices = pricesFromRow({
        price_home: r.last_home,
        price_draw: r.last_draw,
        price_away: r.last_away,
        price_over: r.last_over,
        price_under: r.last_under,
      });
      lines.set(r.line_id, {
        lineId: r.line_id,
        period: r.period,
        market: r.market,
        team: r.side === 'home' || r.side === 'away' ? r.side : null,
        ticks: [],
        close: r.closed_at !== null && prices ? { line: r.close_line, prices, at: r.closed_at } : null,
        settled:
          r.s_market !== null && r.s_period !== null
            ? {
                period: r.s_period,
                market: r.s_market,
                line: r.s_line,
                outcome_home: r.outcome_home ?? '',
                outcome_draw: r.outcome_draw ?? '',
                outcome_away: r.outcome_away ?? '',
              }
            : null,
      });
    }
    // Bars first: they hold what is older than the raw ticks (compaction folds the oldest hours).
    for (const b of barsOf.iterate(eventId)) {
      const l = lines.get(b.line_id);
      if (!l) continue;
      for (const bar of decodeBars(b.bars))
        l.ticks.push({
          at: b.hour * HOUR_MS + (bar.minute + 1) * BAR_MS,
          line: bar.line,
          prices: barPrices(bar, 'close'),
          byBar: true,
        });
    }
    for (const t of ticksOf.iterate(eventId)) {
      const l = lines.get(t.line_id);
      if (l) l.ticks.push({ at: t.at, line: t.line, prices: pricesFromRow(t), byBar: false });
    }
    for (const l of lines.values()) l.ticks.sort((a, b) => a.at - b.at);
    const settled = e.status !== null;
    return {
      eventId,
      sportId: e.sport_id,
      liveFrom: e.live_at ?? e.starts,
      score:
        settled && e.score_home !== null && e.score_away !== null ? { home: e.score_home, away: e.score_away } : null,
      status: e.status,
      lines: [...lines.values()].filter((l) => l.ticks.length > 0),
    };
  }

  return {
    span(f) {
      let from = Infinity;
      let to = -Infinity;
      let events = 0;
      for (const r of firsts.iterate(params(f))) {
        from = Math.min(from, r.at);
        to = Math.max(to, r.at);
        events++;
      }
      return events ? { from, to, events } : null;
    },
    *events(f) {
      // The ids first: the per-match reads run between them (one statement iterating at a time per connection).
      const ids = firsts.all(params(f)).map((r) => r.event_id);
      for (const id of ids) {
        const ev = eventRow(id);
        if (ev) yield ev;
      }
    },
    close: () => db.close(),
  };
}
