// The scheduler: the governor's queue. It takes requests in (failing fast what the key gate or the quota ledger
// refuses), sends them by priority and age as far as concurrency, the 429 pause and the budget allow, times each
// attempt out, retries transient faults with backoff, and hands what each answer teaches to the gate (key, plan,
// reachability) and the ledger (counts, rate headers, pauses). A wait longer than `maxWaitMs` is not waited.
import { AppErrorException, errorMessage, type AppError } from '../../../shared/errors';
import type { Clock, TimerHandle } from '../../clock';
import { errorFromStatus, networkError } from '../errors';
import type { Logger, Priority } from '../types';
import type { KeyGate } from './keyGate';
import type { QuotaLedger, SentRequest } from './quotaLedger';
import type { GovernedRequest, GovernedResult, QuotaState, RetryPolicy } from './types';

const PRIORITY_RANK: Record<Priority, number> = { high: 0, normal: 1, low: 2 };

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

export interface SchedulerOptions {
  clock: Clock;
  gate: KeyGate;
  ledger: QuotaLedger;
  retry: RetryPolicy;
  /** Source of jitter. */
  random: () => number;
  maxConcurrent: number;
  /** Bound on one attempt when the request names none. */
  timeoutMs: number;
  maxWaitMs: number;
  /** Requests kept back from `low` priority; by default 5% of the limit, at least one. */
  lowPriorityReserve?: number;
  log: Logger;
  /** Told after every change a subscriber of the governor's state would see. */
  changed(): void;
  /** The error as its caller may see it (no key in it). */
  scrubError(error: AppError): AppError;
}

