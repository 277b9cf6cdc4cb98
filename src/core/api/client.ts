// The typed upstream API client: one method per operation, each answer validated record by record against the
// contract in src/shared/api. It never throws: every method resolves to an ApiResult. All traffic goes through
// the governor, which is shared with the stream client (`client.governor`). Every request carries a purpose for the
// governor's account (by default the one its path serves). /api/status is the free probe: it sends no key, costs
// no quota, measures the service's clock skew, and is what the client knocks with, backing off, after a network
// fault until the service answers again.
// It also confines the key: the base URL must pass checkBaseUrl (https, or http on loopback only), every request goes
// out with `redirect: 'manual'`, and a redirect is followed only within the origin the request started at. fetch's
// own following would carry X-API-Key to whatever origin a Location names (it drops only Authorization and cookies).
// Every body it reads is capped (MAX_RESPONSE_BYTES): a declared Content-Length over the cap is refused before a byte
// is read, and an undeclared body is cut the moment it passes it, so a hostile or broken service cannot fill memory.
import { z } from 'zod';
import {
  API_KEY_HEADER,
  CoverageSchema,
  DEVIG_MODELS,
  FIXTURES_LIVE_NOW,
  FixtureSchema,
  MAX_RESPONSE_BYTES,
  OutrightMarketSchema,
  PARAMS,
  PATHS,
  PeriodResultSchema,
  PeriodSchema,
  RESPONSE_LIMITS,
  SETTLED_LIMIT,
  parseSettledEvent,
  SpecialFixtureSchema,
  SpecialOpeningSchema,
  SportSchema,
  StatusSchema,
  parseRecord,
  parseServiceTime,
  parseRecords,
  parseSettledPage,
  type ApiPath,
  type Coverage,
  type DevigModel,
  type Fixture,
  type OutrightMarket,
  type Period,
  type PeriodResult,
  type RecordProblem,
  type ServiceStatus,
  type SettledEvent,
  type SettledPage,
  type SpecialFixture,
  type SpecialOpening,
  type SpecialTick,
  type Sport,
} from '../../shared/api';
import { checkBaseUrl } from '../../shared/baseUrl';
import { AppErrorException, type AppError } from '../../shared/errors';
import { realClock, type Clock } from '../clock';
import { pathLabel, responseTooLarge } from './errors';
import { parsePagedJson } from './jsonPages';
import { backoffDelay, createGovernor, type Governor, type GovernorOptions, type GovernedResult } from './governor';
import type { ApiResult, BadRecord, KeyProvider, Logger, Priority, Purpose, RequestOptions } from './types';
import type { TimerHandle } from '../clock';

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

/** The purpose a request to `path` serves when its caller names none. */
export function purposeOfPath(path: ApiPath): Purpose {
  switch (path) {
    case PATHS.settled:
      return 'settled';
    case PATHS.settlement:
      return 'repair';
    case PATHS.results:
      return 'results';
    case PATHS.specialsOpening:
    case PATHS.specialsFixtures:
    case PATHS.specialsHistory:
    case PATHS.outrightMarkets:
      return 'specials';
    case PATHS.stream:
      return 'stream';
    default:
      return 'lookup';
  }
}

type Query = Record<string, string | number | boolean | undefined | null>;

export interface SettledQuery {
  /** The `last` of the previous page, or an ISO date-time without zone. */
  since?: number | string;
  sportId?: number;
  leagueId?: number;
  limit?: number;
}

