// The reads of events and what the service named around them: an event's header and latest markets, its live
// states, the ids flagged as naming another match, and the reference lists (sports, periods, coverage) as last stored.
// They need no network and no key: this is the offline review.
import type Database from 'better-sqlite3';
import type { CoverageSample, EventView, LiveStatePoint, MarketView } from '../../../shared/domain';
import { eventFromRow, marketFromRow, type EventDbRow, type MarketLineRow } from './rows';

export interface EventReads {
  /** The ids the service now uses for another match than the stored one (OddsWriter.namesAnotherMatch), kept. */
  otherMatchIds(): number[];
  eventView(eventId: number): EventView | null;
  latestMarkets(eventId: number): MarketView[];
  liveStateHistory(eventId: number): LiveStatePoint[];
  latestCoverage(): CoverageSample[];
  periods(): { period: number; description: string }[];
  /** The sports the service named, as last stored (offline sport names and filters). */
  storedSports(): { sport_id: number; name: string }[];
}

interface LiveStateRow {
  at: number;
  live_status: number | null;
  score_home: number | null;
  score_away: number | null;
}

export function createEventReads(db: Database.Database): EventReads {
  const otherMatchIds = db.prepare<[], number>(`SELECT event_id FROM other_matches ORDER BY event_id`).pluck();
  const eventRow = db.prepare<[number], EventDbRow>(`
    SELECT e.event_id, e.sport_id, coalesce(e.sport_name, sp.name) AS sport_name, e.league_id, e.league_name,
           e.runner_home, e.runner_away, e.starts, e.live_status, e.score_home, e.score_away
    FROM events e LEFT JOIN sports sp ON sp.sport_id = e.sport_id WHERE e.event_id = ?`);
  const linesOf = db.prepare<[number], MarketLineRow>(
    `SELECT * FROM market_lines WHERE event_id = ? ORDER BY period, line_id`,
  );
  const liveStates = db.prepare<[number], LiveStateRow>(
    `SELECT at, live_status, score_home, score_away FROM live_states WHERE event_id = ? ORDER BY at`,
  );
  const latestCoverage = db.prepare<[], { at: number; sport_name: string; event_count: number }>(`
    SELECT at, sport_name, event_count FROM coverage_samples
    WHERE at = (SELECT max(at) FROM coverage_samples) ORDER BY sport_name`);
  const periods = db.prepare<[], { period: number; description: string }>(
    `SELECT period, description FROM periods ORDER BY period`,
  );
  const sports = db.prepare<[], { sport_id: number; name: string }>(
    `SELECT sport_id, name FROM sports ORDER BY name, sport_id`,
  );

  return {
    otherMatchIds: () => otherMatchIds.all(),
    eventView(eventId) {
      const r = eventRow.get(eventId);
      return r ? eventFromRow(r) : null;
    },
    latestMarkets: (eventId) => linesOf.all(eventId).map(marketFromRow),
    liveStateHistory(eventId) {
      return liveStates.all(eventId).map((r) => ({
        at: r.at,
        liveStatus: r.live_status ?? null,
        scoreHome: r.score_home ?? null,
        scoreAway: r.score_away ?? null,
      }));
    },
    latestCoverage() {
      return latestCoverage.all().map((r) => ({ at: r.at, sportName: r.sport_name, count: r.event_count }));
    },
    periods: () => periods.all(),
    storedSports: () => sports.all(),
  };
}
