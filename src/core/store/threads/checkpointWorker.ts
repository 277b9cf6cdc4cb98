// The checkpointer's thread (started by ./checkpointer.ts): its own connection to the store's file, and nothing else.
// Every few seconds, if the store committed anything since the last look (PRAGMA data_version), a PASSIVE checkpoint
// copies the WAL's pages into the database file and syncs it; passive never waits for the writer or a reader, so the
// store's thread commits on meanwhile. Once the store has been quiet for a whole interval, a TRUNCATE checkpoint
// empties the -wal file. Between looks the thread sleeps in Atomics.wait on the control block the store shares with
// it, which is also how the store stops it: synchronously, so the store can close its own connection (the last one,
// which then removes the -wal) right after.
//
// Self-contained on purpose (better-sqlite3 and Node only): bundled as its own entry (scripts/build-cli.mjs,
// electron.vite.config.ts), it must not pull a shared chunk of the app in.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

/** What the store hands the thread (see ./checkpointer.ts, which owns the layout of `control`). */
export interface CheckpointWorkerData {
  path: string;
  nativeBinding?: string;
  everyMs: number;
  journalSizeLimit: number;
  /** Int32Array over it: [0] state (0 run, 1 stop), [1] started, [2] closed, [3] checkpoints done. */
  control: SharedArrayBuffer;
}

const STATE = 0;
const STARTED = 1;
const CLOSED = 2;
const DONE = 3;
const RUN = 0;
/** Passive passes in a row while the store writes meanwhile: each copies only what the last one could not. */
const MAX_PASSES = 8;
/** After a round that could not copy everything (a busy store, a starved thread), the next look comes this soon. */
const RETRY_MS = 100;

interface CheckpointRow {
  busy: number;
  log: number;
  checkpointed: number;
}

function run(d: CheckpointWorkerData, control: Int32Array): void {
  // Started first, the state read after: either this thread sees a stop that came meanwhile and never opens the file,
  // or the store's close() sees it started and waits for the connection to close.
  Atomics.store(control, STARTED, 1);
  if (Atomics.load(control, STATE) !== RUN) return;
  const db = new Database(d.path, {
    fileMustExist: true,
    ...(d.nativeBinding ? { nativeBinding: d.nativeBinding } : {}),
  });
  try {
    // Never wait on the store's connection: a checkpoint that cannot go now goes at the next look.
    db.pragma('busy_timeout = 0');
    db.pragma(`journal_size_limit = ${d.journalSizeLimit}`);
    const dataVersion = db.prepare('PRAGMA data_version').pluck();
    const passive = db.prepare<[], CheckpointRow>('PRAGMA wal_checkpoint(PASSIVE)');
    const truncate = db.prepare<[], CheckpointRow>('PRAGMA wal_checkpoint(TRUNCATE)');
    let seen = dataVersion.get();
    // The -wal file is empty and nothing was committed since: nothing to do until the store writes again.
    let empty = false;
    let behind = false;
    for (;;) {
      Atomics.wait(control, STATE, RUN, behind ? Math.min(RETRY_MS, d.everyMs) : d.everyMs);
      if (Atomics.load(control, STATE) !== RUN) break;
      const version = dataVersion.get();
      if (version !== seen || behind) {
        seen = version;
        empty = false;
        // Until every frame is in the database: the next commit then starts the log over from its beginning (and
        // cuts the file to journal_size_limit) instead of growing it.
        behind = true;
        for (let pass = 0; pass < MAX_PASSES && behind; pass++) {
          const r = passive.get()!;
          behind = r.log !== r.checkpointed;
        }
        Atomics.add(control, DONE, 1);
      } else if (!empty) {
        // Quiet for a whole interval: fold in what is left and empty the file. Busy (a write or a read is under
        // way) is no error: the next look tries again.
        const r = truncate.get()!;
        if (r.busy === 0) {
          empty = true;
          Atomics.add(control, DONE, 1);
        }
      }
    }
  } finally {
    db.close();
  }
}

const data = workerData as CheckpointWorkerData;
const control = new Int32Array(data.control);
try {
  run(data, control);
} catch (e) {
  // Not shared/errors.ts's errorMessage: this entry stays self-contained (see above), and a thread's failure is an Error.
  parentPort?.postMessage({ error: e instanceof Error ? e.message : String(e) });
} finally {
  Atomics.store(control, CLOSED, 1);
  Atomics.notify(control, CLOSED);
}
