// The governor's public shapes: what it is asked to send, what it answers, and the state it reports. Its parts
// (./quotaLedger.ts, ./keyGate.ts, ./scheduler.ts) and its callers share them; ./index.ts composes the parts.
import type { ApiPath, Plan } from '../../../shared/api';
import type { AppError } from '../../../shared/errors';
import type { Purpose, RequestCounts } from '../../../shared/requests';
import type { Clock } from '../../clock';
import type { KeyProvider, Logger, Priority } from '../types';

export interface RetryPolicy {
  /** Attempts in all, the first one included. */
  maxAttempts: number;
  baseMs: number;
  maxMs: number;
}
export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 4, baseMs: 500, maxMs: 15_000 };

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
