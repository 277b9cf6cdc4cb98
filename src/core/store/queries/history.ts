// Readers of a market line's history across its two stores: raw ticks for the recent window, packed one-minute bars
// (with the kept max_win change ticks) for everything older. Callers get one time-ordered list and never need to
// know where the compaction edge is.
import type Database from 'better-sqlite3';
import type { ExportFilter, LineHistoryExportRow, LineHistoryPoint, LineMaxWinChange } from '../../../shared/domain';
import { BAR_MS, barPrices, decodeBars, HOUR_MS } from './bars';
import type { HistoryRange } from './rows';
import { pricesFromRow, type PriceColumns } from './rows';

/** A line's max_win change, with the prices of the tick that carried it. */
export interface LineMaxWinPoint {
  at: number;
  maxWin: number | null;
  previousMaxWin: number | null;
  line: number | null;
}

export interface LineHistory {
  oddsHistory(eventId: number, lineId: number, range?: HistoryRange): LineHistoryPoint[];
  /** Every max_win change point of a line (the first is its baseline), written at ingest and kept for good. */
  lineMaxWinPoints(eventId: number, lineId: number): LineMaxWinPoint[];
  /** An event's market-line change points, oldest first, with each line's period and market. */
  lineMaxWinChangesOf(eventId: number): LineMaxWinChange[];
  /** Every market line's change points since `f.since`, oldest first (then by event and line); for `export max-win`. */
  exportLineMaxWin(f?: ExportFilter): IterableIterator<LineMaxWinChange>;
  /** Every line's history, line by line, points since `f.since`; for the CLI export. */
  exportLineHistory(f?: ExportFilter & { eventId?: number }): IterableIterator<LineHistoryExportRow>;
}

const FAR_PAST = -8.64e15;
const LINE_CHUNK = 500;

type TickRow = PriceColumns & { at: number; line: number | null; max_win: number | null };
type PointRow = TickRow & { previous_max_win: number | null };

type HourRow = { hour: number; bars: Buffer };
type LineKey = { event_id: number; line_id: number };
type ChangeRow = LineKey & {
  at: number;
  max_win: number | null;
  previous_max_win: number | null;
  line: number | null;
  period: number | null;
  market: string | null;
  sport_id: number | null;
};

/** A line's change points up to a time, earlier ones included (the first bar's opening max_win is the one in effect). */
function pointsOf(db: Database.Database) {
  return db.prepare<[number, number, number], PointRow>(`
    SELECT at, max_win, previous_max_win, line, price_home, price_draw, price_away, price_over, price_under
    FROM line_max_win_points WHERE event_id = ? AND line_id = ? AND at <= ? ORDER BY at`);
}

/** A line's history in one time-ordered list: bars (with the change ticks kept inside them) and raw ticks. */
function createOddsHistory(db: Database.Database): LineHistory['oddsHistory'] {
  const rawTicks = db.prepare<[number, number, number, number], TickRow>(`
    SELECT at, line, price_home, price_draw, price_away, price_over, price_under, max_win FROM odds_ticks
    WHERE event_id = ? AND line_id = ? AND at >= ? AND at <= ? ORDER BY at`);
  const blobs = db.prepare<[number, number, number, number], HourRow>(`
    SELECT hour, bars FROM line_bars WHERE event_id = ? AND line_id = ? AND hour >= ? AND hour <= ? ORDER BY hour`);
  const points = pointsOf(db);

  function oddsHistory(eventId: number, lineId: number, range: HistoryRange = {}): LineHistoryPoint[] {
    const from = range.from ?? FAR_PAST;
    const to = range.to ?? -FAR_PAST;
    const out: { p: LineHistoryPoint; order: number }[] = [];
    const raw = rawTicks.all(eventId, lineId, from, to);
    // Change points are also written at ingest: a tick still raw is read from the raw ticks only.
    const rawAt = new Set(raw.map((r) => r.at));
    const pts = points.all(eventId, lineId, to);
    let k = 0;
    let inEffect: number | null = null;
    const hourRows = blobs.all(eventId, lineId, Math.floor(from / HOUR_MS), Math.floor(to / HOUR_MS));
    for (const { hour, bars } of hourRows) {
      for (const bar of decodeBars(bars)) {
        const start = hour * HOUR_MS + bar.minute * BAR_MS;
        const end = start + BAR_MS - 1;
        // The max_win in effect when the bar opened: the last change strictly before it.
        while (k < pts.length && pts[k]!.at < start) inEffect = pts[k++]!.max_win;
        const range = { high: barPrices(bar, 'high'), low: barPrices(bar, 'low'), ticks: bar.ticks };
        if (start >= from && start <= to) {
          out.push({
            p: {
              at: start,
              line: bar.line,
              prices: barPrices(bar, 'open'),
              maxWin: inEffect,
              bar: { edge: 'open', ...range },
            },
            order: 0,
          });
        }
        // The kept change ticks inside the bar, exact.
        while (k < pts.length && pts[k]!.at <= end) {
          const c = pts[k++]!;
          inEffect = c.max_win;
          if (c.at >= from && c.at <= to && !rawAt.has(c.at))
            out.push({ p: { at: c.at, line: c.line, prices: pricesFromRow(c), maxWin: c.max_win }, order: 1 });
        }
        if (end >= from && end <= to) {
          out.push({
            p: {
              at: end,
              line: bar.line,
              prices: barPrices(bar, 'close'),
              maxWin: bar.maxWin,
              bar: { edge: 'close', ...range },
            },
            order: 2,
          });
        }
      }
    }
    for (const r of raw) {
      out.push({ p: { at: r.at, line: r.line, prices: pricesFromRow(r), maxWin: r.max_win }, order: 3 });
    }
    // Bars and raw ticks interleave only around the compaction edge (or for a tick that came very late).
    out.sort((a, b) => a.p.at - b.p.at || a.order - b.order);
    return out.map((o) => o.p);
  }

  return oddsHistory;
}

