// The bet log's closing lines: each main-market line's opening and last pre-match price, closed at kick-off (or when
// the line leaves the book), as the closing-line follower's ops say, in stream order.
import type Database from 'better-sqlite3';
import type { Market, Prices } from '../../../../shared/api';
import type { LineCloseView } from '../../../../shared/domain';
import { isPrice, isStaleClose, pricedOnly, type CloseReason } from '../../../../shared/trading';
import { priceCols, prices, SIDES, type Cols } from './prices';

/** What the closing-line follower asks the store to do, in stream order. */
export type LineCloseOp =
  /** A pre-match price (a market update or a snapshot's line): the line's latest, unless it lacks a side it had. */
  | { type: 'price'; eventId: number; market: Market; at: number }
  /**
   * Kick-off: every open line of the event closes at `at` (its kick-off). `confirmed`: the app followed the event up
   * to then, so the last prices stood until kick-off; otherwise they stand as of when they were last seen.
   */
  | { type: 'kickoff'; eventId: number; at: number; reason: 'started' | 'kickoff'; confirmed: boolean }
  /** A fresh snapshot before kick-off listed these lines: every other open line of the event is gone. */
  | { type: 'snapshotLines'; eventId: number; lineIds: readonly number[]; at: number }
  /**
   * The kick-off moved (a match put back): the lines the scheduled start closed at `at` are open again, and the close
   * is taken at the real kick-off. Lines that left the book stay closed.
   */
  | { type: 'reopen'; eventId: number; at: number };

/** A price op after coalescing: `open` is the first price of the run it stands for (what an insert takes as the open). */
export type CoalescedCloseOp =
  | Exclude<LineCloseOp, { type: 'price' }>
  | (Extract<LineCloseOp, { type: 'price' }> & { open?: { prices: Prices; at: number } });

/**
 * The same effect on line_closes in fewer statements: a line's price ops in a row (with nothing else of its event in
 * between) fold into one, the last price, with the first one kept as the open an insert would take. A later price
 * only stands in for an earlier one when it has every side the earlier had: then it moves the close whenever the
 * earlier would have (the upsert refuses a price that lacks a side the close has), so folding changes nothing; a
 * price that lacks one starts a new op. A kick-off or a snapshot's list of lines ends every run of its event. Under a
 * busy stream a line moves several times between flushes: this was half the cost of the flush.
 */
export function coalesceLineCloseOps(ops: readonly LineCloseOp[]): CoalescedCloseOp[] {
  const out: CoalescedCloseOp[] = [];
  /** `event:line` -> index in out of the run still open for folding. */
  const runs = new Map<string, number>();
  const runsOf = new Map<number, string[]>();
  for (const op of ops) {
    if (op.type !== 'price') {
      for (const k of runsOf.get(op.eventId) ?? []) runs.delete(k);
      runsOf.delete(op.eventId);
      out.push(op);
      continue;
    }
    const p = op.market.prices;
    if (!p) continue; // writes nothing
    const key = `${op.eventId}:${op.market.line_id}`;
    const at = runs.get(key);
    const prev = at === undefined ? undefined : (out[at] as Extract<CoalescedCloseOp, { type: 'price' }>);
    if (prev && SIDES.every((s) => !isPrice(prev.market.prices![s]) || isPrice(p[s]))) {
      out[at!] = { ...op, open: prev.open ?? { prices: prev.market.prices!, at: prev.at } };
      continue;
    }
    // The first of a run, or one that may not stand in for the run so far: written as it comes, in its place.
    runs.set(key, out.length);
    const keys = runsOf.get(op.eventId);
    if (keys) keys.push(key);
    else runsOf.set(op.eventId, [key]);
    out.push(op);
  }
  return out;
}

/** A price of a line as line_closes keeps it: its open and its last. */
type PriceParams = Cols<'open'> &
  Cols<'last'> & {
    event_id: number;
    line_id: number;
    period: number;
    market: string;
    line: number | null;
    opened_at: number;
    last_at: number;
  };

type CloseRow = PriceParams & { closed_at: number | null; close_reason: CloseReason | null };

export interface LineCloses {
  apply(ops: readonly LineCloseOp[]): void;
  of(eventId: number): LineCloseView[];
}

