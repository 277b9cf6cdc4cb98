// The ledger of a line's last max stake: what a market line's max_win was before a tick, the one answer to "did this
// tick move the limit". Two keep a ledger each, by these rules: the store's ingest, for the change points it writes
// (./ingest/odds.ts), and the odds pipeline, for the max_win alerts it raises as the ticks arrive
// (../../monitor/oddsPipeline.ts). They cannot share one: the ingest runs where the writes are applied (the store's
// writer thread, ../threads/writer.ts), up to a quarter of a second and a thread away from the ticks the pipeline sees,
// and each must not learn a tick before it has seen it.
import type Database from 'better-sqlite3';

/** A line's max_win as of a tick, and that tick's time. */
export interface LineMaxWin {
  maxWin: number | null;
  at: number;
}

/** eventId -> lineId -> the line's max_win as of a tick. */
export type KeptMaxWins = Map<number, Map<number, LineMaxWin>>;

/** Where a ledger looks for a line it does not hold. */
export interface MaxWinRecall {
  /** Every line of an event as the store holds it: read once, when the event is first asked about, then held. */
  event?(eventId: number): Iterable<readonly [lineId: number, maxWin: number]>;
  /**
   * One line as the store holds it: read (never held) whenever the ledger holds nothing as old as the tick asked
   * about. Undefined: a line the store has never had.
   */
  line?(eventId: number, lineId: number): number | null | undefined;
}

export interface MaxWinLedger {
  /** The max_win a line had before a tick at `at`; undefined for a line never seen (a new line moves nothing). */
  before(eventId: number, lineId: number, at: number): number | null | undefined;
  /** Holds the event's lines now (MaxWinRecall.event), before a write could change what the store says of them. */
  hold(eventId: number): void;
  /** A tick as it arrives: the last one noted is the line's. */
  note(eventId: number, lineId: number, maxWin: number | null, at: number): void;
  /** What committed writes learnt: per line, the latest tick wins (a late write never replaces a newer limit). */
  keep(limits: KeptMaxWins): void;
  /** Forgets one event (no longer followed), or everything (what was kept may not be true any more). */
  forget(eventId?: number): void;
  /** Events held. */
  events(): number;
}

/**
 * A ledger over `recall`. With `maxLines`, it starts again empty once it holds more lines than that (what it forgets
 * is read back through `recall.line`).
 */
export function createMaxWinLedger(recall: MaxWinRecall, maxLines = Infinity): MaxWinLedger {
  const held: KeptMaxWins = new Map();
  let lines = 0;

  const forgetAll = () => {
    held.clear();
    lines = 0;
  };

  function eventLines(eventId: number, load: boolean): Map<number, LineMaxWin> | undefined {
    let kept = held.get(eventId);
    if (kept || !load) return kept;
    kept = new Map();
    // What the store held before is the baseline: a limit that moved while nobody followed the event is still a move.
    if (recall.event) {
      for (const [lineId, maxWin] of recall.event(eventId)) kept.set(lineId, { maxWin, at: -Infinity });
      lines += kept.size;
    }
    held.set(eventId, kept);
    return kept;
  }

  function put(eventId: number, lineId: number, v: LineMaxWin, latestWins: boolean): void {
    const kept = eventLines(eventId, true)!;
    const cur = kept.get(lineId);
    if (!cur) lines++;
    if (!cur || !latestWins || cur.at <= v.at) kept.set(lineId, v);
  }

  return {
    before(eventId, lineId, at) {
      const kept = eventLines(eventId, recall.event !== undefined)?.get(lineId);
      if (kept && (kept.at <= at || !recall.line)) return kept.maxWin;
      return recall.line?.(eventId, lineId);
    },
    hold: (eventId) => void eventLines(eventId, true),
    note(eventId, lineId, maxWin, at) {
      put(eventId, lineId, { maxWin, at }, false);
      if (lines > maxLines) forgetAll();
    },
    keep(limits) {
      for (const [eventId, byLine] of limits) for (const [lineId, v] of byLine) put(eventId, lineId, v, true);
      if (lines > maxLines) forgetAll();
    },
    forget(eventId) {
      if (eventId === undefined) return forgetAll();
      lines -= held.get(eventId)?.size ?? 0;
      held.delete(eventId);
    },
    events: () => held.size,
  };
}

/**
 * A line's max_win as the store holds it: its last change point, else its latest state; undefined for a line the
 * store has never had. The ingest's recall (change points are never deleted, so the last one stays true).
 */
export function storedLineMaxWin(
  db: Database.Database,
): (eventId: number, lineId: number) => number | null | undefined {
  const lastPoint = db.prepare<[number, number], { max_win: number | null }>(
    `SELECT max_win FROM line_max_win_points WHERE event_id = ? AND line_id = ? ORDER BY at DESC LIMIT 1`,
  );
  const latest = db.prepare<[number, number], { max_win: number | null }>(
    `SELECT max_win FROM market_lines WHERE event_id = ? AND line_id = ?`,
  );
  return (eventId, lineId) => {
    const p = lastPoint.get(eventId, lineId);
    if (p) return p.max_win;
    const l = latest.get(eventId, lineId);
    return l ? l.max_win : undefined;
  };
}
