// The browser bridge's session, both sides of the wire format and the page's end of it: a mutual proof of the
// per-launch token before anything else crosses, then the IPC contract (invokes, results, pushes) as JSON frames.
// Platform-neutral (WebCrypto and timers are global in browsers and in Node), so the page and Node clients (tests,
// the bench) run the same client; the host's side is src/core/bridge/server.ts.
//
// The handshake. The token itself never crosses the wire (nor any URL after the page has read it): a server that
// does not know it learns nothing from a page, and cannot make the page trust it.
//   host → page   {type:'challenge', nonce: S}                        as soon as the socket opens
//   page → host   {type:'hello', nonce: P, proof: HMAC(token, "oddsdesk-bridge page S P")}
//   host → page   {type:'welcome', proof: HMAC(token, "oddsdesk-bridge host S P")}   or a close with 4401
// S and P are fresh random nonces (32 bytes, hex) for each connection, so no proof can be replayed; the role word
// keeps the page's proof from ever serving as the host's. HMAC is HMAC-SHA256, keyed with the token's UTF-8 bytes,
// written as lowercase hex. The host sends nothing else (no push, no result) before its welcome, and takes nothing
// but the hello; the page sends no request and accepts no push or result before it has checked the welcome.
import type { AppError, Result } from '../errors';
import { Emitter, type Unsubscribe } from '../event';
import type { OddsdeskApi, PushPayloads } from './contract';
import type { PushEventName } from './channels';

export type BridgeHandshakeServerMessage = { type: 'challenge'; nonce: string } | { type: 'welcome'; proof: string };
export type BridgeHandshakeClientMessage = { type: 'hello'; nonce: string; proof: string };
export type BridgeClientMessage =
  | { type: 'invoke'; id: number; channel: string; args: unknown[] }
  /**
   * The page has taken in a frame with odds (dispatched it to its store, which folds it): the host keeps at most a
   * couple of odds frames on their way and folds the rest, so a busy page's task queue never holds seconds of them.
   */
  | { type: 'ack' };
export type BridgeServerMessage =
  | { type: 'result'; id: number; result: Result<unknown> }
  | { type: 'push'; event: string; payload: unknown }
  /** Every push of one turn of the host's event loop (a monitor flush's odds, its alerts, a status): one frame. */
  | { type: 'pushes'; pushes: Array<{ event: string; payload: unknown }> }
  /** A frame the host could not read as an invoke with an id: the answer it gets instead of a result. */
  | { type: 'error'; error: AppError };

/** The host's close when a socket's hello is missing, malformed or carries a wrong proof (HTTP's 401, in WebSocket's
 * range for applications). A page that gets it stops: its token is not this host's. */
export const BRIDGE_CLOSE_UNAUTHORIZED = 4401;
/** The host's close when no hello came within its handshake timeout. */
export const BRIDGE_CLOSE_HANDSHAKE_TIMEOUT = 4408;

/** A nonce: 32 random bytes as lowercase hex. */
export const BRIDGE_NONCE = /^[0-9a-f]{64}$/;
/** An HMAC-SHA256 as lowercase hex. */
export const BRIDGE_PROOF = /^[0-9a-f]{64}$/;

export type BridgeRole = 'page' | 'host';

/** The text each side signs with the token: its role and both nonces. */
export function bridgeProofText(role: BridgeRole, challenge: string, nonce: string): string {
  return `oddsdesk-bridge ${role} ${challenge} ${nonce}`;
}

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

export function newBridgeNonce(): string {
  return hex(crypto.getRandomValues(new Uint8Array(32)));
}

function hmacKey(token: string, use: 'sign' | 'verify') {
  return crypto.subtle.importKey('raw', new TextEncoder().encode(token), { name: 'HMAC', hash: 'SHA-256' }, false, [
    use,
  ]);
}

/** HMAC-SHA256(token, bridgeProofText(role, challenge, nonce)) as hex (WebCrypto; the host uses node:crypto). */
export async function bridgeProof(token: string, role: BridgeRole, challenge: string, nonce: string): Promise<string> {
  const key = await hmacKey(token, 'sign');
  return hex(
    new Uint8Array(
      await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(bridgeProofText(role, challenge, nonce))),
    ),
  );
}

/** Whether `proof` is that HMAC (checked by WebCrypto's verify, in constant time). */
export async function verifyBridgeProof(
  token: string,
  role: BridgeRole,
  challenge: string,
  nonce: string,
  proof: string,
): Promise<boolean> {
  if (!BRIDGE_PROOF.test(proof)) return false;
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) bytes[i] = parseInt(proof.slice(i * 2, i * 2 + 2), 16);
  const key = await hmacKey(token, 'verify');
  return crypto.subtle.verify('HMAC', key, bytes, new TextEncoder().encode(bridgeProofText(role, challenge, nonce)));
}

