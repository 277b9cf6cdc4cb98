// The one request governor: every request to the upstream (HTTP calls and stream opens) passes through here.
// It owns the hourly budget, the Retry-After pause, the auth state of the key, the per-endpoint plan
// restrictions, priorities and the retry of transient faults. Nothing else in the core decides when to call.
// Its parts: ./keyGate.ts (the key, the plan, reachability), ./quotaLedger.ts (the hour's account, the service's
// rate headers and pauses, admission by share), ./scheduler.ts (the queue) and ./dispatch.ts (one request's turn).
//
// Decisions:
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
// - Admission by purpose: the quota's shares (src/core/budget.ts: specials at most half the hour, the trader's
//   look-ups a fifth, a reserve kept back from all but the settled walk, its repairs and stream opens) are enforced
//   HERE, for every caller, right before a request would be counted and sent (and already when it is handed in). A
//   request over its purpose's share is refused at once with `rate_limit` and a `retryAfter` (when the share frees up
//   as the hour rolls), sends nothing, and is counted in `requests.{hour,session}.refused`; it does not wait, since a
//   share frees up in minutes to an hour, not seconds. Callers that would rather skip a round quietly ask `headroom`.
import { errorMessage, type AppError } from '../../../shared/errors';
import { Emitter } from '../../../shared/event';
import { realClock } from '../../clock';
import { scrub, scrubError } from '../errors';
import type { Logger } from '../types';
import { createKeyGate } from './keyGate';
import { createQuotaLedger } from './quotaLedger';
import { createScheduler } from './scheduler';
import { DEFAULT_RETRY, type Governor, type GovernorOptions, type GovernorState, type RetryPolicy } from './types';

export * from './types';
export { backoffDelay } from './scheduler';

/**
 * The governor as its three parts: the key gate (the key, the plan, reachability), the quota ledger (the hour's
 * account, the service's rate headers and pauses) and the scheduler (the queue, priorities, retries). Each tells the
 * governor when its part of the state changed; the governor tells its subscribers.
 */
export function createGovernor(options: GovernorOptions): Governor {
  const clock = options.clock ?? realClock;
  const knownKeys = new Set<string>();
  const scrubText = (text: string) => scrub(text, knownKeys);
  const log = (level: Parameters<Logger>[0], message: string) => options.logger?.(level, scrubText(message));
  const stateChanged = new Emitter<[GovernorState]>({
    name: 'the governor',
    onListenerError: (e) => log('error', `governor listener failed: ${errorMessage(e)}`),
  });
  const emit = () => {
    if (stateChanged.size) stateChanged.fire(state());
  };

  const gate = createKeyGate({
    keyProvider: options.keyProvider,
    clock,
    keyPollMs: options.keyPollMs ?? 2_000,
    knownKeys,
    log,
    changed: emit,
    usable: () => scheduler.pump(),
  });
  const ledger = createQuotaLedger({
    clock,
    ...(options.quotaPerHour === undefined ? {} : { quotaPerHour: options.quotaPerHour }),
    defaultRetryAfterS: options.defaultRetryAfterS ?? 60,
    log,
    changed: emit,
  });
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const scheduler = createScheduler({
    clock,
    gate,
    ledger,
    retry,
    random: options.random ?? Math.random,
    maxConcurrent: options.maxConcurrent ?? 4,
    timeoutMs: options.timeoutMs ?? 30_000,
    maxWaitMs: options.maxWaitMs ?? 30_000,
    ...(options.lowPriorityReserve === undefined ? {} : { lowPriorityReserve: options.lowPriorityReserve }),
    log,
    changed: emit,
    scrubError: (error: AppError) => scrubError(error, knownKeys),
  });

  function state(): GovernorState {
    const now = clock.now();
    const pause = ledger.pause(now);
    const requests = ledger.counts();
    return {
      auth: gate.auth(),
      plan: gate.plan(),
      restrictedPaths: gate.restrictedPaths(),
      quota: ledger.quota(),
      pausedUntil: pause?.until ?? null,
      retryAfterClamp: pause?.clamp ?? null,
      queued: scheduler.queued(),
      inFlight: scheduler.inFlight(),
      requests,
      clockSkewMs: ledger.clockSkewMs(),
      reachable: gate.reachable(),
    };
  }

  // Learn the initial key state without waiting for the first request.
  void gate.readKey();

  return {
    run: scheduler.run,
    state,
    subscribe: stateChanged.event,
    headroom: (purpose) => ledger.headroom(purpose),
    canSpend: (purpose, n = 1) => ledger.headroom(purpose) >= n,
    setQuotaPerHour(n) {
      if (!ledger.setQuotaPerHour(n)) return;
      emit();
      scheduler.pump();
    },
    noteServiceTime: (serviceMs, sentAt, receivedAt) => ledger.noteServiceTime(serviceMs, sentAt, receivedAt),
    whenReachable: (signal) => gate.whenReachable(signal),
    keyChanged() {
      void gate.keyChanged().then(() => scheduler.pump());
    },
    whenKeyUsable: (signal) => gate.whenKeyUsable(signal),
    scrub: scrubText,
    scrubError: (error) => scrubError(error, knownKeys),
    log,
    dispose() {
      scheduler.dispose();
      gate.dispose();
      stateChanged.dispose();
    },
  };
}
