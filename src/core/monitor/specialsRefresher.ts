// The specials refresher: fixtures, opening ticks and max_win history of the watched events' specials, within the
// specials' share of the hourly quota (the governor's admission enforces it; a scheduled round that would not fit
// is skipped before it starts). The first look at a contestant is stored as change
// points but not alerted (those changes happened before anyone watched); a contestant already known alerts on every
// new point, including those that came while the app was closed.
import { formatServiceTime, PATHS, type DevigModel, type SpecialTick } from '../../shared/api';
import type { MaxWinPoint } from '../../shared/domain';
import { errorMessage, type AppError } from '../../shared/errors';
import type { ApiClient } from '../api/client';
import type { BadRecord } from '../api/types';
import type { Clock } from '../clock';
import type { Store } from '../store';
import type { MaxWinChange } from './events';

/** The contestants' limit changes of one special at one time (the service re-prices a special's contestants at once). */
export interface SpecialStep {
  eventId: number | null;
  specialId: number;
  /** The special in words ("First scorer"). */
  name: string;
  changes: Array<MaxWinChange & { label: string; contestant: string }>;
}

/** A round costs about two requests plus one per special for each event. */
const REQUESTS_PER_EVENT = 5;

export interface SpecialsRefresherOptions {
  client: ApiClient;
  store: Store;
  clock: Clock;
  devigModel(): DevigModel | null;
  running(): boolean;
  /** One step of a special's limits: every contestant it moved at one time, for one alert of the special. */
  onMaxWinStep(step: SpecialStep): void;
  reportProblems(problems: readonly BadRecord[]): void;
  reportError(error: AppError): void;
}

export interface SpecialsRefresher {
  /**
   * One round over `eventIds` (default: the watchlist, skipped when it would not fit the specials' share); rounds run
   * one after another. A round stops at the first refusal or 429: the rest would be refused too.
   */
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
      return store.odds.recordSpecialTicks(ticks, clock.now());
    } catch (e) {
      o.reportError({
        kind: 'internal',
        message: `Could not record specials: ${errorMessage(e)}`,
      });
      return [];
    }
  }

  function announce(points: readonly MaxWinPoint[], known: ReadonlySet<string>): void {
    // Grouped by special and time, in the order the points came: one step of a special is one alert, not one per
    // contestant (twenty rows for one step of a first-goalscorer market).
    const steps = new Map<string, SpecialStep>();
    for (const p of points) {
      if (p.previousMaxWin === null || !known.has(`${p.specialId}:${p.contestantId}`)) continue;
      const key = `${p.eventId}:${p.specialId}:${p.at}`;
      let step = steps.get(key);
      const name = p.specialName ?? `special ${p.specialId}`;
      if (!step) steps.set(key, (step = { eventId: p.eventId, specialId: p.specialId, name, changes: [] }));
      const contestant = p.contestantName ?? `contestant ${p.contestantId}`;
      step.changes.push({
        eventId: p.eventId,
        specialId: p.specialId,
        contestantId: p.contestantId,
        lineId: null,
        from: p.previousMaxWin,
        to: p.maxWin,
        at: formatServiceTime(p.at),
        label: `${name}: ${contestant}`,
        contestant,
      });
    }
    for (const step of steps.values()) o.onMaxWinStep(step);
  }

  /** 'stop' when the quota said no (the specials' share, or the service's 429): the round ends there. */
  async function refreshEvent(eventId: number): Promise<'next' | 'stop'> {
    const model = o.devigModel();
    const known = new Set(store.history.maxWinPointsOf(eventId).map((p) => `${p.specialId}:${p.contestantId}`));
    const opts = { priority: 'low', purpose: 'specials' } as const;
    /** Reports an error (a plan restriction is shown by the view instead); true when the round must stop. */
    const failed = (error: AppError): boolean => {
      if (error.kind !== 'plan') o.reportError(error);
      return error.kind === 'rate_limit';
    };
    const fixtures = await client.specialsFixtures({ eventId }, opts);
    if (!fixtures.ok) return failed(fixtures.error) ? 'stop' : 'next';
    o.reportProblems(fixtures.problems);
    store.odds.recordSpecialFixtures(fixtures.value, clock.now());
    const opening = await client.specialsOpening({ eventId, ...(model ? { model } : {}) }, opts);
    if (opening.ok) {
      o.reportProblems(opening.problems);
      announce(recordTicks(opening.value), known);
    } else if (failed(opening.error)) return 'stop';
    for (const specialId of new Set(fixtures.value.map((f) => f.special_id))) {
      const history = await client.specialsHistory({ eventId, specialId }, opts);
      if (!history.ok) {
        if (failed(history.error)) return 'stop';
        continue;
      }
      o.reportProblems(history.problems);
      announce(recordTicks(history.value), known);
    }
    return 'next';
  }

  async function round(eventIds?: number[]): Promise<void> {
    if (restricted(PATHS.specialsFixtures)) return;
    const ids = eventIds ?? store.watchlist.watchIds();
    if (ids.length === 0) return;
    // A scheduled round that would not fit the specials' share of the hour is skipped quietly; a round the trader
    // asked for (an event just watched or opened) goes ahead as far as admission lets it.
    if (!eventIds && !client.governor.canSpend('specials', ids.length * REQUESTS_PER_EVENT)) {
      stats.skipped++;
      return;
    }
    stats.rounds++;
    for (const id of ids) {
      if (!o.running()) return;
      if ((await refreshEvent(id)) === 'stop') return;
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