// ---- the page's end ----

/** What a transport tells the session about its socket. */
export interface BridgeSocketEvents {
  message(text: string): void;
  /** The close code (1006 when the socket never opened or was cut). */
  close(code: number): void;
}
/** Opens a WebSocket to `url` (the browser's, or `ws` in Node) and reports its events. */
export type OpenBridgeSocket = (url: string, on: BridgeSocketEvents) => { send(text: string): void; close(): void };

/**
 * Why the page stopped for good:
 * - `gone`: several attempts in a row found no host (nothing listening, or sockets that closed before a proof);
 * - `refused`: the host closed with 4401: it does not know this page's token (a host started again prints a new
 *   address with a new token, or the address was not the one it printed);
 * - `unproven`: whatever answered could not prove it knows the token (another program on the port).
 */
export type BridgeEndReason = 'gone' | 'refused' | 'unproven';
export interface BridgeEnd {
  reason: BridgeEndReason;
  /** Plain words for the trader, with what to do. */
  message: string;
}

const RESTART = 'Restart `npm run web` and open the new address it prints.';
export const BRIDGE_END_MESSAGES: Record<BridgeEndReason, string> = {
  gone: `The Oddsdesk host is gone, so this page has stopped trying to reach it. ${RESTART}`,
  refused: `The Oddsdesk host does not accept this page's address: it was started again (each start prints a new address), or this is not the address it printed. Open the address it printed last, or restart \`npm run web\` and open the new one.`,
  unproven: `The Oddsdesk host is gone: what now answers at this address could not prove it is the host, so this page has stopped talking to it. ${RESTART}`,
};

export interface BridgeSessionOptions {
  /** The bridge's WebSocket address (ws://127.0.0.1:PORT/bridge); it carries no token. */
  url: string;
  token: string;
  openSocket: OpenBridgeSocket;
  /** Wait before the first reconnection after a drop or a failed attempt (ms); it doubles up to `retryMaxMs`. */
  retryFirstMs?: number;
  retryMaxMs?: number;
  /** Attempts in a row that reach no proven host before the page decides the host is gone. */
  maxFailedAttempts?: number;
  /** How long an attempt may take to get the host's proof (ms) before it counts as failed. */
  proofTimeoutMs?: number;
  /** Called once, when the session stops for good. */
  onEnd?: (end: BridgeEnd) => void;
  /** The backoff's and the proof's timers: the global ones, or a test's manual clock. */
  timers?: BridgeSessionTimers;
}

export interface BridgeSessionTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const GLOBAL_TIMERS: BridgeSessionTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export const BRIDGE_RETRY_FIRST_MS = 250;
export const BRIDGE_RETRY_MAX_MS = 5000;
/** 8 attempts: the page gives up about 23 s after its host went (250 ms doubling to 5 s between attempts). */
export const BRIDGE_MAX_FAILED_ATTEMPTS = 8;
export const BRIDGE_PROOF_TIMEOUT_MS = 10_000;

export interface BridgeSession extends OddsdeskApi {
  /** Why the session stopped for good, or null while it is connected or trying to be. */
  ended(): BridgeEnd | null;
  /** Stops the session (tests, a page being torn down): no reconnection, no end reported. */
  close(): void;
  /** How many push listeners are registered (`on` not yet undone): tests, a page that must not gather them. */
  listenerCount(): number;
}

type Pending = (result: Result<unknown>) => void;

/** One connection attempt: its socket, whether the host proved itself on it, and the promise invokes wait on. */
interface Attempt {
  socket: ReturnType<OpenBridgeSocket> | null;
  trusted: boolean;
  done: boolean;
  /** Settles with true once the host proved itself on this socket, false if the attempt ended first. */
  ready: Promise<boolean>;
  settle(trusted: boolean): void;
}

function newAttempt(): Attempt {
  let settle!: (trusted: boolean) => void;
  const ready = new Promise<boolean>((resolve) => (settle = resolve));
  return { socket: null, trusted: false, done: false, ready, settle };
}

const LOST = 'Lost the connection to the Oddsdesk host; reconnecting by itself';

/** A frame from the host as read, every field still to be checked; not JSON (or not an object) reads as `{}`. */
interface HostFrame {
  type?: unknown;
  id?: unknown;
  result?: unknown;
  event?: unknown;
  payload?: unknown;
  pushes?: unknown;
  nonce?: unknown;
  proof?: unknown;
}

function readHostFrame(text: string): HostFrame {
  let msg: HostFrame;
  try {
    msg = JSON.parse(text) as HostFrame;
  } catch {
    return {};
  }
  return typeof msg !== 'object' || msg === null ? {} : msg;
}

