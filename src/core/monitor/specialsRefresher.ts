// The specials refresher: fixtures, opening ticks and max_win history of the watched events' specials, within the
// share of the hourly quota that background work may spend. The first look at a contestant is stored as change
// points but not alerted (those changes happened before anyone watched); a contestant already known alerts on every
// new point, including those that came while the app was closed.
import { formatServiceTime, PATHS, type DevigModel, type SpecialTick } from '../../shared/api';
import type { MaxWinPoint } from '../../shared/domain';
import type { AppError } from '../../shared/errors';
import type { ApiClient } from '../api/client';
import type { BadRecord } from '../api/types';
import type { Clock } from '../clock';
import type { Store } from '../store';
import type { MaxWinChange } from './events';

/** A round costs about two requests plus one per special for each event. */
const REQUESTS_PER_EVENT = 5;

export interface SpecialsRefresherOptions {
  client: ApiClient;
  store: Store;
  clock: Clock;
  devigModel(): DevigModel | null;
  /** Requests background work may still spend now (above the reserve); Infinity when unknown. */
  spareQuota(): number;
  running(): boolean;
  onMaxWinChange(change: MaxWinChange & { label: string }): void;
  reportProblems(problems: readonly BadRecord[]): void;
  reportError(error: AppError): void;
}

export interface SpecialsRefresher {
  /** One round over `eventIds` (default: the watchlist, budget-gated); rounds run one after another. */
  refresh(eventIds?: number[]): Promise<void>;
  idle(): Promise<void>;
  stats(): { rounds: number; skipped: number };
}

export function createSpecialsRefresher(o: SpecialsRefresherOptions): SpecialsRefresher {
  const { client, store, clock } = o;
  let running: Promise<void> | null = null;
  const stats = { rounds: 0, skipped: 0 };
  const restricted = (path: string) => client.governor.state().restrictedPaths.some((r) => r.path === path);

  function recordTicks(ticks: readonly SpecialTick[]): MaxWinPoint[] {
    try {
      return store.recordSpecialTicks(ticks, clock.now());
    } catch (e) {
      o.reportError({ kind: 'internal', message: `Could not record specials: ${e instanceof Error ? e.message : String(e)}` });
      return [];
    }
  }

  function announce(points: readonly MaxWinPoint[], known: ReadonlySet<string>): void {
    for (const p of points) {
      if (p.previousMaxWin === null || !known.has(`${p.specialId}:${p.contestantId}`)) continue;
      o.onMaxWinChange({
        eventId: p.eventId,
        specialId: p.specialId,
        contestantId: p.contestantId,
        lineId: null,
        from: p.previousMaxWin,
        to: p.maxWin,
        at: formatServiceTime(p.at),
        label: `${p.specialName ?? `special ${p.specialId}`}: ${p.contestantName ?? `contestant ${p.contestantId}`}`,
      });
    }
  }

  async function refreshEvent(eventId: number): Promise<void> {
    const model = o.devigModel();
    const known = new Set(store.maxWinPointsOf(eventId).map((p) => `${p.specialId}:${p.contestantId}`));
    const opts = { priority: 'low', purpose: 'specials' } as const;
    const fixtures = await client.specialsFixtures({ eventId }, opts);
    if (!fixtures.ok) {
      if (fixtures.error.kind !== 'plan') o.reportError(fixtures.error);
      return;
    }
    o.reportProblems(fixtures.problems);
    store.recordSpecialFixtures(fixtures.value, clock.now());
    const opening = await client.specialsOpening({ eventId, ...(model ? { model } : {}) }, opts);
    if (opening.ok) {
      o.reportProblems(opening.problems);
      announce(recordTicks(opening.value), known);
    } else if (opening.error.kind !== 'plan') o.reportError(opening.error);
    for (const specialId of new Set(fixtures.value.map((f) => f.special_id))) {
      const history = await client.specialsHistory({ eventId, specialId }, opts);
      if (!history.ok) {
        if (history.error.kind !== 'plan') o.reportError(history.error);
        continue;
      }
      o.reportProblems(history.problems);
      announce(recordTicks(history.value), known);
    }
  }

  async function round(eventIds?: number[]): Promise<void> {
    if (restricted(PATHS.specialsFixtures)) return;
    const ids = eventIds ?? store.watchIds();
    if (ids.length === 0) return;
    // A scheduled round keeps its hands off the quota that settlement discovery and streams need; a round the
    // trader asked for (an event just watched or opened) goes ahead.
    if (!eventIds && o.spareQuota() < ids.length * REQUESTS_PER_EVENT) {
      stats.skipped++;
      return;
    }
    stats.rounds++;
    for (const id of ids) {
      if (!o.running()) return;
      await refreshEvent(id);
      if (restricted(PATHS.specialsFixtures)) return;
    }
  }

  return {
    refresh(eventIds) {
      const run = (running ?? Promise.resolve()).then(() => round(eventIds));
      running = run.finally(() => {
        if (running === run) running = null;
      });
      return run;
    },
    idle: async () => void (await running?.catch(() => undefined)),
    stats: () => ({ ...stats }),
  };
}
