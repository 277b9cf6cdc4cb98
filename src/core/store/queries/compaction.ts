// Compaction: folds odds ticks older than the raw window into the packed per-line bars (./bars.ts), keeps the ticks
// where a line's max_win changed, and deletes the folded ticks, one small transaction per step. A step's bars, its
// change points and the deletion of its ticks commit together, so a crash at any moment leaves every tick either
// raw or in a bar, never both and never neither; the next step simply starts from the oldest raw tick again.
import type Database from 'better-sqlite3';
import { UPSERT_LINE_MAX_WIN_POINT } from './rows';
import type { CompactProgress } from '../../../shared/domain';
import { BAR_MS, decodeBars, encodeBars, foldTick, hourOf, HOUR_MS, type Bar, type TickValues } from './bars';

export interface CompactOptions {
  /** At most this many raw ticks in the step (default 5,000: a backlog line cannot run a step long). */
  maxRows?: number;
  /** Stop taking more lines into the step once it has run this long (default 10 ms; a line in hand finishes). */
  budgetMs?: number;
  /** Only ticks older than this too (ms); maintain() uses it to enforce retention on raw ticks. */
  before?: number;
}

export interface CompactionConfig {
  /** Full tick detail is kept this long; older ticks are folded into bars. */
  rawTickMs: number;
  /** Bars (and raw ticks) older than this are dropped; max_win change points are kept for good. */
  retentionMs: number;
}

/**
 * The raw window's edge moves in these steps, so a line-hour blob is rewritten a few times, not once a minute,
 * and no step ever splits a minute that is still receiving ticks.
 */
const CUTOFF_ALIGN_MS = 5 * BAR_MS;
/** A tick dated this far past the clock cannot be ours to wait for (a clock that jumped back): fold it now. */
const FUTURE_SLACK_MS = HOUR_MS;
const DEFAULT_MAX_ROWS = 5_000;
const DEFAULT_BUDGET_MS = 10;

interface RawTick extends TickValues {
  rowid: number;
}

