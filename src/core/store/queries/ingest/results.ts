// The ingest's period results (a match's result per period, corrections included) and the service's period names.
import type Database from 'better-sqlite3';
import { parseServiceTime, type Period, type PeriodResult } from '../../../../shared/api';

type ResultParams = Omit<PeriodResult, 'timestamp'> & { timestamp: number | null };

export interface ResultWrites {
  periodResults(results: readonly PeriodResult[]): void;
  periods(periods: readonly Period[]): void;
}

/** The statements of period results and periods (each run inside the caller's transaction). */
export function createResultWrites(db: Database.Database): ResultWrites {
  // A correction carries a higher settlement_id; a replay of an older one is ignored.
  const upsertResult = db.prepare<ResultParams>(`
    INSERT INTO period_results (event_id, period, status, score_home, score_away, sets_home, sets_away,
                                settlement_id, cancellation_reason, timestamp)
    VALUES (@event_id, @period, @status, @score_home, @score_away, @sets_home, @sets_away, @settlement_id,
            @cancellation_reason, @timestamp)
    ON CONFLICT(event_id, period) DO UPDATE SET
      status = excluded.status, score_home = excluded.score_home, score_away = excluded.score_away,
      sets_home = excluded.sets_home, sets_away = excluded.sets_away, settlement_id = excluded.settlement_id,
      cancellation_reason = excluded.cancellation_reason, timestamp = excluded.timestamp
    WHERE excluded.settlement_id >= period_results.settlement_id`);
  const upsertPeriod = db.prepare<[number, string]>(
    `INSERT INTO periods (period, description) VALUES (?, ?)
     ON CONFLICT(period) DO UPDATE SET description = excluded.description`,
  );
  return {
    periodResults(results) {
      for (const r of results) {
        upsertResult.run({
          event_id: r.event_id,
          period: r.period,
          status: r.status,
          score_home: r.score_home,
          score_away: r.score_away,
          sets_home: r.sets_home,
          sets_away: r.sets_away,
          settlement_id: r.settlement_id,
          cancellation_reason: r.cancellation_reason,
          timestamp: r.timestamp ? parseServiceTime(r.timestamp) : null,
        });
      }
    },
    periods(periods) {
      for (const p of periods) upsertPeriod.run(p.period, p.description);
    },
  };
}
