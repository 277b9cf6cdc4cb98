// One request's turn: cleared by the key gate and admitted by the quota ledger, sent within its timeout, and its
// answer read. What the answer teaches goes to the gate (key, plan, reachability) and the ledger (counts, rate
// headers, pauses); the caller gets its result, or the request goes back to the scheduler for a retry.
import { AppErrorException, errorMessage, type AppError } from '../../../shared/errors';
import type { Clock } from '../../clock';
import { errorFromStatus, networkError } from '../errors';
import type { Logger } from '../types';
import type { KeyGate } from './keyGate';
import type { QuotaLedger, SentRequest } from './quotaLedger';
import type { GovernedRequest, GovernedResult } from './types';

/** A request in the governor's hands, from `run` until its caller has the result. */
export interface Entry {
  request: GovernedRequest;
  rank: number;
  seq: number;
  attempts: number;
  resolve(result: GovernedResult): void;
  onAbort?: () => void;
}

export const cancelled = (): AppError => ({ kind: 'network', message: 'The request was cancelled.' });

/**
 * Why a request that needs the key may not go now (the key's state, a plan restriction, then its purpose's share of
 * the hour, where a refusal is counted); null when it may. Synchronous, so a caller can count the request at once.
 */
export function refusalOf(gate: KeyGate, ledger: QuotaLedger, request: GovernedRequest): AppError | null {
  return gate.refusal(request.path) ?? ledger.admit(request.purpose ?? 'lookup');
}

export interface DispatchOptions {
  clock: Clock;
  gate: KeyGate;
  ledger: QuotaLedger;
  /** Bound on one attempt when the request names none. */
  timeoutMs: number;
  log: Logger;
  /** Told after every change a subscriber of the governor's state would see. */
  changed(): void;
  /** Answers the entry's caller. */
  finish(entry: Entry, result: GovernedResult): void;
  fail(entry: Entry, error: AppError): void;
  /** Tries the entry again after a backoff, or answers it with `error` when it may not. */
  retryOrFail(entry: Entry, error: AppError): void;
  /** Whether the governor is closed: an attempt cut short then was cancelled, not a fault. */
  closed(): boolean;
}

/** One attempt of a request, from its clearance to its answer; throws only on a fault of the governor's own. */
export function createDispatch(options: DispatchOptions): (entry: Entry) => Promise<void> {
  const { clock, gate, ledger, log, changed, fail, retryOrFail } = options;

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
      if (request.signal?.aborted || options.closed()) fail(entry, cancelled());
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
      return options.finish(entry, { ok: true, response, attempts: entry.attempts });
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

  return async function dispatch(entry: Entry) {
    const { request } = entry;
    let key: string | null = null;
    let counted: SentRequest | null = null;
    if (request.needsKey !== false) {
      key = await gate.readKey();
      // Admitted and counted in one synchronous step: concurrent dispatches cannot both take the last place.
      const refusal = refusalOf(gate, ledger, request);
      if (refusal) return fail(entry, refusal);
      counted = ledger.countSent(request.purpose ?? 'lookup');
    }
    entry.attempts++;
    changed();
    const started = clock.now();
    const response = await attempt(entry, key);
    if (!response) return;
    log('debug', `GET ${request.path} -> ${response.status} (${clock.now() - started} ms)`);
    await answered(entry, response, key, counted);
  };
}
