// The scheduler: the governor's queue. It takes requests in (failing fast what the key gate or the quota ledger
// refuses), sends them by priority and age as far as concurrency, the 429 pause and the budget allow, times each
// attempt out, retries transient faults with backoff, and hands what each answer teaches to the gate (key, plan,
// reachability) and the ledger (counts, rate headers, pauses). A wait longer than `maxWaitMs` is not waited.
import { errorMessage, type AppError } from '../../../shared/errors';
import type { Clock, TimerHandle } from '../../clock';
import type { Logger, Priority } from '../types';
import { cancelled, createDispatch, refusalOf, type Entry } from './dispatch';
import type { KeyGate } from './keyGate';
import type { QuotaLedger } from './quotaLedger';
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

type Block = { until: number; why: 'pause' | 'budget' | 'reserve' };

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

/** What holds the queue back at one instant: the 429 pause, and what is left of the hour. */
interface Holds {
  now: number;
  quota: QuotaState;
  pausedUntil: number | null;
  /** Requests kept back from `low` priority. */
  reserve: number;
}

/** Why and until when an entry may not go out now; null when it may. */
function blocked(e: Entry, h: Holds): Block | null {
  if (h.pausedUntil !== null && h.now < h.pausedUntil) return { until: h.pausedUntil, why: 'pause' };
  if (e.request.needsKey === false) return null;
  const q = h.quota;
  // Budget spent: wait for the window to free a slot, or a minute when the reset time is unknown.
  const until = q.resetAt !== null && q.resetAt > h.now ? q.resetAt : h.now + 60_000;
  if (q.remaining <= 0) return { until, why: 'budget' };
  if (e.rank === PRIORITY_RANK.low && q.remaining <= h.reserve) return { until, why: 'reserve' };
  return null;
}

/** The index of the entry to send next (by priority, then age), or when the first blocked one may go. */
function pickNext(entries: readonly Entry[], h: Holds): { index: number } | { wake: number } {
  let best = -1;
  let wake = Infinity;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    const b = blocked(e, h);
    if (b) {
      wake = Math.min(wake, b.until);
      continue;
    }
    const cur = best < 0 ? null : entries[best]!;
    if (!cur || e.rank < cur.rank || (e.rank === cur.rank && e.seq < cur.seq)) best = i;
  }
  return best < 0 ? { wake } : { index: best };
}

/** The entries whose wait would outlast `maxWaitMs`, each with the error it fails with at once. */
function overlongWaits(entries: readonly Entry[], h: Holds, maxWaitMs: number) {
  const out: Array<{ entry: Entry; error: AppError }> = [];
  for (const entry of entries) {
    const b = blocked(entry, h);
    if (b && b.until - h.now > maxWaitMs) out.push({ entry, error: waitTooLong(b, h.now, h.quota) });
  }
  return out;
}

/** One timer that wakes the queue at the earliest instant asked for. */
function createWakeTimer(clock: Clock, wake: () => void) {
  let timer: TimerHandle | null = null;
  let wakeAt = Infinity;
  return {
    /** Wakes at `at`, unless already set to wake earlier. */
    at(at: number) {
      if (timer !== null && wakeAt <= at) return;
      if (timer !== null) clock.clearTimeout(timer);
      wakeAt = at;
      timer = clock.setTimeout(
        () => {
          timer = null;
          wakeAt = Infinity;
          wake();
        },
        Math.max(0, at - clock.now()),
      );
    },
    cancel() {
      if (timer !== null) clock.clearTimeout(timer);
    },
  };
}

/** The queue's state: what waits, what is out, and the timers that will move it. */
interface Queue {
  entries: Entry[];
  seq: number;
  inFlight: number;
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
    retryTimers: new Map(),
    disposed: false,
  };
  const wake = createWakeTimer(clock, () => pump());

  function finish(entry: Entry, result: GovernedResult) {
    if (entry.onAbort) entry.request.signal?.removeEventListener('abort', entry.onAbort);
    entry.resolve(result.ok ? result : { ...result, error: options.scrubError(result.error) });
  }

  function fail(entry: Entry, error: AppError) {
    finish(entry, { ok: false, error, attempts: entry.attempts });
  }

  /** What holds the queue back now. */
  function holdsNow(): Holds {
    const now = clock.now();
    const quota = ledger.quota();
    return {
      now,
      quota,
      pausedUntil: ledger.pause(now)?.until ?? null,
      reserve: options.lowPriorityReserve ?? Math.max(1, Math.floor(quota.limit * 0.05)),
    };
  }

  function pump() {
    if (queue.disposed) return;
    ledger.endPauseIfOver(clock.now());
    const dropped = overlongWaits(queue.entries, holdsNow(), options.maxWaitMs);
    for (const { entry, error } of dropped) {
      queue.entries.splice(queue.entries.indexOf(entry), 1);
      fail(entry, error);
    }
    if (dropped.length) changed();
    while (queue.inFlight < options.maxConcurrent && queue.entries.length) {
      const pick = pickNext(queue.entries, holdsNow());
      if ('wake' in pick) {
        if (pick.wake < Infinity) wake.at(pick.wake);
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

  const sendTurn = createDispatch({
    clock,
    gate,
    ledger,
    timeoutMs: options.timeoutMs,
    log,
    changed,
    finish,
    fail,
    retryOrFail,
    closed: () => queue.disposed,
  });

  async function dispatch(entry: Entry) {
    queue.inFlight++;
    try {
      await sendTurn(entry);
    } catch (e) {
      fail(entry, { kind: 'internal', message: errorMessage(e) });
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
        const refusal = refusalOf(gate, ledger, request);
        if (refusal) return { ok: false, error: refusal, attempts: 0 };
      }
      return enqueue(request);
    },
    pump,
    queued: () => queue.entries.length,
    inFlight: () => queue.inFlight,
    dispose() {
      queue.disposed = true;
      wake.cancel();
      for (const [t, e] of queue.retryTimers) {
        clock.clearTimeout(t);
        fail(e, closed());
      }
      queue.retryTimers.clear();
      for (const e of queue.entries.splice(0)) fail(e, closed());
    },
  };
}
