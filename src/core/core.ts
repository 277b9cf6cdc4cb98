// The core's composition root for the hosts with a window (Electron main, browser mode): it wires the settings
// service, the profiles, the session (which builds every engine through the one factory, ./engine.ts), the push
// projection and the handlers per domain into the IPC contract. It owns no settings, mappers or handlers itself.
import type { CoreHandlers, PushListener } from '../shared/ipc/contract';
import type { Logger } from './api/types';
import { realClock, type Clock } from './clock';
import { createEngine } from './engine';
import { betsHandlers } from './handlers/bets';
import type { CoreContext } from './handlers/context';
import { lookupHandlers } from './handlers/lookups';
import { modelsHandlers } from './handlers/models';
import { labHandlers } from './handlers/lab';
import { announcingSettings, settingsHandlers, targetBaseUrl } from './handlers/settings';
import { isSnoozed, mutedEvents, settlementsHandlers } from './handlers/settlements';
import { specialsHandlers } from './handlers/specials';
import { storeHandlers } from './handlers/store';
import { watchlistHandlers } from './handlers/watchlist';
import type { MonitorEvent } from './monitor';
import type { Notifier } from './notifier';
import { createProfileLocator } from './profiles';
import { createPushes } from './pushes';
import { keepScoreSumsNow } from './report/keep';
import type { SecretStore } from './secrets/types';
import { createSession, type SessionDeps } from './session';
import { createSettingsService, normaliseBaseUrl, type AppSettings } from './settingsService';
import { openStore, type MigrationProgress } from './store';

export type { DemoService } from './session';
export { marketView, settlementRow } from './pushes';

export interface CoreDeps {
  host: 'electron' | 'browser';
  version: string;
  /**
   * Where settings.json and every profile's history live (`<dataDir>/profiles/`); null keeps everything in memory
   * (tests, throwaway sessions).
   */
  dataDir: string | null;
  /** A file the trader named for the real service's history (`--db FILE`); demo never writes into it. */
  serviceDb?: string;
  /** better_sqlite3.node built for the host's ABI (Electron). */
  nativeBinding?: string;
  /** The keychain, as the host kit wraps it (so the log scrubber learns every key read or stored). */
  secrets: SecretStore;
  /**
   * Shows a notification the core decided on (kind, pacing and the settings that mute it are all decided in the
   * core): Electron's native notifications. Without one, each notification is pushed to the page
   * (`onNotification`), which only displays it (browser mode).
   */
  notifier?: Notifier;
  /** The host kit's scrubbed logger, given to every engine. */
  logger: Logger;
  /** Starts the built-in simulator for demo mode; without it, no key means no connection. */
  startDemo?: SessionDeps['startDemo'];
  /** A service and key given by the environment (headless browser mode, tests); the key stays in memory only. */
  envService?: { baseUrl: string; key: string };
  fetch?: typeof fetch;
  clock?: Clock;
  /** Stream ping interval of the service (tests use short ones). */
  pingIntervalMs?: number;
  /** Settings to start from when none are saved yet. */
  initialSettings?: Partial<AppSettings>;
  /** The host's save dialog, for exports streamed to a file the trader chooses. */
  chooseSavePath?: (suggestedName: string) => Promise<string | null>;
}

export interface Core {
  handlers: CoreHandlers;
  subscribe(listener: PushListener): () => void;
  /** For hosts and tests: the current engine's domain events. */
  onMonitorEvent(listener: (e: MonitorEvent) => void): () => void;
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * The host's status while a schema upgrade rebuilds a table of a big history file (the store opens before the
 * bridge or a window can show anything): a line in the log at the start, every tenth of the way and at the end.
 */
function upgradeStatus(logger: Logger): (p: MigrationProgress) => void {
  let said = '';
  return (p) => {
    const pct = p.total > 0 ? Math.floor((10 * p.done) / p.total) * 10 : 100;
    const key = `${p.version}:${pct}`;
    if (key === said) return;
    said = key;
    logger(
      'info',
      `Upgrading the history file (step ${p.version}, ${p.name}): ${pct} % (${p.done} of ${p.total} rows)`,
    );
  };
}

