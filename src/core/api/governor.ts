// The one request governor: every request to the upstream (HTTP calls and stream opens) passes through here.
// It owns the hourly budget, the Retry-After pause, the auth state of the key, the per-endpoint plan
// restrictions, priorities and the retry of transient faults. Nothing else in the core decides when to call.
//
// Decisions (see also the report in the issue):
// - While the key is rejected (401) or missing, requests that need the key FAIL FAST with an `auth` error and send
//   nothing. Waiting instead would park every caller's promise with no feedback; failing fast lets timer-driven
//   pollers simply try again on their next tick, which costs no upstream request. Long-lived intents (streams) wait
//   with `whenKeyUsable()`. The governor re-reads the key provider on every request and polls it while blocked,
//   so a new key is noticed without the host calling `keyChanged()` (which it may still do to be immediate).
// - After a 429, queued and new requests WAIT until Retry-After has passed; the request that got the 429 returns
//   its rate_limit error to its caller. The same holds when our budget is spent (remaining 0) or, for `low`
//   priority, when only the reserve is left. A wait longer than `maxWaitMs` (default 30 s; the service may say
//   "until the hour resets") is not waited: the request fails fast with `rate_limit` and `retryAfter`, so no
//   caller hangs for an hour and nothing is sent. A Retry-After longer than the quota window (an hour) is clamped to
//   it, and the state says so: no quota outlasts its window, and a bad header must not silence the app for a day.
// - The hourly quota is the trader's figure (`quotaPerHour`, changeable with `setQuotaPerHour`) until the service
//   states its own in X-RateLimit-Limit and X-RateLimit-Remaining, which then take precedence; `quota.source` says
//   which one is in use. A partial set (a limit without a remaining) is ignored, never read as "nothing left".
// - Every request sent is counted by purpose, over the rolling hour (the window our own count uses) and since
//   start, 429s included and also counted apart. /api/status needs no key and costs no quota: it is neither
//   counted nor blocked by the key state.
// - The service's clock is learned from /api/status (`noteServiceTime`); its skew corrects X-RateLimit-Reset and a
//   Retry-After given as a date.
// - A plan restriction is remembered per path until the key changes; calls to that path return the plan error
//   without a request.
// - Admission by purpose: the quota's shares (../budget.ts: specials at most half the hour, the trader's look-ups a
//   fifth, a reserve kept back from all but the settled walk, its repairs and stream opens) are enforced HERE, for
//   every caller, right before a request would be counted and sent (and already when it is handed in). A request
//   over its purpose's share is refused at once with `rate_limit` and a `retryAfter` (when the share frees up as the
//   hour rolls), sends nothing, and is counted in `requests.{hour,session}.refused`; it does not wait, since a share
//   frees up in minutes to an hour, not seconds. Callers that would rather skip a round quietly ask `headroom`.
import { ENTERPRISE_PATHS, PLANS, RATE_LIMIT_HEADERS, type ApiPath, type Plan } from '../../shared/api';
import { AppErrorException, type AppError } from '../../shared/errors';
import { DEFAULT_QUOTA_PER_HOUR, emptyByPurpose, type Purpose, type RequestCounts } from '../../shared/requests';
import { ceilingOf, headroom as shareHeadroom, reserveOf, SHARES, shareBound, type BudgetView } from '../budget';
import { realClock, type Clock, type TimerHandle } from '../clock';
import { errorFromStatus, networkError, pathLabel, scrub, scrubError } from './errors';
import type { KeyProvider, Logger, Priority } from './types';

const HOUR_MS = 3_600_000;
const PRIORITY_RANK: Record<Priority, number> = { high: 0, normal: 1, low: 2 };

export interface RetryPolicy {
  /** Attempts in all, the first one included. */
  maxAttempts: number;
  baseMs: number;
  maxMs: number;
}
export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 4, baseMs: 500, maxMs: 15_000 };

/**
 * Exponential backoff with "equal jitter": half the step is fixed, half random, so a delay never collapses to
 * zero (which would hammer a failing service) and never exceeds the cap.
 */