export function createCompaction(
  db: Database.Database,
  clock: () => number,
  config: () => CompactionConfig,
): (opts?: CompactOptions) => CompactProgress {
  const head = db.prepare<[], { rowid: number; event_id: number; line_id: number; at: number }>(
    `SELECT rowid, event_id, line_id, at FROM odds_ticks ORDER BY rowid LIMIT 1`,
  );
  // Index order (event_id, line_id, at, rowid): a line's ticks come oldest first without a sort.
  const lineTicks = db.prepare<[number, number, number, number, number], RawTick>(`
    SELECT rowid, at, line, price_home, price_draw, price_away, price_over, price_under, max_win FROM odds_ticks
    WHERE event_id = ? AND line_id = ? AND at >= ? AND at < ? ORDER BY at, rowid LIMIT ?`);
  // Exactly the ticks the step read: everything of the line in [lo, hi) up to (at, rowid) of the last one.
  const deleteTicks = db.prepare(`
    DELETE FROM odds_ticks WHERE event_id = @e AND line_id = @l AND at >= @lo AND at < @hi
      AND (at < @at OR (at = @at AND rowid <= @rowid))`);
  const readBlob = db.prepare<[number, number, number], { ticks: number; bars: Buffer }>(
    `SELECT ticks, bars FROM line_bars WHERE event_id = ? AND line_id = ? AND hour = ?`,
  );
  const writeBlob = db.prepare(`
    INSERT INTO line_bars (event_id, line_id, hour, ticks, bars) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT(event_id, line_id, hour) DO UPDATE SET ticks = excluded.ticks, bars = excluded.bars`);
  const maxWinBefore = db.prepare<[number, number, number], { max_win: number | null }>(`
    SELECT max_win FROM line_max_win_points WHERE event_id = ? AND line_id = ? AND at <= ? ORDER BY at DESC LIMIT 1`);
  const upsertPoint = db.prepare(UPSERT_LINE_MAX_WIN_POINT);

  /** Folds one line's run of ticks (oldest first) into its hour blobs and change points; returns change points. */
  function foldLine(eventId: number, lineId: number, ticks: RawTick[], retentionCutoff: number): number {
    const first = ticks[0] as RawTick;
    const before = maxWinBefore.get(eventId, lineId, first.at);
    let previous: number | null | undefined = before ? before.max_win : undefined;
    let points = 0;
    for (const t of ticks) {
      if (previous !== undefined && t.max_win === previous) continue;
      upsertPoint.run(
        eventId,
        lineId,
        t.at,
        t.max_win,
        previous ?? null,
        t.line,
        t.price_home,
        t.price_draw,
        t.price_away,
        t.price_over,
        t.price_under,
      );
      previous = t.max_win;
      points++;
    }
    // Bars for the hours still inside retention; older ticks leave only their change points.
    const byHour = new Map<number, RawTick[]>();
    for (const t of ticks) {
      const h = hourOf(t.at);
      if ((h + 1) * HOUR_MS <= retentionCutoff) continue;
      const list = byHour.get(h);
      if (list) list.push(t);
      else byHour.set(h, [t]);
    }
    for (const [hour, list] of byHour) {
      const stored = readBlob.get(eventId, lineId, hour);
      const bars = new Map<number, Bar>();
      if (stored) for (const b of decodeBars(stored.bars)) bars.set(b.minute, b);
      for (const t of list) foldTick(bars, t);
      writeBlob.run(eventId, lineId, hour, (stored?.ticks ?? 0) + list.length, encodeBars(bars.values()));
    }
    return points;
  }

  return function compactStep(opts = {}) {
    const maxRows = Math.max(1, opts.maxRows ?? DEFAULT_MAX_ROWS);
    const budgetMs = opts.budgetMs ?? DEFAULT_BUDGET_MS;
    const now = clock();
    const { rawTickMs, retentionMs } = config();
    const aligned = Math.floor((now - rawTickMs) / CUTOFF_ALIGN_MS) * CUTOFF_ALIGN_MS;
    const cutoff = opts.before === undefined ? aligned : Math.min(aligned, opts.before);
    const retentionCutoff = now - retentionMs;
    const future = now + FUTURE_SLACK_MS;
    const started = performance.now();
    const progress: CompactProgress = {
      done: false,
      ticksCompacted: 0,
      ticksDropped: 0,
      lines: 0,
      changePoints: 0,
      ms: 0,
      compactedBefore: cutoff,
      oldestRawAt: null,
    };
    db.transaction(() => {
      while (progress.ticksCompacted + progress.ticksDropped < maxRows) {
        const h = head.get();
        progress.oldestRawAt = h?.at ?? null;
        if (!h || (h.at >= cutoff && (h.at <= future || opts.before !== undefined))) {
          progress.done = true;
          return;
        }
        if (progress.lines > 0 && performance.now() - started >= budgetMs) return;
        // The oldest raw tick names the line; the step takes that line's ticks below the edge, oldest first.
        const [lo, hi] = h.at < cutoff ? [-Number.MAX_VALUE, cutoff] : [future + 1, Number.MAX_VALUE];
        const room = maxRows - progress.ticksCompacted - progress.ticksDropped;
        const ticks = lineTicks.all(h.event_id, h.line_id, lo, hi, room);
        const last = ticks[ticks.length - 1];
        if (!last) throw new Error(`compaction: the oldest raw tick of line ${h.line_id} vanished mid-step`);
        const kept = ticks.filter((t) => (hourOf(t.at) + 1) * HOUR_MS > retentionCutoff).length;
        progress.changePoints += foldLine(h.event_id, h.line_id, ticks, retentionCutoff);
        const deleted = deleteTicks.run({
          e: h.event_id,
          l: h.line_id,
          lo,
          hi,
          at: last.at,
          rowid: last.rowid,
        }).changes;
        // The bars just written count exactly these ticks; anything else would count a tick twice or lose one.
        if (deleted !== ticks.length)
          throw new Error(`compaction: folded ${ticks.length} ticks but ${deleted} matched`);
        progress.ticksCompacted += kept;
        progress.ticksDropped += ticks.length - kept;
        progress.lines++;
      }
    }).immediate();
    progress.ms = performance.now() - started;
    return progress;
  };
}
