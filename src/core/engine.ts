// The one engine factory: the API client, the stream client and the monitor for ONE service, with ONE key, writing
// into that service's store. Electron main and browser mode (through the session) and `cli record` all build their
// engine here and add only what their host has. An engine's key is fixed at birth and only ever sent to its own
// base URL; stopping an engine aborts its requests, closes its streams, stops its timers and flushes its writes
// before the promise resolves, so nothing of it runs on while the next one starts.
import type { ApiClient } from './api/client';
import { createApiClient } from './api';
import type { Logger } from './api/types';
import type { Clock } from './clock';
import { createMonitor, type Monitor, type MonitorSettings } from './monitor';
import { createNotifyPacer, moreLine } from '../shared/notifyPacer';
import type { Notifier, UserNotification } from './notifier';
import type { Store } from './store';
import { createStreamClient, type StreamClient } from './stream/client';

export interface EngineParts {
  baseUrl: string;
  /** This engine's key: captured here, never read from anywhere else, never sent to another origin. */
  key: string;
  store: Store;
  notifier: Notifier;
  clock: Clock;
  settings: () => MonitorSettings;
  /**
   * Whether an event's alerts are snoozed now: they are still kept and pushed, but notify nobody. Asked before the
   * pacer, so a paced summary never counts or names a snoozed event.
   */
  snoozed?: (eventId: number) => boolean;
  /** The host's fetch (Electron's net.fetch, a proxy-aware fetch, a counting fetch in the CLI). */
  fetch?: typeof fetch;
  /** The hourly quota the trader's plan states, used while the service sends no rate-limit headers. */
  quotaPerHour?: number;
  pingIntervalMs?: number;
  /** The host kit's scrubbed logger: governor, client and stream warnings reach the host's log (src/core/host/kit.ts). */
  logger: Logger;
}

export interface Engine {
  readonly baseUrl: string;
  readonly client: ApiClient;
  readonly streams: StreamClient;
  readonly monitor: Monitor;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createEngine(parts: EngineParts): Engine {
  const { baseUrl, key, store, clock } = parts;
  // One switch for every request this engine ever makes: stop() pulls it, so a walk or a stream open in flight
  // ends at once instead of writing into a store the next engine may already be using.
  const lifetime = new AbortController();
  const baseFetch = parts.fetch ?? globalThis.fetch.bind(globalThis);
  const engineFetch: typeof fetch = (input, init) => {
    if (lifetime.signal.aborted) return Promise.reject(new Error('The connection was replaced.'));
    const signal = init?.signal ? AbortSignal.any([init.signal, lifetime.signal]) : lifetime.signal;
    return baseFetch(input, { ...init, signal });
  };
  const client = createApiClient({
    baseUrl,
    keyProvider: () => key,
    fetch: engineFetch,
    clock,
    ...(parts.quotaPerHour === undefined ? {} : { quotaPerHour: parts.quotaPerHour }),
    logger: parts.logger,
  });
  const streams = createStreamClient({
    api: client,
    clock,
    ...(parts.pingIntervalMs ? { pingIntervalMs: parts.pingIntervalMs } : {}),
  });
  // Price and max_win notifications paced (one per group per ten seconds, the rest summed up); settlements at once.
  const pacer = createNotifyPacer<UserNotification>({
    timers: clock,
    group: (n) => (n.kind === 'settlement' ? null : n.kind),
    show: (n, more, group) => parts.notifier.notify(more ? { ...n, body: n.body + moreLine(more, group) } : n),
  });
  const notifier: Notifier = {
    notify: (n) => (n.eventId != null && parts.snoozed?.(n.eventId) ? undefined : pacer.notify(n)),
  };
  const monitor = createMonitor({ client, streams, store, notifier, clock, settings: parts.settings });
  let stopping: Promise<void> | null = null;

  return {
    baseUrl,
    client,
    streams,
    monitor,
    async start() {
      // The free probe (no key, no quota): is the service there, and how far is its clock from ours.
      void client.status({ purpose: 'lookup' }).catch(() => undefined);
      await monitor.start();
    },
    stop() {
      stopping ??= (async () => {
        // Requests in flight end now, and those waiting to retry are answered: nothing waits on a timer of a clock
        // that may never move again (a test's manual clock, a suspended laptop).
        lifetime.abort();
        client.dispose();
        await monitor.stop();
        pacer.clear();
      })();
      return stopping;
    },
  };
}
