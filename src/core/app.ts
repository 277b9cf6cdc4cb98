// The core's composition: given what its host injects (base URL, key provider, fetch, clock), it implements every
// handler of the IPC contract and pushes events to whoever listens. Electron main, the browser-mode host and the
// tests all build the app through this one function, so none of them needs Electron to run it.
import type { Coverage } from '../shared/api';
import { API_KEY_HEADER, CoverageSchema, PATHS } from '../shared/api';
import { AppErrorException } from '../shared/errors';
import type { CoreHandlers, CoverageView, PushListener, StatusView } from '../shared/ipc/contract';
import { REQUEST_CHANNELS } from '../shared/ipc/contract';

export interface CoreDeps {
  baseUrl: string;
  /** Returns the key for the current base URL; the core never stores it. */
  keyProvider: () => Promise<string | null> | string | null;
  host: 'electron' | 'browser';
  demo: boolean;
  version: string;
  fetch?: typeof fetch;
  now?: () => number;
}

export interface Core {
  handlers: CoreHandlers;
  subscribe(listener: PushListener): () => void;
  close(): Promise<void>;
}

export function createCore(deps: CoreDeps): Core {
  const doFetch = deps.fetch ?? fetch;
  const now = deps.now ?? Date.now;
  const listeners = new Set<PushListener>();
  let status: StatusView = {
    connection: 'unknown',
    demo: deps.demo,
    auth: 'ok',
    plan: null,
    restricted: [],
    quota: { used: 0, remaining: null, limit: null, resetAt: null, pausedUntil: null },
    streams: [],
    lastSettledSync: null,
    lastError: null,
  };

  const push: PushListener = (event, payload) => {
    for (const l of listeners) l(event, payload);
  };
  const setStatus = (next: StatusView) => {
    status = next;
    push('onStatus', status);
  };

  async function getCoverage(): Promise<Coverage> {
    const key = await deps.keyProvider();
    let res: Response;
    try {
      res = await doFetch(new URL(PATHS.coverage, deps.baseUrl), {
        headers: key ? { [API_KEY_HEADER]: key } : {},
      });
    } catch {
      const error = { kind: 'network', message: `Cannot reach the odds service at ${deps.baseUrl}` } as const;
      setStatus({ ...status, connection: 'offline', lastError: error });
      throw new AppErrorException(error);
    }
    const parsed = CoverageSchema.safeParse(await res.json().catch(() => null));
    if (!res.ok || !parsed.success) {
      const error = { kind: res.ok ? 'bad_payload' : 'server', message: `Coverage failed (HTTP ${res.status})` } as const;
      setStatus({ ...status, connection: 'online', lastError: error });
      throw new AppErrorException(error);
    }
    setStatus({ ...status, connection: 'online', lastError: null });
    return parsed.data;
  }

  // Until the monitor engine lands, channels it owns answer with a plain error instead of breaking the build.
  const pending = Object.fromEntries(
    REQUEST_CHANNELS.map((c) => [c, () => Promise.reject(new AppErrorException({ kind: 'internal', message: `${c} is not available yet` }))]),
  ) as unknown as CoreHandlers;
  const handlers: CoreHandlers = {
    ...pending,
    'app:info': () => ({ version: deps.version, demo: deps.demo, host: deps.host, baseUrl: deps.baseUrl }),
    'coverage:get': async (): Promise<CoverageView> => {
      const raw = await getCoverage();
      const sports = Object.entries(raw.standard)
        .map(([sport, events]) => ({ sport, events }))
        .sort((a, b) => a.sport.localeCompare(b.sport));
      return { sports, fetchedAt: now(), raw };
    },
  };

  return {
    handlers,
    subscribe(listener) {
      listeners.add(listener);
      listener('onStatus', status);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
    },
  };
}
