// The core's composition: given what its host injects (database path, keychain, notifier, clock, a demo launcher),
// it opens the store, connects the client and the monitor engine to the configured service (or to the built-in
// simulator in demo mode), implements every handler of the IPC contract and pushes events to whoever listens.
// Electron main, the browser-mode host and the tests all build the app through this one function.
import type { Market, SettledEvent } from '../shared/api';
import { formatServiceTime, parseServiceTime, PATHS } from '../shared/api';
import { csvRow } from '../shared/csv';
import type { MarketView, SettlementQuery, SettlementRow } from '../shared/domain';
import { AppErrorException, type AppError } from '../shared/errors';
import type {
  CoreHandlers,
  CoverageView,
  OddsBatch,
  PushListener,
  SettingsPatch,
  SettingsView,
  SpecialsView,
  StatusView,
} from '../shared/ipc/contract';
import { createApiClient, type ApiClient } from './api';
import type { ApiResult } from './api/types';
import { realClock, type Clock } from './clock';
import { createMonitor, DEFAULT_BATCH_MS, DEFAULT_MONITOR_SETTINGS, type Monitor, type MonitorEvent, type MonitorSettings } from './monitor';
import type { Notifier } from './notifier';
import type { SecretStore } from './secrets/types';
import { openStore, type Store } from './store';
import { createStreamClient, type StreamClient } from './stream/client';
import { quotaView } from './status';

export interface DemoService {
  baseUrl: string;
  key: string;
  close(): Promise<void>;
}

export interface CoreDeps {
  host: 'electron' | 'browser';
  version: string;
  /** The history file; ':memory:' for throwaway sessions. */
  dbPath: string;
  /** better_sqlite3.node built for the host's ABI (Electron). */
  nativeBinding?: string;
  secrets: SecretStore;
  notifier: Notifier;
  /** Starts the built-in simulator for demo mode; without it, no key means no connection. */
  startDemo?: () => Promise<DemoService>;
  /** A service and key given by the environment (headless browser mode, tests); the key stays in memory only. */
  envService?: { baseUrl: string; key: string };
  fetch?: typeof fetch;
  clock?: Clock;
  /** Stream ping interval of the service (tests use short ones). */
  pingIntervalMs?: number;
  /** Settings to start from when the store has none yet. */
  initialSettings?: Partial<Omit<SettingsView, 'hasKey' | 'keychain' | 'demo' | 'mutedEvents'>>;
}

export interface Core {
  handlers: CoreHandlers;
  subscribe(listener: PushListener): () => void;
  /** For hosts and tests: the monitor's domain events. */
  onMonitorEvent(listener: (e: MonitorEvent) => void): () => void;
  ready: Promise<void>;
  close(): Promise<void>;
}

type Settings = Omit<SettingsView, 'hasKey' | 'keychain' | 'demo'>;

const DEFAULT_SETTINGS: Settings = {
  baseUrl: null,
  devigModel: 'MPTO',
  maxWinThresholdPct: 10,
  notifySettlements: true,
  notifyMaxWin: true,
  doNotDisturb: false,
  retentionDays: 30,
  settledEverySeconds: 60,
  theme: 'dark',
  mutedEvents: [],
};
const SETTINGS_KEY = 'app.settings';

export function marketView(m: Market, seenAt: number): MarketView {
  return {
    lineId: m.line_id,
    period: m.period,
    market: m.market,
    side: m.side,
    line: m.line,
    prices: m.prices,
    maxWin: m.max_win,
    updatedAt: m.updated_at,
    seenAt,
  };
}

export function settlementRow(s: SettledEvent): SettlementRow {
  // The schema admitted both texts as service date-times, so they parse.
  const parse = (t: string) => parseServiceTime(t)!;
  const ml = s.settlement.find((l) => l.market === 'moneyline' && l.period === 0);
  return {
    eventId: s.event_id,
    sportId: s.sport_id,
    leagueId: s.league_id,
    leagueName: s.league_name,
    runnerHome: s.runner_home,
    runnerAway: s.runner_away,
    starts: parse(s.starts),
    settledAt: parse(s.settled_at),
    scoreHome: s.score_home,
    scoreAway: s.score_away,
    status: s.status,
    lineCount: s.settlement.length,
    moneyline: ml ? { home: ml.outcome_home, draw: ml.outcome_draw, away: ml.outcome_away } : null,
  };
}