export async function createCore(deps: CoreDeps): Promise<Core> {
  const clock = deps.clock ?? realClock;
  const warn = (message: string) => deps.logger('warn', message);
  const settings = createSettingsService({
    dataDir: deps.dataDir,
    ...(deps.initialSettings ? { initial: deps.initialSettings } : {}),
    warn,
  });
  const profiles = createProfileLocator({
    dataDir: deps.dataDir,
    ...(deps.serviceDb ? { serviceDb: deps.serviceDb } : {}),
    warn,
  });
  const envService = deps.envService
    ? { ...deps.envService, baseUrl: normaliseBaseUrl(deps.envService.baseUrl) }
    : undefined;

  const session = createSession({
    clock,
    secrets: deps.secrets,
    profiles,
    ...(envService ? { envService } : {}),
    ...(deps.startDemo ? { startDemo: deps.startDemo } : {}),
    targetBaseUrl: () => targetBaseUrl({ settings, ...(envService ? { envService } : {}) }),
    openStore: (path) => {
      // One status line per tenth, for the schema's steps and the scoreboard sums after them alike.
      const upgrading = upgradeStatus(deps.logger);
      const store = openStore({
        path,
        ...(deps.nativeBinding ? { nativeBinding: deps.nativeBinding } : {}),
        clock: () => clock.now(),
        // The stream's writes off the event loop (the store's writer thread): the same in every host.
        writer: 'thread',
        warn,
        retentionDays: settings.get().retentionDays,
        rawTickHours: settings.get().rawTickHours,
        onMigrationProgress: upgrading,
      });
      // The model scoreboard's sums of the matches closed or settled since they were last kept (every match with a
      // close after migration 012: the upgrade's last step, in the log when it is long), so the Models view reads a
      // row per match.
      keepScoreSumsNow(store, {
        onProgress: (done, total) => {
          if (total > 50_000) upgrading({ version: 12, name: 'model scoreboard sums per match', done, total });
        },
      });
      // Where the store's work runs, in the log: a packaged app whose threads could not start says so here.
      if (path !== ':memory:')
        deps.logger(
          'info',
          `History store open: WAL checkpoints on ${store.maintenance.walCheckpoints()}, stream writes on ${store.writer.where()}`,
        );
      store.writer.onProblem((p) => deps.logger(p.kind === 'thread' ? 'warn' : 'error', p.message));
      return store;
    },
    createEngine: ({ baseUrl, key, store }) =>
      createEngine({
        baseUrl,
        key,
        store,
        clock,
        notifier,
        logger: deps.logger,
        settings: () => settings.monitorSettings(new Set(mutedEvents(store.settings))),
        snoozed: (eventId) => isSnoozed(store.settings, eventId, clock.now()),
        quotaPerHour: settings.get().quotaPerHour,
        ...(deps.fetch ? { fetch: deps.fetch } : {}),
        ...(deps.pingIntervalMs ? { pingIntervalMs: deps.pingIntervalMs } : {}),
      }),
    onConnection: (connection) => pushes.attach(connection),
  });
  const pushes = createPushes(clock, () => session.current());
  const notifier: Notifier = deps.notifier ?? { notify: (n) => pushes.notification(n) };

  // Settings that take effect on the running engine and store, without a reconnect: the retention reaches the store
  // that prunes (it was saved and ignored before), the quota the governor that budgets.
  const unsubscribeSettings = settings.subscribe((next, previous) => {
    const c = session.current();
    if (next.retentionDays !== previous.retentionDays || next.rawTickHours !== previous.rawTickHours) {
      c.store.maintenance.configure({ retentionDays: next.retentionDays, rawTickHours: next.rawTickHours });
    }
    if (next.quotaPerHour !== previous.quotaPerHour) c.engine?.client.governor.setQuotaPerHour(next.quotaPerHour);
    // "Every 10 s" set while a 60 s wait runs: the next walk is 10 s after the last, not a minute away.
    if (next.settledEverySeconds !== previous.settledEverySeconds) c.engine?.monitor.retime();
    pushes.scheduleStatus();
  });

  const ctx: CoreContext = {
    clock,
    version: deps.version,
    host: deps.host,
    settings,
    session,
    pushes,
    secrets: deps.secrets,
    ...(envService ? { envService } : {}),
    historyPath: () => session.current().store.path,
    ...(deps.chooseSavePath ? { chooseSavePath: deps.chooseSavePath } : {}),
  };

  // A settings change from any window or tab is pushed to all of them (a second monitor stays in step).
  const handlers: CoreHandlers = announcingSettings(
    {
      ...settingsHandlers(ctx),
      ...lookupHandlers(ctx),
      ...watchlistHandlers(ctx),
      ...specialsHandlers(ctx),
      ...settlementsHandlers(ctx),
      ...betsHandlers(ctx),
      ...modelsHandlers(ctx),
      ...labHandlers(ctx, deps.nativeBinding ? { nativeBinding: deps.nativeBinding } : {}),
      // The Settings data section works on whichever profile is open.
      ...storeHandlers({
        usage: () => session.current().store.maintenance.usage(),
        compactStep: (o) => session.current().store.maintenance.compactStep(o),
      }),
    },
    pushes.push,
  );

  const ready = session.reconnect();

  return {
    handlers,
    ready,
    subscribe: pushes.subscribe,
    onMonitorEvent: pushes.onMonitorEvent,
    async close() {
      await ready.catch(() => undefined);
      unsubscribeSettings();
      await session.close();
      pushes.close();
    },
  };
}
