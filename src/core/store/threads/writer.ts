// The store's writer: the stream's writes (ticks, snapshots, closing lines; ./writeCommands.ts), off the event loop.
// At 2,000 market moves a second those are about a quarter of the host's work, in transactions of several ms each, on
// the thread that also reads the streams and serves the page (in Electron, the main process). The writer hands them
// to a worker thread (./writerWorker.ts) with its own connection to the file; the store's own connection stays for
// everything else (reads, settlements, alerts, bets, settings), and SQLite's lock keeps the two writers apart.
//
// What it promises:
//   - Order: writes are applied in the order they were handed over. What is handed over within 100 ms goes as one
//     message (group commit), and each message commits in one transaction.
//   - Read-your-writes where a caller needs it: settled() resolves once everything handed over before it is
//     committed (the handlers that read ticks, closes or bets await it).
//   - Back-pressure: at most `maxBacklog` messages are in flight. A writer that falls behind (a slow disk) makes the
//     next hand-over wait, on the spot, until the thread has caught up, as a synchronous write would have: memory
//     stays bounded and nothing is dropped.
//   - A crash of the thread loses nothing that was handed over: every message is kept until the thread says it is
//     done, and a new thread is given the rest again; a message it had committed before it died is skipped, never
//     applied twice (its number commits with it: migration 008). After three crashes in a minute, or a thread that
//     cannot start or makes no progress for 10 s, the writes go on inline, on the store's connection, the same way.
//   - A crash of the whole process (SIGKILL) loses at most the messages not yet committed: a message is all of it or
//     none of it, and SQLite's log keeps the file whole.
//   - close() waits until every message is committed.
// In memory (tests, throwaway stores) and where the store is opened without it (`cli export`), the same messages are
// applied inline at once.
import { performance } from 'node:perf_hooks';
import type { EventOdds } from '../../../shared/api';
import type { AlertRecord, NewAlert } from '../../../shared/domain';
import { errorMessage } from '../../../shared/errors';
import { Emitter } from '../../../shared/event';
import type { AlertUpdate } from '../queries/alertLog';
import type { LineCloseOp } from '../queries/bets';
import type { TickBatch } from '../queries/ingest';
import { threadEntry } from './startThread';
import { COMMAND_WORDS, type ApplyMessage, type WriteCommand, type WriteFailure } from './writeCommands';
import { ACKED, CLOSED, DEAD, type WriterMessage, type WriterReply } from './writerProtocol';
import { ackedBy, createInFlight, startWriterThread, type InFlight, type WriterThread } from './writerThread';

export type WriterMode = 'thread' | 'inline';

export interface WriterProblem {
  /** 'write': a command failed (its savepoint rolled back, the rest of its message committed); 'thread': the thread stopped. */
  kind: 'write' | 'thread';
  message: string;
}

export interface WriterStats {
  /** Messages handed over. */
  messages: number;
  /** Hand-overs that waited for room (back-pressure), and how long they waited in all (ms). */
  waits: number;
  waitedMs: number;
  /** Threads started again after one stopped, and the messages handed to them again (the stopped one's backlog). */
  restarts: number;
  resent: number;
}

export interface StoreWriter {
  /** Where the writes go now: 'thread', or 'inline' (in memory, asked for, or after the thread failed). */
  where(): WriterMode;
  recordTickBatches(batches: readonly TickBatch[]): void;
  recordSnapshot(odds: EventOdds, at: number): void;
  applyLineCloseOps(ops: readonly LineCloseOp[]): void;
  /**
   * Alerts that fired now: numbered at once (what is returned is what the screen gets) and written in order with the
   * rest. A settlement's alert is not one of these: it commits with its settlement on the store's connection.
   */
  appendAlerts(alerts: readonly NewAlert[]): AlertRecord[];
  /**
   * Alerts handed over before, with new words and data (a drop episode that grew): written in order with the rest,
   * under the numbers they were given.
   */
  updateAlerts(updates: readonly AlertUpdate[]): void;
  /** Resolves once every write handed over before the call is committed (or has failed and been reported). */
  settled(): Promise<void>;
  /** Messages handed over and not yet done. */
  backlog(): number;
  /** A failed write or a stopped thread, as it happens. Returns the unsubscribe. */
  onProblem(listener: (p: WriterProblem) => void): () => void;
  stats(): WriterStats;
  /** Ends the thread abruptly, as a crash would (tests, and a bench of the crash path); inline: nothing. */
  kill(): void;
  /** Waits until every message is committed, then stops the thread. */
  close(): void;
}