function unwrap<T>(r: ApiResult<T>): T {
  if (!r.ok) throw new AppErrorException(r.error);
  return r.value;
}

export async function createCore(deps: CoreDeps): Promise<Core> {
  const clock = deps.clock ?? realClock;
  const store: Store = openStore({
    path: deps.dbPath,
    ...(deps.nativeBinding ? { nativeBinding: deps.nativeBinding } : {}),
    clock: () => clock.now(),
  });
  const listeners = new Set<PushListener>();
  const monitorListeners = new Set<(e: MonitorEvent) => void>();
  const push: PushListener = (event, payload) => {
    for (const l of [...listeners]) l(event, payload);
  };

  let settings: Settings = { ...DEFAULT_SETTINGS, ...deps.initialSettings, ...(store.getSetting<Partial<Settings>>(SETTINGS_KEY) ?? {}) };
  const saveSettings = () => store.setSetting(SETTINGS_KEY, settings);

  const monitorSettings = (): MonitorSettings => ({
    ...DEFAULT_MONITOR_SETTINGS,
    devigModel: settings.devigModel,
    maxWinThresholdPct: settings.maxWinThresholdPct,
    settledEverySeconds: settings.settledEverySeconds,
    notifySettlements: settings.notifySettlements,
    notifyMaxWin: settings.notifyMaxWin,
    doNotDisturb: settings.doNotDisturb,
    mutedEvents: new Set(settings.mutedEvents),
  });

  // ---- the connection: a configured service with its key, else the demo simulator ----
  interface Connection {
    baseUrl: string;
    demo: boolean;
    client: ApiClient;
    streams: StreamClient;
    monitor: Monitor;
    demoService: DemoService | null;
    unsubscribe: Array<() => void>;
  }
  let conn: Connection | null = null;
  /** The key of the current connection, held only here in memory; never stored, logged or pushed. */
  let currentKey: string | null = null;
  let lastError: AppError | null = null;
  let connection: StatusView['connection'] = 'unknown';

  async function keychainStatus(): Promise<SettingsView['keychain']> {
    const a = await deps.secrets.availability().catch((e: unknown) => ({ available: false as const, message: String(e) }));
    return a.available ? { available: true, message: null } : { available: false, message: a.message };
  }

  async function configuredKey(baseUrl: string | null): Promise<string | null> {
    if (!baseUrl) return null;
    if (deps.envService && deps.envService.baseUrl === baseUrl) return deps.envService.key;
    const a = await deps.secrets.availability().catch(() => ({ available: false }));
    if (!a.available) return null;
    return deps.secrets.get(baseUrl).catch(() => null);
  }

  const targetBaseUrl = () => settings.baseUrl ?? deps.envService?.baseUrl ?? null;

  async function connect(): Promise<void> {
    await disconnect();
    const baseUrl = targetBaseUrl();
    let key = await configuredKey(baseUrl);
    let demoService: DemoService | null = null;
    if ((!baseUrl || !key) && deps.startDemo) {
      demoService = await deps.startDemo();
      key = demoService.key;
    }
    currentKey = key;
    const serviceUrl = demoService?.baseUrl ?? baseUrl;
    if (!serviceUrl) return;
    const client = createApiClient({
      baseUrl: serviceUrl,
      keyProvider: () => currentKey,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
      clock,
    });
    const streams = createStreamClient({ api: client, clock, ...(deps.pingIntervalMs ? { pingIntervalMs: deps.pingIntervalMs } : {}) });
    const monitor = createMonitor({ client, streams, store, notifier: deps.notifier, clock, settings: monitorSettings });
    const c: Connection = { baseUrl: serviceUrl, demo: demoService !== null, client, streams, monitor, demoService, unsubscribe: [] };
    conn = c;
    c.unsubscribe.push(client.governor.subscribe(() => scheduleStatus()));
    c.unsubscribe.push(streams.onState(() => scheduleStatus()));
    c.unsubscribe.push(monitor.on(onMonitorEvent));
    await monitor.start().catch((e: unknown) => {
      lastError = { kind: 'internal', message: e instanceof Error ? e.message : String(e) };
    });
    scheduleStatus();
  }

  async function disconnect(): Promise<void> {
    const c = conn;
    conn = null;
    if (!c) return;
    await c.monitor.stop();
    for (const u of c.unsubscribe) u();
    c.client.dispose();
    await c.demoService?.close();
  }

  // ---- pushes: odds coalesced per monitor batch, status at most every 250 ms ----
  let oddsBatch: OddsBatch['events'] = [];
  let oddsScheduled = false;
  let lastOddsPush = 0;

  function onMonitorEvent(e: MonitorEvent): void {
    for (const l of [...monitorListeners]) l(e);
    switch (e.type) {
      case 'odds':
      case 'score': {
        if (e.type === 'odds') {
          const at = clock.now();
          oddsBatch.push({ eventId: e.eventId, markets: e.markets.map((m) => marketView(m, at)), ...(e.replace ? { replace: true } : {}) });
        } else {
          const score = { liveStatus: e.liveStatus, scoreHome: e.scoreHome, scoreAway: e.scoreAway };
          oddsBatch.push({ eventId: e.eventId, markets: [], score });
        }
        if (!oddsScheduled) {
          oddsScheduled = true;
          // Everything one monitor flush emits goes out as one batch, and scores (which the streams send on their
          // own) join the next one: the renderer never gets more than one batch per interval.
          const pushNow = () => {
            oddsScheduled = false;
            const events = oddsBatch;
            oddsBatch = [];
            lastOddsPush = clock.now();
            if (events.length) push('onOdds', { events, at: lastOddsPush });
          };
          const wait = lastOddsPush + DEFAULT_BATCH_MS - clock.now();
          // Due now: a microtask, queued ahead of the monitor's tick write, so the screen is not kept waiting for
          // the disk. Otherwise at the end of the interval.
          if (wait <= 0) queueMicrotask(pushNow);
          else clock.setTimeout(pushNow, wait);
        }
        if (connection !== 'online') {
          connection = 'online';
          scheduleStatus();
        }
        break;
      }
      case 'settlement':
        push('onSettlement', settlementRow(e.settlement));
        if (e.watched) push('onWatchlist', store.watchedEvents());
        break;
      case 'alert':
        push('onAlert', e.alert);
        break;
      case 'error':
        lastError = e.error;
        if (e.error.kind === 'network') connection = 'offline';
        scheduleStatus();
        break;
      default:
        break;
    }
  }

  function status(): StatusView {
    const gov = conn?.client.governor.state();
    const streams = conn?.monitor.streamStates() ?? [];
    return {
      connection,
      demo: conn?.demo ?? false,
      auth: gov?.auth ?? (conn ? 'ok' : 'missing'),
      plan: gov && gov.plan !== 'unknown' ? gov.plan : null,
      restricted: (gov?.restrictedPaths ?? []).map((r) => ({ path: r.path, requiredPlan: r.requiredPlan ?? 'enterprise', yourPlan: r.yourPlan ?? 'unknown' })),
      quota: quotaView(gov),
      streams: streams.map((s) => ({
        eventId: s.eventId,
        state: s.status === 'failed' && s.error?.kind === 'plan' ? 'restricted' : s.status,
        lastMessageAt: s.lastEventAt,
      })),
      lastSettledSync: conn?.monitor.lastSettledSync() ?? null,
      lastError,
    };
  }

  let statusTimer: ReturnType<Clock['setTimeout']> | null = null;
  function scheduleStatus(): void {
    if (statusTimer !== null) return;
    statusTimer = clock.setTimeout(() => {
      statusTimer = null;
      push('onStatus', status());
    }, 250);
  }

  /** Runs a request against the service; notes whether the service answered at all. */
  async function online<T>(fn: (client: ApiClient) => Promise<ApiResult<T>>): Promise<T> {
    if (!conn) throw new AppErrorException({ kind: 'auth', message: 'No service is configured: enter a base URL and key in Settings.' });
    const r = await fn(conn.client);
    const was = connection;
    connection = !r.ok && r.error.kind === 'network' ? 'offline' : 'online';
    if (!r.ok) lastError = r.error;
    if (was !== connection || !r.ok) scheduleStatus();
    return unwrap(r);
  }

  async function settingsView(): Promise<SettingsView> {
    const baseUrl = targetBaseUrl();
    return {
      ...settings,
      baseUrl: settings.baseUrl ?? deps.envService?.baseUrl ?? null,
      hasKey: (await configuredKey(baseUrl)) !== null,
      keychain: await keychainStatus(),
      demo: conn?.demo ?? false,
    };
  }

  function specialsView(eventId: number): SpecialsView {
    const gov = conn?.client.governor.state();
    const r = gov?.restrictedPaths.find((p) => p.path === PATHS.specialsFixtures);
    const restricted: AppError | null = r ? { kind: 'plan', message: r.message, yourPlan: r.yourPlan ?? 'unknown', requiredPlan: r.requiredPlan ?? 'enterprise' } : null;
    return { eventId, restricted, specials: store.specialsOf(eventId), maxWinPoints: store.maxWinPointsOf(eventId) };
  }

  async function exportCsv(q: SettlementQuery): Promise<string> {
    const header = ['event_id', 'sport_id', 'league', 'home', 'away', 'starts_utc', 'settled_at_utc', 'score_home', 'score_away', 'status', 'lines', 'ml_home', 'ml_draw', 'ml_away'];
    let out = csvRow(header);
    let after: SettlementQuery['after'];
    for (let pages = 0; pages < 2000; pages++) {
      const page = store.querySettlements({ ...q, limit: 500, withoutTotal: true, ...(after ? { after } : {}) });
      for (const r of page.rows) {
        out += csvRow([r.eventId, r.sportId, r.leagueName, r.runnerHome, r.runnerAway, formatServiceTime(r.starts), formatServiceTime(r.settledAt), r.scoreHome, r.scoreAway, r.status, r.lineCount, r.moneyline?.home, r.moneyline?.draw, r.moneyline?.away]);
      }
      if (!page.next) break;
      after = page.next;
    }
    return out;
  }

  const handlers: CoreHandlers = {
    'app:info': () => ({ version: deps.version, demo: conn?.demo ?? false, host: deps.host, baseUrl: conn?.baseUrl ?? '' }),
    'status:get': () => status(),
    'coverage:get': async (): Promise<CoverageView> => {
      try {
        const raw = await online((c) => c.coverage({ priority: 'normal' }));
        store.recordCoverage(raw, clock.now());
        const sports = Object.entries(raw.standard)
          .map(([sport, events]) => ({ sport, events }))
          .sort((a, b) => a.sport.localeCompare(b.sport));
        return { sports, fetchedAt: clock.now(), raw };
      } catch (e) {
        // Offline: the last sample we recorded, marked by its time.
        const cached = store.latestCoverage();
        if (cached.length === 0) throw e;
        const raw = { standard: Object.fromEntries(cached.map((c) => [c.sportName, c.count])) };
        return { sports: cached.map((c) => ({ sport: c.sportName, events: c.count })).sort((a, b) => a.sport.localeCompare(b.sport)), fetchedAt: cached[0]!.at, raw };
      }
    },
    'sports:list': async () => {
      const sports = await online((c) => c.sports({ priority: 'normal' }));
      store.recordSports(sports);
      return sports;
    },
    'fixtures:list': async (q) => {
      const fixtures = await online((c) => c.fixtures({ ...(q.sportId === undefined ? {} : { sportId: q.sportId }), ...(q.liveOnly ? { live: true } : {}) }, { priority: 'normal' }));
      store.recordFixtures(fixtures, clock.now());
      const watched = new Set(store.watchIds());
      return fixtures.map((f) => ({ ...f, watched: watched.has(f.event_id) }));
    },
    'watch:list': () => store.watchedEvents(),
    'watch:add': async (eventId) => {
      if (conn) await conn.monitor.watch(eventId);
      else store.addWatch(eventId, clock.now());
      // One read of the watchlist serves both the push and the answer.
      const list = store.watchedEvents();
      push('onWatchlist', list);
      const added = list.find((w) => w.eventId === eventId);
      if (!added) throw new AppErrorException({ kind: 'not_found', message: `Event ${eventId} is not on the watchlist` });
      return added;
    },
    'watch:remove': (eventId) => {
      if (conn) conn.monitor.unwatch(eventId);
      else store.removeWatch(eventId);
      push('onWatchlist', store.watchedEvents());
      // Dropping a stream emits no state of its own: without this the status bar kept counting it.
      scheduleStatus();
      return null;
    },
    'event:detail': (eventId) => {
      const event = store.eventView(eventId);
      if (!event) throw new AppErrorException({ kind: 'not_found', message: `Nothing is recorded for event ${eventId} yet` });
      const watched = store.watchIds().includes(eventId);
      const settlement = store.settlement(eventId);
      return {
        event,
        watched,
        settled: settlement !== null,
        markets: store.latestMarkets(eventId),
        periodResults: store.results(eventId),
        liveStates: store.liveStateHistory(eventId),
        settlement,
      };
    },
    'event:lineHistory': (eventId, lineId) => store.oddsHistory(eventId, lineId),
    'specials:list': async (eventId) => {
      if (conn && store.specialsOf(eventId).length === 0) await conn.monitor.refreshSpecials([eventId]);
      return specialsView(eventId);
    },
    'specials:history': (_eventId, specialId, contestantId) => store.specialHistory(specialId, contestantId),
    'outrights:list': async (q) => {
      const markets = await online((c) => c.outrightMarkets({ ...(q.sportId === undefined ? {} : { sportId: q.sportId }), ...(q.minContestants === undefined ? {} : { minContestants: q.minContestants }) }, { priority: 'normal' }));
      store.recordOutrights(markets, clock.now());
      return markets;
    },
    'settlements:query': (q) => store.querySettlements(q),
    'settlements:detail': (eventId) => {
      const settlement = store.settlement(eventId);
      return settlement ? { settlement, periodResults: store.results(eventId) } : null;
    },
    'settlements:syncNow': async () => {
      if (!conn) throw new AppErrorException({ kind: 'auth', message: 'No service is configured' });
      const r = await conn.monitor.syncSettled();
      if (r.error) throw new AppErrorException(r.error);
      scheduleStatus();
      return { added: r.added };
    },
    'settlements:exportCsv': (q) => exportCsv(q),
    'alerts:list': (q) => store.listAlerts(q),
    'alerts:mute': (eventId, muted) => {
      const set = new Set(settings.mutedEvents);
      if (muted) set.add(eventId);
      else set.delete(eventId);
      settings = { ...settings, mutedEvents: [...set] };
      saveSettings();
      return null;
    },
    'settings:get': () => settingsView(),
    'settings:update': async (patch: SettingsPatch) => {
      const before = targetBaseUrl();
      const { baseUrl, ...rest } = patch;
      settings = { ...settings, ...rest, ...(baseUrl === undefined ? {} : { baseUrl: baseUrl ? baseUrl.replace(/\/+$/, '') : null }) };
      saveSettings();
      if (targetBaseUrl() !== before) await connect();
      return settingsView();
    },
    'settings:setApiKey': async (key) => {
      const baseUrl = targetBaseUrl();
      if (!baseUrl) throw new AppErrorException({ kind: 'validation', message: 'Enter the service base URL first: the key is stored for that address.' });
      const keychain = await keychainStatus();
      if (!keychain.available) {
        throw new AppErrorException({ kind: 'keychain', message: `The key was not saved: ${keychain.message} Oddsdesk never stores keys in plain text.` });
      }
      await deps.secrets.set(baseUrl, key.trim());
      await connect();
      return settingsView();
    },
    'settings:clearApiKey': async () => {
      const baseUrl = targetBaseUrl();
      if (baseUrl) await deps.secrets.delete(baseUrl).catch(() => false);
      await connect();
      return settingsView();
    },
  };

  const ready = connect().catch((e: unknown) => {
    lastError = { kind: 'internal', message: e instanceof Error ? e.message : String(e) };
  });

  return {
    handlers,
    ready,
    subscribe(listener) {
      listeners.add(listener);
      listener('onStatus', status());
      return () => listeners.delete(listener);
    },
    onMonitorEvent(listener) {
      monitorListeners.add(listener);
      return () => monitorListeners.delete(listener);
    },
    async close() {
      await ready;
      await disconnect();
      if (statusTimer !== null) clock.clearTimeout(statusTimer);
      listeners.clear();
      store.close();
    },
  };
}

