// The monitor engine: the app's work for one service, given its client, streams, store, notifier and clock. It
// keeps the watchlist's streams open and composes three parts along their seams: the odds pipeline (ticks, coalesced
// batches, market max_win moves), the settlement follower (the settled walk, settlement alerts, period results) and
// the specials refresher; the alert rules are pure functions. Electron main, browser mode and the CLI all run it
// through the one engine factory (../engine.ts).
import { ENTERPRISE_PATHS, PATHS, type DevigModel } from '../../shared/api';
import type { AppError } from '../../shared/errors';
import type { AlertRecord, NewAlert } from '../../shared/domain';
import type { ApiClient } from '../api/client';
import type { BadRecord } from '../api/types';
import type { Clock, TimerHandle } from '../clock';
import type { Notifier } from '../notifier';
import type { Store } from '../store';
import type { StreamClient, StreamState } from '../stream/client';
import { specialStepDecision, type AlertDecision, type AlertSettings, type ContestantStep } from './alertRules';
import type { MaxWinChange, MonitorEvent, MonitorListener } from './events';
import { createMaxWinAlerts } from './maxWinAlerts';
import { createClosingLines } from './closingLines';
import { createOddsPipeline } from './oddsPipeline';
import { createOtherMatches } from './otherMatches';
import { createPriceWatch, type PriceAlertSettings } from './priceWatch';
import { createSettlementFollower, type LookupOutcome } from './settlementFollower';
import { createSpecialsRefresher, type SpecialStep } from './specialsRefresher';

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
  on(listener: MonitorListener): () => void;
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
  const listeners = new Set<MonitorListener>();
  const timers = new Set<TimerHandle>();
  const unsubscribers: Array<() => void> = [];
  let running = false;
  let stopped = false;
  let firstRound: Promise<void> = Promise.resolve();
  let maxWinChanges = 0;
  let badRecords = 0;

  const emit = (event: MonitorEvent) => {
    // A stopped monitor says nothing more: its host may already be talking to the next one.
    if (stopped) return;
    for (const l of [...listeners]) l(event);
  };
  const reportError = (error: AppError) => emit({ type: 'error', error: client.governor.scrubError(error) });
  const reportProblems = (problems: readonly BadRecord[]) => {
    badRecords += problems.length;
    for (const p of problems) reportError(p);
  };
  // What failed of the stream's writes, as the store's writer says it (from its thread, after the hand-over).
  const unsubscribeWriter = store.writer.onProblem((p) => reportError({ kind: 'internal', message: p.message }));

  // The watchlist as this monitor keeps it (every change goes through watch/unwatch below): the odds path asks
  // "is this watched" per message, which must not be a database read each time.
  const watched = new Set(store.watchIds());
  const isWatched = (eventId: number | null) => eventId !== null && watched.has(eventId);

  function later(fn: () => void, ms: number): void {
    const handle = clock.setTimeout(() => {
      timers.delete(handle);
      if (running) fn();
    }, ms);
    timers.add(handle);
  }

  /** The timed loops' waits, so a changed interval takes effect at once (`retime`), not after the old wait. */
  const waits = new Set<() => void>();
  function every(seconds: () => number, task: () => Promise<unknown>): void {
    let since = clock.now();
    let handle: TimerHandle | null = null;
    const wait = () => {
      const ms = Math.max(0, since + Math.max(1, seconds()) * 1000 - clock.now());
      handle = clock.setTimeout(() => {
        if (handle !== null) timers.delete(handle);
        handle = null;
        if (running) run();
      }, ms);
      timers.add(handle);
    };
    const run = () => {
      void task()
        .catch((e: unknown) => reportError({ kind: 'internal', message: e instanceof Error ? e.message : String(e) }))
        .finally(() => {
          since = clock.now();
          if (running) wait();
        });
    };
    // A wait under way is measured again from its start with the interval now set (a task under way sets its own).
    waits.add(() => {
      if (handle === null || !running) return;
      clock.clearTimeout(handle);
      timers.delete(handle);
      wait();
    });
    wait();
  }

  // Each limit alerts on its move since the value that last alerted: the bases live here, beside the decision.
  const maxWinAlerts = createMaxWinAlerts();
  /** One limit's change: said to the host, and decided on (its base moves when it alerts). */
  function maxWinDecide(c: MaxWinChange & { label: string }): AlertDecision {
    maxWinChanges++;
    const eventWatched = isWatched(c.eventId);
    const { label: _label, ...change } = c;
    emit({ type: 'max_win', ...change, watched: eventWatched });
    return maxWinAlerts.decide(c, eventWatched, options.settings());
  }
  function maxWinAlert(decision: AlertDecision, eventId: number | null, lineId: number | null): void {
    if (!decision.alert || stopped) return;
    const [alert] = store.writer.appendAlerts([decision.alert]);
    emit({ type: 'alert', alert: alert! });
    if (decision.notify) notifier.notify({ kind: 'max_win', ...decision.notify, eventId, lineId });
  }
  function maxWinChange(c: MaxWinChange & { label: string }): void {
    maxWinAlert(maxWinDecide(c), c.eventId, c.lineId);
  }
  /** A special's step: each contestant decided on its own base, and what fired said as one alert for the special. */
  function maxWinStep(step: SpecialStep): void {
    const fired: Array<{ decision: AlertDecision; step: ContestantStep; at: string }> = [];
    for (const c of step.changes) {
      const decision = maxWinDecide(c);
      const d = decision.alert?.data as { from: number; to: number; pct: number | null } | undefined;
      if (d)
        fired.push({
          decision,
          at: c.at,
          step: {
            contestantId: c.contestantId,
            name: c.contestant,
            from: d.from,
            to: d.to,
            pct: d.pct,
            previous: c.from,
          },
        });
    }
    maxWinAlert(specialStepDecision(step, fired, options.settings()), step.eventId, null);
  }

  const priceWatch = createPriceWatch({
    store,
    settings: () => {
      const s = options.settings();
      return { ...s, model: s.devigModel ?? 'MPTO' };
    },
    isWatched,
    onAlert: (alert, notify) => void priceAlerts.push({ alert, notify }),
  });
  /**
   * The price alerts of one batch and the drop episodes it opened: numbered and handed to the store's writer together
   * (one transaction on its thread), and pushed at once. An open episode that grew is written and pushed again under
   * its number, at most once a second per event (./dropEpisodes.ts): a goal moves every line at once, and the trader
   * reads one alert that grows, with one notification at its start.
   */
  let priceAlerts: Array<{ alert: NewAlert; notify: { title: string; body: string } | null }> = [];
  function observePrices(batch: Parameters<typeof priceWatch.observe>[0]): void {
    const now = clock.now();
    try {
      priceWatch.observe(batch, now);
    } finally {
      const fired = priceAlerts;
      priceAlerts = [];
      const episodes = priceWatch.takeEpisodes(now);
      const opened: Array<{
        alert: NewAlert;
        notify: { title: string; body: string } | null;
        bind?(record: AlertRecord): void;
      }> = [...fired, ...episodes.opened];
      if (opened.length && !stopped) {
        const stored = store.writer.appendAlerts(opened.map((f) => f.alert));
        opened.forEach((f, i) => {
          const alert = stored[i]!;
          f.bind?.(alert);
          emit({ type: 'alert', alert });
          if (f.notify)
            notifier.notify({ kind: 'price', ...f.notify, eventId: alert.eventId, lineId: alertLineId(alert.data) });
        });
      }
      if (episodes.updated.length && !stopped) {
        store.writer.updateAlerts(episodes.updated);
        for (const alert of episodes.updated) emit({ type: 'alert', alert });
      }
      armEpisodes(now);
    }
  }
  /** An open episode's owed update, or its end, is written on time even when no further batch comes for its event. */
  let episodeTimer: { handle: TimerHandle; at: number } | null = null;
  function armEpisodes(now: number): void {
    const next = priceWatch.nextEpisodeAt();
    if (next === null || !running) return;
    const at = Math.max(next, now);
    if (episodeTimer && episodeTimer.at <= at) return;
    if (episodeTimer) {
      clock.clearTimeout(episodeTimer.handle);
      timers.delete(episodeTimer.handle);
    }
    const handle = clock.setTimeout(() => {
      timers.delete(handle);
      if (episodeTimer?.handle === handle) episodeTimer = null;
      if (running) observePrices([]);
    }, at - now);
    timers.add(handle);
    episodeTimer = { handle, at };
  }

  const closingLines = createClosingLines({
    store,
    clock,
    isWatched,
    isFollowing: (id) => streams.state(id)?.status === 'live',
    serviceNow: () => (client.clockSkewMs() === null ? null : client.serviceNow()),
    reportError,
  });

  const odds = createOddsPipeline({
    store,
    clock,
    batchMs: options.batchMs ?? DEFAULT_BATCH_MS,
    // The one pacing stage: the coalesced batch goes to the host as it is, one monitor event (each event's markets,
    // then its score, then its end); then the batch's price alerts. An ended event's rule state goes after its last
    // prices were judged.
    onBatch: (batch) => {
      emit({ type: 'batch', events: batch });
      try {
        observePrices(batch);
      } catch (e) {
        reportError({
          kind: 'internal',
          message: `Price alerts failed: ${e instanceof Error ? e.message : String(e)}`,
        });
      }
      for (const e of batch) if (e.ended !== undefined) priceWatch.forget(e.eventId);
    },
    onMaxWinChange: maxWinChange,
    reportError,
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

  const specials = createSpecialsRefresher({
    client,
    store,
    clock,
    devigModel: () => options.settings().devigModel,
    running: () => running,
    onMaxWinStep: maxWinStep,
    reportProblems,
    reportError,
  });

  async function fetchPeriods(): Promise<void> {
    const r = await client.periods({ priority: 'normal', purpose: 'lookup' });
    if (!r.ok) return;
    reportProblems(r.problems);
    try {
      if (!stopped) store.recordPeriods(r.value);
    } catch (e) {
      reportError({
        kind: 'internal',
        message: `Could not record the period list: ${e instanceof Error ? e.message : String(e)}`,
      });
    }
  }

  const restricted = (path: string) => client.governor.state().restrictedPaths.some((r) => r.path === path);

  // An id the service now uses for another match: its stream is stopped and never opened again (./otherMatches.ts).
  const otherMatches = createOtherMatches({
    store,
    clock,
    onOtherMatch(eventId) {
      streams.unwatch(eventId);
      forget(eventId);
      emit({ type: 'other_match', eventId, watched: isWatched(eventId) });
    },
    reportError,
  });

  /** What the monitor holds of an event it no longer follows (its baselines, rule state, pending closes written). */
  function forget(eventId: number): void {
    odds.forget(eventId);
    maxWinAlerts.forget(eventId);
    priceWatch.forget(eventId);
    closingLines.flush();
    closingLines.forget(eventId);
  }

  function openStream(eventId: number): void {
    if (restricted(PATHS.stream)) return;
    if (store.settlement(eventId)) return; // it has left the book: there is no stream to open
    if (!otherMatches.admits(eventId)) return; // the service's stream of this id is another match's
    streams.watch(eventId);
  }

  return {
    async start() {
      if (running || stopped) return;
      running = true;
      // Every message passes the one gate of an id's match first (./otherMatches.ts): nothing of another match under a
      // stored match's id is stored, judged or handed on.
      unsubscribers.push(
        streams.onSnapshot((eventId, snapshot) => {
          if (!otherMatches.admitsSnapshot(eventId, snapshot)) return;
          closingLines.onSnapshot(eventId, snapshot);
          odds.onSnapshot(eventId, snapshot);
        }),
        streams.onMarkets((eventId, markets) => {
          if (!otherMatches.admits(eventId)) return;
          closingLines.onMarkets(eventId, markets);
          odds.onMarkets(eventId, markets);
        }),
        streams.onScore((eventId, score) => {
          if (!otherMatches.admits(eventId)) return;
          closingLines.onScore(eventId, score);
          try {
            store.recordScore(score, clock.now());
          } catch (e) {
            reportError({
              kind: 'internal',
              message: `Could not record a score: ${e instanceof Error ? e.message : String(e)}`,
            });
          }
          odds.onScore(eventId, {
            liveStatus: score.live_status,
            scoreHome: score.score_home,
            scoreAway: score.score_away,
          });
        }),
        streams.onEnd((eventId, end) => {
          if (!otherMatches.admits(eventId)) return;
          // The match left the book: nothing more will move its limits. Its settlement is discovered through
          // /api/settled, soon.
          odds.forget(eventId);
          maxWinAlerts.forget(eventId);
          closingLines.forget(eventId);
          // Its price rules go when the end is handed on, after the prices still in the batch (onBatch above).
          odds.onEnd(eventId, end.reason);
          if (end.reason === 'settled') later(() => void settlements.sync(), 2000);
        }),
        streams.onProblem((_eventId, problem) => reportProblems([problem])),
        streams.onState((state) => {
          if (state.status === 'failed' && state.error) reportError(state.error);
        }),
      );
      // What is watched and which streams open come from one read of the stored watchlist: a watch stored before
      // start is followed like one added through watch() (alerts, closes, settlements), never only streamed.
      watched.clear();
      for (const id of store.watchIds()) {
        watched.add(id);
        openStream(id);
      }
      every(() => options.settings().settledEverySeconds, settlements.sync);
      every(
        () => options.settings().specialsEverySeconds,
        () => specials.refresh(),
      );
      // Housekeeping a minute in, then daily: retention of tick history and planner statistics.
      const maintain = () => {
        try {
          store.maintain();
        } catch (e) {
          reportError({
            kind: 'internal',
            message: `Store maintenance failed: ${e instanceof Error ? e.message : String(e)}`,
          });
        }
        later(maintain, 86_400_000);
      };
      later(maintain, 60_000);
      // Compaction of tick history past the full-detail window: small steps (10 ms each) with the odds path running
      // between them, quickly while there is a backlog, every half minute once it has caught up.
      const compact = () => {
        let done = true;
        try {
          done = store.compactStep({ budgetMs: 10 }).done;
        } catch (e) {
          reportError({
            kind: 'internal',
            message: `Tick compaction failed: ${e instanceof Error ? e.message : String(e)}`,
          });
        }
        later(compact, done ? 30_000 : 100);
      };
      later(compact, 30_000);
      // Period descriptions once per connection, before the first settlement is put into words; the stored copy
      // labels everything offline and on a failed fetch.
      await fetchPeriods();
      await settlements.sync();
      firstRound = specials.refresh().catch(() => undefined);
    },

    async stop() {
      running = false;
      for (const t of timers) clock.clearTimeout(t);
      timers.clear();
      for (const u of unsubscribers.splice(0)) u();
      streams.close();
      await settlements.idle();
      await specials.idle();
      odds.close();
      closingLines.close();
      unsubscribeWriter();
      stopped = true;
    },

    flushWrites() {
      if (stopped) return;
      odds.flushTicks();
      closingLines.flush();
    },

    async watch(eventId) {
      store.addWatch(eventId, clock.now());
      watched.add(eventId);
      if (running) {
        openStream(eventId);
        if (!ENTERPRISE_PATHS.every(restricted)) void specials.refresh([eventId]);
      }
    },

    unwatch(eventId) {
      store.removeWatch(eventId);
      watched.delete(eventId);
      streams.unwatch(eventId);
      forget(eventId);
    },

    syncSettled: () => settlements.sync({ fresh: true }),
    refreshSpecials: (eventIds) => specials.refresh(eventIds),
    resultsFor: (eventId) => settlements.resultsFor(eventId),
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    initialised: () => firstRound,
    stats: () => {
      const s = settlements.stats();
      const sp = specials.stats();
      return {
        settledWalks: s.walks,
        settlementsAdded: s.added,
        maxWinChanges,
        specialsRounds: sp.rounds,
        specialsRoundsSkipped: sp.skipped,
        badRecords,
      };
    },
    lastSettledSync: () => settlements.lastSync(),
    streamStates: () =>
      streams
        .watched()
        .map((id) => streams.state(id))
        .filter((s): s is StreamState => s !== null),
    followedEvents: () => odds.followed(),
    retime: () => {
      for (const w of waits) w();
    },
  };
}

/** The line a price or drop alert is about (its data names it), for a notification that opens at that line. */
function alertLineId(data: unknown): number | null {
  const lineId = (data as { lineId?: unknown } | null)?.lineId;
  return typeof lineId === 'number' ? lineId : null;
}
