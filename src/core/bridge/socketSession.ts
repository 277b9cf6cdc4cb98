// The host's end of one page's WebSocket: the handshake (the page proves it holds the per-launch token, the host
// proves it too: src/shared/ipc/bridgeSession.ts), then the IPC contract's invokes answered and its pushes sent, one
// frame per turn of the event loop, the odds folded while the page is behind. The HTTP side (who may open a socket
// at all, how many) is ./server.ts's.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { CoreHandlers, PushListener } from '../../shared/ipc/contract';
import { dispatch } from '../../shared/ipc/contract';
import { BRIDGE_NONCE, BRIDGE_PROOF, bridgeProofText, type BridgeRole } from '../../shared/ipc/bridgeSession';
import { createOddsFlow, createPushBatcher, type PushMessage } from '../../shared/ipc/pushFrames';
import type {
  BridgeClientMessage,
  BridgeHandshakeClientMessage,
  BridgeHandshakeServerMessage,
  BridgeServerMessage,
} from './protocol';
import {
  BRIDGE_CLOSE_HANDSHAKE_TIMEOUT,
  BRIDGE_CLOSE_UNAUTHORIZED,
  BRIDGE_FOLD_BUFFERED,
  BRIDGE_MAX_BUFFERED,
  BRIDGE_MAX_IN_FLIGHT,
} from './protocol';

/** HMAC-SHA256(token, the role's proof text) as hex: the same proof the page computes with WebCrypto. */
function proof(token: string, role: BridgeRole, challenge: string, nonce: string): string {
  return createHmac('sha256', token)
    .update(bridgeProofText(role, challenge, nonce))
    .digest('hex');
}

function sameProof(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The page's hello, if `text` is one with the right proof for this socket's challenge; null otherwise. */
function provenHello(text: string, token: string, challenge: string): BridgeHandshakeClientMessage | null {
  let m: Partial<BridgeHandshakeClientMessage> | null;
  try {
    m = JSON.parse(text) as typeof m;
  } catch {
    return null;
  }
  if (typeof m !== 'object' || m === null || m.type !== 'hello') return null;
  const { nonce, proof: given } = m;
  if (typeof nonce !== 'string' || !BRIDGE_NONCE.test(nonce) || typeof given !== 'string' || !BRIDGE_PROOF.test(given))
    return null;
  return sameProof(given, proof(token, 'page', challenge, nonce)) ? { type: 'hello', nonce, proof: given } : null;
}

/** A short, printable rendering of an untrusted value for an error message. */
const shown = (value: unknown): string =>
  typeof value === 'string' ? JSON.stringify(value.slice(0, 64)) : typeof value;

/** `"event":…,"payload":…`: the inside of a push, as JSON.stringify writes it. */
export type PushFields = (event: string, payload: unknown) => string;

/**
 * Every page gets the same pushes: each payload is serialised once, however many pages are connected (a payload is
 * a fresh object per push, so an entry lives exactly as long as the push it belongs to). One per bridge.
 */
export function createPushFields(): PushFields {
  const pushTexts = new WeakMap<object, string>();
  return (event, payload) => {
    if (typeof payload !== 'object' || payload === null)
      return `"event":${JSON.stringify(event)},"payload":${JSON.stringify(payload) ?? 'null'}`;
    let body = pushTexts.get(payload);
    if (body === undefined) {
      body = JSON.stringify(payload);
      pushTexts.set(payload, body);
    }
    return `"event":${JSON.stringify(event)},"payload":${body}`;
  };
}

type Tap = (direction: 'in' | 'out', text: string) => void;
/** Writes one text frame to the page, made by `serialise` only when it can go (undefined: nothing to send). */
type SendText = (serialise: () => string | undefined) => void;

/** The socket's writer: nothing to a closed socket, and a page that stops reading is cut rather than queued for. */
function pageWriter(ws: WebSocket, tap: Tap | undefined): SendText {
  return (serialise) => {
    if (ws.readyState !== ws.OPEN) return;
    // A page that stops reading would make the host queue pushes without end.
    if (ws.bufferedAmount > BRIDGE_MAX_BUFFERED) {
      ws.terminate();
      return;
    }
    let text: string | undefined;
    try {
      text = serialise();
    } catch {
      return;
    }
    if (text === undefined) return;
    tap?.('out', text);
    ws.send(text);
  };
}

interface PagePushes {
  /** Queues a push for the end of this turn (nothing once the socket is no longer open). */
  queue: PushListener;
  /** Sends what waits now (before a result, so a result never overtakes a push made before it). */
  flush(): void;
  /** The page took in an odds frame: what waits folded goes now. */
  ack(): void;
}

/**
 * One frame per turn of the event loop: the pushes one turn makes (a monitor flush's odds batch, the alerts it
 * fired, a status) wait for the turn's end and go as one `pushes` frame, one message for the page to take in, not
 * one per alert (a busy minute fires hundreds a second). A lone push goes as before, `{type:'push',…}`. The same
 * batcher as the desktop's IPC (src/shared/ipc/pushFrames.ts). A payload that cannot be written as JSON is left out,
 * alone: the frame's other pushes still go.
 */
function pagePushes(ws: WebSocket, sendText: SendText, pushFields: PushFields): PagePushes {
  const fieldsOf = (p: { event: string; payload: unknown }): string | null => {
    try {
      return pushFields(p.event, p.payload);
    } catch {
      return null;
    }
  };
  // The odds frames on their way to this page and those it said it has taken in ({type:'ack'}): a page whose main
  // thread is busy would otherwise gather seconds of frames in its task queue (src/shared/ipc/pushFrames.ts).
  const oddsFlow = createOddsFlow();
  const frame = (m: PushMessage): string | undefined => {
    const items = ('pushes' in m ? m.pushes : [m]).map(fieldsOf).filter((f): f is string => f !== null);
    if (items.length === 0) return undefined;
    oddsFlow.sent(m);
    return items.length === 1 ? `{"type":"push",${items[0]}}` : `{"type":"pushes","pushes":[{${items.join('},{')}}]}`;
  };
  const pushes = createPushBatcher(
    (m) => sendText(() => frame(m)),
    (flush) => setImmediate(flush),
    // A page that reads slower than the odds come (a stalled tab, a slow machine) gets the latest prices once it has
    // caught up, not a backlog: the odds wait folded while the socket holds more than BRIDGE_FOLD_BUFFERED, or while
    // the page has not taken in the odds frames already sent.
    {
      congested: () => ws.bufferedAmount > BRIDGE_FOLD_BUFFERED || oddsFlow.held(),
      retry: (flush) => void setTimeout(flush, 50).unref(),
    },
  );
  return {
    queue: (event, payload) => {
      if (ws.readyState === ws.OPEN) pushes.push(event, payload);
    },
    flush: () => pushes.flush(),
    ack: () => {
      oddsFlow.ack();
      pushes.flush();
    },
  };
}

type Send = (message: BridgeServerMessage | BridgeHandshakeServerMessage) => void;
type InvokeFrame = Partial<Extract<BridgeClientMessage, { type: 'invoke' }>>;

/** Answers a proven page's invokes through the contract's handlers, at most BRIDGE_MAX_IN_FLIGHT at once. */
function pageInvoker(handlers: CoreHandlers, send: Send): (m: InvokeFrame) => void {
  let inFlight = 0;
  const refused = (id: number, kind: 'rate_limit' | 'validation', message: string) =>
    send({ type: 'result', id, result: { ok: false, error: { kind, message } } });
  return (m) => {
    const id = m.id;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0)
      return send({ type: 'error', error: { kind: 'validation', message: 'An invoke needs a whole-number id' } });
    if (inFlight >= BRIDGE_MAX_IN_FLIGHT) return refused(id, 'rate_limit', 'Too many requests in flight');
    if (typeof m.channel !== 'string')
      return refused(id, 'validation', `A channel is a string, not ${shown(m.channel)}`);
    inFlight++;
    dispatch(handlers, m.channel, m.args)
      .catch((e: unknown) => ({
        ok: false as const,
        error: { kind: 'internal' as const, message: e instanceof Error ? e.message : 'Request failed' },
      }))
      .then((result) => send({ type: 'result', id, result }))
      .catch(() => undefined)
      .finally(() => inFlight--);
  };
}

