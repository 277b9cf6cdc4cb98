// Migration 002: what the offline review needs to be fast and what the app keeps of its own: denormalised
// search columns on settlements (folded team text, full-match moneyline result) backfilled from existing rows,
// the settlements query indexes and the trigram team index, the alert log and the settings table that refuses secrets.
import type { Migration } from './types';
import { FOLD_TEXT_SQL_FUNCTION, SECRET_NAME_GLOBS } from '../queries/sqlFunctions';

// A CHECK is the last line of defence against storing the key: even raw SQL cannot insert such a name.
const secretCheck = SECRET_NAME_GLOBS.map((g) => `lower(name) NOT GLOB '${g}'`).join(' AND ');

export const migration002: Migration = {
  version: 2,
  name: 'settlement search, alert log, settings',
  up(db) {
    db.exec(`
      -- The team search folds case once at write time, so a query is one instr() over an index-narrowed range.
      ALTER TABLE settlements ADD COLUMN teams TEXT NOT NULL DEFAULT '';
      -- The full-match moneyline result, copied from its line: "home won" is the filter traders use most.
      ALTER TABLE settlements ADD COLUMN ml_home TEXT;
      ALTER TABLE settlements ADD COLUMN ml_draw TEXT;
      ALTER TABLE settlements ADD COLUMN ml_away TEXT;

      UPDATE settlements SET teams = ${FOLD_TEXT_SQL_FUNCTION}(runner_home || char(10) || runner_away);
      UPDATE settlements SET (ml_home, ml_draw, ml_away) = (
        SELECT l.outcome_home, l.outcome_draw, l.outcome_away FROM settlement_lines l
        WHERE l.event_id = settlements.event_id AND l.market = 'moneyline' AND l.period = 0
        ORDER BY l.line_id LIMIT 1
      );

      -- Keyset paging newest first within a sport or league; the rowid (event_id) breaks ties inside the index.
      -- ml_home and teams ride along so the count of "sport + home result" or "league + team text" never reads
      -- the table: a team search inside a sport scans only that sport's index entries.
      CREATE INDEX settlements_by_sport ON settlements(sport_id, settled_at, ml_home, teams);
      CREATE INDEX settlements_by_league ON settlements(league_id, settled_at, ml_home, teams);

      -- Substring search over runner names across all sports without a scan: a trigram index keyed by event_id.
      CREATE VIRTUAL TABLE settlement_teams USING fts5(teams, tokenize = 'trigram');
      INSERT INTO settlement_teams (rowid, teams) SELECT event_id, teams FROM settlements;

      CREATE TABLE alert_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at INTEGER NOT NULL,
        kind TEXT NOT NULL,
        event_id INTEGER,
        special_id INTEGER,
        contestant_id INTEGER,
        message TEXT NOT NULL,
        data TEXT
      );
      CREATE INDEX alert_log_by_time ON alert_log(at);

      CREATE TABLE settings (
        name TEXT PRIMARY KEY CHECK (${secretCheck}),
        value TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
    `);
  },
};