export interface ApiClient {
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
  sports(o?: RequestOptions): Promise<ApiResult<Sport[]>>;
  fixtures(q?: { sportId?: number; live?: boolean }, o?: RequestOptions): Promise<ApiResult<Fixture[]>>;
  coverage(o?: RequestOptions): Promise<ApiResult<Coverage>>;
  periods(o?: RequestOptions): Promise<ApiResult<Period[]>>;
  results(eventId: number, o?: RequestOptions): Promise<ApiResult<PeriodResult[]>>;
  settled(q?: SettledQuery, o?: RequestOptions): Promise<ApiResult<SettledPage>>;
  settlement(eventId: number, o?: RequestOptions): Promise<ApiResult<SettledEvent>>;
  specialsOpening(
    q: { eventId: number; specialId?: number; model?: DevigModel },
    o?: RequestOptions,
  ): Promise<ApiResult<SpecialOpening[]>>;
  specialsFixtures(
    q: { eventId: number; hasOpening?: boolean; hasClosing?: boolean },
    o?: RequestOptions,
  ): Promise<ApiResult<SpecialFixture[]>>;
  specialsHistory(q: { eventId: number; specialId: number }, o?: RequestOptions): Promise<ApiResult<SpecialTick[]>>;
  outrightMarkets(
    q?: { minContestants?: number; sportId?: number },
    o?: RequestOptions,
  ): Promise<ApiResult<OutrightMarket[]>>;
  dispose(): void;
}

function badRecord(path: ApiPath, p: RecordProblem): BadRecord {
  return {
    kind: 'bad_payload',
    path: p.path,
    ...(p.eventId === undefined ? {} : { eventId: p.eventId }),
    ...(p.scope ? { scope: p.scope } : {}),
    ...(p.count === undefined ? {} : { count: p.count }),
    message:
      p.scope === 'line' || p.count !== undefined
        ? `${pathLabel(path)}: ${p.message}`
        : `${pathLabel(path)}: dropped one record at ${p.path || '(root)'} that does not match the contract: ${p.message}`,
  };
}

function badPayload(path: ApiPath, detail: string, at?: string): AppError {
  return {
    kind: 'bad_payload',
    ...(at === undefined ? {} : { path: at }),
    message: `${pathLabel(path)}: the service sent an answer that cannot be used (${detail}). It is usually temporary; try again.`,
  };
}

function validation(message: string): AppError {
  return { kind: 'validation', message };
}

/** A body longer than this gives the event loop turns while it is parsed and before it is validated. */
const YIELD_AFTER_BYTES = 256 * 1024;

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** Same-origin hops one request may take; a service that needs more is misconfigured or looping. */
export const MAX_REDIRECTS = 5;

/**
 * An origin as a trader can read it in a message; bounded, because a hostile Location can be anything. The URL
 * parser lower-cases host names, so a Location that reflects the key into a host name would slip past the
 * case-sensitive scrub of known keys: the key is removed here whatever its case.
 */
function originText(u: URL, key: string | null): string {
  let o = u.origin === 'null' ? `${u.protocol}…` : u.origin;
  if (key !== null && key.length >= 4) {
    const lower = key.toLowerCase();
    for (let i = o.toLowerCase().indexOf(lower); i >= 0; i = o.toLowerCase().indexOf(lower)) {
      o = `${o.slice(0, i)}[redacted key]${o.slice(i + key.length)}`;
    }
  }
  return o.length > 120 ? `${o.slice(0, 117)}…` : o;
}

function redirectedAway(path: ApiPath, from: string, to: URL, status: number, key: string | null): AppError {
  return {
    kind: 'validation',
    status,
    message:
      `${pathLabel(path)}: the service at ${from} redirected (${status}) to another address, ${originText(to, key)}. ` +
      'The API key is only ever sent to the configured service address, so the request was stopped. ' +
      'If the service has moved, enter its new address in Settings.',
  };
}

function redirectProblem(path: ApiPath, status: number, what: string): AppError {
  return {
    kind: 'validation',
    status,
    message: `${pathLabel(path)}: the service answered ${status} with ${what}, so the request was stopped.`,
  };
}

/**
 * Reads a body as text, at most `maxBytes` of it: a Content-Length over the cap is refused before a byte is read, and a
 * body without one is counted as it arrives and cut (the connection dropped) the moment it passes the cap. Over the
 * cap it throws an AppErrorException, which the governor returns as is, without a retry.
 */
