// What the store (./writer.ts) and its writer thread (./writerWorker.ts) say to each other, and the layout of the
// control block they share.
import type { AppliedMessage, WriteCommand } from './writeCommands';

/** Int32 slots of the control block. */
/** The number of the last message the thread is done with (committed, skipped as done before, or failed). */
export const ACKED = 0;
/** The thread closed its connection (after a close message, once every message before it was done). */
export const CLOSED = 1;
/** The thread could not open the store. */
export const DEAD = 2;
export const CONTROL_SLOTS = 3;

export interface WriterWorkerData {
  path: string;
  nativeBinding?: string;
  /** The store's open of the file: the key of its progress (migration 008). */
  run: string;
  control: SharedArrayBuffer;
  /** PRAGMA wal_autocheckpoint for the thread's connection: 0 while the store's checkpointer runs. */
  autocheckpoint: number;
  /**
   * PRAGMA journal_size_limit for the thread's connection (bytes). Under a steady load this is the connection whose
   * commit starts the log over, and SQLite cuts the -wal file back to the limit only there: without it the file stays
   * as large as the longest stretch the checkpointer was behind (hundreds of MB in a 2,000 moves/s soak).
   */
  journalSizeLimit: number;
  /** Tests: ms the thread waits before each message (a slow disk). */
  slowMs?: number;
}

export type WriterMessage = { type: 'write'; seq: number; commands: readonly WriteCommand[] } | { type: 'close' };

export type WriterReply = { type: 'acked'; seq: number } & AppliedMessage;
