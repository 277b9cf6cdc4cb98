// Migration 008: how far the store's writer got. The writer thread (../threads/writer.ts) commits each message the store hands
// it together with the message's number, keyed by the store's run (one open of the file); a thread that crashes and
// is started again, or the store writing inline after it gave up on the thread, reads how far that run's messages
// were committed and skips them, so a message is applied once, never twice and never not at all.
import type { Migration } from './types';

export const migration008: Migration = {
  version: 8,
  name: 'writer progress',
  up(db) {
    db.exec(`
      CREATE TABLE writer_progress (
        run TEXT PRIMARY KEY,
        seq INTEGER NOT NULL,
        at INTEGER NOT NULL
      );
    `);
  },
};
