// The ingest's outright markets: each market with its contestants' latest prices, and its event described as the
// service names it.
import type Database from 'better-sqlite3';
import type { OutrightMarket } from '../../../../shared/api';
import { eventParams, type EventWrites } from './events';

type OutrightParams = Omit<OutrightMarket, 'contestants'> & { updated_at: number };
type ContestantParams = {
  special_id: number;
  name: string;
  handicap: number;
  odds: number;
  todds: number;
  updated_at: number;
};

/** Stores outright markets (inside the caller's transaction). */
export function createOutrightWrites(
  db: Database.Database,
  events: Pick<EventWrites, 'describe'>,
): (markets: readonly OutrightMarket[], at: number) => void {
  const upsertOutright = db.prepare<OutrightParams>(`
    INSERT INTO outright_markets (special_id, event_id, special_name, cutoff, sport_id, sport_name, league_id,
                                  league_name, home, away, starts, live_status, updated_at)
    VALUES (@special_id, @event_id, @special_name, @cutoff, @sport_id, @sport_name, @league_id, @league_name, @home,
            @away, @starts, @live_status, @updated_at)
    ON CONFLICT(special_id) DO UPDATE SET
      event_id = excluded.event_id, special_name = excluded.special_name, cutoff = excluded.cutoff,
      sport_id = excluded.sport_id, sport_name = excluded.sport_name, league_id = excluded.league_id,
      league_name = excluded.league_name, home = excluded.home, away = excluded.away, starts = excluded.starts,
      live_status = excluded.live_status, updated_at = excluded.updated_at`);
  const upsertContestant = db.prepare<ContestantParams>(`
    INSERT INTO outright_contestants (special_id, name, handicap, odds, todds, updated_at)
    VALUES (@special_id, @name, @handicap, @odds, @todds, @updated_at)
    ON CONFLICT(special_id, name) DO UPDATE SET
      handicap = excluded.handicap, odds = excluded.odds, todds = excluded.todds, updated_at = excluded.updated_at`);

  return (markets, at) => {
    for (const m of markets) {
      const { event_id, sport_id, sport_name, league_id, league_name } = m;
      events.describe(eventParams({ event_id, sport_id, sport_name, league_id, league_name }, 'outright', at));
      upsertOutright.run({ ...m, updated_at: at });
      for (const c of m.contestants) {
        upsertContestant.run({
          special_id: m.special_id,
          name: c.name,
          handicap: c.handicap,
          odds: c.odds,
          todds: c.todds,
          updated_at: at,
        });
      }
    }
  };
}
