// Migration 012: the model scoreboard's sums kept per match (issue 37: the Models view on six months of history).
// `model_score_matches` holds, per match with a closed line, how many lines closed, how many of them settled, and the
// match's sums as the scorer makes them (src/core/report/scoreboard.ts matchSums: a Float64Array's bytes; null when
// nothing in it is scored), so a scoring run reads a row per match instead of every line. Triggers mark a match stale
// in `model_score_stale` whenever anything its sums are made of is written (a close, a settlement or re-settlement,
// a settled line, a team total's team); the report room scores the stale matches again and clears a mark only if it
// was not set again meanwhile (`n` counts the marks). This migration marks every match with a closed line stale: the
// host scores them as the last step of the upgrade (src/core/report/keep.ts), with its progress on screen.
//
// Also an index for the sport names the views read (events' own sport names, DISTINCT over the index instead of
// reading the whole table).
import type { Migration } from './types';

const mark = (id: string) =>
  `INSERT INTO model_score_stale (event_id) VALUES (${id}) ON CONFLICT(event_id) DO UPDATE SET n = n + 1;`;
// The match has a closed line (or had: its kept sums must go).
const hasCloses = (id: string) =>
  `(EXISTS (SELECT 1 FROM line_closes WHERE event_id = ${id} AND closed_at IS NOT NULL) OR EXISTS (SELECT 1 FROM model_score_matches WHERE event_id = ${id}))`;
const lineClosed = (row: string) =>
  `EXISTS (SELECT 1 FROM line_closes WHERE event_id = ${row}.event_id AND line_id = ${row}.line_id AND closed_at IS NOT NULL)`;

export const migration012: Migration = {
  version: 12,
  name: 'model scoreboard sums per match',
  up(db) {
    db.exec(`
      CREATE TABLE model_score_matches (
        event_id INTEGER PRIMARY KEY,
        -- the match's closed lines, and of them those with a settled line
        closed INTEGER NOT NULL,
        settled INTEGER NOT NULL,
        -- the scorer's sums for the match (bytes of a Float64Array); null: no line of it scored
        sums BLOB
      );
      CREATE TABLE model_score_stale (
        event_id INTEGER PRIMARY KEY,
        -- how many times it was marked: a mark is cleared only by a refresh that read it at this count
        n INTEGER NOT NULL DEFAULT 1
      );

      CREATE TRIGGER model_score_close_in AFTER INSERT ON line_closes WHEN new.closed_at IS NOT NULL
        BEGIN ${mark('new.event_id')} END;
      -- (An update marks the row's match: the store never rewrites a row's event id.)
      -- An open line's price ops (most writes to the table) do not touch the scoreboard: only closed lines count.
      CREATE TRIGGER model_score_close_up AFTER UPDATE ON line_closes WHEN old.closed_at IS NOT NULL OR new.closed_at IS NOT NULL
        BEGIN ${mark('new.event_id')} END;
      CREATE TRIGGER model_score_close_out AFTER DELETE ON line_closes WHEN old.closed_at IS NOT NULL
        BEGIN ${mark('old.event_id')} END;

      CREATE TRIGGER model_score_settlement_in AFTER INSERT ON settlements WHEN ${hasCloses('new.event_id')}
        BEGIN ${mark('new.event_id')} END;
      CREATE TRIGGER model_score_settlement_up AFTER UPDATE ON settlements WHEN ${hasCloses('new.event_id')}
        BEGIN ${mark('new.event_id')} END;
      CREATE TRIGGER model_score_settlement_out AFTER DELETE ON settlements WHEN ${hasCloses('old.event_id')}
        BEGIN ${mark('old.event_id')} END;

      CREATE TRIGGER model_score_settled_line_in AFTER INSERT ON settlement_lines WHEN ${lineClosed('new')}
        BEGIN ${mark('new.event_id')} END;
      CREATE TRIGGER model_score_settled_line_up AFTER UPDATE ON settlement_lines WHEN ${lineClosed('new')} OR ${lineClosed('old')}
        BEGIN ${mark('new.event_id')} END;
      CREATE TRIGGER model_score_settled_line_out AFTER DELETE ON settlement_lines WHEN ${lineClosed('old')}
        BEGIN ${mark('old.event_id')} END;

      -- A team total's team settles its quarter lines.
      CREATE TRIGGER model_score_team_in AFTER INSERT ON market_lines WHEN new.side IS NOT NULL AND ${lineClosed('new')}
        BEGIN ${mark('new.event_id')} END;
      CREATE TRIGGER model_score_team_up AFTER UPDATE OF side ON market_lines WHEN old.side IS NOT new.side AND ${lineClosed('new')}
        BEGIN ${mark('new.event_id')} END;

      INSERT INTO model_score_stale (event_id) SELECT DISTINCT event_id FROM line_closes WHERE closed_at IS NOT NULL;

      CREATE INDEX events_by_sport_name ON events(sport_id, sport_name);
    `);
  },
};