export interface WriterOptions {
  mode: WriterMode;
  path: string;
  nativeBinding?: string;
  /** The store's open of the file. */
  run: string;
  /** The applier on the store's own connection: inline writes, and the fallback. */
  inline: ApplyMessage;
  /** An alert's record, numbered from the store's counter; and the counter moved past numbers another program took. */
  alertRecord(a: NewAlert): AlertRecord;
  alertsFrom(next: number): void;
  /** PRAGMA wal_autocheckpoint for the thread's connection (0 while the store's checkpointer runs). */
  autocheckpoint(): number;
  /** PRAGMA journal_size_limit for the thread's connection (the store's own: JOURNAL_SIZE_LIMIT). */
  journalSizeLimit: number;
  /** Messages in flight before a hand-over waits (default 64: several seconds of writes). */
  maxBacklog?: number;
  /** What is handed over within this many ms goes to the thread as one message (default 100; 0: each at once). */
  groupMs?: number;
  /** Tests: the thread's entry, and a slow disk (ms the thread waits before each message). */
  entry?: string;
  slowMs?: number;
}

/** The thread's entry beside this module (or in `dir`). */
export function writerWorkerEntry(dir?: string): string {
  return threadEntry('writerWorker', "the store's writer", dir);
}

const DEFAULT_MAX_BACKLOG = 64;
const DEFAULT_GROUP_MS = 100;
/** A thread that makes no progress this long while a hand-over waits is given up for inline writes. */
const STUCK_MS = 10_000;
/** Crashes within CRASH_WINDOW_MS after which the thread is not started again. */
const MAX_RESTARTS = 3;
const CRASH_WINDOW_MS = 60_000;
/** How long close() waits for the thread to commit what it holds before finishing it inline. */
const CLOSE_WAIT_MS = 30_000;

/**
 * Group commit: what is handed over within `groupMs` goes on as one message. The price alerts of a storm come every
 * coalescer flush (125 a second); a transaction each cost the thread a commit, and a page of progress, each time.
 */
function createGathering(groupMs: number, post: (commands: readonly WriteCommand[]) => void) {
  let gathering: WriteCommand[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (!gathering.length) return;
    const commands = gathering;
    gathering = [];
    post(commands);
  };
  return {
    flush,
    add(commands: readonly WriteCommand[]) {
      for (const c of commands) gathering.push(c); // no spread: a batch may be longer than a call's arguments
      timer ??= setTimeout(flush, groupMs);
    },
    holds: () => gathering.length > 0,
  };
}

/** Back-pressure: waits, on the spot, until the thread has room for one more message (or the writes go inline). */
function waitForRoom(
  t: WriterThread,
  inFlight: Pick<InFlight, 'pending'>,
  prune: (acked: number) => void,
  max: number,
  stats: WriterStats,
  still: () => boolean,
  fallBack: (why: string) => void,
): void {
  prune(ackedBy(t));
  if (inFlight.pending().length < max) return;
  stats.waits++;
  const from = performance.now();
  let progress = from;
  while (still() && inFlight.pending().length >= max) {
    if (Atomics.load(t.control, DEAD) === 1) return fallBack('could not open the store');
    const seen = ackedBy(t);
    Atomics.wait(t.control, ACKED, seen, 100);
    const now = ackedBy(t);
    if (now !== seen) {
      prune(now);
      progress = performance.now();
    } else if (performance.now() - progress > STUCK_MS) {
      fallBack(`made no progress for ${STUCK_MS / 1000} s`);
    }
  }
  stats.waitedMs += performance.now() - from;
}

