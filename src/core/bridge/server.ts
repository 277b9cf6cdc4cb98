// The browser-mode host transport: serves the built renderer and carries the IPC contract over a WebSocket, so
// the same renderer that runs in Electron runs in a browser. It listens on 127.0.0.1 only, and answers only to that
// one origin: `localhost` may resolve to [::1], where another account of the computer can listen on the same port,
// so a page at http://localhost:P is not taken for ours (nor is its Host). A WebSocket must come from the page's own
// origin, because any web page the user visits could otherwise reach a localhost port, and must prove it holds the
// per-launch token before anything crosses it; the host proves it holds the token too, so a page never trusts
// whatever binds the port after this host has gone (the handshake: src/shared/ipc/bridgeSession.ts). Sockets that
// have not proven the token have a small cap of their own and give way first, so they cannot crowd the page out.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { CoreHandlers, PushListener } from '../../shared/ipc/contract';
import { dispatch } from '../../shared/ipc/contract';
import { BRIDGE_NONCE, BRIDGE_PROOF, bridgeProofText, type BridgeRole } from '../../shared/ipc/bridgeSession';
import { createOddsFlow, createPushBatcher } from '../../shared/ipc/pushFrames';
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
  BRIDGE_MAX_PAYLOAD,
  BRIDGE_PATH,
} from './protocol';

export interface BridgeOptions {
  handlers: CoreHandlers;
  subscribe: (listener: PushListener) => () => void;
  /** Folder with the built renderer (index.html and assets). */
  staticDir: string;
  port?: number;
  /** Fixed token for tests; otherwise random per launch. */
  token?: string;
  /** Sees every message that crosses the bridge, both ways (for audits such as the key-leak test). */
  tap?: (direction: 'in' | 'out', text: string) => void;
  /** How long a client may take to send a request's headers (ms); a slow or silent one is cut. Default 10 s. */
  headersTimeout?: number;
  /** How long a client may take to send a whole request (ms). Default 30 s. */
  requestTimeout?: number;
  /** How long an idle keep-alive socket is kept between requests (ms). Default 5 s. */
  keepAliveTimeout?: number;
  /** Open sockets at most. Default 256. See `limitConnections`. */
  maxConnections?: number;
  /** How long a new WebSocket may take to prove it holds the token (ms) before it is closed. Default 10 s. */
  handshakeTimeout?: number;
  /** WebSockets that have not proven the token yet, at most; a new one takes the place of the oldest. Default 16. */
  maxUnproven?: number;
}

export const BRIDGE_HEADERS_TIMEOUT = 10_000;
export const BRIDGE_REQUEST_TIMEOUT = 30_000;
export const BRIDGE_KEEP_ALIVE_TIMEOUT = 5_000;
export const BRIDGE_MAX_CONNECTIONS = 256;
export const BRIDGE_HANDSHAKE_TIMEOUT = 10_000;
/** A page proves the token within a round trip; a few at once are a reload or a second tab, more are a flood. */
export const BRIDGE_MAX_UNPROVEN = 16;
/** The one address the host listens on, prints and answers to. */
const LOOPBACK = '127.0.0.1';

/**
 * At most `max` open sockets, without letting idle or unproven ones lock the door: a socket is busy while a request
 * on it is being answered, or once it is a WebSocket; otherwise it is idle (connected and silent, half-way through
 * its headers, or kept alive between requests). A WebSocket is unproven until it has proven the token. A new socket
 * over the cap takes the place of the oldest idle one, else of the oldest unproven WebSocket; only when every socket
 * is busy with a request or a proven page is the new one refused. Idle sockets are cut anyway by the headers and
 * keep-alive timeouts, unproven ones by the handshake timeout.
 */