/** The page's push listeners: one emitter per pushed event. */
function pushListeners() {
  const emitters = new Map<string, Emitter<[unknown]>>();
  return {
    emit(event: string, payload: unknown): void {
      emitters.get(event)?.fire(payload);
    },
    on(event: string, listener: (payload: unknown) => void): Unsubscribe {
      let emitter = emitters.get(event);
      if (!emitter) emitters.set(event, (emitter = new Emitter({ name: `the bridge's ${event}` })));
      return emitter.event(listener);
    },
    count: (): number => [...emitters.values()].reduce((n, e) => n + e.size, 0),
  };
}
type PushListeners = ReturnType<typeof pushListeners>;

/** The invokes sent and waiting for their results, by id. */
function pendingInvokes() {
  const pending = new Map<number, Pending>();
  let nextId = 1;
  return {
    add(settle: Pending): number {
      const id = nextId++;
      pending.set(id, settle);
      return id;
    },
    settle(id: number, result: Result<unknown>): void {
      pending.get(id)?.(result);
      pending.delete(id);
    },
    /** Answers every waiting invoke with a network error. */
    failAll(message: string): void {
      for (const [, settle] of pending) settle({ ok: false, error: { kind: 'network', message } });
      pending.clear();
    },
  };
}
type PendingInvokes = ReturnType<typeof pendingInvokes>;

/** A proven host's frame: a result to its invoke, or pushes to their listeners (a frame with odds acknowledged). */
function applyHostFrame(msg: HostFrame, pending: PendingInvokes, listeners: PushListeners, ack: () => void): void {
  if (msg.type === 'result' && typeof msg.id === 'number') {
    pending.settle(msg.id, msg.result as Result<unknown>);
  } else if (msg.type === 'push' && typeof msg.event === 'string') {
    listeners.emit(msg.event, msg.payload);
    if (msg.event === 'onOdds') ack();
  } else if (msg.type === 'pushes' && Array.isArray(msg.pushes)) {
    // One frame, several pushes, in the order the host made them; the page applies them in this one task.
    let odds = false;
    for (const p of msg.pushes as Array<{ event?: unknown; payload?: unknown } | null>) {
      if (p && typeof p.event === 'string') listeners.emit(p.event, p.payload);
      if (p?.event === 'onOdds') odds = true;
    }
    if (odds) ack();
  }
  // {type:'error'} answers a frame the host could not read; a page built from the contract never sends one.
}

/** Tells the host this page has taken in a frame of odds (see BridgeClientMessage's `ack`). */
function ackOdds(attempt: Attempt): void {
  if (attempt.done || !attempt.socket) return;
  try {
    attempt.socket.send('{"type":"ack"}');
  } catch {
    // The socket is closing: its close ends the attempt.
  }
}

/**
 * The page's session with its host. It reconnects by itself after a drop (the socket closed after the host proved
 * itself: a host that is still there proves itself again), with backoff; it stops for good, and says why, when the
 * host refuses its token (4401), when what answers cannot prove it knows the token, or after `maxFailedAttempts`
 * attempts in a row that reached no proven host. A host that is started again has a new token, so an open page can
 * never continue with it: the trader opens the new address.
 */
