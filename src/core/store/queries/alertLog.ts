// The alert log: its writes and its pages. An alert's number is given when it fires, not when it is committed: the
// price and drop alerts of a busy minute are written by the store's writer thread (../threads/writer.ts) after they went to the
// screen with their numbers, while other alerts (a settlement's, in the transaction that stores the settlement) are
// written on the store's own connection. One counter per open store hands the numbers out to both, so they never clash
// within the process. A file written by two programs at once (another recorder on the same file) can still clash: such
// an alert is stored under a fresh number and the clash is said, never an alert lost.
import type Database from 'better-sqlite3';
import type { AlertRecord, NewAlert } from '../../../shared/domain';

export interface AlertLog {
  /** The record of an alert firing now (or at `a.at`): its number taken from the counter. */
  record(a: NewAlert): AlertRecord;
  /** Writes a record; returns the number it was stored under if another program had taken its own. */
  write(r: AlertRecord): { clashedTo: number | null };
  /**
   * A fired alert's words and data again (a drop episode that grew): the row keeps its number, time and kind. An
   * alert stored under another number (a clash) is updated there. False: no row has that number (not written yet).
   */
  update(u: AlertUpdate): boolean;
  /** Numbers from here on are free (after a clash moved past the other program's). */
  skipTo(next: number): void;
}

/** What an update of a fired alert changes: its words and its data, by its number. */
export interface AlertUpdate {
  id: number;
  message: string;
  data: unknown;
}

/** The next free number of the file's alert log (AUTOINCREMENT: never one a deleted alert had). */
function nextFree(db: Database.Database): number {
  const seq = db.prepare<[], number>(`SELECT seq FROM sqlite_sequence WHERE name = 'alert_log'`).pluck().get();
  const max = db.prepare<[], number | null>(`SELECT max(id) FROM alert_log`).pluck().get();
  return Math.max(seq ?? 0, max ?? 0) + 1;
}

/** The store's alert log: `counter` is the open store's (shared by its connection and its writer thread's). */
export function createAlertLog(db: Database.Database, clock: () => number, counter: { next: number }): AlertLog {
  const insert = db.prepare(`
    INSERT INTO alert_log (id, at, kind, event_id, special_id, contestant_id, message, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT(id) DO NOTHING`);
  const update = db.prepare(`UPDATE alert_log SET message = ?, data = ? WHERE id = ?`);
  /** Alerts this connection stored under another number (a clash): their updates follow them. Few, and rare. */
  const moved = new Map<number, number>();
  return {
    record(a) {
      return {
        id: counter.next++,
        at: a.at ?? clock(),
        kind: a.kind,
        eventId: a.eventId ?? null,
        specialId: a.specialId ?? null,
        contestantId: a.contestantId ?? null,
        message: a.message,
        data: a.data ?? null,
      };
    },
    write(r) {
      const args = [
        r.at,
        r.kind,
        r.eventId,
        r.specialId,
        r.contestantId,
        r.message,
        r.data === null || r.data === undefined ? null : JSON.stringify(r.data),
      ];
      if (insert.run(r.id, ...args).changes === 1) return { clashedTo: null };
      const id = Number(insert.run(null, ...args).lastInsertRowid);
      counter.next = Math.max(counter.next, id + 1);
      moved.set(r.id, id);
      return { clashedTo: id };
    },
    update(u) {
      const data = u.data === null || u.data === undefined ? null : JSON.stringify(u.data);
      return update.run(u.message, data, moved.get(u.id) ?? u.id).changes === 1;
    },
    skipTo(next) {
      counter.next = Math.max(counter.next, next);
    },
  };
}

/** A counter for a store just opened. */
export const alertCounter = (db: Database.Database): { next: number } => ({ next: nextFree(db) });

/** The alert log as the store's callers see it: an alert fired on the store's own connection, and the log's pages. */
export interface AlertStore {
  appendAlert(alert: NewAlert): AlertRecord;
  /** Newest first; `beforeId` pages further back. */
  listAlerts(opts?: { limit?: number; beforeId?: number }): AlertRecord[];
}

interface AlertDbRow {
  id: number;
  at: number;
  kind: string;
  event_id: number | null;
  special_id: number | null;
  contestant_id: number | null;
  message: string;
  data: string | null;
}

const alertFromRow = (r: AlertDbRow): AlertRecord => ({
  id: r.id,
  at: r.at,
  kind: r.kind,
  eventId: r.event_id ?? null,
  specialId: r.special_id ?? null,
  contestantId: r.contestant_id ?? null,
  message: r.message,
  data: r.data === null ? null : JSON.parse(r.data),
});

export function createAlertStore(db: Database.Database, log: AlertLog): AlertStore {
  const listAlerts = db.prepare<[number, number], AlertDbRow>(
    `SELECT * FROM alert_log WHERE id < ? ORDER BY id DESC LIMIT ?`,
  );
  return {
    appendAlert(a) {
      const r = log.record(a);
      const { clashedTo } = log.write(r);
      return clashedTo === null ? r : { ...r, id: clashedTo };
    },
    listAlerts(opts = {}) {
      return listAlerts.all(opts.beforeId ?? Number.MAX_SAFE_INTEGER, opts.limit ?? 100).map(alertFromRow);
    },
  };
}