export interface SocketSessionOptions {
  token: string;
  handlers: CoreHandlers;
  /** Where a proven page's pushes come from; returns the unsubscribe. */
  subscribe: (listener: PushListener) => () => void;
  /** The bridge's push serialiser, shared by every page. */
  pushFields: PushFields;
  /** How long the page may take to prove the token (ms) before the socket is closed. */
  handshakeTimeout: number;
  tap?: Tap;
  /** The page has proven the token (it stops counting as unproven). */
  onProven(): void;
  /** The socket closed, proven or not. */
  onClose(): void;
}

/**
 * Runs one page's socket: the challenge at once, nothing but the handshake until the page has proven the token (no
 * push, no result), then its invokes and acks, and the pushes, until the socket closes.
 */
export function runSocketSession(ws: WebSocket, options: SocketSessionOptions): void {
  const sendText = pageWriter(ws, options.tap);
  const pushes = pagePushes(ws, sendText, options.pushFields);
  // A result never overtakes a push made before it (a watch's onWatchlist, then the answer to watch:add).
  const send: Send = (message) => {
    pushes.flush();
    sendText(() => JSON.stringify(message));
  };
  const refuse = (message: string) => send({ type: 'error', error: { kind: 'validation', message } });
  const invoke = pageInvoker(options.handlers, send);
  const challenge = randomBytes(32).toString('hex');
  let unsubscribe: (() => void) | null = null;
  const handshakeTimer = setTimeout(
    () => ws.close(BRIDGE_CLOSE_HANDSHAKE_TIMEOUT, 'No proof of the token in time'),
    options.handshakeTimeout,
  );
  send({ type: 'challenge', nonce: challenge });

  const admit = (text: string) => {
    clearTimeout(handshakeTimer);
    const hello = provenHello(text, options.token, challenge);
    if (!hello) {
      ws.close(BRIDGE_CLOSE_UNAUTHORIZED, 'Unauthorized');
      return;
    }
    options.onProven();
    send({ type: 'welcome', proof: proof(options.token, 'host', challenge, hello.nonce) });
    unsubscribe = options.subscribe(pushes.queue);
  };
  const answer = (text: string) => {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return refuse('Not a JSON message');
    }
    const m = message as Partial<BridgeClientMessage> | null;
    if (typeof m === 'object' && m !== null && m.type === 'ack') return pushes.ack();
    if (typeof m !== 'object' || m === null || Array.isArray(m) || m.type !== 'invoke')
      return refuse('Not an invoke message');
    invoke(m);
  };

  ws.on('message', (data, isBinary) => {
    // Frames that were on their way when the host closed the socket (after a wrong hello, say) are not read.
    if (ws.readyState !== ws.OPEN) return;
    if (isBinary) {
      ws.close(1003, 'Text frames only');
      return;
    }
    const text = Array.isArray(data) ? Buffer.concat(data).toString() : Buffer.from(data as ArrayBuffer).toString();
    options.tap?.('in', text);
    if (!unsubscribe) return admit(text);
    answer(text);
  });
  ws.on('close', () => {
    clearTimeout(handshakeTimer);
    options.onClose();
    unsubscribe?.();
  });
}