export function createLineCloses(db: Database.Database): LineCloses {
  // A price that lacks a side the line had (a moneyline without its draw for a moment) does not move the close: it
  // is not the market, and a close from it would be de-vigged as a two-way line.
  const keeps = (s: string) => `(line_closes.last_${s} IS NULL OR excluded.last_${s} IS NOT NULL)`;
  const upsertPrice = db.prepare<PriceParams>(`
    INSERT INTO line_closes (event_id, line_id, period, market, line, opened_at, open_home, open_draw, open_away,
      open_over, open_under, last_at, last_home, last_draw, last_away, last_over, last_under)
    VALUES (@event_id, @line_id, @period, @market, @line, @opened_at, @open_home, @open_draw, @open_away, @open_over,
      @open_under, @last_at, @last_home, @last_draw, @last_away, @last_over, @last_under)
    ON CONFLICT(event_id, line_id) DO UPDATE SET last_at = excluded.last_at, line = excluded.line,
      last_home = excluded.last_home, last_draw = excluded.last_draw, last_away = excluded.last_away,
      last_over = excluded.last_over, last_under = excluded.last_under
    WHERE closed_at IS NULL AND ${SIDES.map(keeps).join(' AND ')}`);
  const kickoff = db.prepare<{ eventId: number; at: number; reason: string; confirmed: 0 | 1 }>(`
    UPDATE line_closes SET closed_at = @at, close_reason = @reason, last_at = CASE WHEN @confirmed THEN MAX(last_at, @at) ELSE last_at END
    WHERE event_id = @eventId AND closed_at IS NULL`);
  const gone = db.prepare<{ eventId: number; at: number; present: string }>(`
    UPDATE line_closes SET closed_at = @at, close_reason = 'gone'
    WHERE event_id = @eventId AND closed_at IS NULL AND line_id NOT IN (SELECT value FROM json_each(@present))`);
  const reopen = db.prepare<{ eventId: number; at: number }>(`
    UPDATE line_closes SET closed_at = NULL, close_reason = NULL WHERE event_id = @eventId AND closed_at = @at AND close_reason = 'kickoff'`);
  const closesOf = db.prepare<[number], CloseRow>(`SELECT * FROM line_closes WHERE event_id = ? ORDER BY line_id`);

  function price(op: Extract<CoalescedCloseOp, { type: 'price' }>): void {
    const m = op.market;
    if (!m.prices) return;
    // A side quoted at 1.0 is unpriced (the one rule, trading.ts): stored as no price, so the guard above keeps a
    // three-way close three-way rather than taking {2.5, 1.0, 2.9} as its close.
    const last = pricedOnly(m.prices);
    if (Object.keys(last).length === 0) return;
    const open = op.open ?? { prices: m.prices, at: op.at };
    upsertPrice.run({
      event_id: op.eventId,
      line_id: m.line_id,
      period: m.period,
      market: m.market,
      line: m.line,
      opened_at: open.at,
      ...priceCols(pricedOnly(open.prices), 'open'),
      last_at: op.at,
      ...priceCols(last, 'last'),
    });
  }

  const apply = db.transaction((ops: readonly LineCloseOp[]) => {
    for (const op of coalesceLineCloseOps(ops)) {
      if (op.type === 'price') price(op);
      else if (op.type === 'kickoff')
        kickoff.run({ eventId: op.eventId, at: op.at, reason: op.reason, confirmed: op.confirmed ? 1 : 0 });
      else if (op.type === 'reopen') reopen.run({ eventId: op.eventId, at: op.at });
      else gone.run({ eventId: op.eventId, at: op.at, present: JSON.stringify(op.lineIds) });
    }
  });

  return {
    apply: (ops) => apply.immediate(ops),
    of: (eventId) =>
      closesOf.all(eventId).map((r) => ({
        eventId: r.event_id,
        lineId: r.line_id,
        period: r.period,
        market: r.market,
        line: r.line,
        openedAt: r.opened_at,
        opening: prices(r, 'open') ?? {},
        closing: r.closed_at === null ? null : prices(r, 'last'),
        closedAt: r.closed_at,
        lastAt: r.last_at,
        closeReason: r.close_reason,
        stale: isStaleClose({ closedAt: r.closed_at, lastAt: r.last_at, closeReason: r.close_reason }),
      })),
  };
}
