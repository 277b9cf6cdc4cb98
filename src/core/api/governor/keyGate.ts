// The key gate: what must hold before a request that needs the key may go out. It reads the key provider (the only
// place a key enters the governor), keeps the key's state (ok, rejected by a 401, missing) and polls the provider
// while the key is blocked, remembers the endpoints the plan refuses until the key changes, and knows whether the
// service answered last time. Long-lived intents wait here for a usable key or a reachable service.
import { ENTERPRISE_PATHS, PLANS, type ApiPath, type Plan } from '../../../shared/api';
import { errorMessage, type AppError } from '../../../shared/errors';
import { Emitter } from '../../../shared/event';
import type { Clock, TimerHandle } from '../../clock';
import { pathLabel } from '../errors';
import type { KeyProvider, Logger } from '../types';
import type { AuthState, RestrictedPath } from './types';

export interface KeyGateOptions {
  keyProvider: KeyProvider;
  clock: Clock;
  /** How often the key provider is re-read while the key is rejected or missing. */
  keyPollMs: number;
  /** Every key read is added here, so the governor's scrub can remove it from any text. */
  knownKeys: Set<string>;
  log: Logger;
  /** Told after every change a subscriber of the governor's state would see. */
  changed(): void;
  /** A poll of the provider found a usable key: the queue may move again. */
  usable(): void;
}

export interface KeyGate {
  auth(): AuthState;
  plan(): Plan | 'unknown';
  restrictedPaths(): RestrictedPath[];
  reachable(): boolean | null;
  /** Reads the provider and updates the key's state; the key, or null when none is set. */
  readKey(): Promise<string | null>;
  /** Why a request to `path` that needs the key may not go now (the key's state, then the plan); null when it may. */
  refusal(path: ApiPath): AppError | null;
  /** The service answered `error` (an `auth` error) to a request sent with `key`. */
  noteAuthRefused(key: string | null, error: AppError): void;
  /** The service refused `path` for the plan: remembered, so later calls to it send nothing. */
  noteRestricted(path: ApiPath, error: AppError): void;
  /** The service answered `path` with success: an enterprise-only path tells the plan. */
  noteServed(path: ApiPath): void;
  setReachable(next: boolean): void;
  /** The host saved a new key: forget what the old one taught, then read the new one. */
  keyChanged(): Promise<string | null>;
  whenKeyUsable(signal?: AbortSignal): Promise<void>;
  whenReachable(signal?: AbortSignal): Promise<void>;
  dispose(): void;
}

function authError(auth: AuthState): AppError {
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

/** Resolves the first time `event` fires; rejects with the signal's reason when it aborts first. */
function once(event: Emitter<[]>, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      unsubscribe();
      reject(signal?.reason);
    };
    const unsubscribe = event.event(() => {
      unsubscribe();
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function createKeyGate(options: KeyGateOptions): KeyGate {
  const { clock, log, changed } = options;
  const restricted = new Map<ApiPath, RestrictedPath>();
  let auth: AuthState = 'ok';
  let plan: Plan | 'unknown' = 'unknown';
  let lastKey: string | null | undefined; // undefined: never read
  let rejectedKey: string | null = null;
  let reachable: boolean | null = null;
  let keyPollTimer: TimerHandle | null = null;
  let disposed = false;
  const keyUsableAgain = new Emitter<[]>({ name: 'the key gate (key usable)' });
  const reachableAgain = new Emitter<[]>({ name: 'the key gate (reachable)' });

  function setAuth(next: AuthState) {
    if (auth === next) return;
    auth = next;
    log(next === 'ok' ? 'info' : 'warn', `API key state: ${next}`);
    if (next === 'ok') stopKeyPoll();
    else startKeyPoll();
    if (next === 'ok') keyUsableAgain.fire();
    changed();
  }

  function forgetKeyState() {
    restricted.clear();
    plan = 'unknown';
  }

  async function readKey(): Promise<string | null> {
    let raw: string | null | undefined;
    try {
      raw = await options.keyProvider();
    } catch (e) {
      log('error', `key provider failed: ${errorMessage(e)}`);
      raw = null;
    }
    const key = raw ? raw : null;
    if (key) options.knownKeys.add(key);
    if (key !== lastKey) {
      const first = lastKey === undefined;
      lastKey = key;
      if (!first) {
        forgetKeyState();
        if (key !== rejectedKey) rejectedKey = null;
        log('info', 'API key changed');
        changed();
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
      else options.usable();
    }, options.keyPollMs);
  }

  function stopKeyPoll() {
    if (keyPollTimer !== null) clock.clearTimeout(keyPollTimer);
    keyPollTimer = null;
  }

  return {
    auth: () => auth,
    plan: () => plan,
    restrictedPaths: () => [...restricted.values()],
    reachable: () => reachable,
    readKey,
    refusal(path) {
      if (auth !== 'ok') return authError(auth);
      const r = restricted.get(path);
      return r ? planError(r) : null;
    },
    noteAuthRefused(key, error) {
      if (key !== null && key === lastKey && error.status === 401) {
        rejectedKey = key;
        setAuth('rejected');
      }
    },
    noteRestricted(path, error) {
      const restriction: RestrictedPath = {
        path,
        message: error.message,
        ...(error.yourPlan ? { yourPlan: error.yourPlan } : {}),
        ...(error.requiredPlan ? { requiredPlan: error.requiredPlan } : {}),
      };
      restricted.set(path, restriction);
      if (error.yourPlan && (PLANS as readonly string[]).includes(error.yourPlan)) plan = error.yourPlan as Plan;
      log('warn', `${pathLabel(path)} restricted by plan: ${error.message}`);
      changed();
    },
    noteServed(path) {
      if (plan === 'unknown' && ENTERPRISE_PATHS.includes(path)) {
        plan = 'enterprise';
        changed();
      }
    },
    setReachable(next) {
      if (reachable === next) return;
      reachable = next;
      if (next) reachableAgain.fire();
      changed();
    },
    keyChanged() {
      rejectedKey = null;
      lastKey = undefined;
      forgetKeyState();
      changed();
      return readKey();
    },
    whenKeyUsable(signal) {
      if (auth === 'ok') return Promise.resolve();
      const usable = once(keyUsableAgain, signal);
      startKeyPoll();
      return usable;
    },
    whenReachable(signal) {
      if (reachable !== false) return Promise.resolve();
      return once(reachableAgain, signal);
    },
    dispose() {
      disposed = true;
      stopKeyPoll();
      keyUsableAgain.dispose();
    },
  };
}
