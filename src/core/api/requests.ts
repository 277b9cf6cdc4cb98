// How the client asks: the governor's terms for a request (priority, purpose, the key), and the answers' plumbing:
// one GET through the governor with its body read (capped) inside the attempt, parsed as JSON with turns of the
// event loop for a large page, and checked record by record against the contract. Nothing here throws to a caller,
// and no message carries the key.
import type { z } from 'zod';
import { PATHS, parseRecords, type ApiPath, type RecordProblem } from '../../shared/api';
import { errorMessage, type AppError } from '../../shared/errors';
import type { Clock } from '../clock';
import { sendConfined, readBodyCapped, YIELD_AFTER_BYTES, type Transport } from './confinedFetch';
import { pathLabel } from './errors';
import type { GovernedRequest, Governor } from './governor';
import { parsePagedJson } from './jsonPages';
import type { ApiResult, BadRecord, Priority, Purpose, RequestOptions } from './types';

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

/** What the governor is told of a request besides how to send it: by default the priority given, the purpose its
 * path serves, and the key unless it is the free probe. */
export function requestTerms(
  path: ApiPath,
  baseUrl: string,
  o: (RequestOptions & { maxAttempts?: number; timeoutMs?: number }) | undefined,
  priority: Priority,
): Omit<GovernedRequest, 'send'> {
  return {
    path,
    baseUrl,
    priority: o?.priority ?? priority,
    purpose: o?.purpose ?? purposeOfPath(path),
    needsKey: path !== PATHS.status,
    ...(o?.maxAttempts === undefined ? {} : { maxAttempts: o.maxAttempts }),
    ...(o?.timeoutMs === undefined ? {} : { timeoutMs: o.timeoutMs }),
    ...(o?.signal ? { signal: o.signal } : {}),
  };
}

export type Query = Record<string, string | number | boolean | undefined | null>;

export function badRecord(path: ApiPath, p: RecordProblem): BadRecord {
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

export function badPayload(path: ApiPath, detail: string, at?: string): AppError {
  return {
    kind: 'bad_payload',
    ...(at === undefined ? {} : { path: at }),
    message: `${pathLabel(path)}: the service sent an answer that cannot be used (${detail}). It is usually temporary; try again.`,
  };
}

export function validation(message: string): AppError {
  return { kind: 'validation', message };
}

export interface JsonRequestDeps {
  governor: Governor;
  clock: Clock;
  transport: Transport;
  /** The service's base URL as it is now (the trader may change it). */
  baseUrl(): string;
  url(path: ApiPath, query?: Query): string;
  maxBodyBytes: number;
}

export interface JsonExtra {
  maxAttempts?: number;
  timing?: { sentAt: number; receivedAt: number };
  paged?: { member: string; max: number };
}

export type JsonAnswer = { ok: true; body: unknown; total: number | null } | { ok: false; error: AppError };

/** The client's way to ask for JSON: a GET (`getJson`), a method that cannot throw (`guarded`), a list (`list`). */
export interface JsonRequests {
  getJson(
    path: ApiPath,
    query: Query,
    o: RequestOptions | undefined,
    priority: Priority,
    extra?: JsonExtra,
  ): Promise<JsonAnswer>;
  guarded<T>(path: ApiPath, work: () => Promise<ApiResult<T>>): Promise<ApiResult<T>>;
  list<T>(
    path: ApiPath,
    schema: z.ZodType<T>,
    query: Query,
    o: RequestOptions | undefined,
    priority: Priority,
  ): Promise<ApiResult<T[]>>;
}

export function createJsonRequests(deps: JsonRequestDeps): JsonRequests {
  const { governor, clock } = deps;

  /** The text of each 2xx answer getJson read, by the Response the governor hands back. */
  const okBodies = new WeakMap<Response, string>();

  /** One GET through the governor, the body read inside the attempt so the timeout covers it. */
  async function getJson(
    path: ApiPath,
    query: Query,
    o: RequestOptions | undefined,
    priority: Priority,
    extra: JsonExtra = {},
  ): Promise<JsonAnswer> {
    const r = await governor.run({
      ...requestTerms(path, deps.baseUrl(), { ...o, ...extra }, priority),
      send: async (key, signal) => {
        const sentAt = clock.now();
        const res = await sendConfined(
          deps.transport,
          path,
          deps.url(path, query),
          { headers: { Accept: 'application/json' } },
          key,
          signal,
        );
        if (extra.timing) {
          extra.timing.sentAt = sentAt;
          extra.timing.receivedAt = clock.now();
        }
        const text = await readBodyCapped(path, res, deps.maxBodyBytes);
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
        error: { kind: 'internal', message: `${pathLabel(path)}: ${errorMessage(e)}` },
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

  return { getJson, guarded, list };
}