/** Waits (up to CLOSE_WAIT_MS) for a thread told to close to commit what it holds and close its connection. */
function waitForClose(t: WriterThread): void {
  t.worker.postMessage({ type: 'close' } satisfies WriterMessage);
  const until = performance.now() + CLOSE_WAIT_MS;
  while (Atomics.load(t.control, CLOSED) === 0 && Atomics.load(t.control, DEAD) === 0 && performance.now() < until) {
    Atomics.wait(t.control, CLOSED, 0, 100);
  }
}

/** Counts a thread's crash; true once there were more than MAX_RESTARTS within CRASH_WINDOW_MS. */
function crashCounter(): () => boolean {
  const crashes: number[] = [];
  return () => {
    const now = performance.now();
    crashes.push(now);
    while (crashes.length && crashes[0]! < now - CRASH_WINDOW_MS) crashes.shift();
    return crashes.length > MAX_RESTARTS;
  };
}

/** Where the writer's messages go (its thread, or inline) and the thread's life: started, restarted, given up. */
interface Delivery {
  where(): WriterMode;
  /** Whether messages go to a running thread now (else they are applied at once). */
  threaded(): boolean;
  /** One message of commands, in order: to the thread, or applied here. */
  post(commands: readonly WriteCommand[]): void;
  /** Messages handed to the thread and not yet done. */
  pending(): number;
  /** Resolves once every message posted so far is done. */
  done(): Promise<void>;
  kill(): void;
  /** Waits until every message is committed (here, if the thread does not finish), then stops the thread. */
  close(): void;
}

function createDelivery(o: WriterOptions, problem: (p: WriterProblem) => void, stats: WriterStats): Delivery {
  const reportFailures = (failures: readonly WriteFailure[]) => {
    for (const f of failures)
      problem({ kind: 'write', message: `Could not record ${COMMAND_WORDS[f.type]}: ${f.message}` });
  };
  const inFlight = createInFlight();
  let mode: WriterMode = o.mode;
  let closed = false;
  // The thread, while there is one.
  let thread: WriterThread | null = null;
  const crashedTooOften = crashCounter();

  const applyInline = (n: number, commands: readonly WriteCommand[]) => reportFailures(o.inline(n, commands).failures);

  /** Drops what the thread is done with (as the control block says: also readable while the event loop waits). */
  const prune = (acked: number) => {
    inFlight.prune(acked);
    if (!inFlight.pending().length) thread?.worker.unref();
  };

  /** The writes go on inline from here: what the thread did not finish is applied here (what it did is skipped). */
  const fallBack = (why: string) => {
    if (mode === 'inline') return;
    mode = 'inline';
    const t = thread;
    thread = null;
    if (t) {
      t.alive = false;
      void t.worker.terminate();
    }
    problem({ kind: 'thread', message: `The store's writer thread ${why}: writes go on inline` });
    for (const m of inFlight.takeAll()) applyInline(m.seq, m.commands);
    inFlight.settle(inFlight.last());
  };

  /** A thread stopped: started again (it is given everything not yet done), unless it keeps stopping. */
  const stopped = (t: WriterThread, why: string) => {
    if (thread !== t || closed) return;
    // Whatever it acknowledged before it went is done.
    prune(ackedBy(t));
    if (crashedTooOften() || Atomics.load(t.control, DEAD) === 1) {
      fallBack(`stopped (${why})`);
      return;
    }
    try {
      start();
    } catch (e) {
      // Its entry is gone (an update replaced the files under a running app): the writes go on here.
      fallBack(`stopped (${why}) and could not start again (${errorMessage(e)})`);
      return;
    }
    problem({ kind: 'thread', message: `The store's writer thread stopped (${why}): started again, nothing is lost` });
    stats.restarts++;
    // The new thread gets everything not yet done, in order; what the old one committed it skips.
    const resend = inFlight.pending();
    for (const m of resend)
      thread!.worker.postMessage({ type: 'write', seq: m.seq, commands: m.commands } satisfies WriterMessage);
    stats.resent += resend.length;
    if (resend.length) thread!.worker.ref();
    else thread!.worker.unref();
  };

  const start = () => {
    const data = {
      path: o.path,
      ...(o.nativeBinding ? { nativeBinding: o.nativeBinding } : {}),
      run: o.run,
      autocheckpoint: o.autocheckpoint(),
      journalSizeLimit: o.journalSizeLimit,
      ...(o.slowMs ? { slowMs: o.slowMs } : {}),
    };
    const t: WriterThread = startWriterThread(o.entry ?? writerWorkerEntry(), data, {
      reply(m: WriterReply) {
        if (m.alertsFrom) o.alertsFrom(m.alertsFrom);
        reportFailures(m.failures);
        prune(m.seq);
      },
      stopped: (why) => stopped(t, why),
    });
    thread = t;
  };

  /** One message of commands, in order: to the thread, or applied here. */
  const post = (commands: readonly WriteCommand[]) => {
    stats.messages++;
    if (mode === 'thread' && thread) {
      waitForRoom(
        thread,
        inFlight,
        prune,
        o.maxBacklog ?? DEFAULT_MAX_BACKLOG,
        stats,
        () => mode === 'thread',
        fallBack,
      );
    }
    const n = inFlight.next();
    if (mode === 'inline' || !thread) {
      applyInline(n, commands);
      inFlight.settle(n);
      return;
    }
    inFlight.hold({ seq: n, commands });
    // Kept alive while it holds writes: a process that ends without closing its store still commits them.
    thread.worker.ref();
    thread.worker.postMessage({ type: 'write', seq: n, commands } satisfies WriterMessage);
  };

  if (mode === 'thread') {
    try {
      start();
    } catch (e) {
      mode = 'inline';
      // Said once the caller has had a chance to listen.
      queueMicrotask(() =>
        problem({
          kind: 'thread',
          message: `The store's writer thread could not start (${errorMessage(e)}): writes go on inline`,
        }),
      );
    }
  }

  return {
    where: () => mode,
    threaded: () => mode === 'thread' && thread !== null,
    post,
    pending: () => inFlight.pending().length,
    done: () => (mode === 'inline' || !inFlight.pending().length ? Promise.resolve() : inFlight.wait()),
    kill() {
      if (thread) void thread.worker.terminate();
    },
    close() {
      if (closed) return;
      const t = thread;
      if (t?.alive) {
        waitForClose(t);
        prune(ackedBy(t));
      }
      // Anything the thread did not get to (it died, or took too long) is finished here.
      if (inFlight.pending().length) fallBack('did not finish before the store closed');
      closed = true;
      thread = null;
      if (t) void t.worker.terminate();
      inFlight.settle(inFlight.last());
    },
  };
}

