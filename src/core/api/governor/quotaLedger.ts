// The quota ledger: the governor's account of the hour. It counts every request sent (by purpose, over the rolling
// hour and since start, 429s apart), reads the service's X-RateLimit-* headers and its clock, holds the pause a 429
// asks for, and admits or refuses a request by its purpose's share of the hour (../../budget.ts). It sends nothing
// and decides nothing about the queue: the scheduler asks it what is left and tells it what was sent.
import { RATE_LIMIT_HEADERS, type ApiPath } from '../../../shared/api';
import type { AppError } from '../../../shared/errors';
import { DEFAULT_QUOTA_PER_HOUR, emptyByPurpose, type Purpose, type RequestCounts } from '../../../shared/requests';
import {
  ceilingOf,
  headroom as shareHeadroom,
  reserveOf,
  SHARES,
  shareBound,
  type BudgetView,
  type ShareBound,
} from '../../budget';
import type { Clock } from '../../clock';
import type { Logger } from '../types';
import type { QuotaState, RetryAfterClamp } from './types';

export const HOUR_MS = 3_600_000;

/** One request counted as sent; a 429 answer marks it. */
export interface SentRequest {
  at: number;
  purpose: Purpose;
  rateLimited: boolean;
}

interface Refusal {
  at: number;
  purpose: Purpose;
}

interface HeaderQuota {
  limit: number;
  remaining: number;
  resetAt: number;
  /** Requests we sent after this reading arrived: the reading does not include them yet. */
  sentSince: number;
}

export interface QuotaLedgerOptions {
  clock: Clock;
  /** The trader's hourly quota, counted against until the service states its own. */
  quotaPerHour?: number;
  /** Pause after a 429 that carries neither Retry-After nor X-RateLimit-Reset. */
  defaultRetryAfterS: number;
  log: Logger;
  /** Told after every change a subscriber of the governor's state would see. */
  changed(): void;
}