function limitConnections(
  server: http.Server,
  max: number,
): { busy(socket: Socket): () => void; unproven(socket: Socket): () => void } {
  const sockets = new Map<Socket, { busy: number; unproven: boolean }>(); // in the order they connected
  server.on('connection', (socket: Socket) => {
    if (sockets.size >= max) {
      const entries = [...sockets];
      const giveWay = (entries.find(([, state]) => state.busy === 0) ??
        entries.find(([, state]) => state.unproven))?.[0];
      if (!giveWay) {
        socket.destroy();
        return;
      }
      sockets.delete(giveWay);
      giveWay.destroy();
    }
    sockets.set(socket, { busy: 0, unproven: false });
    socket.once('close', () => sockets.delete(socket));
  });
  return {
    unproven(socket) {
      const state = sockets.get(socket);
      if (state) state.unproven = true;
      return () => {
        if (state) state.unproven = false;
      };
    },
    busy(socket) {
      const state = sockets.get(socket);
      if (!state) return () => undefined;
      state.busy++;
      let done = false;
      return () => {
        if (!done) state.busy--;
        done = true;
      };
    },
  };
}

export interface BridgeServer {
  url: string;
  /** The URL to open: carries the token in the fragment, so it never travels in an HTTP request line (nor does the
   * page send it anywhere: it proves it holds it). */
  openUrl: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self' ws://127.0.0.1:*; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

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

/** The request target's path, percent-decoded; null when it is not a path we could ever serve. */
function decodedPath(target: string | undefined): string | null {
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(target ?? '/', 'http://x').pathname);
  } catch {
    return null; // malformed percent-encoding (`/%E0%A4%A`) or an unparsable target
  }
  // NUL and other control characters name no file of ours; fs would throw on some of them.
  return /\p{Cc}/u.test(pathname) ? null : pathname;
}

/**
 * Browsers say where a request comes from. Only our own page (same-origin) and the trader opening the printed URL
 * (none) may load anything; an <img> or <script> on another site (cross-site, or same-site from another localhost
 * port) is refused before the path is even looked at. Non-browser clients send no such header.
 */
function fromOurPage(site: string | string[] | undefined): boolean {
  return site === undefined || site === 'same-origin' || site === 'none';
}

const reply = (res: http.ServerResponse, status: number, text = '') => {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end(text);
};

/** A short, printable rendering of an untrusted value for an error message. */
const shown = (value: unknown): string =>
  typeof value === 'string' ? JSON.stringify(value.slice(0, 64)) : typeof value;

