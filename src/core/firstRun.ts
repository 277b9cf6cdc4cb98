// The demo's first impression: a demo profile opened for the first time watches a few live events, so the first
// screen moves instead of showing an empty watchlist. It happens once per profile (a flag in the profile's store),
// and never to a profile that already watches something: a trader who cleared the list keeps it clear.
import type { Fixture } from '../shared/api';
import { parseServiceTime } from '../shared/api';
import type { ApiClient } from './api/client';
import type { Store } from './store';

/** Set in the demo profile's store once its first-run watches are in place. */
export const FIRST_RUN_SETTING = 'demo.firstRunWatches';
export const FIRST_RUN_WATCHES = 4;

/**
 * The live events to watch: one per sport first (the screen shows the variety), then the rest; within each round the
 * latest kick-off first, since it has the longest left to play.
 */
export function pickFirstRunWatches(fixtures: readonly Fixture[], count = FIRST_RUN_WATCHES): number[] {
  const live = fixtures
    .filter((f) => f.live_status === 1)
    .sort((a, b) => (parseServiceTime(b.starts) ?? 0) - (parseServiceTime(a.starts) ?? 0) || a.event_id - b.event_id);
  const picked: number[] = [];
  const sports = new Set<number>();
  for (const f of live) {
    if (picked.length >= count) break;
    if (sports.has(f.sport_id)) continue;
    sports.add(f.sport_id);
    picked.push(f.event_id);
  }
  for (const f of live) {
    if (picked.length >= count) break;
    if (!picked.includes(f.event_id)) picked.push(f.event_id);
  }
  return picked;
}

/**
 * Watches live events in a demo profile that has never had its first run. Call before the engine starts, so its
 * streams open with the rest of the watchlist. A failed look-up leaves the flag unset: the next start tries again.
 */
export async function watchLiveOnFirstRun(store: Store, client: ApiClient, now: number): Promise<number[]> {
  if (FIRST_RUN_SETTING in store.listSettings()) return [];
  if (store.watchIds().length > 0) {
    store.setSetting(FIRST_RUN_SETTING, { at: now, events: [] });
    return [];
  }
  const r = await client.fixtures({ live: true }, { purpose: 'lookup' });
  if (!r.ok) return [];
  const ids = pickFirstRunWatches(r.value);
  if (ids.length === 0) return []; // nothing live right now: try again at the next start
  store.recordFixtures(r.value, now);
  for (const id of ids) store.addWatch(id, now);
  store.setSetting(FIRST_RUN_SETTING, { at: now, events: ids });
  return ids;
}
