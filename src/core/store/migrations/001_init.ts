// Migration 001: the core tables of the store (events, lines and ticks, specials, outrights, settlements,
// results, periods, coverage, the settled cursor, the watchlist). Times are Unix ms except the settled cursor,
// which is the service's opaque integer.
import type { Migration } from './types';

export const migration001: Migration = {
  version: 1,
  name: 'core tables',
  up(db) {
    db.exec(`
      CREATE TABLE sports (
        sport_id INTEGER PRIMARY KEY,
        name TEXT NOT NULL
      );

      -- Every event we met, from fixtures, streams or settlements; details may arrive later than the id.
      CREATE TABLE events (
        event_id INTEGER PRIMARY KEY,
        sport_id INTEGER,
        sport_name TEXT,
        league_id INTEGER,
        league_name TEXT,
        runner_home TEXT,
        runner_away TEXT,
        starts INTEGER,
        live_status INTEGER,
        score_home INTEGER,
        score_away INTEGER,
        source TEXT NOT NULL,
        first_seen INTEGER NOT NULL,
        last_seen INTEGER NOT NULL
      );

      -- Latest state of each market line; the history is in odds_ticks.
      CREATE TABLE market_lines (
        event_id INTEGER NOT NULL REFERENCES events(event_id),
        line_id INTEGER NOT NULL,
        period INTEGER NOT NULL,
        market TEXT NOT NULL,
        side TEXT,
        line REAL,
        price_home REAL,
        price_draw REAL,
        price_away REAL,
        price_over REAL,
        price_under REAL,
        max_win REAL,
        offline INTEGER NOT NULL DEFAULT 0,
        updated_at TEXT,
        seen_at INTEGER NOT NULL,
        PRIMARY KEY (event_id, line_id)
      ) WITHOUT ROWID;

      -- The hottest table. No foreign key: the ingest writes the line first in the same transaction, and a
      -- per-row parent lookup would cost a third of the ingest rate. Retention deletes its oldest rowids first.
      CREATE TABLE odds_ticks (
        event_id INTEGER NOT NULL,
        line_id INTEGER NOT NULL,
        at INTEGER NOT NULL,
        line REAL,
        price_home REAL,
        price_draw REAL,
        price_away REAL,
        price_over REAL,
        price_under REAL,
        max_win REAL
      );
      CREATE INDEX odds_ticks_by_line ON odds_ticks(event_id, line_id, at);

      -- Score and live-state change points (only changes are written, so they are kept for good).
      CREATE TABLE live_states (
        event_id INTEGER NOT NULL REFERENCES events(event_id),
        at INTEGER NOT NULL,
        live_status INTEGER,
        score_home INTEGER,
        score_away INTEGER,
        PRIMARY KEY (event_id, at)
      ) WITHOUT ROWID;

      -- Specials: event_id is null for tournament futures, so no foreign key to events.
      CREATE TABLE specials (
        special_id INTEGER PRIMARY KEY,
        event_id INTEGER,
        sport_id INTEGER,
        league_id INTEGER,
        bet_type TEXT,
        special_name TEXT,
        category TEXT,
        units TEXT,
        period INTEGER,
        starts TEXT,
        cutoff TEXT,
        runner_home TEXT,
        runner_away TEXT,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX specials_by_event ON specials(event_id);

      -- last_tick_at / last_max_win survive tick retention, so change detection never depends on old ticks.
      CREATE TABLE special_contestants (
        special_id INTEGER NOT NULL REFERENCES specials(special_id),
        contestant_id INTEGER NOT NULL,
        contestant_name TEXT,
        last_tick_at INTEGER,
        last_max_win REAL,
        PRIMARY KEY (special_id, contestant_id)
      ) WITHOUT ROWID;

      CREATE TABLE special_ticks (
        special_id INTEGER NOT NULL,
        contestant_id INTEGER NOT NULL,
        at INTEGER NOT NULL,
        handicap REAL,
        odds REAL,
        todds REAL,
        max_win REAL
      );
      CREATE INDEX special_ticks_by_contestant ON special_ticks(special_id, contestant_id, at);

      CREATE TABLE max_win_points (
        special_id INTEGER NOT NULL,
        contestant_id INTEGER NOT NULL,
        at INTEGER NOT NULL,
        event_id INTEGER,
        max_win REAL NOT NULL,
        previous_max_win REAL,
        odds REAL,
        todds REAL,
        PRIMARY KEY (special_id, contestant_id, at)
      ) WITHOUT ROWID;

      CREATE TABLE true_odds_records (
        special_id INTEGER NOT NULL,
        contestant_id INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('opening', 'closing')),
        model TEXT NOT NULL,
        true_odds REAL NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (special_id, contestant_id, kind, model)
      ) WITHOUT ROWID;

      CREATE TABLE outright_markets (
        special_id INTEGER PRIMARY KEY,
        event_id INTEGER NOT NULL,
        special_name TEXT NOT NULL,
        cutoff TEXT,
        sport_id INTEGER,
        sport_name TEXT,
        league_id INTEGER,
        league_name TEXT,
        home TEXT,
        away TEXT,
        starts TEXT,
        live_status INTEGER,
        updated_at INTEGER NOT NULL
      );

      CREATE TABLE outright_contestants (
        special_id INTEGER NOT NULL REFERENCES outright_markets(special_id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        handicap REAL,
        odds REAL,
        todds REAL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (special_id, name)
      ) WITHOUT ROWID;

      -- line_count lets any reader check that every line of a settlement is present.
      CREATE TABLE settlements (
        event_id INTEGER PRIMARY KEY REFERENCES events(event_id),
        sport_id INTEGER NOT NULL,
        league_id INTEGER NOT NULL,
        league_name TEXT NOT NULL,
        runner_home TEXT NOT NULL,
        runner_away TEXT NOT NULL,
        starts INTEGER NOT NULL,
        score_home INTEGER NOT NULL,
        score_away INTEGER NOT NULL,
        status TEXT NOT NULL,
        settled_at INTEGER NOT NULL,
        line_count INTEGER NOT NULL,
        stored_at INTEGER NOT NULL
      );
      CREATE INDEX settlements_by_time ON settlements(settled_at);

      CREATE TABLE settlement_lines (
        event_id INTEGER NOT NULL REFERENCES settlements(event_id) ON DELETE CASCADE,
        line_id INTEGER NOT NULL,
        period INTEGER NOT NULL,
        market TEXT NOT NULL,
        line REAL,
        outcome_home TEXT NOT NULL,
        outcome_draw TEXT NOT NULL,
        outcome_away TEXT NOT NULL,
        PRIMARY KEY (event_id, line_id)
      ) WITHOUT ROWID;

      CREATE TABLE period_results (
        event_id INTEGER NOT NULL,
        period INTEGER NOT NULL,
        status INTEGER NOT NULL,
        score_home INTEGER,
        score_away INTEGER,
        sets_home INTEGER,
        sets_away INTEGER,
        settlement_id INTEGER NOT NULL,
        cancellation_reason TEXT,
        timestamp INTEGER,
        PRIMARY KEY (event_id, period)
      ) WITHOUT ROWID;

      CREATE TABLE periods (
        period INTEGER PRIMARY KEY,
        description TEXT NOT NULL
      );

      CREATE TABLE coverage_samples (
        at INTEGER NOT NULL,
        sport_name TEXT NOT NULL,
        event_count INTEGER NOT NULL,
        PRIMARY KEY (at, sport_name)
      ) WITHOUT ROWID;

      -- One row: the /api/settled cursor, written in the same transaction as the settlements it covers.
      CREATE TABLE settled_cursor (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        cursor INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );

      CREATE TABLE watchlist (
        event_id INTEGER PRIMARY KEY,
        added_at INTEGER NOT NULL
      );
    `);
  },
};