export async function startBridge(options: BridgeOptions): Promise<BridgeServer> {
  const token = options.token ?? randomBytes(24).toString('hex');
  const root = path.resolve(options.staticDir);
  let port = 0;
  // One origin: the address it listens on (see the top of this file for why not `localhost` too).
  const allowedHosts = () => [`${LOOPBACK}:${port}`];
  const allowedOrigins = () => allowedHosts().map((h) => `http://${h}`);

  async function serveStatic(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    // A foreign Host header means DNS rebinding: a remote name pointed at 127.0.0.1.
    if (!allowedHosts().includes(req.headers.host ?? '')) return reply(res, 421, 'Misdirected request');
    if (!fromOurPage(req.headers['sec-fetch-site'])) return reply(res, 403, 'Forbidden');
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(res, 405);
    const urlPath = decodedPath(req.url);
    if (urlPath === null) return reply(res, 400, 'Bad request');
    const rel = urlPath === '/' ? 'index.html' : urlPath.slice(1);
    const file = path.resolve(root, rel);
    if (!file.startsWith(root + path.sep)) return reply(res, 403);
    let size: number;
    try {
      const stat = await fs.stat(file);
      if (!stat.isFile()) throw new Error('not a file');
      size = stat.size;
    } catch {
      return reply(res, 404, 'Not found');
    }
    res.writeHead(200, {
      'Content-Type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
      'Content-Length': size,
      'Content-Security-Policy': PAGE_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const stream = createReadStream(file);
    // A file removed or unreadable mid-way: cut the response short rather than leave it hanging.
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  }

  const headersTimeout = options.headersTimeout ?? BRIDGE_HEADERS_TIMEOUT;
  const server = http.createServer(
    {
      headersTimeout,
      requestTimeout: Math.max(options.requestTimeout ?? BRIDGE_REQUEST_TIMEOUT, headersTimeout),
      keepAliveTimeout: options.keepAliveTimeout ?? BRIDGE_KEEP_ALIVE_TIMEOUT,
      // How often Node looks for sockets past those timeouts (its default, 30 s, would let them overstay).
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
    },
    (req, res) => {
      const done = connections.busy(req.socket);
      res.once('close', done);
      // The peer may reset at any time; an unhandled 'error' event would take the host down.
      req.on('error', () => res.destroy());
      res.on('error', () => undefined);
      serveStatic(req, res).catch(() => reply(res, 500));
    },
  );
  const connections = limitConnections(server, options.maxConnections ?? BRIDGE_MAX_CONNECTIONS);
  // Bytes that are not HTTP, oversized headers, a peer that vanished: answer 400 if the socket still can, never throw.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (socket.writable && err.code !== 'ECONNRESET') {
      const status =
        err.code === 'HPE_HEADER_OVERFLOW'
          ? '431 Request Header Fields Too Large'
          : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? '408 Request Timeout'
            : '400 Bad Request';
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    } else {
      socket.destroy();
    }
  });

  const handshakeTimeout = options.handshakeTimeout ?? BRIDGE_HANDSHAKE_TIMEOUT;
  const wss = new WebSocketServer({ noServer: true, maxPayload: BRIDGE_MAX_PAYLOAD });
  wss.on('error', () => undefined);
  // WebSockets that have not proven the token, oldest first: a forged-Origin flood (any local process can send an
  // Origin header) holds at most this many places, and the page's socket takes the place of the oldest.
  const maxUnproven = Math.max(1, options.maxUnproven ?? BRIDGE_MAX_UNPROVEN);
  const unprovenSockets = new Set<WebSocket>();

  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    // Busy until it closes: a handshake in progress, then the page's WebSocket.
    connections.busy(req.socket);
    const reject = (status: number, text: string) => {
      if (socket.writable) socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      else socket.destroy();
    };
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://x');
    } catch {
      return reject(400, 'Bad Request');
    }
    if (url.pathname !== BRIDGE_PATH) return reject(404, 'Not Found');
    if (!allowedHosts().includes(req.headers.host ?? '')) return reject(421, 'Misdirected Request');
    if (!allowedOrigins().includes(req.headers.origin ?? '')) return reject(403, 'Forbidden');
    // The token is proven inside the socket (see 'connection'), never sent: a page must not hand it to whatever
    // answers at this address. ws answers a broken handshake (bad key, version) with 400 by itself.
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  // Every page gets the same pushes: each payload is serialised once, however many pages are connected (a payload is
  // a fresh object per push, so an entry lives exactly as long as the push it belongs to).
  const pushTexts = new WeakMap<object, string>();
  /** `"event":…,"payload":…`: the inside of a push, as JSON.stringify writes it, with the payload's part made once. */
  const pushFields = (event: string, payload: unknown): string => {
    if (typeof payload !== 'object' || payload === null)
      return `"event":${JSON.stringify(event)},"payload":${JSON.stringify(payload) ?? 'null'}`;
    let body = pushTexts.get(payload);
    if (body === undefined) {
      body = JSON.stringify(payload);
      pushTexts.set(payload, body);
    }
    return `"event":${JSON.stringify(event)},"payload":${body}`;
  };

  wss.on('connection', (ws: WebSocket, req: http.IncomingMessage) => {
    // ws reports an oversized frame, invalid UTF-8 or a protocol violation as an 'error' and closes the socket with
    // 1009/1007/1002 itself; without this listener the error would be thrown and end the host process.
    ws.on('error', () => undefined);
    if (unprovenSockets.size >= maxUnproven) {
      const oldest = unprovenSockets.values().next().value;
      if (oldest) {
        unprovenSockets.delete(oldest);
        oldest.terminate();
      }
    }
    unprovenSockets.add(ws);
    const proven = connections.unproven(req.socket);
    let inFlight = 0;
    const sendText = (serialise: () => string | undefined) => {
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
      options.tap?.('out', text);
      ws.send(text);
    };
    // One frame per turn of the event loop: the pushes one turn makes (a monitor flush's odds batch, the alerts it
    // fired, a status) wait for the turn's end and go as one `pushes` frame, one message for the page to take in, not
    // one per alert (a busy minute fires hundreds a second). A lone push goes as before, `{type:'push',…}`. The same
    // batcher as the desktop's IPC (src/shared/ipc/pushFrames.ts).
    // A payload that cannot be written as JSON is left out, alone: the frame's other pushes still go.
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
    const pushes = createPushBatcher(
      (m) =>
        sendText(() => {
          const items = ('pushes' in m ? m.pushes : [m]).map(fieldsOf).filter((f): f is string => f !== null);
          if (items.length === 0) return undefined;
          oddsFlow.sent(m);
          return items.length === 1
            ? `{"type":"push",${items[0]}}`
            : `{"type":"pushes","pushes":[{${items.join('},{')}}]}`;
        }),
      (flush) => setImmediate(flush),
      // A page that reads slower than the odds come (a stalled tab, a slow machine) gets the latest prices once it has
      // caught up, not a backlog: the odds wait folded while the socket holds more than BRIDGE_FOLD_BUFFERED, or while
      // the page has not taken in the odds frames already sent.
      {
        congested: () => ws.bufferedAmount > BRIDGE_FOLD_BUFFERED || oddsFlow.held(),
        retry: (flush) => void setTimeout(flush, 50).unref(),
      },
    );
    const queuePush = (event: string, payload: unknown) => {
      if (ws.readyState === ws.OPEN) pushes.push(event, payload);
    };
    // A result never overtakes a push made before it (a watch's onWatchlist, then the answer to watch:add).
    const send = (message: BridgeServerMessage | BridgeHandshakeServerMessage) => {
      pushes.flush();
      sendText(() => JSON.stringify(message));
    };
    const refuse = (message: string) => send({ type: 'error', error: { kind: 'validation', message } });
    // Nothing but the handshake until the page has proven it holds the token: no push, no result.
    const challenge = randomBytes(32).toString('hex');
    let unsubscribe: (() => void) | null = null;
    const handshakeTimer = setTimeout(
      () => ws.close(BRIDGE_CLOSE_HANDSHAKE_TIMEOUT, 'No proof of the token in time'),
      handshakeTimeout,
    );
    send({ type: 'challenge', nonce: challenge });
    const admit = (text: string) => {
      clearTimeout(handshakeTimer);
      const hello = provenHello(text, token, challenge);
      if (!hello) {
        ws.close(BRIDGE_CLOSE_UNAUTHORIZED, 'Unauthorized');
        return;
      }
      unprovenSockets.delete(ws);
      proven();
      send({ type: 'welcome', proof: proof(token, 'host', challenge, hello.nonce) });
      unsubscribe = options.subscribe(queuePush);
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
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        return refuse('Not a JSON message');
      }
      const m = message as Partial<BridgeClientMessage> | null;
      if (typeof m === 'object' && m !== null && m.type === 'ack') {
        // The page took in an odds frame: what waits folded goes now.
        oddsFlow.ack();
        pushes.flush();
        return;
      }
      if (typeof m !== 'object' || m === null || Array.isArray(m) || m.type !== 'invoke')
        return refuse('Not an invoke message');
      const id = m.id;
      if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0)
        return refuse('An invoke needs a whole-number id');
      if (inFlight >= BRIDGE_MAX_IN_FLIGHT) {
        send({
          type: 'result',
          id,
          result: { ok: false, error: { kind: 'rate_limit', message: 'Too many requests in flight' } },
        });
        return;
      }
      if (typeof m.channel !== 'string') {
        send({
          type: 'result',
          id,
          result: {
            ok: false,
            error: { kind: 'validation', message: `A channel is a string, not ${shown(m.channel)}` },
          },
        });
        return;
      }
      inFlight++;
      dispatch(options.handlers, m.channel, m.args)
        .catch((e: unknown) => ({
          ok: false as const,
          error: { kind: 'internal' as const, message: e instanceof Error ? e.message : 'Request failed' },
        }))
        .then((result) => send({ type: 'result', id, result }))
        .catch(() => undefined)
        .finally(() => inFlight--);
    });
    ws.on('close', () => {
      clearTimeout(handshakeTimer);
      unprovenSockets.delete(ws);
      unsubscribe?.();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, LOOPBACK, () => resolve());
  });
  // After listening, a failed accept (too many open files) must not end the host either.
  server.on('error', () => undefined);
  port = (server.address() as AddressInfo).port;
  const url = `http://${LOOPBACK}:${port}/`;
  return {
    url,
    openUrl: `${url}#token=${token}`,
    port,
    token,
    async close() {
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
