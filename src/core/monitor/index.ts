// The monitor engine: the app's work, given a client, a store, a notifier and a clock. It keeps the watchlist's
// streams open, walks /api/settled on a schedule, refreshes the specials of watched events within the quota, turns
// max_win changes and settlements of watched events into alerts, and hands coalesced odds to its host. Electron
// main, the browser-mode host and the CLI all run this same engine.
import type { DevigModel, EventOdds, Market, SettledEvent, SpecialTick } from '../../shared/api';
import { ENTERPRISE_PATHS, formatServiceTime, PATHS } from '../../shared/api';
import type { MaxWinPoint } from '../../shared/domain';
import type { AppError } from '../../shared/errors';
import type { ApiClient } from '../api/client';
import type { Clock, TimerHandle } from '../clock';
import type { Notifier } from '../notifier';
import type { Store, TickBatch } from '../store';
import type { StreamClient, StreamState } from '../stream/client';
import { createCoalescer } from './coalescer';
import type { MaxWinChange, MonitorEvent, MonitorListener } from './events';
import { walkSettled } from './settledWalk';

export type { MonitorEvent, MonitorListener } from './events';

export interface MonitorSettings {
  /** null: let the service decide (the account's preference, else MPTO). */
  devigModel: DevigModel | null;
  /** A max_win change alerts when it moves at least this many percent. 0 = every change. */
  maxWinThresholdPct: number;
  settledEverySeconds: number;
  specialsEverySeconds: number;
  notifySettlements: boolean;
  notifyMaxWin: boolean;
  doNotDisturb: boolean;
  mutedEvents: ReadonlySet<number>;
}

export const DEFAULT_MONITOR_SETTINGS: MonitorSettings = {
  devigModel: null,
  maxWinThresholdPct: 0,
  settledEverySeconds: 60,
  specialsEverySeconds: 300,
  notifySettlements: true,
  notifyMaxWin: true,
  doNotDisturb: false,
  mutedEvents: new Set(),
};

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
  /** Share of the hourly quota kept free of background refreshes (specials), for streams and settlements. */
  backgroundReserve?: number;
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
  /** Flushes pending writes and closes every stream. */
  stop(): Promise<void>;
  watch(eventId: number): Promise<void>;
  unwatch(eventId: number): void;
  syncSettled(): Promise<{ added: number; error: AppError | null }>;
  refreshSpecials(eventIds?: number[]): Promise<void>;
  on(listener: MonitorListener): () => void;
  /** Resolves once the first settled walk and the first specials round after start have finished. */
  initialised(): Promise<void>;
  stats(): MonitorStats;
  lastSettledSync(): number | null;
  streamStates(): StreamState[];
}

/**
 * Half a frame: an update waits at most 8 ms in the coalescer, and the renderer still applies whatever arrived once
 * per animation frame. Measured with `npm run bench -- tick`: 16 ms gave tick-to-screen p99 59 ms, 8 ms 54-56 ms.
 */
export const DEFAULT_BATCH_MS = 8;
/** How often stream ticks are written to the store. */
const TICK_WRITE_MS = 250;

/** Continuous-score sports publish no per-period results (spec, /api/results). */
const CONTINUOUS_SPORTS = /soccer|football|basketball|baseball|hockey|handball|rugby|cricket|american/i;

function pctChange(from: number, to: number): number {
  if (from === 0) return to === 0 ? 0 : Infinity;
  return ((to - from) / from) * 100;
}

export function formatPct(pct: number): string {
  if (!Number.isFinite(pct)) return 'new';
  return `${pct > 0 ? '+' : ''}${pct.toFixed(1)}%`;
}

const money = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

