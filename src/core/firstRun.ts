// The demo's first impression: a demo profile opened for the first time watches a few events, so the first screen
// moves instead of showing an empty watchlist: matches under way, and a match about to kick off (its closing lines
// are taken at kick-off, so the first session already has closes). It happens once per profile (a flag in the
// profile's store), and never to a profile that already watches something: a trader who cleared the list keeps it
// clear. The watches go through the monitor's watch, the one path every watch takes, so they are monitored like any
// other (price, drop and max-stake alerts, closes, settlements).
import type { Fixture } from '../shared/api';
import { LIVE_STATUS, parseServiceTime } from '../shared/api';
import type { ApiClient } from './api/client';
import type { Store } from './store';

/** What the first run needs of the engine: the fixtures look-up, and the monitor's watch (the one way to watch). */
export interface FirstRunEngine {
  client: Pick<ApiClient, 'fixtures'>;
  watch(eventId: number): Promise<void>;
}

/** Set in the demo profile's store once its first-run watches are in place. */
export const FIRST_RUN_SETTING = 'demo.firstRunWatches';
export const FIRST_RUN_WATCHES = 4;
/**
 * An upcoming match is picked only if it kicks off at least this far ahead: its stream opens and shows pre-match
 * prices before kick-off, so the close is taken from prices the app saw.
 */
export const FIRST_RUN_MIN_LEAD_MS = 30_000;

/**
 * The events to watch, up to `count`: live now (the latest kick-off first, since it has the longest left to play),
 * and one in four (at least one) an upcoming match that will be offered in play (the soonest kick-off at least
 * FIRST_RUN_MIN_LEAD_MS after `now` first); one per sport first, so the screen shows the variety. Either kind fills
 * what the other cannot.
 */
export function pickFirstRunWatches(fixtures: readonly Fixture[], now: number, count = FIRST_RUN_WATCHES): number[] {
  const starts = (f: Fixture) => parseServiceTime(f.starts);
  const live = fixtures
    .filter((f) => f.live_status === LIVE_STATUS.liveNow)
    .sort((a, b) => (starts(b) ?? 0) - (starts(a) ?? 0) || a.event_id - b.event_id);
  const upcoming = fixtures
    .filter((f) => f.live_status === LIVE_STATUS.willBeLive && (starts(f) ?? 0) >= now + FIRST_RUN_MIN_LEAD_MS)
    .sort((a, b) => starts(a)! - starts(b)! || a.event_id - b.event_id);
  const liveShare = count - Math.max(1, Math.floor(count / 4));
  const picked: number[] = [];
  const sports = new Set<number>();
  const take = (pool: readonly Fixture[], limit: number, varied: boolean) => {
    for (const f of pool) {
      if (picked.length >= limit) return;
      if (picked.includes(f.event_id) || (varied && sports.has(f.sport_id))) continue;
      sports.add(f.sport_id);
      picked.push(f.event_id);
    }
  };
  take(live, liveShare, true);
  take(upcoming, count, true);
  take(live, liveShare, false);
  take(upcoming, count, false);
  take(live, count, false);
  return picked;
}

/**
 * Watches a few events in a demo profile that has never had its first run. Call before the engine starts, so its
 * streams open with the rest of the watchlist. A failed look-up leaves the flag unset: the next start tries again.
 */
export async function watchOnFirstRun(
  store: Pick<Store, 'odds' | 'watchlist' | 'settings'>,
  engine: FirstRunEngine,
  now: number,
): Promise<number[]> {
  if (FIRST_RUN_SETTING in store.settings.listSettings()) return [];
  if (store.watchlist.watchIds().length > 0) {
    store.settings.setSetting(FIRST_RUN_SETTING, { at: now, events: [] });
    return [];
  }
  const r = await engine.client.fixtures({}, { purpose: 'lookup' });
  if (!r.ok) return [];
  const ids = pickFirstRunWatches(r.value, now);
  if (ids.length === 0) return []; // nothing live or about to start right now: try again at the next start
  store.odds.recordFixtures(r.value, now);
  for (const id of ids) await engine.watch(id);
  store.settings.setSetting(FIRST_RUN_SETTING, { at: now, events: ids });
  return ids;
}
