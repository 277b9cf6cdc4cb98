// The store writer's two pieces of explicit state beside its policy (./writer.ts): the messages in flight (numbered,
// kept until the thread is done with them, and the promises that wait on them), and one running thread (its worker,
// the control block it shares, and whether it is still alive).
import type { Worker } from 'node:worker_threads';
import { startThread } from './startThread';
import type { WriteCommand } from './writeCommands';
import { ACKED, CONTROL_SLOTS, type WriterReply, type WriterWorkerData } from './writerProtocol';

export interface Message {
  seq: number;
  commands: readonly WriteCommand[];
}

/** The messages handed over and not yet done, oldest first, and who waits for them. */
export interface InFlight {
  /** The number of the last message handed over. */
  last(): number;
  /** Numbers the next message. */
  next(): number;
  /** Keeps a message handed to the thread until it is done. */
  hold(m: Message): void;
  /** Drops what the thread is done with (up to `acked`), and settles the waits it covers. */
  prune(acked: number): void;
  /** Settles the waits for messages up to `upTo` (done inline, or given up). */
  settle(upTo: number): void;
  /** Resolves once every message handed over so far is done. */
  wait(): Promise<void>;
  /** The messages not yet done, in order. */
  pending(): readonly Message[];
  /** Takes every message not yet done, in order (to apply them elsewhere). */
  takeAll(): Message[];
}

export function createInFlight(): InFlight {
  let seq = 0;
  const unacked: Message[] = [];
  const waiters: Array<{ seq: number; resolve: () => void }> = [];
  const settle = (upTo: number) => {
    while (waiters.length && waiters[0]!.seq <= upTo) waiters.shift()!.resolve();
  };
  return {
    last: () => seq,
    next: () => ++seq,
    hold: (m) => void unacked.push(m),
    prune(acked) {
      while (unacked.length && unacked[0]!.seq <= acked) unacked.shift();
      settle(acked);
    },
    settle,
    wait: () => new Promise((resolve) => waiters.push({ seq, resolve })),
    pending: () => unacked,
    takeAll: () => unacked.splice(0),
  };
}

/** One writer thread while it runs. */
export interface WriterThread {
  worker: Worker;
  control: Int32Array;
  alive: boolean;
}

export interface WriterThreadEvents {
  /** The thread is done with a message. */
  reply(m: WriterReply): void;
  /** The thread stopped (said once, however it went). */
  stopped(why: string): void;
}

/** Starts a thread on `data` (without its control block, which is made here); it does not keep the process alive. */
export function startWriterThread(
  entry: string,
  data: Omit<WriterWorkerData, 'control'>,
  on: WriterThreadEvents,
): WriterThread {
  const control = new Int32Array(new SharedArrayBuffer(CONTROL_SLOTS * Int32Array.BYTES_PER_ELEMENT));
  const worker = startThread(entry, {
    ...data,
    control: control.buffer as SharedArrayBuffer,
  } satisfies WriterWorkerData);
  const t: WriterThread = { worker, control, alive: true };
  worker.on('message', (m: WriterReply) => on.reply(m));
  let ended = false;
  const stopped = (why: string) => {
    if (ended) return;
    ended = true;
    t.alive = false;
    on.stopped(why);
  };
  worker.on('error', (e) => stopped(e.message));
  worker.on('exit', (code) => stopped(`exit code ${code}`));
  worker.unref();
  return t;
}

/** The number of the last message the thread is done with, as its control block says. */
export const ackedBy = (t: WriterThread): number => Atomics.load(t.control, ACKED);