export function createBridgeSession(options: BridgeSessionOptions): BridgeSession {
  const retryFirstMs = options.retryFirstMs ?? BRIDGE_RETRY_FIRST_MS;
  const retryMaxMs = options.retryMaxMs ?? BRIDGE_RETRY_MAX_MS;
  const maxFailed = options.maxFailedAttempts ?? BRIDGE_MAX_FAILED_ATTEMPTS;
  const proofTimeoutMs = options.proofTimeoutMs ?? BRIDGE_PROOF_TIMEOUT_MS;
  const timers = options.timers ?? GLOBAL_TIMERS;
  const pending = pendingInvokes();
  const listeners = pushListeners();
  let retryMs = retryFirstMs;
  let failed = 0;
  let end: BridgeEnd | null = null;
  let closed = false;
  /** The attempt under way or connected; null while waiting to try again, and for good once stopped. */
  let current: Attempt | null = null;
  let retryTimer: unknown = null;

  /** Ends an attempt: its socket closed, invokes waiting on it answered. */
  function finish(attempt: Attempt, message: string) {
    if (attempt.done) return;
    attempt.done = true;
    if (current === attempt) current = null;
    attempt.socket?.close();
    attempt.settle(false);
    pending.failAll(message);
  }

  function stop(reason: BridgeEndReason) {
    if (end || closed) return;
    end = { reason, message: BRIDGE_END_MESSAGES[reason] };
    if (retryTimer) timers.clearTimeout(retryTimer);
    pending.failAll(end.message);
    listeners.emit('onBridge', { connected: false });
    options.onEnd?.(end);
  }

  /** The attempt ended (its socket closed, or no proof in time): stop for good, or try again after the backoff. */
  function afterAttempt(attempt: Attempt, code: number): void {
    const wasTrusted = attempt.trusted;
    finish(attempt, wasTrusted ? LOST : 'The Oddsdesk host is not reachable');
    listeners.emit('onBridge', { connected: false });
    if (!wasTrusted) {
      if (code === BRIDGE_CLOSE_UNAUTHORIZED) return stop('refused');
      if (++failed >= maxFailed) return stop('gone');
    }
    // A drop, or a host that is not answering yet: come back by ourselves, without hammering it.
    retryTimer = timers.setTimeout(() => {
      retryTimer = null;
      if (!end && !closed) connect();
    }, retryMs);
    retryMs = Math.min(retryMs * 2, retryMaxMs);
  }

  function connect(): void {
    const attempt = newAttempt();
    current = attempt;
    const nonce = newBridgeNonce();
    let challenge: string | null = null;
    let proofTimer: unknown = null;
    // Frames are handled one after another, the handshake's asynchronously: a push that arrives while the welcome is
    // being checked waits for the verdict.
    let queue: Promise<void> = Promise.resolve();

    /** Not our host: stop talking to it, for good. */
    const distrust = () => {
      if (attempt.done) return;
      if (proofTimer) timers.clearTimeout(proofTimer);
      finish(attempt, BRIDGE_END_MESSAGES.unproven);
      stop('unproven');
    };

    /** Before the proof only the handshake may arrive, in its order: anything else is not our host talking. */
    const handshake = async (msg: HostFrame): Promise<void> => {
      if (challenge === null) {
        if (msg.type !== 'challenge' || typeof msg.nonce !== 'string' || !BRIDGE_NONCE.test(msg.nonce))
          return distrust();
        challenge = msg.nonce;
        const proof = await bridgeProof(options.token, 'page', challenge, nonce);
        if (attempt.done) return;
        const hello: BridgeHandshakeClientMessage = { type: 'hello', nonce, proof };
        attempt.socket?.send(JSON.stringify(hello));
        return;
      }
      if (msg.type !== 'welcome' || typeof msg.proof !== 'string') return distrust();
      if (!(await verifyBridgeProof(options.token, 'host', challenge, nonce, msg.proof))) return distrust();
      if (attempt.done) return;
      attempt.trusted = true;
      if (proofTimer) timers.clearTimeout(proofTimer);
      failed = 0;
      retryMs = retryFirstMs;
      listeners.emit('onBridge', { connected: true });
      attempt.settle(true);
    };

    const handle = async (text: string): Promise<void> => {
      if (attempt.done) return;
      const msg = readHostFrame(text);
      if (attempt.trusted) return applyHostFrame(msg, pending, listeners, () => ackOdds(attempt));
      return handshake(msg);
    };

    const onClosed = (code: number) => {
      if (attempt.done) return;
      if (proofTimer) timers.clearTimeout(proofTimer);
      afterAttempt(attempt, code);
    };

    // A server that takes the socket and then says nothing proves nothing: the attempt failed.
    proofTimer = timers.setTimeout(() => onClosed(1006), proofTimeoutMs);
    attempt.socket = options.openSocket(options.url, {
      message(text) {
        queue = queue.then(() => handle(text)).catch(() => distrust());
      },
      close: (code) => onClosed(code),
    });
  }
  connect();

  return {
    async invoke(channel, ...args) {
      if (end) return { ok: false, error: { kind: 'network', message: end.message } };
      // Between attempts the request fails at once rather than waiting out the backoff; the page shows the drop.
      const attempt = current;
      if (!attempt) return { ok: false, error: { kind: 'network', message: LOST } };
      if (!(await attempt.ready) || attempt.done) {
        const stopped = end as BridgeEnd | null; // may have been set while this request waited
        return {
          ok: false,
          error: { kind: 'network', message: stopped?.message ?? 'The Oddsdesk host is not reachable' },
        };
      }
      return new Promise((resolve) => {
        const id = pending.add(resolve as Pending);
        const message: BridgeClientMessage = { type: 'invoke', id, channel, args };
        attempt.socket!.send(JSON.stringify(message));
      });
    },
    on<E extends PushEventName>(event: E, listener: (payload: PushPayloads[E]) => void) {
      return listeners.on(event, listener as (payload: unknown) => void);
    },
    ended: () => end,
    listenerCount: listeners.count,
    close() {
      closed = true;
      if (retryTimer) timers.clearTimeout(retryTimer);
      if (current) finish(current, 'The bridge session was closed');
    },
  };
}