export interface Scheduler {
  run(request: GovernedRequest): Promise<GovernedResult>;
  /** Sends what may go now; the gate and the ledger call it when something they hold back is lifted. */
  pump(): void;
  queued(): number;
  inFlight(): number;
  /** Answers every queued and retrying request ("The client is closed.") and sends nothing more. */
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

type Block = { until: number; why: 'pause' | 'budget' | 'reserve' };

const cancelled = (): AppError => ({ kind: 'network', message: 'The request was cancelled.' });
const closed = (): AppError => ({ kind: 'network', message: 'The client is closed.' });

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

/** The queue's state: what waits, what is out, and the timers that will move it. */
interface Queue {
  entries: Entry[];
  seq: number;
  inFlight: number;
  wakeTimer: TimerHandle | null;
  wakeAt: number;
  /** Entries waiting to be tried again; dispose() answers them, so no caller waits on a timer that never fires. */
  retryTimers: Map<TimerHandle, Entry>;
  disposed: boolean;
}

export function createScheduler(options: SchedulerOptions): Scheduler {
  const { clock, gate, ledger, log, changed } = options;
  const queue: Queue = {
    entries: [],
    seq: 0,
    inFlight: 0,
    wakeTimer: null,
    wakeAt: Infinity,
    retryTimers: new Map(),
    disposed: false,
  };

  function finish(entry: Entry, result: GovernedResult) {
    if (entry.onAbort) entry.request.signal?.removeEventListener('abort', entry.onAbort);
    entry.resolve(result.ok ? result : { ...result, error: options.scrubError(result.error) });
  }

  function fail(entry: Entry, error: AppError) {
    finish(entry, { ok: false, error, attempts: entry.attempts });
  }

  /** Why and until when an entry may not go out now; null when it may. */
  function blocked(e: Entry, q: QuotaState, now: number): Block | null {
    const pause = ledger.pause(now);
    if (pause) return { until: pause.until, why: 'pause' };
    if (e.request.needsKey === false) return null;
    // Budget spent: wait for the window to free a slot, or a minute when the reset time is unknown.
    const until = q.resetAt !== null && q.resetAt > now ? q.resetAt : now + 60_000;
    if (q.remaining <= 0) return { until, why: 'budget' };
    const reserve = options.lowPriorityReserve ?? Math.max(1, Math.floor(q.limit * 0.05));
    if (e.rank === PRIORITY_RANK.low && q.remaining <= reserve) return { until, why: 'reserve' };
    return null;
  }

  function scheduleWake(at: number) {
    if (queue.wakeTimer !== null && queue.wakeAt <= at) return;
    if (queue.wakeTimer !== null) clock.clearTimeout(queue.wakeTimer);
    queue.wakeAt = at;
    queue.wakeTimer = clock.setTimeout(
      () => {
        queue.wakeTimer = null;
        queue.wakeAt = Infinity;
        pump();
      },
      Math.max(0, at - clock.now()),
    );
  }

  /** Fails at once every entry whose wait would outlast `maxWaitMs`. */
  function dropLongWaits(now: number, q: QuotaState) {
    const before = queue.entries.length;
    for (const e of [...queue.entries]) {
      const b = blocked(e, q, now);
      if (b && b.until - now > options.maxWaitMs) {
        queue.entries.splice(queue.entries.indexOf(e), 1);
        fail(e, waitTooLong(b, now, q));
      }
    }
    if (queue.entries.length !== before) changed();
  }

  /** The index of the entry to send next (by priority, then age), or the time the first blocked one may go. */
  function next(now: number, q: QuotaState): { index: number } | { wake: number } {
    let best = -1;
    let wake = Infinity;
    for (let i = 0; i < queue.entries.length; i++) {
      const e = queue.entries[i]!;
      const b = blocked(e, q, now);
      if (b) {
        wake = Math.min(wake, b.until);
        continue;
      }
      const cur = best < 0 ? null : queue.entries[best]!;
      if (!cur || e.rank < cur.rank || (e.rank === cur.rank && e.seq < cur.seq)) best = i;
    }
    return best < 0 ? { wake } : { index: best };
  }

  function pump() {
    if (queue.disposed) return;
    const now = clock.now();
    ledger.endPauseIfOver(now);
    dropLongWaits(now, ledger.quota());
    while (queue.inFlight < options.maxConcurrent && queue.entries.length) {
      const pick = next(clock.now(), ledger.quota());
      if ('wake' in pick) {
        if (pick.wake < Infinity) scheduleWake(pick.wake);
        return;
      }
      const [entry] = queue.entries.splice(pick.index, 1);
      void dispatch(entry!);
    }
  }

  function retryOrFail(entry: Entry, error: AppError) {
    const max = entry.request.maxAttempts ?? options.retry.maxAttempts;
    if (entry.attempts >= max || entry.request.signal?.aborted || queue.disposed) {
      fail(entry, error);
      return;
    }
    const delay = backoffDelay(entry.attempts, options.retry, options.random);
    log('warn', `${entry.request.path}: ${error.kind} (attempt ${entry.attempts}/${max}); retrying in ${delay} ms`);
    const timer = clock.setTimeout(() => {
      queue.retryTimers.delete(timer);
      if (entry.request.signal?.aborted) return fail(entry, cancelled());
      queue.entries.push(entry);
      pump();
    }, delay);
    queue.retryTimers.set(timer, entry);
  }

  /**
   * One attempt of `entry`, bounded by its timeout: the answer, or null when the attempt ended without one (the
   * entry is then answered or set to retry).
   */
  async function attempt(entry: Entry, key: string | null): Promise<Response | null> {
    const { request } = entry;
    const controller = new AbortController();
    let timedOut = false;
    const timer = clock.setTimeout(() => {
      timedOut = true;
      controller.abort(new Error('timeout'));
    }, request.timeoutMs ?? options.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, controller.signal]) : controller.signal;
    try {
      return await request.send(key, signal);
    } catch (e) {
      // Cancelled by its caller, or by the client closing (an engine replaced on a reconnect aborts its requests
      // in flight): no fault of the service's, so neither logged as one nor taken as the service being away.
      if (request.signal?.aborted || queue.disposed) fail(entry, cancelled());
      // `send` refused on purpose (a redirect away from the service): final, and asking again changes nothing.
      else if (e instanceof AppErrorException) {
        log('warn', e.error.message);
        fail(entry, e.error);
      } else {
        if (!timedOut) gate.setReachable(false);
        log('warn', `${request.path}: network fault: ${errorMessage(e)}`);
        retryOrFail(entry, networkError(request.path, request.baseUrl, e, timedOut));
      }
      return null;
    } finally {
      clock.clearTimeout(timer);
    }
  }

