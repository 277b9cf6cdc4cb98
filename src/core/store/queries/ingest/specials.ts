// The ingest's specials: a special and its contestants (fixtures fill them in, ticks only ever add), each contestant's
// ticks and max_win change points, and its opening and closing true odds (the specials' CLV).
import type Database from 'better-sqlite3';
import {
  DEVIG_MODELS,
  parseServiceTime,
  type DevigModel,
  type SpecialFixture,
  type SpecialTick,
} from '../../../../shared/api';
import type { MaxWinPoint } from '../../../../shared/domain';

type SpecialParams = {
  special_id: number;
  event_id: number | null;
  sport_id: number | null;
  league_id: number | null;
  bet_type: string | null;
  special_name: string;
  category: string | null;
  units: string | null;
  period: number;
  starts: string | null;
  cutoff: string;
  runner_home: string | null;
  runner_away: string | null;
  updated_at: number;
};

type ContestantKey = { special_id: number; contestant_id: number };
type TrueOddsParams = ContestantKey & { model: DevigModel; true_odds: number; at: number; odds: number };
type SpecialTickParams = ContestantKey & { at: number; handicap: number; odds: number; todds: number; max_win: number };
type PointParams = ContestantKey & {
  at: number;
  event_id: number;
  max_win: number;
  previous_max_win: number | null;
  odds: number;
  todds: number;
};
type ContestantState = { last_tick_at: number | null; last_max_win: number | null };

const msOf = (text: string | null | undefined, fallback: number): number =>
  (text ? parseServiceTime(text) : null) ?? fallback;

export interface SpecialWrites {
  fixtures(fixtures: readonly SpecialFixture[], at: number): void;
  /** Stores ticks (inside the caller's transaction), oldest first; returns the contestants' max_win changes. */
  ticks(ticks: readonly SpecialTick[], at: number): MaxWinPoint[];
}