export function createWriter(o: WriterOptions): StoreWriter {
  const problems = new Emitter<[WriterProblem]>({ name: "the store's writer" });
  const stats: WriterStats = { messages: 0, waits: 0, waitedMs: 0, restarts: 0, resent: 0 };
  const delivery = createDelivery(o, (p) => problems.fire(p), stats);
  const groupMs = o.groupMs ?? DEFAULT_GROUP_MS;
  const gathering = createGathering(groupMs, delivery.post);
  let closed = false;

  const hand = (commands: readonly WriteCommand[]) => {
    if (closed) throw new Error('the store is closed');
    if (!delivery.threaded() || groupMs <= 0) {
      gathering.flush();
      delivery.post(commands);
      return;
    }
    gathering.add(commands);
  };

  return {
    where: () => delivery.where(),
    recordTickBatches: (batches) => hand([{ type: 'ticks', batches }]),
    recordSnapshot: (odds, at) => hand([{ type: 'snapshot', odds, at }]),
    applyLineCloseOps: (ops) => hand([{ type: 'closeOps', ops }]),
    appendAlerts(alerts) {
      const records = alerts.map((a) => o.alertRecord(a));
      if (records.length) hand([{ type: 'alerts', alerts: records }]);
      return records;
    },
    updateAlerts(updates) {
      if (updates.length)
        hand([{ type: 'alertUpdates', updates: updates.map((u) => ({ id: u.id, message: u.message, data: u.data })) }]);
    },
    settled() {
      gathering.flush();
      return delivery.done();
    },
    backlog: () => delivery.pending() + (gathering.holds() ? 1 : 0),
    onProblem: problems.event,
    stats: () => ({ ...stats }),
    kill: () => delivery.kill(),
    close() {
      if (closed) return;
      gathering.flush();
      delivery.close();
      closed = true;
    },
  };
}