export function createMonitor(options: MonitorOptions): Monitor {
  const { client, streams, store, notifier, clock } = options;
  const listeners = new Set<MonitorListener>();
  const timers = new Set<TimerHandle>();
  const unsubscribers: Array<() => void> = [];
  const lastMaxWin = new Map<string, number>();
  const resultsPending = new Map<number, number>(); // eventId -> attempts left
  let pendingTicks: TickBatch[] = [];
  let sportNames = new Map<number, string>();
  let lastSync: number | null = null;
  let running = false;
  let walking: Promise<{ added: number; error: AppError | null }> | null = null;
  let specialsRunning: Promise<void> | null = null;
  let firstRound: Promise<void> = Promise.resolve();
  const stats: MonitorStats = {
    settledWalks: 0,
    settlementsAdded: 0,
    maxWinChanges: 0,
    specialsRounds: 0,
    specialsRoundsSkipped: 0,
    badRecords: 0,
  };

  const emit = (event: MonitorEvent) => {
    for (const l of [...listeners]) l(event);
  };
  const reportError = (error: AppError) => emit({ type: 'error', error: client.governor.scrubError(error) });
  const reportProblems = (problems: readonly AppError[]) => {
    stats.badRecords += problems.length;
    for (const p of problems) reportError(p);
  };

  const isWatched = (eventId: number | null) => eventId !== null && store.watchIds().includes(eventId);
  const isMuted = (eventId: number | null) => eventId !== null && options.settings().mutedEvents.has(eventId);

  function later(fn: () => void, ms: number): void {
    const handle = clock.setTimeout(() => {
      timers.delete(handle);
      if (running) fn();
    }, ms);
    timers.add(handle);
  }

  function every(seconds: () => number, task: () => Promise<unknown>): void {
    const loop = () => {
      void task()
        .catch((e: unknown) => reportError({ kind: 'internal', message: e instanceof Error ? e.message : String(e) }))
        .finally(() => later(loop, Math.max(1, seconds()) * 1000));
    };
    later(loop, Math.max(1, seconds()) * 1000);
  }

  // ---- odds from the streams: stored tick by tick, handed on coalesced ----

  const flushTicks = () => {
    if (pendingTicks.length === 0) return;
    const batch = pendingTicks;
    pendingTicks = [];
    try {
      store.recordTickBatches(batch);
    } catch (e) {
      reportError({ kind: 'internal', message: `Could not record odds: ${e instanceof Error ? e.message : String(e)}` });
    }
  };

  const coalescer = createCoalescer(clock, options.batchMs ?? DEFAULT_BATCH_MS, (batch) => {
    for (const e of batch) emit({ type: 'odds', eventId: e.eventId, markets: e.markets, replace: e.replace });
  });

  // The screen before the disk: ticks are written in their own transactions every TICK_WRITE_MS, not with every
  // coalesced batch. A tick transaction is ~0.5 ms typically but up to ~35 ms (WAL growth, checkpoint); on the
  // batch path each one held the next batches back. A crash loses at most this much tick history, never a settlement.
  let tickTimer: TimerHandle | null = null;
  const scheduleTickWrite = () => {
    if (tickTimer !== null) return;
    tickTimer = clock.setTimeout(() => {
      tickTimer = null;
      flushTicks();
    }, TICK_WRITE_MS);
  };

  function marketMaxWinChanged(eventId: number, market: Market): void {
    const key = `${eventId}:${market.line_id}`;
    const previous = lastMaxWin.get(key);
    lastMaxWin.set(key, market.max_win);
    if (previous === undefined || previous === market.max_win) return;
    maxWinChange({
      eventId,
      specialId: null,
      contestantId: null,
      lineId: market.line_id,
      from: previous,
      to: market.max_win,
      at: market.updated_at,
      label: `line ${market.line_id} (${market.market}${market.line === null ? '' : ` ${market.line}`}, period ${market.period})`,
    });
  }

  function maxWinChange({ label, ...c }: MaxWinChange & { label: string }): void {
    stats.maxWinChanges++;
    const watched = isWatched(c.eventId);
    emit({ type: 'max_win', ...c, watched });
    const settings = options.settings();
    const pct = pctChange(c.from, c.to);
    if (!watched || isMuted(c.eventId) || Math.abs(pct) < settings.maxWinThresholdPct) return;
    const message = `max_win ${money(c.from)} → ${money(c.to)} (${formatPct(pct)}) on ${label}`;
    const alert = store.appendAlert({
      kind: 'max_win',
      eventId: c.eventId,
      specialId: c.specialId,
      contestantId: c.contestantId,
      message,
      data: { lineId: c.lineId, from: c.from, to: c.to, pct: Number.isFinite(pct) ? pct : null, at: c.at },
    });
    emit({ type: 'alert', alert });
    if (settings.notifyMaxWin && !settings.doNotDisturb) {
      notifier.notify({ kind: 'max_win', title: `max_win ${formatPct(pct)}: ${label}`, body: message, eventId: c.eventId });
    }
  }

  const seededEvents = new Set<number>();

  function onSnapshot(eventId: number, odds: EventOdds): void {
    const at = clock.now();
    flushTicks();
    if (!seededEvents.has(eventId)) {
      // What we recorded before a restart is the baseline: a limit that moved while we were away is still a change.
      seededEvents.add(eventId);
      for (const m of store.latestMarkets(eventId)) {
        const key = `${eventId}:${m.lineId}`;
        if (m.maxWin !== null && !lastMaxWin.has(key)) lastMaxWin.set(key, m.maxWin);
      }
    }
    try {
      store.recordSnapshot(odds, at);
    } catch (e) {
      reportError({ kind: 'internal', message: `Could not record a snapshot: ${e instanceof Error ? e.message : String(e)}` });
    }
    for (const m of odds.markets) marketMaxWinChanged(eventId, m);
    coalescer.add(eventId, odds.markets, true);
  }

  function onMarkets(eventId: number, markets: Market[]): void {
    pendingTicks.push({ eventId, markets, at: clock.now() });
    scheduleTickWrite();
    for (const m of markets) marketMaxWinChanged(eventId, m);
    coalescer.add(eventId, markets);
  }

  // ---- settlements ----

  function settlementTitle(s: SettledEvent): string {
    return `Settled: ${s.runner_home} v ${s.runner_away} ${s.score_home}–${s.score_away}`;
  }

  function settlementBody(s: SettledEvent): string {
    const letter = { win: 'W', loss: 'L', push: 'P' } as const;
    return s.settlement
      .map((l) => {
        const line = l.line === null ? '' : ` ${l.line}`;
        return `${l.market}${line} (p${l.period}): H ${letter[l.outcome_home]} · D ${letter[l.outcome_draw]} · A ${letter[l.outcome_away]}`;
      })
      .join('\n');
  }

  async function knownSportNames(): Promise<Map<number, string>> {
    if (sportNames.size > 0) return sportNames;
    const r = await client.sports({ priority: 'normal' });
    if (r.ok) {
      sportNames = new Map(r.value.map((s) => [s.sport_id, s.name]));
      try {
        store.recordSports(r.value);
      } catch {
        /* the names are a convenience; the walk goes on without them */
      }
    }
    return sportNames;
  }

  async function fetchResults(eventId: number): Promise<void> {
    const r = await client.results(eventId, { priority: 'normal' });
    if (!r.ok) {
      // Kept for the next walk: a settlement's results are never given up on after one fault.
      if (r.error.kind !== 'plan' && r.error.kind !== 'auth') resultsPending.set(eventId, resultsPending.get(eventId) ?? 3);
      return;
    }
    reportProblems(r.problems);
    if (r.value.length > 0) {
      store.recordPeriodResults(r.value);
      resultsPending.delete(eventId);
    } else {
      // Results may be published after the settlement: ask again on the next walks, a few times.
      const left = (resultsPending.get(eventId) ?? 3) - 1;
      if (left > 0) resultsPending.set(eventId, left);
      else resultsPending.delete(eventId);
    }
  }

  async function runWalk(): Promise<{ added: number; error: AppError | null }> {
    stats.settledWalks++;
    const r = await walkSettled({
      client,
      store,
      sportIds: async () => [...(await knownSportNames()).keys()],
    });
    reportProblems(r.problems);
    if (r.error) reportError(r.error);
    else lastSync = clock.now();
    stats.settlementsAdded += r.added.length;

    const names = r.added.length > 0 ? await knownSportNames() : sportNames;
    const retry = [...resultsPending.keys()];
    for (const s of r.added) {
      const watched = isWatched(s.event_id);
      emit({ type: 'settlement', settlement: s, watched });
      if (watched && !isMuted(s.event_id)) {
        const title = settlementTitle(s);
        const body = settlementBody(s);
        const alert = store.appendAlert({ kind: 'settled', eventId: s.event_id, message: `${title}\n${body}`, data: { score_home: s.score_home, score_away: s.score_away } });
        emit({ type: 'alert', alert });
        const settings = options.settings();
        if (settings.notifySettlements && !settings.doNotDisturb) notifier.notify({ kind: 'settlement', title, body, eventId: s.event_id });
      }
      const sport = names.get(s.sport_id);
      if (!sport || !CONTINUOUS_SPORTS.test(sport)) await fetchResults(s.event_id);
    }
    for (const id of retry) if (!r.added.some((s) => s.event_id === id)) await fetchResults(id);
    return { added: r.added.length, error: r.error };
  }

  function syncSettled(): Promise<{ added: number; error: AppError | null }> {
    // One walk at a time: a second caller shares the running one instead of racing it over the cursor.
    walking ??= runWalk().finally(() => (walking = null));
    return walking;
  }

  // ---- specials of watched events ----

  const restricted = (path: string) => client.governor.state().restrictedPaths.some((r) => r.path === path);

  function recordTicks(ticks: readonly SpecialTick[]): MaxWinPoint[] {
    try {
      return store.recordSpecialTicks(ticks, clock.now());
    } catch (e) {
      reportError({ kind: 'internal', message: `Could not record specials: ${e instanceof Error ? e.message : String(e)}` });
      return [];
    }
  }

  function announcePoints(points: readonly MaxWinPoint[]): void {
    for (const p of points) {
      if (p.previousMaxWin === null) continue; // the baseline: nothing changed yet
      maxWinChange({
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

  async function refreshSpecialsOf(eventId: number): Promise<void> {
    const model = options.settings().devigModel;
    // The first look at a contestant loads its whole history: those changes happened before anyone watched, so they
    // are stored as change points but not alerted. A contestant we already knew (in this run or an earlier one)
    // alerts on every new point, including those that came while the app was closed.
    const known = new Set(store.maxWinPointsOf(eventId).map((p) => `${p.specialId}:${p.contestantId}`));
    const announce = (points: readonly MaxWinPoint[]) => announcePoints(points.filter((p) => known.has(`${p.specialId}:${p.contestantId}`)));
    const fixtures = await client.specialsFixtures({ eventId }, { priority: 'low' });
    if (!fixtures.ok) {
      if (fixtures.error.kind !== 'plan') reportError(fixtures.error);
      return;
    }
    reportProblems(fixtures.problems);
    store.recordSpecialFixtures(fixtures.value, clock.now());
    const opening = await client.specialsOpening({ eventId, ...(model ? { model } : {}) }, { priority: 'low' });
    if (opening.ok) {
      reportProblems(opening.problems);
      announce(recordTicks(opening.value));
    } else if (opening.error.kind !== 'plan') reportError(opening.error);
    const specialIds = [...new Set(fixtures.value.map((f) => f.special_id))];
    for (const specialId of specialIds) {
      const history = await client.specialsHistory({ eventId, specialId }, { priority: 'low' });
      if (!history.ok) {
        if (history.error.kind !== 'plan') reportError(history.error);
        continue;
      }
      reportProblems(history.problems);
      announce(recordTicks(history.value));
    }
  }

  async function runSpecials(eventIds?: number[]): Promise<void> {
    if (restricted(PATHS.specialsFixtures)) return;
    const ids = eventIds ?? store.watchIds();
    if (ids.length === 0) return;
    // A round costs about two requests plus one per special for each event. Background work keeps its hands off the
    // share of the quota that streams and settlement polling need.
    const quota = client.governor.state().quota;
    const estimate = ids.length * 5;
    if (!eventIds && quota.limit !== null && quota.remaining !== null) {
      const reserve = Math.ceil(quota.limit * (options.backgroundReserve ?? 0.3));
      if (quota.remaining - estimate < reserve) {
        stats.specialsRoundsSkipped++;
        return;
      }
    }
    stats.specialsRounds++;
    for (const id of ids) {
      if (!running) return;
      await refreshSpecialsOf(id);
      if (restricted(PATHS.specialsFixtures)) return;
    }
  }

  function refreshSpecials(eventIds?: number[]): Promise<void> {
    const run = (specialsRunning ?? Promise.resolve()).then(() => runSpecials(eventIds));
    specialsRunning = run.finally(() => {
      if (specialsRunning === run) specialsRunning = null;
    });
    return run;
  }

  // ---- watchlist ----

  function openStream(eventId: number): void {
    if (restricted(PATHS.stream)) return;
    if (store.settlement(eventId)) return; // it has left the book: there is no stream to open
    streams.watch(eventId);
  }

  return {
    async start() {
      if (running) return;
      running = true;
      unsubscribers.push(
        streams.onSnapshot(onSnapshot),
        streams.onMarkets(onMarkets),
        streams.onScore((eventId, score) => {
          try {
            store.recordScore(score, clock.now());
          } catch (e) {
            reportError({ kind: 'internal', message: `Could not record a score: ${e instanceof Error ? e.message : String(e)}` });
          }
          emit({ type: 'score', eventId, liveStatus: score.live_status, scoreHome: score.score_home, scoreAway: score.score_away });
        }),
        streams.onEnd((_eventId, end) => {
          // The match left the book; its settlement is discovered through /api/settled, soon.
          if (end.reason === 'settled') later(() => void syncSettled(), 2000);
        }),
        streams.onProblem((_eventId, problem) => reportProblems([problem])),
        streams.onState((state) => {
          if (state.status === 'failed' && state.error) reportError(state.error);
        }),
      );
      for (const id of store.watchIds()) openStream(id);
      every(() => options.settings().settledEverySeconds, syncSettled);
      every(() => options.settings().specialsEverySeconds, () => refreshSpecials());
      // Housekeeping a minute in, then daily: retention of tick history and planner statistics.
      const maintain = () => {
        try {
          store.maintain();
        } catch (e) {
          reportError({ kind: 'internal', message: `Store maintenance failed: ${e instanceof Error ? e.message : String(e)}` });
        }
        later(maintain, 86_400_000);
      };
      later(maintain, 60_000);
      await syncSettled();
      firstRound = refreshSpecials().catch(() => undefined);
    },

    async stop() {
      running = false;
      for (const t of timers) clock.clearTimeout(t);
      timers.clear();
      for (const u of unsubscribers.splice(0)) u();
      streams.close();
      await walking?.catch(() => undefined);
      await specialsRunning?.catch(() => undefined);
      if (tickTimer !== null) clock.clearTimeout(tickTimer);
      tickTimer = null;
      coalescer.flush();
      flushTicks();
      coalescer.close();
    },

    async watch(eventId) {
      store.addWatch(eventId, clock.now());
      if (running) {
        openStream(eventId);
        if (!ENTERPRISE_PATHS.every(restricted)) void refreshSpecials([eventId]);
      }
    },

    unwatch(eventId) {
      store.removeWatch(eventId);
      streams.unwatch(eventId);
    },

    syncSettled,
    refreshSpecials,
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    initialised: () => firstRound,
    stats: () => ({ ...stats }),
    lastSettledSync: () => lastSync,
    streamStates: () => streams.watched().map((id) => streams.state(id)).filter((s): s is StreamState => s !== null),
  };
}
