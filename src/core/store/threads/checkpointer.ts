// The store's WAL checkpoints, off the thread that commits. SQLite's automatic checkpoint runs inside the commit that
// crosses its threshold, on the committing thread, and syncs the database file there: on the host's event loop (the
// Electron main process) that was a 40-50 ms stall about once a second under load. The store turns automatic
// checkpoints off and starts this instead: a worker thread (./checkpointWorker.ts) with its own connection to the same
// file. A second connection on the same thread would not do: a checkpoint copies pages and syncs, and that work
// would block the event loop just the same (measured: bench/checkpoint.ts).
//
// Where the thread's entry is, and how it starts: ./startThread.ts.
import { existsSync } from 'node:fs';
import type { CheckpointWorkerData } from './checkpointWorker';
import { startThread, threadEntry } from './startThread';

export interface CheckpointerOptions {
  path: string;
  nativeBinding?: string;
  /** Between looks at the store (ms). */
  everyMs: number;
  /** Bytes the -wal file is cut back to once the log starts over (PRAGMA journal_size_limit). */
  journalSizeLimit: number;
  /** The thread's entry; default: the one beside this module (see above). */
  entry?: string;
  /** The thread stopped on its own (it could not start, or failed): the store falls back to automatic checkpoints. */
  onFailure: (error: Error) => void;
}

export interface Checkpointer {
  /** Checkpoints the thread has done so far (passive rounds and truncations). */
  done(): number;
  /** Stops the thread and closes its connection before returning (a checkpoint under way finishes first). */
  close(): void;
}

// The control block's layout, shared with ./checkpointWorker.ts.
const STATE = 0;
const STARTED = 1;
const CLOSED = 2;
const DONE = 3;
const STOP = 1;
/** How long close() waits for a checkpoint under way (a large one on a slow disk) before leaving the thread behind. */
const CLOSE_WAIT_MS = 10_000;

/** The thread's entry beside this module (or in `dir`): the bundled .js, else the source .ts. */
export function checkpointWorkerEntry(dir?: string): string {
  return threadEntry('checkpointWorker', "the store's checkpointer", dir);
}

export function startCheckpointer(o: CheckpointerOptions): Checkpointer {
  const control = new Int32Array(new SharedArrayBuffer(4 * Int32Array.BYTES_PER_ELEMENT));
  const workerData: CheckpointWorkerData = {
    path: o.path,
    ...(o.nativeBinding ? { nativeBinding: o.nativeBinding } : {}),
    everyMs: o.everyMs,
    journalSizeLimit: o.journalSizeLimit,
    control: control.buffer as SharedArrayBuffer,
  };
  let closing = false;
  let failed = false;
  const fail = (error: Error) => {
    if (closing || failed) return;
    failed = true;
    o.onFailure(error);
  };
  const entry = o.entry ?? checkpointWorkerEntry();
  // Said now rather than by the thread's failing to load: the store then falls back before its first commit.
  if (!existsSync(entry)) throw new Error(`the store's checkpointer (${entry}) is missing`);
  const worker = startThread(entry, workerData);
  // Never what keeps a process alive: a CLI run that ends without closing its store simply ends.
  worker.unref();
  worker.on('message', (m: { error?: string }) =>
    fail(new Error(`the store's checkpointer failed: ${m.error ?? 'unknown error'}`)),
  );
  worker.on('error', (e) => fail(e));
  worker.on('exit', (code) => fail(new Error(`the store's checkpointer stopped (exit code ${code})`)));

  return {
    done: () => Atomics.load(control, DONE),
    close() {
      if (closing) return;
      closing = true;
      Atomics.store(control, STATE, STOP);
      Atomics.notify(control, STATE);
      // A thread that has started is waited for until its connection is closed, so the store's own close is the last
      // and removes the -wal; one that has not started yet sees the stop before it opens anything, and is let go.
      if (Atomics.load(control, STARTED) === 1) Atomics.wait(control, CLOSED, 0, CLOSE_WAIT_MS);
      void worker.terminate();
    },
  };
}
