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
import type { EventOdds } from '../../shared/api';
import { createBetLog, type BetLog, type LineCloseOp } from './bets';
import { createIngest, type Ingest, type IngestLearning, type KeptMaxWins, type TickBatch } from './ingest';

export type WriteCommand =
  /** A flush of stream ticks (the odds pipeline's, every 250 ms). */
  | { type: 'ticks'; batches: readonly TickBatch[] }
  /** An event's full odds, as a stream's snapshot gave them. */
  | { type: 'snapshot'; odds: EventOdds; at: number }
  /** The closing-line follower's ops, in stream order. */
  | { type: 'closeOps'; ops: readonly LineCloseOp[] };

/** What each command records, in the words of an error. */
export const COMMAND_WORDS: Record<WriteCommand['type'], string> = { ticks: 'odds', snapshot: 'a snapshot', closeOps: 'closing lines' };

export interface WriteFailure {
  type: WriteCommand['type'];
  message: string;
}

export interface AppliedMessage {
  /** False: the message was committed before (by a thread that died before saying so), and was skipped. */
  applied: boolean;
  failures: WriteFailure[];
}

export type ApplyMessage = (seq: number, commands: readonly WriteCommand[]) => AppliedMessage;

/** The writes an applier makes: the connection's own ingest and bet log (one of each per connection: see below). */
export interface ApplierParts {
  ingest: Pick<Ingest, never> & { learning: IngestLearning };
  bets: Pick<BetLog, 'applyLineCloseOps'>;
}

/**
 * The applier of one connection: `run` names the store's open of the file (its messages' numbers are its own).
 * Inline, it must share the store's own ingest: the ingest keeps what it learnt of each line's max_win, and two of
 * them on one connection would each miss what the other wrote.
 */
export function createApplier(db: Database.Database, run: string, clock: () => number, parts?: ApplierParts): ApplyMessage {
  const ingest = parts?.ingest ?? createIngest(db, clock);
  const bets = parts?.bets ?? createBetLog(db);
  const done = db.prepare(`SELECT seq FROM writer_progress WHERE run = ?`).pluck();
  const progress = db.prepare(`
    INSERT INTO writer_progress (run, seq, at) VALUES (?, ?, ?)
    ON CONFLICT(run) DO UPDATE SET seq = max(seq, excluded.seq), at = excluded.at`);
  const one = db.transaction((c: WriteCommand): KeptMaxWins | null => {
    if (c.type === 'ticks') return ingest.learning.ticks(c.batches);
    if (c.type === 'snapshot') return ingest.learning.snapshot(c.odds, c.at);
    bets.applyLineCloseOps(c.ops);
    return null;
  });
  const message = db.transaction((seq: number, commands: readonly WriteCommand[]) => {
    const committed = (done.get(run) as number | undefined) ?? 0;
    if (seq <= committed) return { applied: false, failures: [], learnt: [] };
    const failures: WriteFailure[] = [];
    const learnt: KeptMaxWins[] = [];
    for (const c of commands) {
      try {
        const limits = one(c);
        if (limits) learnt.push(limits);
      } catch (e) {
        failures.push({ type: c.type, message: e instanceof Error ? e.message : String(e) });
      }
    }
    progress.run(run, seq, clock());
    return { applied: true, failures, learnt };
  });
  return (seq, commands) => {
    // IMMEDIATE: the write lock is taken before the progress is read, so two connections of one run (a thread that
    // is stopping, and the store taking over inline) can never both find a message new.
    const r = message.immediate(seq, commands);
    // Committed: what the ticks taught of the lines' limits is now true.
    for (const limits of r.learnt) ingest.learning.keep(limits);
    return { applied: r.applied, failures: r.failures };
  };
}

/** A run's row is only needed while it writes: the store forgets it at close (and rows of runs long gone at open). */
export function forgetRuns(db: Database.Database, run: string, olderThan: number): void {
  db.prepare(`DELETE FROM writer_progress WHERE run = ? OR at < ?`).run(run, olderThan);
}