const toChange = (r: ChangeRow): LineMaxWinChange => ({
  eventId: r.event_id,
  lineId: r.line_id,
  period: r.period,
  market: r.market,
  line: r.line,
  at: r.at,
  maxWin: r.max_win,
  previousMaxWin: r.previous_max_win,
  sportId: r.sport_id,
});

export function createLineHistory(db: Database.Database): LineHistory {
  const oddsHistory = createOddsHistory(db);
  const points = pointsOf(db);
  const linesChunk = db.prepare<{ e: number; l: number; event: number | null; sport: number | null }, LineKey>(`
    SELECT m.event_id, m.line_id FROM market_lines m LEFT JOIN events e ON e.event_id = m.event_id
    WHERE (m.event_id > @e OR (m.event_id = @e AND m.line_id > @l))
      AND (@event IS NULL OR m.event_id = @event) AND (@sport IS NULL OR e.sport_id = @sport)
    ORDER BY m.event_id, m.line_id LIMIT ${LINE_CHUNK}`);
  const changeSelect = `
    SELECT p.event_id, p.line_id, p.at, p.max_win, p.previous_max_win, p.line, m.period, m.market, e.sport_id
    FROM line_max_win_points p
    LEFT JOIN market_lines m ON m.event_id = p.event_id AND m.line_id = p.line_id
    LEFT JOIN events e ON e.event_id = p.event_id`;
  const changesOf = db.prepare<[number], ChangeRow>(`${changeSelect} WHERE p.event_id = ? ORDER BY p.at, p.line_id`);
  // No index on at: the export is an offline batch job, and a sort of the change points (few per line) is cheap.
  const changesChunk = db.prepare<{ at: number; e: number; l: number; sport: number | null }, ChangeRow>(`
    ${changeSelect}
    WHERE (p.at > @at OR (p.at = @at AND (p.event_id > @e OR (p.event_id = @e AND p.line_id > @l))))
      AND (@sport IS NULL OR e.sport_id = @sport)
    ORDER BY p.at, p.event_id, p.line_id LIMIT ${LINE_CHUNK}`);

  return {
    oddsHistory,

    lineMaxWinPoints(eventId, lineId) {
      return points.all(eventId, lineId, -FAR_PAST).map((r) => ({
        at: r.at,
        maxWin: r.max_win,
        previousMaxWin: r.previous_max_win,
        line: r.line,
      }));
    },

    lineMaxWinChangesOf: (eventId) => changesOf.all(eventId).map(toChange),

    *exportLineMaxWin(f = {}) {
      let at = (f.since ?? FAR_PAST) - 1;
      let e = Number.MAX_SAFE_INTEGER;
      let l = Number.MAX_SAFE_INTEGER;
      for (;;) {
        const chunk = changesChunk.all({ at, e, l, sport: f.sportId ?? null });
        if (chunk.length === 0) return;
        yield* chunk.map(toChange);
        const last = chunk[chunk.length - 1]!;
        at = last.at;
        e = last.event_id;
        l = last.line_id;
      }
    },

    *exportLineHistory(f = {}) {
      let e = -Number.MAX_SAFE_INTEGER;
      let l = -Number.MAX_SAFE_INTEGER;
      for (;;) {
        const lines = linesChunk.all({ e, l, event: f.eventId ?? null, sport: f.sportId ?? null });
        if (lines.length === 0) return;
        for (const line of lines) {
          const history = oddsHistory(line.event_id, line.line_id, f.since === undefined ? {} : { from: f.since });
          for (const p of history) yield { eventId: line.event_id, lineId: line.line_id, ...p };
        }
        const last = lines[lines.length - 1]!;
        e = last.event_id;
        l = last.line_id;
      }
    },
  };
}
