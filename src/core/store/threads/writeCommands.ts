// The store's writes that go through its writer (./writer.ts): named commands, plain data that can cross to the
// writer's thread, instead of closures over the store. Applied by the same code on the thread and inline, so the two
// cannot write differently.
//
// A message is a numbered list of commands. It commits in one transaction together with its number in
// writer_progress (migration 008): a message whose number is already there is skipped, so a message handed over again
// after its thread died (it may have committed just before) is applied exactly once. Each command runs in its own
// savepoint: a command that fails (a malformed record) is rolled back alone and reported, and the rest of the message
// still commits.
import type Database from 'better-sqlite3';
import type { EventOdds } from '../../../shared/api';
import type { AlertRecord } from '../../../shared/domain';
import { errorMessage } from '../../../shared/errors';
import { alertCounter, createAlertLog, type AlertLog, type AlertUpdate } from '../queries/alertLog';
import { createBetLog, type BetLog, type LineCloseOp } from '../queries/bets';
import { createIngest, type Ingest, type IngestLearning, type KeptMaxWins, type TickBatch } from '../queries/ingest';

export type WriteCommand =
  /** A flush of stream ticks (the odds pipeline's, every 250 ms). */
  | { type: 'ticks'; batches: readonly TickBatch[] }
  /** An event's full odds, as a stream's snapshot gave them. */
  | { type: 'snapshot'; odds: EventOdds; at: number }
  /** The closing-line follower's ops, in stream order. */
  | { type: 'closeOps'; ops: readonly LineCloseOp[] }
  /** Price, drop and max_win alerts, numbered when they fired (../queries/alertLog.ts). */
  | { type: 'alerts'; alerts: readonly AlertRecord[] }
  /** Fired alerts' new words and data, by number (a drop episode that grew; ../queries/alertLog.ts update). */
  | { type: 'alertUpdates'; updates: readonly AlertUpdate[] };

/** What each command records, in the words of an error. */
export const COMMAND_WORDS: Record<WriteCommand['type'], string> = {
  ticks: 'odds',
  snapshot: 'a snapshot',
  closeOps: 'closing lines',
  alerts: 'alerts',
  alertUpdates: 'alert updates',
};

export interface WriteFailure {
  type: WriteCommand['type'];
  message: string;
}

export interface AppliedMessage {
  /** False: the message was committed before (by a thread that died before saying so), and was skipped. */
  applied: boolean;
  failures: WriteFailure[];
  /** After an alert's number was found taken (another program writes the file): the first number free after it. */
  alertsFrom?: number;
}

/** Applies a message; never throws (a message that cannot commit comes back with every command failed). */
export type ApplyMessage = (seq: number, commands: readonly WriteCommand[]) => AppliedMessage;

/** The writes an applier makes: the connection's own ingest and bet log (one of each per connection: see below). */
export interface ApplierParts {
  ingest: Pick<Ingest, never> & { learning: IngestLearning };
  bets: Pick<BetLog, 'applyLineCloseOps'>;
  alerts: Pick<AlertLog, 'write' | 'update'>;
}

/**
 * The applier of one connection: `run` names the store's open of the file (its messages' numbers are its own).
 * Inline, it must share the store's own ingest: the ingest keeps what it learnt of each line's max_win, and two of
 * them on one connection would each miss what the other wrote.
 */
export function createApplier(
  db: Database.Database,
  run: string,
  clock: () => number,
  parts?: ApplierParts,
): ApplyMessage {
  const ingest = parts?.ingest ?? createIngest(db, clock);
  const bets = parts?.bets ?? createBetLog(db);
  // The thread's own counter only numbers an alert whose number another program took (see ../queries/alertLog.ts).
  const alerts = parts?.alerts ?? createAlertLog(db, clock, alertCounter(db));
  const done = db.prepare<[string], number>(`SELECT seq FROM writer_progress WHERE run = ?`).pluck();
  const progress = db.prepare(`
    INSERT INTO writer_progress (run, seq, at) VALUES (?, ?, ?)
    ON CONFLICT(run) DO UPDATE SET seq = max(seq, excluded.seq), at = excluded.at`);
  /** One command in its own savepoint: what its ticks learnt of max_win, and the alerts whose number was taken. */
  const one = db.transaction(
    (c: WriteCommand): { limits: KeptMaxWins | null; clashes: Array<{ id: number; to: number }> } => {
      if (c.type === 'ticks') return { limits: ingest.learning.ticks(c.batches), clashes: [] };
      if (c.type === 'snapshot') return { limits: ingest.learning.snapshot(c.odds, c.at), clashes: [] };
      if (c.type === 'closeOps') {
        bets.applyLineCloseOps(c.ops);
        return { limits: null, clashes: [] };
      }
      if (c.type === 'alertUpdates') {
        // An update always follows its alert in the writer's order, so its row is there; one that is not (the alert's
        // own write failed, and was said) has nothing to update.
        for (const u of c.updates) alerts.update(u);
        return { limits: null, clashes: [] };
      }
      const clashes: Array<{ id: number; to: number }> = [];
      for (const a of c.alerts) {
        const { clashedTo } = alerts.write(a);
        if (clashedTo !== null) clashes.push({ id: a.id, to: clashedTo });
      }
      return { limits: null, clashes };
    },
  );
  const message = db.transaction((seq: number, commands: readonly WriteCommand[]): AppliedMessage => {
    const committed = done.get(run) ?? 0;
    if (seq <= committed) return { applied: false, failures: [] };
    const failures: WriteFailure[] = [];
    let alertsFrom: number | undefined;
    for (const c of commands) {
      try {
        const r = one(c);
        // Kept at once: the message's next tick write of the same line finds its change point against this one.
        if (r.limits) ingest.learning.keep(r.limits);
        for (const { id, to } of r.clashes) {
          failures.push({
            type: c.type,
            message: `alert ${id} was stored as ${to}: another program writes this history file`,
          });
          alertsFrom = Math.max(alertsFrom ?? 0, to + 1);
        }
      } catch (e) {
        failures.push({ type: c.type, message: errorMessage(e) });
      }
    }
    progress.run(run, seq, clock());
    return { applied: true, failures, ...(alertsFrom !== undefined ? { alertsFrom } : {}) };
  });
  return (seq, commands) => {
    try {
      // IMMEDIATE: the write lock is taken before the progress is read, so two connections of one run (a thread that
      // is stopping, and the store taking over inline) can never both find a message new.
      return message.immediate(seq, commands);
    } catch (e) {
      // Rolled back as a whole (the disk is full, the file stayed locked past the wait): what its writes taught is
      // not true after all. Said as a failure of each of its commands, and not tried again: a message that cannot
      // commit now would stall every later one behind it.
      ingest.learning.forget();
      const why = errorMessage(e);
      return { applied: false, failures: commands.map((c) => ({ type: c.type, message: why })) };
    }
  };
}

/** A run's row is only needed while it writes: the store forgets it at close (and rows of runs long gone at open). */
export function forgetRuns(db: Database.Database, run: string, olderThan: number): void {
  db.prepare(`DELETE FROM writer_progress WHERE run = ? OR at < ?`).run(run, olderThan);
}
