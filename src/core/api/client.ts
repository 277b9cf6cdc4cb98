// The typed upstream API client: one method per operation, each answer validated record by record against the
// contract in src/shared/api (./endpoints.ts, by group). It never throws: every method resolves to an ApiResult.
// All traffic goes through the governor, which is shared with the stream client (`client.governor`). Every request
// carries a purpose for the governor's account (by default the one its path serves; ./requests.ts). /api/status is
// the free probe: it sends no key, costs no quota, measures the service's clock skew, and is what the client knocks
// with, backing off, after a network fault until the service answers again (./probe.ts).
// It also confines the key: the base URL must pass checkBaseUrl (https, or http on loopback only), and every request
// goes out through ./confinedFetch.ts, which follows a redirect only within the origin the request started at and
// caps every body it reads (MAX_RESPONSE_BYTES).
import { MAX_RESPONSE_BYTES, type ApiPath, type ServiceStatus } from '../../shared/api';
import { checkBaseUrl } from '../../shared/baseUrl';
import { AppErrorException, type AppError } from '../../shared/errors';
import { realClock, type Clock } from '../clock';
import { readBodyCapped, sendConfined, type Transport } from './confinedFetch';
import {
  lookupEndpoints,
  readStatus,
  settlementEndpoints,
  specialsEndpoints,
  type LookupEndpoints,
  type SettlementEndpoints,
  type SpecialsEndpoints,
} from './endpoints';
import { pathLabel } from './errors';
import { createGovernor, type Governor, type GovernorOptions, type GovernedResult } from './governor';
import { watchReachability } from './probe';
import { createJsonRequests, requestTerms, type Query } from './requests';
import type { ApiResult, KeyProvider, Logger, RequestOptions } from './types';

export { MAX_REDIRECTS } from './confinedFetch';
export type { SettledQuery } from './endpoints';
export { purposeOfPath } from './requests';

export interface ApiClientOptions {
  baseUrl: string;
  keyProvider: KeyProvider;
  fetch?: typeof fetch;
  clock?: Clock;
  quotaPerHour?: number;
  logger?: Logger;
  /** Everything else the governor takes: retry policy, jitter source, concurrency, timeouts. */
  governor?: Omit<GovernorOptions, 'keyProvider' | 'clock' | 'quotaPerHour' | 'logger'>;
  /**
   * Backoff of the /api/status probes after a network fault, until the service answers again; `false` turns the
   * probing off (the host then finds out on its next request). Default 1 s doubling to 30 s.
   */
  probe?: { baseMs: number; maxMs: number } | false;
  /** The most of one answer's body that is read, in bytes; default MAX_RESPONSE_BYTES (32 MiB). */
  maxBodyBytes?: number;
}

export interface ApiClient extends LookupEndpoints, SettlementEndpoints, SpecialsEndpoints {
  readonly governor: Governor;
  baseUrl(): string;
  /** Throws an AppErrorException (`validation`) for a base URL that checkBaseUrl refuses; the old one stays. */
  setBaseUrl(url: string): void;
  /** The host stored a new key: resume at once instead of at the next poll of the key provider. */
  keyChanged(): void;
  /** The service's clock minus ours in ms, from the last /api/status; null before the first one answered. */
  clockSkewMs(): number | null;
  /** Now on the service's clock (ours corrected by the measured skew): for ages and cursors the service compares. */
  serviceNow(): number;
  /** The full URL of an operation; the key never goes into a URL. */
  url(path: ApiPath, query?: Query): string;
  /**
   * A fetch that goes through the governor with the key attached, for the stream client. Errors come back as
   * values (`{ ok: false }`), so the caller can tell a plan restriction from a dropped connection. `url` must be on
   * the base URL's origin (as `url()` builds it); redirects are confined to that origin like every other request.
   */
  governedFetch(
    path: ApiPath,
    url: string,
    init: RequestInit,
    options: RequestOptions & { maxAttempts?: number; timeoutMs?: number },
  ): Promise<GovernedResult>;

  /** The free probe: no key, no quota; also measures the clock skew (`clockSkewMs`). */
  status(o?: RequestOptions): Promise<ApiResult<ServiceStatus>>;
  dispose(): void;
}

function checkedBase(url: string): string {
  const r = checkBaseUrl(url);
  if (!r.ok) throw new AppErrorException({ kind: 'validation', message: r.message });
  return r.url;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const clock = options.clock ?? realClock;
  const maxBodyBytes = options.maxBodyBytes ?? MAX_RESPONSE_BYTES;
  // Defence in depth: whatever host builds the client, a base URL the key must not go to is refused here too.
  let base = checkedBase(options.baseUrl);
  const governor = createGovernor({
    ...options.governor,
    keyProvider: options.keyProvider,
    clock,
    ...(options.quotaPerHour === undefined ? {} : { quotaPerHour: options.quotaPerHour }),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const transport: Transport = {
    fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
    log: (level, message) => governor.log(level, message),
  };

  function url(path: ApiPath, query: Query = {}): string {
    const u = new URL(base + path);
    for (const [k, v] of Object.entries(query)) {
      if (v !== undefined && v !== null) u.searchParams.set(k, String(v));
    }
    return u.toString();
  }

  function governedFetch(
    path: ApiPath,
    target: string,
    init: RequestInit,
    o: RequestOptions & { maxAttempts?: number; timeoutMs?: number },
  ): Promise<GovernedResult> {
    let targetOrigin: string | null = null;
    try {
      targetOrigin = new URL(target).origin;
    } catch {
      /* refused below */
    }
    const baseOrigin = new URL(base).origin;
    if (targetOrigin !== baseOrigin) {
      const error: AppError = {
        kind: 'validation',
        message: `${pathLabel(path)}: refused to send the API key anywhere but the configured service address (${baseOrigin}).`,
      };
      return Promise.resolve({ ok: false, error, attempts: 0 });
    }
    return governor.run({
      ...requestTerms(path, base, o, 'high'),
      send: async (key, signal) => {
        const signals = init.signal ? AbortSignal.any([init.signal, signal]) : signal;
        const res = await sendConfined(transport, path, target, init, key, signals);
        if (res.ok) return res;
        // The governor reads a refusal's body to classify it: read here, within the cap, and handed on as text. A 2xx
        // body is the caller's to read (the stream client caps its lines and messages itself).
        const text = await readBodyCapped(path, res, maxBodyBytes);
        return new Response(text || null, { status: res.status, statusText: res.statusText, headers: res.headers });
      },
    });
  }

  const json = createJsonRequests({ governor, clock, transport, baseUrl: () => base, url, maxBodyBytes });
  // After a network fault: knock with the free probe, backing off, until the service answers.
  const stopProbing = watchReachability(governor, clock, options.probe, () =>
    readStatus(json, governor, { priority: 'high' }, 1),
  );

  return {
    governor,
    baseUrl: () => base,
    setBaseUrl(next) {
      base = checkedBase(next);
      governor.log('info', `service base URL set to ${base}`);
    },
    keyChanged: () => governor.keyChanged(),
    clockSkewMs: () => governor.state().clockSkewMs,
    serviceNow: () => clock.now() + (governor.state().clockSkewMs ?? 0),
    url,
    governedFetch,
    status: (o) => readStatus(json, governor, o),
    ...lookupEndpoints(json),
    ...settlementEndpoints(json),
    ...specialsEndpoints(json),
    dispose: () => {
      stopProbing();
      governor.dispose();
    },
  };
}
