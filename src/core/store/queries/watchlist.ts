// The watchlist: which matches the trader follows (its writes), and the watched matches with their latest markets
// (its read, the grid's rows offline), beside the highest event id the profile has ever stored.
import type Database from 'better-sqlite3';
import type { WatchedEventView } from '../../../shared/domain';
import { otherMatchName } from '../../../shared/eventIdentity';
import { eventFromRow, marketFromRow, type EventDbRow, type MarketLineRow } from './rows';

export interface Watchlist {
  addWatch(eventId: number, at?: number): void;
  removeWatch(eventId: number): void;
  watchIds(): number[];
  watchedEvents(): WatchedEventView[];
  /**
   * The highest event id this profile has ever stored (events, watches, settlements, bets), 0 when none: a built-in
   * world (demo) numbers its events above it, so no id the profile remembers ever names another match.
   */
  maxEventId(): number;
}

interface WatchedDbRow extends EventDbRow {
  added_at: number;
  settled: number;
  other_match: number;
  other_home: string | null;
  other_away: string | null;
  other_sport: string | null;
}

export function createWatchlist(db: Database.Database, clock: () => number): Watchlist {
  const addWatch = db.prepare<[number, number]>(`INSERT OR IGNORE INTO watchlist (event_id, added_at) VALUES (?, ?)`);
  const removeWatch = db.prepare<[number]>(`DELETE FROM watchlist WHERE event_id = ?`);
  const watchIds = db.prepare<[], number>(`SELECT event_id FROM watchlist ORDER BY added_at, event_id`).pluck();
  const maxEventId = db
    .prepare<[], number>(
      `
    SELECT max(coalesce((SELECT max(event_id) FROM events), 0), coalesce((SELECT max(event_id) FROM watchlist), 0),
               coalesce((SELECT max(event_id) FROM settlements), 0), coalesce((SELECT max(event_id) FROM bets), 0))`,
    )
    .pluck();
  const watched = db.prepare<[], WatchedDbRow>(`
    SELECT w.event_id, w.added_at, e.sport_id, coalesce(e.sport_name, sp.name) AS sport_name, e.league_id,
           e.league_name, e.runner_home, e.runner_away, e.starts, e.live_status, e.score_home, e.score_away,
           EXISTS (SELECT 1 FROM settlements s WHERE s.event_id = w.event_id) AS settled,
           o.event_id IS NOT NULL AS other_match, o.runner_home AS other_home, o.runner_away AS other_away,
           coalesce(o.sport_name, osp.name) AS other_sport
    FROM watchlist w
    LEFT JOIN events e ON e.event_id = w.event_id
    LEFT JOIN sports sp ON sp.sport_id = e.sport_id
    LEFT JOIN other_matches o ON o.event_id = w.event_id
    LEFT JOIN sports osp ON osp.sport_id = o.sport_id
    ORDER BY w.added_at, w.event_id`);
  const watchedLines = db.prepare<[], MarketLineRow>(`
    SELECT m.* FROM watchlist w JOIN market_lines m ON m.event_id = w.event_id ORDER BY m.period, m.line_id`);

  return {
    addWatch: (eventId, at = clock()) => void addWatch.run(eventId, at),
    removeWatch: (eventId) => void removeWatch.run(eventId),
    watchIds: () => watchIds.all(),
    maxEventId: () => maxEventId.get() ?? 0,
    watchedEvents() {
      const byEvent = new Map<number, MarketLineRow[]>();
      for (const l of watchedLines.all()) {
        const list = byEvent.get(l.event_id);
        if (list) list.push(l);
        else byEvent.set(l.event_id, [l]);
      }
      return watched.all().map((r) => ({
        ...eventFromRow(r),
        addedAt: r.added_at,
        settled: r.settled === 1,
        markets: (byEvent.get(r.event_id) ?? []).map(marketFromRow),
        ...(r.other_match === 1
          ? {
              otherMatch: otherMatchName({
                runnerHome: r.other_home,
                runnerAway: r.other_away,
                sportName: r.other_sport,
              }),
            }
          : {}),
      }));
    },
  };
}
