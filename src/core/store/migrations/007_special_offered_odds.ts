// Migration 007: the offered odds of a special's opening and closing records. A special's CLV is what a trader could
// have bet at the open (the opening record's `odds`) against the fair close under each model; the true-odds records
// kept only the fair prices, and the raw ticks that also hold the offered odds are trimmed by retention (the opening
// tick first of all). Existing records take the odds of the tick or max_win change point at the same instant, where
// one is still kept; otherwise the odds stay unknown (NULL) and that CLV is not shown.
import type { Migration } from './types';

export const migration007: Migration = {
  version: 7,
  name: 'offered odds of specials opening and closing records',
  up(db) {
    db.exec(`
      ALTER TABLE true_odds_records ADD COLUMN odds REAL;
      UPDATE true_odds_records SET odds = coalesce(
        (SELECT t.odds FROM special_ticks t
          WHERE t.special_id = true_odds_records.special_id AND t.contestant_id = true_odds_records.contestant_id
            AND t.at = true_odds_records.at
          LIMIT 1),
        (SELECT p.odds FROM max_win_points p
          WHERE p.special_id = true_odds_records.special_id AND p.contestant_id = true_odds_records.contestant_id
            AND p.at = true_odds_records.at));
    `);
  },
};