  /** What a refusal by the service teaches the gate or the ledger, and the entry's answer (or its retry). */
  function refused(entry: Entry, error: AppError, key: string | null) {
    const { path } = entry.request;
    switch (error.kind) {
      case 'auth':
        gate.noteAuthRefused(key, error);
        return fail(entry, error);
      case 'plan':
        gate.noteRestricted(path, error);
        return fail(entry, error);
      case 'rate_limit':
        return fail(entry, ledger.pauseFor429(path, error));
      case 'server':
        return retryOrFail(entry, error);
      default:
        return fail(entry, error);
    }
  }

  /** Reads an answer: counts and headers to the ledger, success to its caller, a refusal to `refused`. */
  async function answered(entry: Entry, response: Response, key: string | null, counted: SentRequest | null) {
    const { request } = entry;
    gate.setReachable(true);
    if (response.status === 429 && counted) ledger.noteRateLimited(counted);
    if (request.needsKey !== false) ledger.readRateHeaders(response.headers);
    if (response.ok) {
      gate.noteServed(request.path);
      return finish(entry, { ok: true, response, attempts: entry.attempts });
    }
    let body = '';
    try {
      body = await response.text();
    } catch {
      /* the status alone is enough to classify */
    }
    const now = clock.now();
    refused(
      entry,
      errorFromStatus(request.path, response.status, response.headers, body, now, ledger.clockSkewMs() ?? 0),
      key,
    );
  }

  async function dispatch(entry: Entry) {
    const { request } = entry;
    queue.inFlight++;
    let key: string | null = null;
    let counted: SentRequest | null = null;
    try {
      if (request.needsKey !== false) {
        key = await gate.readKey();
        const refusal = gate.refusal(request.path);
        if (refusal) return fail(entry, refusal);
        // Admitted and counted in one synchronous step: concurrent dispatches cannot both take the last place.
        const overShare = ledger.admit(request.purpose ?? 'lookup');
        if (overShare) return fail(entry, overShare);
        counted = ledger.countSent(request.purpose ?? 'lookup');
      }
      entry.attempts++;
      changed();
      const started = clock.now();
      const response = await attempt(entry, key);
      if (!response) return;
      log('debug', `GET ${request.path} -> ${response.status} (${clock.now() - started} ms)`);
      await answered(entry, response, key, counted);
    } catch (e) {
      return fail(entry, { kind: 'internal', message: errorMessage(e) });
    } finally {
      queue.inFlight--;
      changed();
      pump();
    }
  }

  function enqueue(request: GovernedRequest): Promise<GovernedResult> {
    return new Promise<GovernedResult>((resolve) => {
      const entry: Entry = {
        request,
        rank: PRIORITY_RANK[request.priority ?? 'normal'],
        seq: ++queue.seq,
        attempts: 0,
        resolve,
      };
      if (request.signal) {
        entry.onAbort = () => {
          const i = queue.entries.indexOf(entry);
          if (i >= 0) {
            queue.entries.splice(i, 1);
            fail(entry, cancelled());
            changed();
          }
        };
        request.signal.addEventListener('abort', entry.onAbort, { once: true });
      }
      queue.entries.push(entry);
      changed();
      pump();
    });
  }

  return {
    async run(request) {
      if (queue.disposed) return { ok: false, error: closed(), attempts: 0 };
      if (request.signal?.aborted) return { ok: false, error: cancelled(), attempts: 0 };
      if (request.needsKey !== false) {
        // Fail fast before queueing: a blocked key, a restricted endpoint or a spent share never costs a request.
        await gate.readKey();
        const refusal = gate.refusal(request.path) ?? ledger.admit(request.purpose ?? 'lookup');
        if (refusal) return { ok: false, error: refusal, attempts: 0 };
      }
      return enqueue(request);
    },
    pump,
    queued: () => queue.entries.length,
    inFlight: () => queue.inFlight,
    dispose() {
      queue.disposed = true;
      if (queue.wakeTimer !== null) clock.clearTimeout(queue.wakeTimer);
      for (const [t, e] of queue.retryTimers) {
        clock.clearTimeout(t);
        fail(e, closed());
      }
      queue.retryTimers.clear();
      for (const e of queue.entries.splice(0)) fail(e, closed());
    },
  };
}
