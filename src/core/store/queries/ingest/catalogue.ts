// The ingest's catalogue of the service: its sports, and how many events each sport has over time (coverage samples).
import type Database from 'better-sqlite3';
import type { Coverage, Sport } from '../../../../shared/api';

export interface CatalogueWrites {
  sports(sports: readonly Sport[]): void;
  coverage(coverage: Coverage, at: number): void;
}

/** The statements of sports and coverage samples (each run inside the caller's transaction). */
export function createCatalogueWrites(db: Database.Database): CatalogueWrites {
  const upsertSport = db.prepare<[number, string]>(
    `INSERT INTO sports (sport_id, name) VALUES (?, ?) ON CONFLICT(sport_id) DO UPDATE SET name = excluded.name`,
  );
  const insertCoverage = db.prepare<[number, string, number]>(`
    INSERT INTO coverage_samples (at, sport_name, event_count) VALUES (?, ?, ?)
    ON CONFLICT(at, sport_name) DO UPDATE SET event_count = excluded.event_count`);
  return {
    sports(sports) {
      for (const s of sports) upsertSport.run(s.sport_id, s.name);
    },
    coverage(coverage, at) {
      for (const [sport, count] of Object.entries(coverage.standard)) insertCoverage.run(at, sport, count);
    },
  };
}
