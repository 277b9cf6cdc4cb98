// The monitor engine: the app's work for one service, given its client, streams, store, notifier and clock. It
// keeps the watchlist's streams open and composes its parts along their seams: the live side (./liveOdds.ts: the
// streams' messages through the match gate to the closing lines and the odds pipeline), alert dispatch
// (./alertDispatch.ts: decisions become alerts and notifications), the settlement follower (the settled walk,
// settlement alerts, period results), the specials refresher, the timers (./schedule.ts) with the store's
// housekeeping (./maintenance.ts), and the reporter of events to the host (./reporter.ts); the alert rules are pure
// functions. Electron main, browser mode and the CLI all run it
// through the one engine factory (../engine.ts).
import { ENTERPRISE_PATHS, type DevigModel } from '../../shared/api';
import { errorMessage, type AppError } from '../../shared/errors';
import { DisposableStore, type Unsubscribe } from '../../shared/event';
import type { ApiClient } from '../api/client';
import type { BadRecord } from '../api/types';
import type { Clock } from '../clock';
import type { Notifier } from '../notifier';
import type { Store } from '../store';
import type { StreamClient, StreamState } from '../stream/client';
import { createAlertDispatch } from './alertDispatch';
import type { AlertSettings } from './alertRules';
import type { MonitorListener } from './events';
import { createLiveOdds } from './liveOdds';
import { startMaintenance } from './maintenance';
import type { PriceAlertSettings } from './priceWatch';
import { createReporter } from './reporter';
import { createSchedule } from './schedule';
import { createSettlementFollower, type LookupOutcome } from './settlementFollower';
import { createSpecialsRefresher } from './specialsRefresher';

export type { MonitorEvent, MonitorListener } from './events';
export type { SnapshotHeader } from './coalescer';
export type { LookupOutcome } from './settlementFollower';
export { formatPct } from './alertRules';

export interface MonitorSettings extends AlertSettings {
  /** null: let the service decide (the account's preference, else MPTO). */
  devigModel: DevigModel | null;
  settledEverySeconds: number;
  specialsEverySeconds: number;
  /** Price and drop alert defaults (an event's overrides are in its profile's store). */
  price: PriceAlertSettings;
}

export interface MonitorOptions {
  client: ApiClient;
  streams: StreamClient;
  store: Store;
  notifier: Notifier;
  clock: Clock;
  settings: () => MonitorSettings;
  /**
   * How often coalesced odds are handed on. An update waits at most this long (half a frame, 8 ms by default, well
   * inside the 50 ms bound), and the UI gets at most one batch per interval however fast the streams tick.
   */
  batchMs?: number;
}

export interface MonitorStats {
  settledWalks: number;
  settlementsAdded: number;
  maxWinChanges: number;
  specialsRounds: number;
  specialsRoundsSkipped: number;
  badRecords: number;
}

export interface Monitor {
  start(): Promise<void>;
  /** Stops every timer, stream and walk, then flushes pending writes; nothing of this monitor runs afterwards. */
  stop(): Promise<void>;
  /**
   * Hands what waits for its next write (ticks, closing lines) to the store's writer now: a reader that then awaits
   * `store.writer.settled()` sees every price the screen was sent.
   */
  flushWrites(): void;
  watch(eventId: number): Promise<void>;
  unwatch(eventId: number): void;
  /** The trader asked: a walk that starts after the ask (one more follows a walk already under way). */
  syncSettled(): Promise<{ added: number; error: AppError | null }>;
  refreshSpecials(eventIds?: number[]): Promise<void>;
  /**
   * The trader opened a settlement: its period results, if still owed, are fetched now (a look-up of the trader's,
   * within the look-ups' share). Says whether a request was made and what came of it.
   */
  resultsFor(eventId: number): Promise<LookupOutcome>;
  on(listener: MonitorListener): Unsubscribe;
  /** Resolves once the first settled walk and the first specials round after start have finished. */
  initialised(): Promise<void>;
  stats(): MonitorStats;
  lastSettledSync(): number | null;
  streamStates(): StreamState[];
  /** Events whose max_win baseline is held in memory (bounded by the watchlist). */
  followedEvents(): number;
  /** The settled walk's or the specials' interval changed: waits under way take the new one now. */
  retime(): void;
}

/**
 * Half a frame: an update waits at most 8 ms in the coalescer, and the renderer still applies whatever arrived once
 * per animation frame. Measured with `npm run bench -- tick`: 16 ms gave tick-to-screen p99 59 ms, 8 ms 54-56 ms.
 */
export const DEFAULT_BATCH_MS = 8;

