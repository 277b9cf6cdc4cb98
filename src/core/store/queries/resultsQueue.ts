// The results queue: settled matches whose period results are still owed by the service, asked again on a schedule
// (watched matches first) until they come or the attempts run out.
import type Database from 'better-sqlite3';

export interface ResultsQueue {
  /** Notes that a settlement's period results are owed; a watched match goes to the front. */
  oweResults(eventId: number, settledAt: number, watched: boolean): void;
  /** Owed results due at `now`: watched first, then newest settlement first. */
  resultsDue(
    now: number,
    opts: { limit: number; watchedOnly?: boolean },
  ): Array<{ eventId: number; watched: boolean; attempts: number }>;
  /** An attempt that found nothing yet (or failed): ask again after `nextAt`, or give up once `attempts` run out. */
  resultsRetry(eventId: number, nextAt: number, maxAttempts: number): void;
  resultsSettled(eventId: number): void;
  isResultOwed(eventId: number): boolean;
  resultsOwedCount(): number;
}

export function createResultsQueue(db: Database.Database): ResultsQueue {
  const oweResults = db.prepare<[number, number, number, number]>(`
    INSERT INTO results_owed (event_id, settled_at, watched) VALUES (?, ?, ?)
    ON CONFLICT(event_id) DO UPDATE SET watched = max(watched, excluded.watched), next_at = min(next_at, ?)`);
  const resultsDue = db.prepare<[number, number, number], { event_id: number; watched: number; attempts: number }>(`
    SELECT event_id, watched, attempts FROM results_owed WHERE next_at <= ? AND watched >= ?
    ORDER BY watched DESC, settled_at DESC LIMIT ?`);
  const resultsRetry = db.prepare<[number, number]>(
    `UPDATE results_owed SET attempts = attempts + 1, next_at = ? WHERE event_id = ?`,
  );
  const resultsGiveUp = db.prepare<[number, number]>(`DELETE FROM results_owed WHERE event_id = ? AND attempts >= ?`);
  const resultsSettled = db.prepare<[number]>(`DELETE FROM results_owed WHERE event_id = ?`);
  const resultsOwedCount = db.prepare<[], number>(`SELECT count(*) FROM results_owed`).pluck();
  const isResultOwed = db.prepare<[number], number>(`SELECT 1 FROM results_owed WHERE event_id = ?`).pluck();

  return {
    oweResults: (eventId, settledAt, watched) =>
      void oweResults.run(eventId, settledAt, watched ? 1 : 0, watched ? 0 : Number.MAX_SAFE_INTEGER),
    resultsDue(now, opts) {
      const rows = resultsDue.all(now, opts.watchedOnly ? 1 : 0, opts.limit);
      return rows.map((r) => ({ eventId: r.event_id, watched: r.watched === 1, attempts: r.attempts }));
    },
    resultsRetry: (eventId, nextAt, maxAttempts) =>
      db
        .transaction(() => {
          resultsRetry.run(nextAt, eventId);
          resultsGiveUp.run(eventId, maxAttempts);
        })
        .immediate(),
    resultsSettled: (eventId) => void resultsSettled.run(eventId),
    resultsOwedCount: () => resultsOwedCount.get() ?? 0,
    isResultOwed: (eventId) => isResultOwed.get(eventId) !== undefined,
  };
}