export function createSpecialWrites(db: Database.Database): SpecialWrites {
  const upsertSpecial = db.prepare<SpecialParams>(`
    INSERT INTO specials (special_id, event_id, sport_id, league_id, bet_type, special_name, category, units, period,
                          starts, cutoff, runner_home, runner_away, updated_at)
    VALUES (@special_id, @event_id, @sport_id, @league_id, @bet_type, @special_name, @category, @units, @period,
            @starts, @cutoff, @runner_home, @runner_away, @updated_at)
    ON CONFLICT(special_id) DO UPDATE SET
      event_id = coalesce(excluded.event_id, event_id), sport_id = coalesce(excluded.sport_id, sport_id),
      league_id = coalesce(excluded.league_id, league_id), bet_type = coalesce(excluded.bet_type, bet_type),
      special_name = coalesce(excluded.special_name, special_name), category = coalesce(excluded.category, category),
      units = coalesce(excluded.units, units), period = coalesce(excluded.period, period),
      starts = coalesce(excluded.starts, starts), cutoff = coalesce(excluded.cutoff, cutoff),
      runner_home = coalesce(excluded.runner_home, runner_home),
      runner_away = coalesce(excluded.runner_away, runner_away), updated_at = excluded.updated_at`);
  const upsertContestant = db.prepare<[number, number, string]>(`
    INSERT INTO special_contestants (special_id, contestant_id, contestant_name) VALUES (?, ?, ?)
    ON CONFLICT(special_id, contestant_id) DO UPDATE SET contestant_name = excluded.contestant_name`);
  const contestantState = db.prepare<[number, number], ContestantState>(
    `SELECT last_tick_at, last_max_win FROM special_contestants WHERE special_id = ? AND contestant_id = ?`,
  );
  const setContestantState = db.prepare<[number, number, number, number]>(
    `UPDATE special_contestants SET last_tick_at = ?, last_max_win = ? WHERE special_id = ? AND contestant_id = ?`,
  );
  const insertSpecialTick = db.prepare<SpecialTickParams>(`
    INSERT INTO special_ticks (special_id, contestant_id, at, handicap, odds, todds, max_win)
    VALUES (@special_id, @contestant_id, @at, @handicap, @odds, @todds, @max_win)`);
  const insertMaxWinPoint = db.prepare<PointParams>(`
    INSERT OR IGNORE INTO max_win_points (special_id, contestant_id, at, event_id, max_win, previous_max_win, odds,
                                          todds)
    VALUES (@special_id, @contestant_id, @at, @event_id, @max_win, @previous_max_win, @odds, @todds)`);
  // The opening record is the earliest tick carrying true odds, the closing record the latest after it. Each keeps
  // the tick's offered odds too: the opening's are what a trader could have bet at the open (the specials' CLV).
  // The same opening fetched again fills in offered odds a record from before migration 007 lacks.
  const upsertOpening = db.prepare<TrueOddsParams>(`
    INSERT INTO true_odds_records (special_id, contestant_id, kind, model, true_odds, at, odds)
    VALUES (@special_id, @contestant_id, 'opening', @model, @true_odds, @at, @odds)
    ON CONFLICT(special_id, contestant_id, kind, model) DO UPDATE SET true_odds = excluded.true_odds, at = excluded.at,
      odds = excluded.odds
    WHERE excluded.at < true_odds_records.at OR (excluded.at = true_odds_records.at AND true_odds_records.odds IS NULL)`);
  const openingAt = db
    .prepare<[number, number], number | null>(
      `SELECT min(at) FROM true_odds_records WHERE special_id = ? AND contestant_id = ? AND kind = 'opening'`,
    )
    .pluck();
  const upsertClosing = db.prepare<TrueOddsParams>(`
    INSERT INTO true_odds_records (special_id, contestant_id, kind, model, true_odds, at, odds)
    VALUES (@special_id, @contestant_id, 'closing', @model, @true_odds, @at, @odds)
    ON CONFLICT(special_id, contestant_id, kind, model) DO UPDATE SET true_odds = excluded.true_odds, at = excluded.at,
      odds = excluded.odds
    WHERE excluded.at >= true_odds_records.at`);

  /** The tick's true odds as the opening record (the earliest wins), and as the closing one once after the opening. */
  function trueOddsRecords(t: SpecialTick, ms: number): void {
    const byModel = t.true_odds_by_model;
    if (!byModel) return;
    const key = { special_id: t.special_id, contestant_id: t.contestant_id, at: ms, odds: t.odds };
    for (const model of DEVIG_MODELS) upsertOpening.run({ ...key, model, true_odds: byModel[model] });
    const opened = openingAt.get(t.special_id, t.contestant_id) ?? null;
    if (opened !== null && ms > opened) {
      for (const model of DEVIG_MODELS) upsertClosing.run({ ...key, model, true_odds: byModel[model] });
    }
  }

  /** Stores a tick newer than the contestant's last; returns its max_win change (null: the first, or none). */
  function limitStep(t: SpecialTick, ms: number): MaxWinPoint | null {
    const state = contestantState.get(t.special_id, t.contestant_id);
    // A replayed or late tick (history re-fetched after a restart) is already reflected: never a new change.
    if (state?.last_tick_at != null && ms <= state.last_tick_at) return null;
    const key = { special_id: t.special_id, contestant_id: t.contestant_id, at: ms, odds: t.odds, todds: t.todds };
    insertSpecialTick.run({ ...key, handicap: t.handicap, max_win: t.max_win });
    const previous = state?.last_max_win ?? null;
    let change: MaxWinPoint | null = null;
    if (previous === null || previous !== t.max_win) {
      insertMaxWinPoint.run({ ...key, event_id: t.event_id, max_win: t.max_win, previous_max_win: previous });
      if (previous !== null) {
        change = {
          eventId: t.event_id,
          specialId: t.special_id,
          specialName: t.special_name,
          contestantId: t.contestant_id,
          contestantName: t.contestant_name,
          at: ms,
          maxWin: t.max_win,
          previousMaxWin: previous,
          odds: t.odds,
          todds: t.todds,
        };
      }
    }
    setContestantState.run(ms, t.max_win, t.special_id, t.contestant_id);
    return change;
  }

  return {
    fixtures(fixtures, at) {
      for (const f of fixtures) {
        upsertSpecial.run({
          special_id: f.special_id,
          event_id: f.event_id,
          sport_id: f.sport_id,
          league_id: f.league_id,
          bet_type: f.bet_type,
          special_name: f.special_name,
          category: f.category,
          units: f.units,
          period: f.period,
          starts: f.starts,
          cutoff: f.cutoff,
          runner_home: f.runner_home,
          runner_away: f.runner_away,
          updated_at: at,
        });
        upsertContestant.run(f.special_id, f.contestant_id, f.contestant_name);
      }
    },
    ticks(ticks, at) {
      const changes: MaxWinPoint[] = [];
      // Oldest first, so change detection compares each tick with the one before it.
      const ordered = ticks.map((t) => ({ t, ms: msOf(t.timestamp, at) })).sort((a, b) => a.ms - b.ms);
      for (const { t, ms } of ordered) {
        upsertSpecial.run({
          special_id: t.special_id,
          event_id: t.event_id,
          sport_id: null,
          league_id: null,
          bet_type: null,
          special_name: t.special_name,
          category: null,
          units: null,
          period: t.period,
          starts: null,
          cutoff: t.cutoff,
          runner_home: null,
          runner_away: null,
          updated_at: at,
        });
        upsertContestant.run(t.special_id, t.contestant_id, t.contestant_name);
        trueOddsRecords(t, ms);
        const change = limitStep(t, ms);
        if (change) changes.push(change);
      }
      return changes;
    },
  };
}