export function createMonitor(options: MonitorOptions): Monitor {
  const { client, streams, store, notifier, clock } = options;
  let subscriptions = new DisposableStore();
  let running = false;
  let stopped = false;
  let firstRound: Promise<void> = Promise.resolve();

  const reporter = createReporter({ scrubError: (e) => client.governor.scrubError(e), stopped: () => stopped });
  const { emit, internal, reportError, reportProblems } = reporter;
  // What failed of the stream's writes, as the store's writer says it (from its thread, after the hand-over).
  const unsubscribeWriter = store.writer.onProblem((p) => internal(p.message));

  // The watchlist as this monitor keeps it (every change goes through watch/unwatch below): the odds path asks
  // "is this watched" per message, which must not be a database read each time.
  const watched = new Set(store.watchlist.watchIds());
  const isWatched = (eventId: number | null) => eventId !== null && watched.has(eventId);

  const schedule = createSchedule({ clock, running: () => running, taskFailed: internal });
  const alerts = createAlertDispatch({
    store,
    notifier,
    clock,
    settings: options.settings,
    isWatched,
    emit,
    running: () => running,
    stopped: () => stopped,
    schedule,
  });
  const settlements = createSettlementFollower({
    client,
    store,
    clock,
    notifier: { notify: (n) => !stopped && notifier.notify(n) },
    isWatched,
    settings: options.settings,
    emit,
    reportProblems,
    reportError,
  });
  const live = createLiveOdds({
    client,
    streams,
    store,
    clock,
    batchMs: options.batchMs ?? DEFAULT_BATCH_MS,
    isWatched,
    alerts,
    reporter,
    settled: () => schedule.later(() => void settlements.sync(), 2000),
  });
  const specials = createSpecialsRefresher({
    client,
    store,
    clock,
    devigModel: () => options.settings().devigModel,
    running: () => running,
    onMaxWinStep: alerts.maxWinStep,
    reportProblems,
    reportError,
  });

  const restricted = (path: string) => client.governor.state().restrictedPaths.some((r) => r.path === path);

  return {
    async start() {
      if (running || stopped) return;
      running = true;
      subscriptions = new DisposableStore();
      live.follow(subscriptions);
      // What is watched and which streams open come from one read of the stored watchlist: a watch stored before
      // start is followed like one added through watch() (alerts, closes, settlements), never only streamed.
      watched.clear();
      for (const id of store.watchlist.watchIds()) {
        watched.add(id);
        live.openStream(id);
      }
      schedule.every(() => options.settings().settledEverySeconds, settlements.sync);
      schedule.every(
        () => options.settings().specialsEverySeconds,
        () => specials.refresh(),
      );
      startMaintenance({ store, schedule, failed: internal });
      // Period descriptions once per connection, before the first settlement is put into words; the stored copy
      // labels everything offline and on a failed fetch.
      await fetchPeriods(client, store, { stopped: () => stopped, reportProblems, internal });
      await settlements.sync();
      firstRound = specials.refresh().catch(() => undefined);
    },

    async stop() {
      running = false;
      schedule.stop();
      subscriptions.dispose();
      streams.close();
      await settlements.idle();
      await specials.idle();
      live.close();
      unsubscribeWriter();
      stopped = true;
    },

    flushWrites() {
      if (!stopped) live.flushWrites();
    },

    async watch(eventId) {
      store.watchlist.addWatch(eventId, clock.now());
      watched.add(eventId);
      if (running) {
        live.openStream(eventId);
        if (!ENTERPRISE_PATHS.every(restricted)) void specials.refresh([eventId]);
      }
    },

    unwatch(eventId) {
      store.watchlist.removeWatch(eventId);
      watched.delete(eventId);
      streams.unwatch(eventId);
      live.forget(eventId);
    },

    syncSettled: () => settlements.sync({ fresh: true }),
    refreshSpecials: (eventIds) => specials.refresh(eventIds),
    resultsFor: (eventId) => settlements.resultsFor(eventId),
    on: reporter.on,
    initialised: () => firstRound,
    stats: () => monitorStats(settlements.stats(), specials.stats(), alerts.maxWinChanges(), reporter.badRecords()),
    lastSettledSync: () => settlements.lastSync(),
    streamStates: () => streamStates(streams),
    followedEvents: () => live.followed(),
    retime: schedule.retime,
  };
}

function monitorStats(
  walks: { walks: number; added: number },
  rounds: { rounds: number; skipped: number },
  maxWinChanges: number,
  badRecords: number,
): MonitorStats {
  return {
    settledWalks: walks.walks,
    settlementsAdded: walks.added,
    maxWinChanges,
    specialsRounds: rounds.rounds,
    specialsRoundsSkipped: rounds.skipped,
    badRecords,
  };
}

/** The watched streams' states. */
function streamStates(streams: StreamClient): StreamState[] {
  return streams
    .watched()
    .map((id) => streams.state(id))
    .filter((s): s is StreamState => s !== null);
}

/** The service's period descriptions, stored for every label that names a period; a failed fetch leaves the stored copy. */
async function fetchPeriods(
  client: ApiClient,
  store: Pick<Store, 'odds'>,
  o: { stopped(): boolean; reportProblems(problems: readonly BadRecord[]): void; internal(message: string): void },
): Promise<void> {
  const r = await client.periods({ priority: 'normal', purpose: 'lookup' });
  if (!r.ok) return;
  o.reportProblems(r.problems);
  try {
    if (!o.stopped()) store.odds.recordPeriods(r.value);
  } catch (e) {
    o.internal(`Could not record the period list: ${errorMessage(e)}`);
  }
}
