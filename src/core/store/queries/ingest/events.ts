// The ingest's events: what the service says of a match (a fixture, a snapshot's header, a settlement, an outright),
// the ids found naming another match, and a match's live state (status and score, with its history).
import type Database from 'better-sqlite3';
import { parseServiceTime } from '../../../../shared/api';
import { describesAnotherMatch } from '../../../../shared/eventIdentity';

/** What the service says of an event where it describes one (a fixture, a snapshot's header, a settlement). */
export interface EventDescription {
  event_id: number;
  sport_id?: number | null;
  sport_name?: string | null;
  league_id?: number | null;
  league_name?: string | null;
  runner_home?: string | null;
  runner_away?: string | null;
  starts?: string | null;
  live_status?: number | null;
}

export type DescriptionSource = 'stream' | 'fixture' | 'settlement' | 'outright';

/** An event's description as its statements bind it. */
export interface EventParams {
  event_id: number;
  sport_id: number | null;
  sport_name: string | null;
  league_id: number | null;
  league_name: string | null;
  runner_home: string | null;
  runner_away: string | null;
  starts: number | null;
  live_status: number | null;
  source: DescriptionSource;
  at: number;
}

export function eventParams(e: EventDescription, source: DescriptionSource, at: number): EventParams {
  return {
    event_id: e.event_id,
    sport_id: e.sport_id ?? null,
    sport_name: e.sport_name ?? null,
    league_id: e.league_id ?? null,
    league_name: e.league_name ?? null,
    runner_home: e.runner_home ?? null,
    runner_away: e.runner_away ?? null,
    starts: e.starts ? parseServiceTime(e.starts) : null,
    live_status: e.live_status ?? null,
    source,
    at,
  };
}

export interface EventWrites {
  /**
   * The one judgement of an id's match (Ingest.namesAnotherMatch): flagged before, or named another match now (then
   * flagged for good).
   */
  namesAnotherMatch(p: EventParams): boolean;
  /** Stores what the service says of an event, unless its id names another match than the stored one (true then). */
  describe(p: EventParams): boolean;
  /** The event was seen from `first` to `last` (a bare id from a stream). */
  touch(eventId: number, first: number, last: number): void;
  /** The event's status and score at `at`, kept in its history when they changed. */
  liveState(
    eventId: number,
    at: number,
    liveStatus: number | null,
    scoreHome: number | null,
    scoreAway: number | null,
  ): void;
}

interface IdentityRow {
  sport_id: number | null;
  runner_home: string | null;
  runner_away: string | null;
  starts: number | null;
}

interface LiveStateRow {
  live_status: number | null;
  score_home: number | null;
  score_away: number | null;
}

type LiveStateParams = LiveStateRow & { event_id: number; at: number };

export function createEventWrites(db: Database.Database): EventWrites {
  // Details only ever fill in: a bare id from a stream never erases names a fixture gave us.
  const upsertEvent = db.prepare<EventParams>(`
    INSERT INTO events (event_id, sport_id, sport_name, league_id, league_name, runner_home, runner_away, starts,
                        live_status, source, first_seen, last_seen)
    VALUES (@event_id, @sport_id, @sport_name, @league_id, @league_name, @runner_home, @runner_away, @starts,
            @live_status, @source, @at, @at)
    ON CONFLICT(event_id) DO UPDATE SET
      sport_id = coalesce(excluded.sport_id, sport_id),
      sport_name = coalesce(excluded.sport_name, sport_name),
      league_id = coalesce(excluded.league_id, league_id),
      league_name = coalesce(excluded.league_name, league_name),
      runner_home = coalesce(excluded.runner_home, runner_home),
      runner_away = coalesce(excluded.runner_away, runner_away),
      starts = coalesce(excluded.starts, starts),
      live_status = coalesce(excluded.live_status, live_status),
      last_seen = max(last_seen, excluded.last_seen)`);
  const storedIdentity = db.prepare<[number], IdentityRow>(
    `SELECT sport_id, runner_home, runner_away, starts FROM events WHERE event_id = ?`,
  );
  const isOtherMatch = db.prepare<[number], number>(`SELECT 1 FROM other_matches WHERE event_id = ?`).pluck();
  // The first description that named another match is kept: the flag never moves to a third.
  const flagOtherMatch = db.prepare<EventParams>(`
    INSERT INTO other_matches (event_id, sport_id, sport_name, runner_home, runner_away, starts, source, seen_at)
    VALUES (@event_id, @sport_id, @sport_name, @runner_home, @runner_away, @starts, @source, @at)
    ON CONFLICT(event_id) DO NOTHING`);
  const touchEvent = db.prepare<[number, number, number]>(`
    INSERT INTO events (event_id, source, first_seen, last_seen) VALUES (?, 'stream', ?, ?)
    ON CONFLICT(event_id) DO UPDATE SET last_seen = max(last_seen, excluded.last_seen)`);
  const currentLiveState = db.prepare<[number], LiveStateRow>(
    `SELECT live_status, score_home, score_away FROM events WHERE event_id = ?`,
  );
  const setLiveState = db.prepare<LiveStateParams>(
    `UPDATE events SET live_status = @live_status, score_home = @score_home, score_away = @score_away
     WHERE event_id = @event_id`,
  );
  const insertLiveState = db.prepare<LiveStateParams>(`
    INSERT INTO live_states (event_id, at, live_status, score_home, score_away)
    VALUES (@event_id, @at, @live_status, @score_home, @score_away)
    ON CONFLICT(event_id, at) DO UPDATE SET
      live_status = excluded.live_status, score_home = excluded.score_home, score_away = excluded.score_away`);

  /**
   * Whether the service now describes this id as another match than the one stored (../../../../shared/eventIdentity.ts):
   * then nothing of it is merged into the stored match, neither its description nor its settlement.
   */
  function anotherMatch(p: EventParams): boolean {
    const was = storedIdentity.get(p.event_id);
    if (!was) return false;
    return describesAnotherMatch(
      { sportId: was.sport_id, runnerHome: was.runner_home, runnerAway: was.runner_away, starts: was.starts },
      { sportId: p.sport_id, runnerHome: p.runner_home, runnerAway: p.runner_away, starts: p.starts },
    );
  }

  function namesAnotherMatch(p: EventParams): boolean {
    if (isOtherMatch.get(p.event_id) !== undefined) return true;
    if (!anotherMatch(p)) return false;
    flagOtherMatch.run(p);
    return true;
  }

  return {
    namesAnotherMatch,
    describe(p) {
      if (namesAnotherMatch(p)) return true;
      upsertEvent.run(p);
      return false;
    },
    touch: (eventId, first, last) => void touchEvent.run(eventId, first, last),
    liveState(eventId, at, liveStatus, scoreHome, scoreAway) {
      const cur = currentLiveState.get(eventId);
      if (cur && cur.live_status === liveStatus && cur.score_home === scoreHome && cur.score_away === scoreAway) return;
      const state = { event_id: eventId, at, live_status: liveStatus, score_home: scoreHome, score_away: scoreAway };
      setLiveState.run(state);
      insertLiveState.run(state);
    },
  };
}