async function readBodyCapped(path: ApiPath, res: Response, maxBytes: number): Promise<string> {
  const declared = res.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw new AppErrorException(responseTooLarge(path, maxBytes));
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  let nextTurn = YIELD_AFTER_BYTES;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    // Chunks already buffered resolve without a turn of the event loop: a large body gives it one now and then.
    if (bytes > nextTurn) {
      nextTurn = bytes + YIELD_AFTER_BYTES;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new AppErrorException(responseTooLarge(path, maxBytes));
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

function checkedBase(url: string): string {
  const r = checkBaseUrl(url);
  if (!r.ok) throw new AppErrorException({ kind: 'validation', message: r.message });
  return r.url;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
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

  function url(path: ApiPath, query: Query = {}): string {
    const u = new URL(base + path);
    for (const [k, v] of Object.entries(query)) {
      if (v !== undefined && v !== null) u.searchParams.set(k, String(v));
    }
    return u.toString();
  }

  function withKey(init: RequestInit, key: string | null): Headers {
    const headers = new Headers(init.headers);
    if (key !== null) headers.set(API_KEY_HEADER, key);
    return headers;
  }

  /**
   * Sends one request, the key attached, and follows redirects only while they stay on the origin the request
   * started at (scheme, host and port: http vs https, or 127.0.0.1 vs localhost, are other origins). A redirect
   * anywhere else throws an AppErrorException, which the governor returns as is, without a retry.
   */
  async function sendConfined(
    path: ApiPath,
    target: string,
    init: RequestInit,
    key: string | null,
    signal: AbortSignal,
  ): Promise<Response> {
    let current = new URL(target);
    const origin = current.origin;
    for (let hop = 0; ; hop++) {
      const res = await doFetch(current.href, { ...init, headers: withKey(init, key), redirect: 'manual', signal });
      // An injected fetch that ignored `redirect: 'manual'` has already followed; at least nothing it got is used.
      if (res.redirected && res.url && new URL(res.url).origin !== origin) {
        await res.body?.cancel().catch(() => undefined);
        throw new AppErrorException(redirectedAway(path, origin, new URL(res.url), res.status, key));
      }
      if (!REDIRECT_STATUSES.has(res.status)) return res;
      const location = res.headers.get('location');
      if (location === null) return res;
      await res.body?.cancel().catch(() => undefined);
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        throw new AppErrorException(redirectProblem(path, res.status, 'a redirect to an address that is not a URL'));
      }
      if (next.origin !== origin) throw new AppErrorException(redirectedAway(path, origin, next, res.status, key));
      if (hop >= MAX_REDIRECTS)
        throw new AppErrorException(redirectProblem(path, res.status, `more than ${MAX_REDIRECTS} redirects in a row`));
      governor.log('debug', `${pathLabel(path)}: the service redirected (${res.status}) within ${origin}`);
      current = next;
    }
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
      path,
      baseUrl: base,
      priority: o.priority ?? 'high',
      purpose: o.purpose ?? purposeOfPath(path),
      needsKey: path !== PATHS.status,
      ...(o.maxAttempts === undefined ? {} : { maxAttempts: o.maxAttempts }),
      ...(o.timeoutMs === undefined ? {} : { timeoutMs: o.timeoutMs }),
      ...(o.signal ? { signal: o.signal } : {}),
      send: async (key, signal) => {
        const signals = init.signal ? AbortSignal.any([init.signal, signal]) : signal;
        const res = await sendConfined(path, target, init, key, signals);
        if (res.ok) return res;
        // The governor reads a refusal's body to classify it: read here, within the cap, and handed on as text. A 2xx
        // body is the caller's to read (the stream client caps its lines and messages itself).
        const text = await readBodyCapped(path, res, maxBodyBytes);
        return new Response(text || null, { status: res.status, statusText: res.statusText, headers: res.headers });
      },
    });
  }

  /** The text of each 2xx answer getJson read, by the Response the governor hands back. */
  const okBodies = new WeakMap<Response, string>();

  /** One GET through the governor, the body read inside the attempt so the timeout covers it. */
  async function getJson(
    path: ApiPath,
    query: Query,
    o: RequestOptions | undefined,
    priority: Priority,
    extra: {
      maxAttempts?: number;
      timing?: { sentAt: number; receivedAt: number };
      paged?: { member: string; max: number };
    } = {},
  ) {
    const r = await governor.run({
      path,
      baseUrl: base,
      priority: o?.priority ?? priority,
      purpose: o?.purpose ?? purposeOfPath(path),
      needsKey: path !== PATHS.status,
      ...(extra.maxAttempts === undefined ? {} : { maxAttempts: extra.maxAttempts }),
      ...(o?.signal ? { signal: o.signal } : {}),
      send: async (key, signal) => {
        const sentAt = clock.now();
        const res = await sendConfined(
          path,
          url(path, query),
          { headers: { Accept: 'application/json' } },
          key,
          signal,
        );
        if (extra.timing) {
          extra.timing.sentAt = sentAt;
          extra.timing.receivedAt = clock.now();
        }
        const text = await readBodyCapped(path, res, maxBodyBytes);
        if (!res.ok)
          return new Response(text || null, { status: res.status, statusText: res.statusText, headers: res.headers });
        // A 2xx body is handed past the governor as the text it is, not encoded into a Response and decoded again
        // (two more long steps of the event loop for a large page).
        const answer = new Response(null, { status: res.status, statusText: res.statusText, headers: res.headers });
        okBodies.set(answer, text);
        return answer;
      },
    });
    if (!r.ok) return { ok: false as const, error: r.error };
    const text = okBodies.get(r.response) ?? (await r.response.text());
    let body: unknown;
    let total: number | null = null;
    try {
      // A large page's records are read one by one, at most `extra.paged.max`, in slices with turns of the event
      // loop between them (./jsonPages.ts): JSON.parse of 2 MB is one step of 30 to 140 ms, of 32 MiB many times that.
      if (extra.paged && text.length > YIELD_AFTER_BYTES)
        ({ body, total } = await parsePagedJson(text, extra.paged.member, extra.paged.max));
      else body = JSON.parse(text);
    } catch {
      return { ok: false as const, error: badPayload(path, 'the body is not valid JSON') };
    }
    // Parsing a large body is one long step of the event loop; its validation is another, not the same one, so the
    // host's loop (status, the page's pushes, the window) gets a turn in between.
    if (text.length > YIELD_AFTER_BYTES) await new Promise<void>((resolve) => setImmediate(resolve));
    return { ok: true as const, body, total };
  }

  /** Wraps a method so nothing it does can throw, and no message carries the key. */
  async function guarded<T>(path: ApiPath, work: () => Promise<ApiResult<T>>): Promise<ApiResult<T>> {
    let result: ApiResult<T>;
    try {
      result = await work();
    } catch (e) {
      result = {
        ok: false,
        error: { kind: 'internal', message: `${pathLabel(path)}: ${e instanceof Error ? e.message : String(e)}` },
      };
    }
    if (!result.ok) return { ok: false, error: governor.scrubError(result.error) };
    for (const p of result.problems) governor.log('warn', p.message);
    return result;
  }

  function list<T>(
    path: ApiPath,
    schema: z.ZodType<T>,
    query: Query,
    o: RequestOptions | undefined,
    priority: Priority,
  ) {
    return guarded<T[]>(path, async () => {
      const r = await getJson(path, query, o, priority);
      if (!r.ok) return r;
      if (!Array.isArray(r.body)) return { ok: false, error: badPayload(path, 'expected a list', '') };
      const parsed = parseRecords(schema, r.body);
      return { ok: true, value: parsed.items, problems: parsed.problems.map((p) => badRecord(path, p)) };
    });
  }

  /** GET /api/status, timed so the service's `time` gives the skew of its clock against ours. */
  function status(o: RequestOptions | undefined, maxAttempts?: number): Promise<ApiResult<ServiceStatus>> {
    return guarded(PATHS.status, async () => {
      const timing = { sentAt: 0, receivedAt: 0 };
      const r = await getJson(PATHS.status, {}, o, 'normal', {
        timing,
        ...(maxAttempts === undefined ? {} : { maxAttempts }),
      });
      if (!r.ok) return r;
      const parsed = parseRecord(StatusSchema, r.body, '');
      if (!parsed.ok)
        return { ok: false, error: badPayload(PATHS.status, parsed.problem.message, parsed.problem.path) };
      const serviceMs = parseServiceTime(parsed.value.time);
      if (serviceMs !== null) governor.noteServiceTime(serviceMs, timing.sentAt, timing.receivedAt);
      else
        governor.log(
          'warn',
          `Service status: the time ${JSON.stringify(parsed.value.time.slice(0, 40))} is not a date-time; clock skew not measured`,
        );
      return { ok: true, value: parsed.value, problems: [] };
    });
  }

  // ---- after a network fault: knock with the free probe, backing off, until the service answers ----
  const probePolicy = options.probe === false ? null : (options.probe ?? { baseMs: 1000, maxMs: 30_000 });
  let probeTimer: TimerHandle | null = null;
  let probeAttempt = 0;
  let probing = false;
  let disposed = false;
  function scheduleProbe() {
    if (!probePolicy || disposed || probeTimer !== null || probing) return;
    probeAttempt++;
    probeTimer = clock.setTimeout(
      async () => {
        probeTimer = null;
        if (governor.state().reachable !== false) return;
        probing = true;
        await status({ priority: 'high' }, 1);
        probing = false;
        // An answer of any kind sets the governor reachable; otherwise knock again, later.
        if (governor.state().reachable === false) scheduleProbe();
      },
      backoffDelay(probeAttempt, probePolicy, Math.random),
    );
  }
  const stopWatching = governor.subscribe((st) => {
    if (st.reachable === false) scheduleProbe();
    else {
      probeAttempt = 0;
      if (probeTimer !== null) clock.clearTimeout(probeTimer);
      probeTimer = null;
    }
  });

  const CoverageEnvelope = z.object({ standard: z.record(z.string(), z.unknown()) });
  const coverageCount = CoverageSchema.shape.standard.valueType;

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

    status: (o) => status(o),
    sports: (o) => list(PATHS.sports, SportSchema, {}, o, 'low'),
    fixtures: (q = {}, o) =>
      list(
        PATHS.fixtures,
        FixtureSchema,
        { [PARAMS.fixtures.sportId]: q.sportId, [PARAMS.fixtures.live]: q.live ? FIXTURES_LIVE_NOW : undefined },
        o,
        'normal',
      ),
    coverage: (o) =>
      guarded(PATHS.coverage, async () => {
        // Each sport's count is checked alone: one bad count must not hide the others.
        const r = await getJson(PATHS.coverage, {}, o, 'low');
        if (!r.ok) return r;
        const env = CoverageEnvelope.safeParse(r.body);
        if (!env.success) return { ok: false, error: badPayload(PATHS.coverage, 'expected {"standard": {...}}', '') };
        const standard: Record<string, number> = {};
        const problems: BadRecord[] = [];
        for (const [sport, count] of Object.entries(env.data.standard)) {
          const c = parseRecord(coverageCount, count, `standard.${sport}`);
          if (c.ok) standard[sport] = c.value;
          else problems.push(badRecord(PATHS.coverage, c.problem));
        }
        return { ok: true, value: { standard }, problems };
      }),
    periods: (o) => list(PATHS.periods, PeriodSchema, {}, o, 'low'),
    results: (eventId, o) =>
      list(PATHS.results, PeriodResultSchema, { [PARAMS.results.eventId]: eventId }, o, 'normal'),
    settled: (q = {}, o) =>
      guarded(PATHS.settled, async () => {
        if (
          q.limit !== undefined &&
          !(Number.isInteger(q.limit) && q.limit >= SETTLED_LIMIT.min && q.limit <= SETTLED_LIMIT.max)
        ) {
          return {
            ok: false,
            error: validation(`Settled matches: limit must be ${SETTLED_LIMIT.min} to ${SETTLED_LIMIT.max}.`),
          };
        }
        const p = PARAMS.settled;
        const r = await getJson(
          PATHS.settled,
          { [p.since]: q.since, [p.sportId]: q.sportId, [p.leagueId]: q.leagueId, [p.limit]: q.limit },
          o,
          'high',
          { paged: { member: 'events', max: RESPONSE_LIMITS.settledPageRecords } },
        );
        if (!r.ok) return r;
        const parsed = parseSettledPage(r.body, r.total);
        if (!parsed.page)
          return { ok: false, error: badPayload(PATHS.settled, parsed.envelope?.message ?? 'bad page', '') };
        return { ok: true, value: parsed.page, problems: parsed.problems.map((pr) => badRecord(PATHS.settled, pr)) };
      }),
    settlement: (eventId, o) =>
      guarded(PATHS.settlement, async () => {
        const r = await getJson(PATHS.settlement, { [PARAMS.settlement.eventId]: eventId }, o, 'high');
        if (!r.ok) return r;
        const parsed = parseSettledEvent(r.body, '');
        if (!parsed.ok)
          return { ok: false, error: badPayload(PATHS.settlement, parsed.problem.message, parsed.problem.path) };
        return {
          ok: true,
          value: parsed.value,
          problems: parsed.lineProblems.map((p) => badRecord(PATHS.settlement, p)),
        };
      }),
    specialsOpening: (q, o) => {
      if (q.model !== undefined && !DEVIG_MODELS.includes(q.model)) {
        return Promise.resolve({
          ok: false,
          error: validation(`Unknown de-vig model; use one of ${DEVIG_MODELS.join(', ')}.`),
        });
      }
      const p = PARAMS.specialsOpening;
      return list(
        PATHS.specialsOpening,
        SpecialOpeningSchema,
        { [p.eventId]: q.eventId, [p.specialId]: q.specialId, [p.model]: q.model },
        o,
        'normal',
      );
    },
    specialsFixtures: (q, o) => {
      const p = PARAMS.specialsFixtures;
      const flag = (b: boolean | undefined) => (b === undefined ? undefined : b ? '1' : 'false');
      return list(
        PATHS.specialsFixtures,
        SpecialFixtureSchema,
        { [p.eventId]: q.eventId, [p.hasOpening]: flag(q.hasOpening), [p.hasClosing]: flag(q.hasClosing) },
        o,
        'normal',
      );
    },
    specialsHistory: (q, o) => {
      const p = PARAMS.specialsHistory;
      return list(
        PATHS.specialsHistory,
        SpecialOpeningSchema,
        { [p.eventId]: q.eventId, [p.specialId]: q.specialId },
        o,
        'normal',
      );
    },
    outrightMarkets: (q = {}, o) => {
      const p = PARAMS.outrightMarkets;
      return list(
        PATHS.outrightMarkets,
        OutrightMarketSchema,
        { [p.minContestants]: q.minContestants, [p.sportId]: q.sportId },
        o,
        'low',
      );
    },
    dispose: () => {
      disposed = true;
      stopWatching();
      if (probeTimer !== null) clock.clearTimeout(probeTimer);
      probeTimer = null;
      governor.dispose();
    },
  };
}