export interface QuotaLedger {
  quota(): QuotaState;
  /** Copies of the hour's and the session's counts. */
  counts(): { hour: RequestCounts; session: RequestCounts };
  /** Requests `purpose` may still send this hour within its share. */
  headroom(purpose: Purpose): number;
  /** Null when one more request for `purpose` fits its share; else the refusal, counted as one. */
  admit(purpose: Purpose): AppError | null;
  countSent(purpose: Purpose): SentRequest;
  /** The service answered `sent` with a 429. */
  noteRateLimited(sent: SentRequest): void;
  /** Reads X-RateLimit-* from an answer to a request that needed the key. */
  readRateHeaders(headers: Headers): void;
  /** False (and nothing changes) for a figure that is not a whole number of at least 1, or the same as before. */
  setQuotaPerHour(n: number): boolean;
  noteServiceTime(serviceMs: number, sentAt: number, receivedAt: number): void;
  clockSkewMs(): number | null;
  /** The pause in force at `now`, after a 429: until when, and whether its Retry-After was clamped. */
  pause(now: number): { until: number; clamp: RetryAfterClamp | null } | null;
  /** Lifts a pause whose time has come (and says so in the log). */
  endPauseIfOver(now: number): void;
  /** A 429 from `path`: pauses every request as the service asks (within the hour) and returns the caller's error. */
  pauseFor429(path: ApiPath, error: AppError): AppError;
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

/** The requests of the rolling hour and of the session, by purpose: those sent (429s apart) and those refused. */
function createRequestCounts() {
  let sent: SentRequest[] = [];
  /** Refusals by admission within the hour, oldest first. */
  let refusals: Refusal[] = [];
  // The hour is rolling, like the quota window we count against; the session runs from start to dispose.
  const hour = emptyCounts();
  const session = emptyCounts();

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

  return {
    /** The requests sent within the hour before `now`, oldest first. */
    sentThisHour(now: number): readonly SentRequest[] {
      prune(now);
      return sent;
    },
    /** The hour's requests by purpose, as counted so far (not pruned). */
    hourByPurpose: (): Record<Purpose, number> => hour.byPurpose,
    copies(now: number) {
      prune(now);
      return { hour: copyCounts(hour), session: copyCounts(session) };
    },
    countSent(purpose: Purpose, at: number): SentRequest {
      const entry: SentRequest = { at, purpose, rateLimited: false };
      sent.push(entry);
      for (const c of [hour, session]) {
        c.total++;
        c.byPurpose[purpose]++;
      }
      return entry;
    },
    noteRateLimited(counted: SentRequest) {
      counted.rateLimited = true;
      // Only while the request is still inside the hour: a 429 after an hour-long wait must not count twice.
      if (sent.includes(counted)) hour.rateLimited++;
      session.rateLimited++;
    },
    noteRefusal(purpose: Purpose, at: number) {
      refusals.push({ at, purpose });
      hour.refused[purpose]++;
      session.refused[purpose]++;
    },
  };
}

/**
 * When one more request of `purpose` fits its share again, if nothing else is sent meanwhile: from the hour's
 * requests (`sent`, oldest first) and, while a header reading holds, its reset.
 */
function shareFreesAt(
  purpose: Purpose,
  q: QuotaState,
  now: number,
  sent: readonly SentRequest[],
  headerResetAt: number | null,
): number {
  let at = now;
  const ceiling = ceilingOf(purpose, q.limit);
  const mine = sent.filter((e) => e.purpose === purpose);
  if (ceiling !== null && mine.length >= ceiling) {
    // Its own requests leave the hour, oldest first, until one fewer than the ceiling is left.
    const freeing = mine[mine.length - ceiling];
    at = Math.max(at, freeing ? freeing.at + HOUR_MS : now + HOUR_MS);
  }
  if (SHARES[purpose]?.aboveReserve && q.remaining <= reserveOf(q.limit)) {
    if (headerResetAt !== null && now < headerResetAt) at = Math.max(at, headerResetAt);
    else {
      // Our own count: requests of any purpose leave the hour until more than the reserve is left.
      const freeing = sent[sent.length - (q.limit - reserveOf(q.limit))];
      at = Math.max(at, freeing ? freeing.at + HOUR_MS : now + HOUR_MS);
    }
  }
  return at;
}

/** The refusal of one more request of `purpose`, over its share by `bound`; the share frees up `at`. */
function shareRefusal(
  purpose: Purpose,
  bound: ShareBound,
  q: QuotaState,
  used: number,
  at: number,
  now: number,
): AppError {
  const retryAfter = Math.max(1, Math.ceil((at - now) / 1000));
  const subject = SHARE_SUBJECT[purpose];
  const message =
    bound === 'ceiling'
      ? `${subject} have used their share of this hour's requests (${used} of ${q.limit}, at most ${Math.round((SHARES[purpose]?.ceiling ?? 0) * 100)}%); the next is possible at ${minuteUtc(at)}.`
      : `${subject} are held back: the last ${reserveOf(q.limit)} of this hour's ${q.limit} requests are kept for settlements and live streams (${q.remaining} left); the next is possible at ${minuteUtc(at)}.`;
  return { kind: 'rate_limit', retryAfter, message };
}

/**
 * The service's reading of its quota in an answer's X-RateLimit-* headers, or null when it gives none that can be
 * used. The reset is the service's clock: corrected by the measured skew. A reset still in our past or beyond one
 * hour is clamped to an hour, the longest a window can last, so a bad clock can only make us more careful.
 */
function readHeaderQuota(headers: Headers, now: number, skewMs: number): HeaderQuota | null {
  const limit = headerNumber(headers, RATE_LIMIT_HEADERS.limit);
  const remaining = headerNumber(headers, RATE_LIMIT_HEADERS.remaining);
  const reset = headerNumber(headers, RATE_LIMIT_HEADERS.reset);
  // A limit without a remaining (or the reverse) says nothing about what is left: it is ignored, not read as 0.
  if (limit === null || remaining === null || limit < 1) return null;
  const stated = reset !== null && reset > 0 ? reset * 1000 - skewMs : now + HOUR_MS;
  const resetAt = stated <= now || stated > now + HOUR_MS ? now + HOUR_MS : stated;
  return { limit, remaining, resetAt, sentSince: 0 };
}

export function createQuotaLedger(options: QuotaLedgerOptions): QuotaLedger {
  const { clock, log, changed } = options;
  let configuredQuota =
    options.quotaPerHour !== undefined && validQuota(options.quotaPerHour)
      ? options.quotaPerHour
      : DEFAULT_QUOTA_PER_HOUR;
  const requests = createRequestCounts();
  let headerQuota: HeaderQuota | null = null;
  // The service's stated limit outlives the header reading: it is still the best quota to count against.
  let learnedLimit: number | null = null;
  let clockSkewMs: number | null = null;
  let pausedUntil: number | null = null;
  let retryAfterClamp: RetryAfterClamp | null = null;

  function quota(): QuotaState {
    const now = clock.now();
    const sent = requests.sentThisHour(now);
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

  function budgetView(q: QuotaState): BudgetView {
    return { limit: q.limit, remaining: q.remaining, hourByPurpose: requests.hourByPurpose() };
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
    const at = shareFreesAt(purpose, q, now, requests.sentThisHour(now), headerQuota?.resetAt ?? null);
    const refusal = shareRefusal(purpose, bound, q, requests.hourByPurpose()[purpose], at, now);
    requests.noteRefusal(purpose, now);
    log('debug', `refused (${purpose}): ${refusal.message}`);
    changed();
    return refusal;
  }

  function countSent(purpose: Purpose): SentRequest {
    const entry = requests.countSent(purpose, clock.now());
    if (headerQuota) headerQuota.sentSince++;
    return entry;
  }

  function readRateHeaders(headers: Headers) {
    const reading = readHeaderQuota(headers, clock.now(), clockSkewMs ?? 0);
    if (reading) learnedLimit = reading.limit;
    // No usable reading on this answer: our own count takes over from here.
    else if (!headerQuota) return;
    headerQuota = reading;
    changed();
  }

  function pauseFor429(path: ApiPath, error: AppError): AppError {
    const hq = headerQuota;
    const fromReset = hq ? Math.ceil((hq.resetAt - clock.now()) / 1000) : null;
    const asked = error.retryAfter ?? (fromReset && fromReset > 0 ? fromReset : options.defaultRetryAfterS);
    // Never longer than the quota window (no hourly quota outlasts its hour), never a zero pause that would
    // let the queue knock again at once.
    const windowS = HOUR_MS / 1000;
    const seconds = Math.min(windowS, Math.max(1, asked));
    const until = clock.now() + seconds * 1000;
    if (until >= (pausedUntil ?? 0)) retryAfterClamp = asked > windowS ? { statedS: asked, appliedS: seconds } : null;
    pausedUntil = Math.max(pausedUntil ?? 0, until);
    log(
      'warn',
      asked > windowS
        ? `429 from ${path}: the service asked to wait ${asked} s; all requests paused for the quota window, ${seconds} s`
        : `429 from ${path}: all requests paused for ${seconds} s`,
    );
    changed();
    const message =
      asked > windowS
        ? `The hourly request quota is used up. The service asked to wait ${asked} s, longer than the quota's hour; requests resume in ${seconds} s.`
        : error.message;
    return { ...error, retryAfter: seconds, message };
  }

  return {
    quota,
    counts: () => requests.copies(clock.now()),
    headroom: (purpose) => shareHeadroom(purpose, budgetView(quota())),
    admit,
    countSent,
    noteRateLimited: requests.noteRateLimited,
    readRateHeaders,
    setQuotaPerHour(n) {
      if (!validQuota(n)) {
        log('warn', `ignored a quota of ${n} requests per hour: it must be a whole number, at least 1`);
        return false;
      }
      if (n === configuredQuota) return false;
      configuredQuota = n;
      log('info', `hourly quota set to ${n} requests`);
      return true;
    },
    noteServiceTime(serviceMs, sentAt, receivedAt) {
      if (!Number.isFinite(serviceMs) || receivedAt < sentAt) return;
      const skew = Math.round(serviceMs - (sentAt + receivedAt) / 2);
      if (skew === clockSkewMs) return;
      clockSkewMs = skew;
      changed();
    },
    clockSkewMs: () => clockSkewMs,
    pause: (now) => (pausedUntil !== null && pausedUntil > now ? { until: pausedUntil, clamp: retryAfterClamp } : null),
    endPauseIfOver(now) {
      if (pausedUntil === null || now < pausedUntil) return;
      pausedUntil = null;
      log('info', 'rate-limit pause over');
      changed();
    },
    pauseFor429,
  };
}
