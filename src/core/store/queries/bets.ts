// The store's part of the bet log: main-market closing lines (opening and last pre-match price per line) and the
// trader's bets, read back as BetViews with their close, CLV under every model, result and P/L. All SQL for them is
// here and in ./bets/ (closing lines, the reads of a bet; this module keeps the trader's own writes: record, edit,
// remove, restore, settle by hand); the rules are the trading module's (src/shared/trading.ts, docs/trading.md), so
// the app, the CLI and the renderer agree.
import type Database from 'better-sqlite3';
import type {
  BetEdit,
  BetQuery,
  BetRevision,
  BetView,
  HandResult,
  LineCloseView,
  NewBet,
} from '../../../shared/domain';
import type { LedgerBet } from '../../../shared/ledger';
import { isOverUnder } from '../../../shared/trading';
import { createBetReads } from './bets/betReads';
import { createLineCloses, type LineCloseOp } from './bets/lineCloses';

export { betLabel, NO_CLOSE_RECORDED } from './bets/betReads';
export { coalesceLineCloseOps, type CoalescedCloseOp, type LineCloseOp } from './bets/lineCloses';

export interface BetLog {
  applyLineCloseOps(ops: readonly LineCloseOp[]): void;
  lineCloses(eventId: number): LineCloseView[];
  /** Records a bet on a known line; the line's market, period and handicap come from what the store holds. */
  addBet(bet: NewBet, placedAt: number): BetView;
  /** Changes a bet's price, stake or note, kept as a revision; null when there is no such bet (or it was removed). */
  editBet(id: number, edit: BetEdit, at: number): BetView | null;
  /** Takes a bet out of the log (kept in the file, as a revision, for Undo); false when there is none to remove. */
  removeBet(id: number, at: number): boolean;
  /** Brings a removed bet back as it was, under its id; null when there is no removed bet of that id. */
  restoreBet(id: number, at: number): BetView | null;
  /** Every change to a bet, oldest first (removed bets too); [] when there is no such bet. */
  betHistory(id: number): BetRevision[];
  /** The trader's own result for a bet (null takes it back); the app's own settlement, once it has one, is kept beside it. */
  settleBetByHand(id: number, result: HandResult | null): BetView | null;
  /** Newest first. */
  listBets(q?: BetQuery): BetView[];
  /** The bets of `listBets(q)` as the ledger report reads them: with their match's sport and league and their line's close. */
  ledgerBets(q?: BetQuery): LedgerBet[];
}

type Change = 'recorded' | 'edited' | 'removed' | 'restored';

export function createBetLog(db: Database.Database): BetLog {
  const closes = createLineCloses(db);
  const reads = createBetReads(db);
  const lineOf = db.prepare<[number, number], { period: number; market: string; line: number | null }>(
    `SELECT period, market, line FROM market_lines WHERE event_id = ? AND line_id = ?`,
  );
  const insertBet = db.prepare<{
    placed_at: number;
    event_id: number;
    line_id: number;
    side: string;
    price: number;
    stake: number;
    period: number;
    market: string;
    line: number | null;
  }>(
    `INSERT INTO bets (placed_at, event_id, line_id, side, price, stake, period, market, line)
     VALUES (@placed_at, @event_id, @line_id, @side, @price, @stake, @period, @market, @line)`,
  );
  // A removed bet stays in the file (removed_at set) so Undo restores it whole; every change adds a revision holding
  // the bet as it left it.
  const betRow = db.prepare<[number], { price: number; stake: number; note: string; removed_at: number | null }>(
    `SELECT price, stake, note, removed_at FROM bets WHERE id = ?`,
  );
  const updateBet = db.prepare<{ id: number; price: number; stake: number; note: string }>(
    `UPDATE bets SET price = @price, stake = @stake, note = @note WHERE id = @id AND removed_at IS NULL`,
  );
  const setRemoved = db.prepare<{ id: number; at: number | null; live: 0 | 1 }>(
    `UPDATE bets SET removed_at = @at WHERE id = @id AND (removed_at IS NULL) = @live`,
  );
  const addRevision = db.prepare<{ id: number; at: number; change: Change }>(`
    INSERT INTO bet_revisions (bet_id, revision, at, change, price, stake, note)
    SELECT id, coalesce((SELECT max(revision) FROM bet_revisions WHERE bet_id = @id), 0) + 1, @at, @change, price, stake, note FROM bets WHERE id = @id`);
  const revisionsOf = db.prepare<[number], BetRevision>(
    `SELECT revision, at, change, price, stake, note FROM bet_revisions WHERE bet_id = ? ORDER BY revision`,
  );
  const setManual = db.prepare<[HandResult | null, number]>(
    `UPDATE bets SET manual_result = ? WHERE id = ? AND removed_at IS NULL`,
  );
  const one = (id: number): BetView | null => reads.list({ id })[0] ?? null;

  const record = db.transaction(
    (bet: NewBet, placedAt: number, line: { period: number; market: string; line: number | null }) => {
      const id = Number(
        insertBet.run({
          placed_at: placedAt,
          event_id: bet.eventId,
          line_id: bet.lineId,
          side: bet.side,
          price: bet.price,
          stake: bet.stake,
          period: line.period,
          market: line.market,
          line: line.line,
        }).lastInsertRowid,
      );
      addRevision.run({ id, at: placedAt, change: 'recorded' });
      return id;
    },
  );
  /** The bet's new price, stake or note, kept as a revision: null when there is no such bet; the same values again change nothing. */
  const edit = db.transaction((id: number, e: BetEdit, at: number): boolean | null => {
    const was = betRow.get(id);
    if (!was || was.removed_at !== null) return null;
    const next = { price: e.price ?? was.price, stake: e.stake ?? was.stake, note: e.note ?? was.note };
    if (next.price === was.price && next.stake === was.stake && next.note === was.note) return true;
    updateBet.run({ id, ...next });
    addRevision.run({ id, at, change: 'edited' });
    return true;
  });
  /** Takes a live bet out (`live`) or brings a removed one back, as a revision; false when there is none to. */
  const setPresence = db.transaction((id: number, at: number, live: boolean): boolean => {
    if (setRemoved.run({ id, at: live ? at : null, live: live ? 1 : 0 }).changes === 0) return false;
    addRevision.run({ id, at, change: live ? 'removed' : 'restored' });
    return true;
  });

  return {
    applyLineCloseOps: (ops) => closes.apply(ops),
    lineCloses: (eventId) => closes.of(eventId),
    addBet(bet, placedAt) {
      const line = lineOf.get(bet.eventId, bet.lineId);
      if (!line) throw new Error(`Line ${bet.lineId} of event ${bet.eventId} is not known here: open the event first.`);
      if (isOverUnder(line.market) !== (bet.side === 'over' || bet.side === 'under'))
        throw new Error(`A ${line.market} line has no ${bet.side} side.`);
      return one(record.immediate(bet, placedAt, line))!;
    },
    editBet: (id, e, at) => (edit.immediate(id, e, at) ? one(id) : null),
    removeBet: (id, at) => setPresence.immediate(id, at, true),
    restoreBet: (id, at) => (setPresence.immediate(id, at, false) ? one(id) : null),
    betHistory: (id) => revisionsOf.all(id),
    settleBetByHand(id, result) {
      if (setManual.run(result, id).changes === 0) return null;
      return one(id);
    },
    listBets: (q = {}) => reads.list(q),
    ledgerBets: (q = {}) => reads.ledger(q),
  };
}
