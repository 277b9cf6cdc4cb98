// The store's writer thread (started by ./writer.ts): its own connection to the store's file, on which it applies the
// messages the store hands it (./writeCommands.ts), one transaction each, in the order they came. After each commit
// it says how far it got twice: in the control block the store shares with it (which the store can read while it
// waits for room, without its event loop) and in a message (which settles the store's promises).
//
// Bundled as its own entry (scripts/build-cli.mjs, electron.vite.config.ts), beside the module that opens the store.
// Only the store's own files and better-sqlite3 go in: nothing that knows Electron, the network or the key.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { registerSqlFunctions } from '../queries/sqlFunctions';
import { createApplier, type WriteCommand } from './writeCommands';
import { ACKED, CLOSED, DEAD, type WriterMessage, type WriterReply, type WriterWorkerData } from './writerProtocol';

const data = workerData as WriterWorkerData;
const control = new Int32Array(data.control);
const port = parentPort;
if (!port) throw new Error('the store writer runs as a worker thread');

const slow = data.slowMs ? new Int32Array(new SharedArrayBuffer(4)) : null;

let db: Database.Database | null = null;
try {
  db = new Database(data.path, {
    fileMustExist: true,
    ...(data.nativeBinding ? { nativeBinding: data.nativeBinding } : {}),
  });
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // The store's own connection may hold the write lock for a moment (a settlement page, compaction): wait for it.
  db.pragma('busy_timeout = 5000');
  db.pragma(`wal_autocheckpoint = ${data.autocheckpoint}`);
  db.pragma(`journal_size_limit = ${data.journalSizeLimit}`);
  registerSqlFunctions(db);
} catch (e) {
  Atomics.store(control, DEAD, 1);
  db?.close();
  throw e;
}
const open = db;
const apply = createApplier(open, data.run, Date.now);

port.on('message', (m: WriterMessage) => {
  if (m.type === 'close') {
    open.close();
    Atomics.store(control, CLOSED, 1);
    Atomics.notify(control, CLOSED);
    port.close();
    return;
  }
  if (slow) Atomics.wait(slow, 0, 0, data.slowMs);
  const reply: WriterReply = { type: 'acked', seq: m.seq, ...apply(m.seq, m.commands as readonly WriteCommand[]) };
  Atomics.store(control, ACKED, m.seq);
  Atomics.notify(control, ACKED);
  port.postMessage(reply);
});