export function backoffDelay(
  attempt: number,
  policy: Pick<RetryPolicy, 'baseMs' | 'maxMs'>,
  random: () => number,
): number {
  const step = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

export interface QuotaState {
  limit: number;
  used: number;
  remaining: number;
  /** When at least one more request becomes available (ms since epoch); null when nothing has been used. */
  resetAt: number | null;
  /**
   * Where the limit comes from. `headers`: the service stated it in X-RateLimit-* (used and remaining are then its
   * own figures while the reading is fresh, our count after); `setting`: the trader's figure, against our count.
   */
  source: 'headers' | 'setting';
}

/** The last 429's Retry-After, when it was longer than the quota window and so cut to it. */
export interface RetryAfterClamp {
  /** What the service asked for, in seconds. */
  statedS: number;
  /** What the governor waits instead, in seconds. */
  appliedS: number;
}

export interface RestrictedPath {
  path: ApiPath;
  yourPlan?: string;
  requiredPlan?: string;
  message: string;
}

export type AuthState = 'ok' | 'rejected' | 'missing';

export interface GovernorState {
  auth: AuthState;
  plan: Plan | 'unknown';
  restrictedPaths: RestrictedPath[];
  quota: QuotaState;
  /** No request of any kind goes out before this instant (ms since epoch), after a 429. */
  pausedUntil: number | null;
  /** Set while a pause is in force whose Retry-After was clamped to the quota window. */
  retryAfterClamp: RetryAfterClamp | null;
  queued: number;
  inFlight: number;
  /**
   * Requests sent in the current quota window, and since the governor started; with, by purpose, those refused by
   * admission for being over their purpose's share (never sent).
   */
  requests: { hour: RequestCounts; session: RequestCounts };
  /** The service's clock minus ours, in ms, as last measured from /api/status; null before the first probe. */
  clockSkewMs: number | null;
  /** Whether the service answered the last request (false after a network fault); null before any answer. */
  reachable: boolean | null;
}

export interface GovernedRequest {
  path: ApiPath;
  /** For messages only: where the service lives. */
  baseUrl: string;
  priority?: Priority;
  /** What the request is spent on, for the account by purpose and its share of the hour; default `lookup`. */
  purpose?: Purpose;
  /** /api/status needs no key: it is neither blocked by auth nor counted against the quota. */
  needsKey?: boolean;
  /** Overrides the retry policy's attempts; stream opens use 1 because the stream client reconnects itself. */
  maxAttempts?: number;
  signal?: AbortSignal;
  /** Bound on one attempt, until `send` resolves. */
  timeoutMs?: number;
  send(key: string | null, signal: AbortSignal): Promise<Response>;
}

export type GovernedResult =
  { ok: true; response: Response; attempts: number } | { ok: false; error: AppError; attempts: number };

export interface GovernorOptions {
  keyProvider: KeyProvider;
  clock?: Clock;
  /** The hourly quota of the trader's plan, counted against when the service sends no X-RateLimit-* headers. */
  quotaPerHour?: number;
  retry?: Partial<RetryPolicy>;
  /** Source of jitter; tests pass a fixed one. */
  random?: () => number;
  maxConcurrent?: number;
  timeoutMs?: number;
  /** Requests kept back from `low` priority so streams and settlement polling still get through near the limit. */
  lowPriorityReserve?: number;
  /** How often the key provider is re-read while the key is rejected or missing. */
  keyPollMs?: number;
  /** Pause after a 429 that carries neither Retry-After nor X-RateLimit-Reset. */
  defaultRetryAfterS?: number;
  /** The longest a request waits in the queue for a pause or the budget before failing with rate_limit. */
  maxWaitMs?: number;
  logger?: Logger;
}

export interface Governor {
  run(request: GovernedRequest): Promise<GovernedResult>;
  state(): GovernorState;
  /** Called with the new state after every change; returns the unsubscribe function. */
  subscribe(listener: (state: GovernorState) => void): () => void;
  /** The host saved a new key: lift the auth block and plan restrictions at once. */
  keyChanged(): void;
  /** The trader changed the quota of the plan: takes effect at once (unless the service states its own). */
  setQuotaPerHour(n: number): void;
  /**
   * The service's clock said `serviceMs` in an answer to a request sent at `sentAt` and received at `receivedAt`
   * (our clock): the skew is measured against the midpoint of the round trip.
   */
  noteServiceTime(serviceMs: number, sentAt: number, receivedAt: number): void;
  /**
   * Requests `purpose` may still send this hour within its share (its own ceiling, and what is left above the
   * reserve); Infinity for the purposes no share holds back (the settled walk, repairs, stream opens). For callers
   * that skip a round quietly rather than have its requests refused; admission decides either way.
   */
  headroom(purpose: Purpose): number;
  /** Whether one more request for `purpose` fits its share now: `headroom(purpose) >= n`. */
  canSpend(purpose: Purpose, n?: number): boolean;
  /** Resolves once the service answers again after a network fault; rejects when `signal` aborts. */
  whenReachable(signal?: AbortSignal): Promise<void>;
  /** Resolves once the key is usable again (auth 'ok'); rejects when `signal` aborts. */
  whenKeyUsable(signal?: AbortSignal): Promise<void>;
  /** Removes every key the governor has seen from `text`, or from an error's message and path. */
  scrub(text: string): string;
  scrubError(error: AppError): AppError;
  log(level: Parameters<Logger>[0], message: string): void;
  dispose(): void;
}

interface Entry {
  request: GovernedRequest;
  rank: number;
  seq: number;
  attempts: number;
  resolve(result: GovernedResult): void;
  onAbort?: () => void;
}

interface Sent {
  at: number;
  purpose: Purpose;
  rateLimited: boolean;
}

interface Refusal {
  at: number;
  purpose: Purpose;
}

function emptyCounts(): RequestCounts {
  return { total: 0, rateLimited: 0, byPurpose: emptyByPurpose(), refused: emptyByPurpose() };
}

function copyCounts(c: RequestCounts): RequestCounts {
  return { total: c.total, rateLimited: c.rateLimited, byPurpose: { ...c.byPurpose }, refused: { ...c.refused } };
}

/** What a purpose's requests are called in a refusal ("Specials have used their share ..."). */
const SHARE_SUBJECT: Record<Purpose, string> = {
  settled: 'Settled walks',
  repair: 'Settlement repairs',
  results: 'Period results',
  specials: 'Specials',
  stream: 'Stream opens',
  lookup: 'Background look-ups',
  ui: 'Look-ups',
};

/** "14:05 UTC": the minute by which `at` has come (rounded up, so "possible at" is never early). */
function minuteUtc(at: number): string {
  return `${new Date(Math.ceil(at / 60_000) * 60_000).toISOString().slice(11, 16)} UTC`;
}

/** A quota figure must be a whole number of requests, at least one. */
function validQuota(n: number): boolean {
  return Number.isInteger(n) && n >= 1;
}

/** A rate-limit header's value as a non-negative number, or null when absent or not a number. */
function headerNumber(headers: Headers, name: string): number | null {
  const raw = headers.get(name);
  if (raw === null || raw.trim() === '') return null;
  const n = Number(raw.trim());
  return Number.isFinite(n) && n >= 0 ? n : null;
}

interface HeaderQuota {
  limit: number;
  remaining: number;
  resetAt: number;
  /** Requests we sent after this reading arrived: the reading does not include them yet. */
  sentSince: number;
}

export function createGovernor(options: GovernorOptions): Governor {
  const clock = options.clock ?? realClock;
  const random = options.random ?? Math.random;
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const maxConcurrent = options.maxConcurrent ?? 4;
  const defaultTimeoutMs = options.timeoutMs ?? 30_000;
  const keyPollMs = options.keyPollMs ?? 2_000;
  const defaultRetryAfterS = options.defaultRetryAfterS ?? 60;
  let configuredQuota =
    options.quotaPerHour !== undefined && validQuota(options.quotaPerHour)
      ? options.quotaPerHour
      : DEFAULT_QUOTA_PER_HOUR;
  const maxWaitMs = options.maxWaitMs ?? 30_000;

  const knownKeys = new Set<string>();
  const listeners = new Set<(s: GovernorState) => void>();
  const queue: Entry[] = [];
  const restricted = new Map<ApiPath, RestrictedPath>();
  let seq = 0;
  let inFlight = 0;
  let pausedUntil: number | null = null;
  let auth: AuthState = 'ok';
  let plan: Plan | 'unknown' = 'unknown';
  let lastKey: string | null | undefined; // undefined: never read
  let rejectedKey: string | null = null;
  let sent: Sent[] = [];
  /** Refusals by admission within the hour, oldest first. */
  let refusals: Refusal[] = [];
  // The hour is rolling, like the quota window we count against; the session runs from start to dispose.
  const hour = emptyCounts();
  const session = emptyCounts();
  let retryAfterClamp: RetryAfterClamp | null = null;
  let clockSkewMs: number | null = null;
  let reachable: boolean | null = null;
  let headerQuota: HeaderQuota | null = null;
  // The service's stated limit outlives the header reading: it is still the best quota to count against.
  let learnedLimit: number | null = null;
  let wakeTimer: TimerHandle | null = null;
  let wakeAt = Infinity;
  let keyPollTimer: TimerHandle | null = null;
  /** Entries waiting to be tried again; dispose() answers them, so no caller waits on a timer that never fires. */
  const retryTimers = new Map<TimerHandle, Entry>();
  let disposed = false;

  const scrubText = (text: string) => scrub(text, knownKeys);
  const log = (level: Parameters<Logger>[0], message: string) => options.logger?.(level, scrubText(message));

  /** Drops what left the hour, keeping the hour's counts in step (a count per change, not a scan per state). */
  function prune(now: number) {
    let i = 0;
    while (i < sent.length && sent[i]!.at <= now - HOUR_MS) {
      const e = sent[i++]!;
      hour.total--;
      hour.byPurpose[e.purpose]--;
      if (e.rateLimited) hour.rateLimited--;
    }
    if (i) sent = sent.slice(i);
    let j = 0;
    while (j < refusals.length && refusals[j]!.at <= now - HOUR_MS) hour.refused[refusals[j++]!.purpose]--;
    if (j) refusals = refusals.slice(j);
  }

  function quota(): QuotaState {
    const now = clock.now();
    prune(now);
    if (headerQuota && now < headerQuota.resetAt) {
      const remaining = Math.max(0, headerQuota.remaining - headerQuota.sentSince);
      return {
        limit: headerQuota.limit,
        used: Math.max(0, headerQuota.limit - remaining),
        remaining,
        resetAt: headerQuota.resetAt,
        source: 'headers',
      };
    }
    const stated = headerQuota?.limit ?? learnedLimit;
    const limit = stated ?? configuredQuota;
    const used = sent.length;
    return {
      limit,
      used,
      remaining: Math.max(0, limit - used),
      resetAt: sent.length ? sent[0]!.at + HOUR_MS : null,
      source: stated === null ? 'setting' : 'headers',
    };
  }

  function state(): GovernorState {
    const now = clock.now();
    prune(now);
    const paused = pausedUntil !== null && pausedUntil > now ? pausedUntil : null;
    return {
      auth,
      plan,
      restrictedPaths: [...restricted.values()],
      quota: quota(),
      pausedUntil: paused,
      retryAfterClamp: paused === null ? null : retryAfterClamp,
      queued: queue.length,
      inFlight,
      requests: { hour: copyCounts(hour), session: copyCounts(session) },
      clockSkewMs,
      reachable,
    };
  }

  const reachableWaiters = new Set<() => void>();
  function setReachable(next: boolean) {
    if (reachable === next) return;
    reachable = next;
    if (next) for (const w of [...reachableWaiters]) w();
    emit();
  }

  function emit() {
    if (!listeners.size) return;
    const s = state();
    for (const l of [...listeners]) {
      try {
        l(s);
      } catch (e) {
        log('error', `governor listener failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }

  function setAuth(next: AuthState) {
    if (auth === next) return;
    auth = next;
    log(next === 'ok' ? 'info' : 'warn', `API key state: ${next}`);
    if (next === 'ok') stopKeyPoll();
    else startKeyPoll();
    emit();
  }

  function forgetKeyState() {
    restricted.clear();
    plan = 'unknown';
  }

  /** Reads the provider and updates auth state; the only place a key enters the governor. */
  async function readKey(): Promise<string | null> {
    let raw: string | null | undefined;
    try {
      raw = await options.keyProvider();
    } catch (e) {
      log('error', `key provider failed: ${e instanceof Error ? e.message : String(e)}`);
      raw = null;
    }
    const key = raw ? raw : null;
    if (key) knownKeys.add(key);
    if (key !== lastKey) {
      const first = lastKey === undefined;
      lastKey = key;
      if (!first) {
        forgetKeyState();
        if (key !== rejectedKey) rejectedKey = null;
        log('info', 'API key changed');
        emit();
      }
    }
    setAuth(key === null ? 'missing' : key === rejectedKey ? 'rejected' : 'ok');
    return key;
  }

  function startKeyPoll() {
    if (keyPollTimer !== null || disposed) return;
    keyPollTimer = clock.setTimeout(async () => {
      keyPollTimer = null;
      await readKey();
      if (auth !== 'ok') startKeyPoll();
      else pump();
    }, keyPollMs);
  }

  function stopKeyPoll() {
    if (keyPollTimer !== null) clock.clearTimeout(keyPollTimer);
    keyPollTimer = null;
  }

  function authError(): AppError {
    return auth === 'missing'
      ? { kind: 'auth', message: 'No API key is set. Enter your key from the account page to load data.' }
      : {
          kind: 'auth',
          status: 401,
          message:
            'The API key was rejected (401): it is wrong, regenerated or revoked. Enter the current key from your ' +
            'account page; nothing that needs the key is sent until then.',
        };
  }

  function planError(r: RestrictedPath): AppError {
    return {
      kind: 'plan',
      status: 403,
      message: r.message,
      ...(r.yourPlan ? { yourPlan: r.yourPlan } : {}),
      ...(r.requiredPlan ? { requiredPlan: r.requiredPlan } : {}),
    };
  }

  function budgetView(q: QuotaState): BudgetView {
    return { limit: q.limit, remaining: q.remaining, hourByPurpose: hour.byPurpose };
  }

  /** When one more request of `purpose` fits its share again, if nothing else is sent meanwhile. */
  function shareFreesAt(purpose: Purpose, q: QuotaState, now: number): number {
    let at = now;
    const ceiling = ceilingOf(purpose, q.limit);
    if (ceiling !== null && hour.byPurpose[purpose] >= ceiling) {
      // Its own requests leave the hour, oldest first, until one fewer than the ceiling is left.
      const mine = sent.filter((e) => e.purpose === purpose);
      const freeing = mine[mine.length - ceiling];
      at = Math.max(at, freeing ? freeing.at + HOUR_MS : now + HOUR_MS);
    }
    if (SHARES[purpose]?.aboveReserve && q.remaining <= reserveOf(q.limit)) {
      if (headerQuota && now < headerQuota.resetAt) at = Math.max(at, headerQuota.resetAt);
      else {
        // Our own count: requests of any purpose leave the hour until more than the reserve is left.
        const freeing = sent[sent.length - (q.limit - reserveOf(q.limit))];
        at = Math.max(at, freeing ? freeing.at + HOUR_MS : now + HOUR_MS);
      }
    }
    return at;
  }

  /**
   * Admission by share: null when one more request for `purpose` fits its share of the hour; else the refusal, which
   * is counted (the hour's and the session's `refused`). Nothing is sent for a refused request.
   */
  function admit(purpose: Purpose): AppError | null {
    const now = clock.now();
    const q = quota();
    const bound = shareBound(purpose, budgetView(q));
    if (!bound) return null;
    const at = shareFreesAt(purpose, q, now);
    const retryAfter = Math.max(1, Math.ceil((at - now) / 1000));
    const subject = SHARE_SUBJECT[purpose];
    const message =
      bound === 'ceiling'
        ? `${subject} have used their share of this hour's requests (${hour.byPurpose[purpose]} of ${q.limit}, at most ${Math.round((SHARES[purpose]?.ceiling ?? 0) * 100)}%); the next is possible at ${minuteUtc(at)}.`
        : `${subject} are held back: the last ${reserveOf(q.limit)} of this hour's ${q.limit} requests are kept for settlements and live streams (${q.remaining} left); the next is possible at ${minuteUtc(at)}.`;
    refusals.push({ at: now, purpose });
    hour.refused[purpose]++;
    session.refused[purpose]++;
    log('debug', `refused (${purpose}): ${message}`);
    emit();
    return { kind: 'rate_limit', retryAfter, message };
  }

  function scheduleWake(at: number) {
    if (wakeTimer !== null && wakeAt <= at) return;
    if (wakeTimer !== null) clock.clearTimeout(wakeTimer);
    wakeAt = at;
    wakeTimer = clock.setTimeout(
      () => {
        wakeTimer = null;
        wakeAt = Infinity;
        pump();
      },
      Math.max(0, at - clock.now()),
    );
  }

  type Block = { until: number; why: 'pause' | 'budget' | 'reserve' };

  /** Why and until when an entry may not go out now; null when it may. */
  function blocked(e: Entry, q: QuotaState, now: number): Block | null {
    if (pausedUntil !== null && now < pausedUntil) return { until: pausedUntil, why: 'pause' };
    if (e.request.needsKey === false) return null;
    // Budget spent: wait for the window to free a slot, or a minute when the reset time is unknown.
    const until = q.resetAt !== null && q.resetAt > now ? q.resetAt : now + 60_000;
    if (q.remaining <= 0) return { until, why: 'budget' };
    const reserve = options.lowPriorityReserve ?? Math.max(1, Math.floor(q.limit * 0.05));
    if (e.rank === PRIORITY_RANK.low && q.remaining <= reserve) return { until, why: 'reserve' };
    return null;
  }

  function waitTooLong(block: Block, now: number, q: QuotaState): AppError {
    const retryAfter = Math.max(1, Math.ceil((block.until - now) / 1000));
    const message =
      block.why === 'pause'
        ? `The service asked to pause (hourly quota exceeded); requests resume in ${retryAfter} s.`
        : block.why === 'budget'
          ? `The hourly request budget is used up (${q.used} of ${q.limit}); requests resume in ${retryAfter} s.`
          : `Background refresh held back: the last ${q.remaining} requests of the hour are kept for live odds and settlements; resumes in ${retryAfter} s.`;
    return { kind: 'rate_limit', retryAfter, message };
  }

  function pump() {
    if (disposed) return;
    let now = clock.now();
    if (pausedUntil !== null && now >= pausedUntil) {
      pausedUntil = null;
      log('info', 'rate-limit pause over');
      emit();
    }
    let q = quota();
    const before = queue.length;
    for (const e of [...queue]) {
      const b = blocked(e, q, now);
      if (b && b.until - now > maxWaitMs) {
        queue.splice(queue.indexOf(e), 1);
        fail(e, waitTooLong(b, now, q));
      }
    }
    if (queue.length !== before) emit();
    while (inFlight < maxConcurrent && queue.length) {
      now = clock.now();
      q = quota();
      let best = -1;
      let wake = Infinity;
      for (let i = 0; i < queue.length; i++) {
        const e = queue[i]!;
        const b = blocked(e, q, now);
        if (b) {
          wake = Math.min(wake, b.until);
          continue;
        }
        const cur = best < 0 ? null : queue[best]!;
        if (!cur || e.rank < cur.rank || (e.rank === cur.rank && e.seq < cur.seq)) best = i;
      }
      if (best < 0) {
        if (wake < Infinity) scheduleWake(wake);
        return;
      }
      const [entry] = queue.splice(best, 1);
      void dispatch(entry!);
    }
  }

  function finish(entry: Entry, result: GovernedResult) {
    if (entry.onAbort) entry.request.signal?.removeEventListener('abort', entry.onAbort);
    entry.resolve(result.ok ? result : { ...result, error: scrubError(result.error, knownKeys) });
  }

  function fail(entry: Entry, error: AppError) {
    finish(entry, { ok: false, error, attempts: entry.attempts });
  }

  function cancelled(): AppError {
    return { kind: 'network', message: 'The request was cancelled.' };
  }

  function countSent(purpose: Purpose): Sent {
    const entry: Sent = { at: clock.now(), purpose, rateLimited: false };
    sent.push(entry);
    for (const c of [hour, session]) {
      c.total++;
      c.byPurpose[purpose]++;
    }
    if (headerQuota) headerQuota.sentSince++;
    return entry;
  }

  function readRateHeaders(headers: Headers) {
    const limit = headerNumber(headers, RATE_LIMIT_HEADERS.limit);
    const remaining = headerNumber(headers, RATE_LIMIT_HEADERS.remaining);
    const reset = headerNumber(headers, RATE_LIMIT_HEADERS.reset);
    // A limit without a remaining (or the reverse) says nothing about what is left: it is ignored, not read as 0.
    if (limit === null || remaining === null || limit < 1) {
      // No usable reading on this answer: our own count takes over from here.
      if (headerQuota) {
        headerQuota = null;
        emit();
      }
      return;
    }
    // The reset is the service's clock: corrected by the measured skew. A reset still in our past or beyond one
    // hour is clamped to an hour, the longest a window can last, so a bad clock can only make us more careful.
    const now = clock.now();
    const stated = reset !== null && reset > 0 ? reset * 1000 - (clockSkewMs ?? 0) : now + HOUR_MS;
    const resetAt = stated <= now || stated > now + HOUR_MS ? now + HOUR_MS : stated;
    headerQuota = { limit, remaining, resetAt, sentSince: 0 };
    learnedLimit = limit;
    emit();
  }

  function retryOrFail(entry: Entry, error: AppError) {
    const max = entry.request.maxAttempts ?? retry.maxAttempts;
    if (entry.attempts >= max || entry.request.signal?.aborted || disposed) {
      fail(entry, error);
      return;
    }
    const delay = backoffDelay(entry.attempts, retry, random);
    log('warn', `${entry.request.path}: ${error.kind} (attempt ${entry.attempts}/${max}); retrying in ${delay} ms`);
    const timer = clock.setTimeout(() => {
      retryTimers.delete(timer);
      if (entry.request.signal?.aborted) return fail(entry, cancelled());
      queue.push(entry);
      pump();
    }, delay);
    retryTimers.set(timer, entry);
  }

  async function dispatch(entry: Entry) {
    const { request } = entry;
    inFlight++;
    let key: string | null = null;
    let counted: Sent | null = null;
    try {
      if (request.needsKey !== false) {
        key = await readKey();
        if (auth !== 'ok') return fail(entry, authError());
        const r = restricted.get(request.path);
        if (r) return fail(entry, planError(r));
        // Admitted and counted in one synchronous step: concurrent dispatches cannot both take the last place.
        const refused = admit(request.purpose ?? 'lookup');
        if (refused) return fail(entry, refused);
        counted = countSent(request.purpose ?? 'lookup');
      }
      entry.attempts++;
      emit();
      const controller = new AbortController();
      let timedOut = false;
      const timer = clock.setTimeout(() => {
        timedOut = true;
        controller.abort(new Error('timeout'));
      }, request.timeoutMs ?? defaultTimeoutMs);
      const signal = request.signal ? AbortSignal.any([request.signal, controller.signal]) : controller.signal;
      const started = clock.now();
      let response: Response;
      try {
        response = await request.send(key, signal);
      } catch (e) {
        // Cancelled by its caller, or by the client closing (an engine replaced on a reconnect aborts its requests
        // in flight): no fault of the service's, so neither logged as one nor taken as the service being away.
        if (request.signal?.aborted || disposed) return fail(entry, cancelled());
        // `send` refused on purpose (a redirect away from the service): final, and asking again changes nothing.
        if (e instanceof AppErrorException) {
          log('warn', e.error.message);
          return fail(entry, e.error);
        }
        if (!timedOut) setReachable(false);
        log('warn', `${request.path}: network fault: ${e instanceof Error ? e.message : String(e)}`);
        return retryOrFail(entry, networkError(request.path, request.baseUrl, e, timedOut));
      } finally {
        clock.clearTimeout(timer);
      }
      log('debug', `GET ${request.path} -> ${response.status} (${clock.now() - started} ms)`);
      setReachable(true);
      if (response.status === 429 && counted) {
        counted.rateLimited = true;
        // Only while the request is still inside the hour: a 429 after an hour-long wait must not count twice.
        if (sent.includes(counted)) hour.rateLimited++;
        session.rateLimited++;
      }
      if (request.needsKey !== false) readRateHeaders(response.headers);
      if (response.ok) {
        if (plan === 'unknown' && ENTERPRISE_PATHS.includes(request.path)) {
          plan = 'enterprise';
          emit();
        }
        return finish(entry, { ok: true, response, attempts: entry.attempts });
      }
      let body = '';
      try {
        body = await response.text();
      } catch {
        /* the status alone is enough to classify */
      }
      const error = errorFromStatus(
        request.path,
        response.status,
        response.headers,
        body,
        clock.now(),
        clockSkewMs ?? 0,
      );
      switch (error.kind) {
        case 'auth':
          if (key !== null && key === lastKey && error.status === 401) {
            rejectedKey = key;
            setAuth('rejected');
          }
          return fail(entry, error);
        case 'plan': {
          const restriction: RestrictedPath = {
            path: request.path,
            message: error.message,
            ...(error.yourPlan ? { yourPlan: error.yourPlan } : {}),
            ...(error.requiredPlan ? { requiredPlan: error.requiredPlan } : {}),
          };
          restricted.set(request.path, restriction);
          if (error.yourPlan && (PLANS as readonly string[]).includes(error.yourPlan)) plan = error.yourPlan as Plan;
          log('warn', `${pathLabel(request.path)} restricted by plan: ${error.message}`);
          emit();
          return fail(entry, error);
        }
        case 'rate_limit': {
          const hq = headerQuota;
          const fromReset = hq ? Math.ceil((hq.resetAt - clock.now()) / 1000) : null;
          const asked = error.retryAfter ?? (fromReset && fromReset > 0 ? fromReset : defaultRetryAfterS);
          // Never longer than the quota window (no hourly quota outlasts its hour), never a zero pause that would
          // let the queue knock again at once.
          const windowS = HOUR_MS / 1000;
          const seconds = Math.min(windowS, Math.max(1, asked));
          const until = clock.now() + seconds * 1000;
          if (until >= (pausedUntil ?? 0))
            retryAfterClamp = asked > windowS ? { statedS: asked, appliedS: seconds } : null;
          pausedUntil = Math.max(pausedUntil ?? 0, until);
          log(
            'warn',
            asked > windowS
              ? `429 from ${request.path}: the service asked to wait ${asked} s; all requests paused for the quota window, ${seconds} s`
              : `429 from ${request.path}: all requests paused for ${seconds} s`,
          );
          emit();
          const message =
            asked > windowS
              ? `The hourly request quota is used up. The service asked to wait ${asked} s, longer than the quota's hour; requests resume in ${seconds} s.`
              : error.message;
          return fail(entry, { ...error, retryAfter: seconds, message });
        }
        case 'server':
          return retryOrFail(entry, error);
        default:
          return fail(entry, error);
      }
    } catch (e) {
      return fail(entry, { kind: 'internal', message: e instanceof Error ? e.message : String(e) });
    } finally {
      inFlight--;
      emit();
      pump();
    }
  }

  async function run(request: GovernedRequest): Promise<GovernedResult> {
    if (disposed) return { ok: false, error: { kind: 'network', message: 'The client is closed.' }, attempts: 0 };
    if (request.signal?.aborted) return { ok: false, error: cancelled(), attempts: 0 };
    if (request.needsKey !== false) {
      // Fail fast before queueing: a blocked key, a restricted endpoint or a spent share never costs a request.
      await readKey();
      if (auth !== 'ok') return { ok: false, error: authError(), attempts: 0 };
      const r = restricted.get(request.path);
      if (r) return { ok: false, error: planError(r), attempts: 0 };
      const refused = admit(request.purpose ?? 'lookup');
      if (refused) return { ok: false, error: refused, attempts: 0 };
    }
    return new Promise<GovernedResult>((resolve) => {
      const entry: Entry = {
        request,
        rank: PRIORITY_RANK[request.priority ?? 'normal'],
        seq: ++seq,
        attempts: 0,
        resolve,
      };
      if (request.signal) {
        entry.onAbort = () => {
          const i = queue.indexOf(entry);
          if (i >= 0) {
            queue.splice(i, 1);
            fail(entry, cancelled());
            emit();
          }
        };
        request.signal.addEventListener('abort', entry.onAbort, { once: true });
      }
      queue.push(entry);
      emit();
      pump();
    });
  }

  // Learn the initial key state without waiting for the first request.
  void readKey();

  return {
    run,
    state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    headroom: (purpose) => shareHeadroom(purpose, budgetView(quota())),
    canSpend: (purpose, n = 1) => shareHeadroom(purpose, budgetView(quota())) >= n,
    setQuotaPerHour(n) {
      if (!validQuota(n)) {
        log('warn', `ignored a quota of ${n} requests per hour: it must be a whole number, at least 1`);
        return;
      }
      if (n === configuredQuota) return;
      configuredQuota = n;
      log('info', `hourly quota set to ${n} requests`);
      emit();
      pump();
    },
    noteServiceTime(serviceMs, sentAt, receivedAt) {
      if (!Number.isFinite(serviceMs) || receivedAt < sentAt) return;
      const skew = Math.round(serviceMs - (sentAt + receivedAt) / 2);
      if (skew === clockSkewMs) return;
      clockSkewMs = skew;
      emit();
    },
    whenReachable(signal) {
      if (reachable !== false) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const done = () => {
          reachableWaiters.delete(done);
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          reachableWaiters.delete(done);
          reject(signal?.reason);
        };
        if (signal?.aborted) return onAbort();
        reachableWaiters.add(done);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    keyChanged() {
      rejectedKey = null;
      lastKey = undefined;
      forgetKeyState();
      emit();
      void readKey().then(() => pump());
    },
    whenKeyUsable(signal) {
      if (auth === 'ok') return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          unsubscribe();
          reject(signal?.reason);
        };
        const unsubscribe = (() => {
          const l = (s: GovernorState) => {
            if (s.auth !== 'ok') return;
            listeners.delete(l);
            signal?.removeEventListener('abort', onAbort);
            resolve();
          };
          listeners.add(l);
          return () => listeners.delete(l);
        })();
        if (signal?.aborted) onAbort();
        else signal?.addEventListener('abort', onAbort, { once: true });
        startKeyPoll();
      });
    },
    scrub: scrubText,
    scrubError: (error) => scrubError(error, knownKeys),
    log,
    dispose() {
      disposed = true;
      stopKeyPoll();
      if (wakeTimer !== null) clock.clearTimeout(wakeTimer);
      for (const [t, e] of retryTimers) {
        clock.clearTimeout(t);
        fail(e, { kind: 'network', message: 'The client is closed.' });
      }
      retryTimers.clear();
      for (const e of queue.splice(0)) fail(e, { kind: 'network', message: 'The client is closed.' });
      listeners.clear();
    },
  };
}
