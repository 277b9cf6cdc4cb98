// The browser-mode host transport: serves the built renderer and carries the IPC contract over a WebSocket, so
// the same renderer that runs in Electron runs in a browser. It listens on 127.0.0.1 only, and answers only to that
// one origin: `localhost` may resolve to [::1], where another account of the computer can listen on the same port,
// so a page at http://localhost:P is not taken for ours (nor is its Host). A WebSocket must come from the page's own
// origin, because any web page the user visits could otherwise reach a localhost port, and must prove it holds the
// per-launch token before anything crosses it; the host proves it holds the token too, so a page never trusts
// whatever binds the port after this host has gone (the handshake: src/shared/ipc/bridgeSession.ts). Sockets that
// have not proven the token have a small cap of their own and give way first, so they cannot crowd the page out.
//
// The parts: this file's HTTP server (limits, timeouts, the upgrade's checks), ./staticFiles.ts (the built renderer)
// and ./socketSession.ts (one page's socket: the handshake, its invokes and pushes).
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { CoreHandlers, PushListener } from '../../shared/ipc/contract';
import { BRIDGE_MAX_PAYLOAD, BRIDGE_PATH } from './protocol';
import { createPushFields, runSocketSession } from './socketSession';
import { reply, serveStatic, type StaticSite } from './staticFiles';

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

type Connections = ReturnType<typeof limitConnections>;

/** Bytes that are not HTTP, oversized headers, a peer that vanished: answer 400 if the socket still can, never throw. */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
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
}

/** The HTTP server of the static files, with its timeouts and its cap on open sockets. */
function createHttpServer(options: BridgeOptions, site: StaticSite): { server: http.Server; connections: Connections } {
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
      serveStatic(site, req, res).catch(() => reply(res, 500));
    },
  );
  const connections = limitConnections(server, options.maxConnections ?? BRIDGE_MAX_CONNECTIONS);
  server.on('clientError', answerClientError);
  return { server, connections };
}

/**
 * WebSockets that have not proven the token, oldest first: a forged-Origin flood (any local process can send an
 * Origin header) holds at most `max` places, and the page's socket takes the place of the oldest.
 */
function unprovenPlaces(max: number): { take(ws: WebSocket): void; leave(ws: WebSocket): void } {
  const sockets = new Set<WebSocket>();
  return {
    take(ws) {
      if (sockets.size >= max) {
        const oldest = sockets.values().next().value;
        if (oldest) {
          sockets.delete(oldest);
          oldest.terminate();
        }
      }
      sockets.add(ws);
    },
    leave: (ws) => void sockets.delete(ws),
  };
}

/**
 * Lets a WebSocket upgrade through only on the bridge's path, from our own page at our own address; ws answers a
 * broken handshake (bad key, version) with 400 by itself. The token is proven inside the socket, never sent: a page
 * must not hand it to whatever answers at this address.
 */
function acceptUpgrades(server: http.Server, wss: WebSocketServer, connections: Connections, host: () => string) {
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
    if ((req.headers.host ?? '') !== host()) return reject(421, 'Misdirected Request');
    if ((req.headers.origin ?? '') !== `http://${host()}`) return reject(403, 'Forbidden');
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
}

export async function startBridge(options: BridgeOptions): Promise<BridgeServer> {
  const token = options.token ?? randomBytes(24).toString('hex');
  let port = 0;
  // One origin: the address it listens on (see the top of this file for why not `localhost` too).
  const host = () => `${LOOPBACK}:${port}`;
  const { server, connections } = createHttpServer(options, { root: path.resolve(options.staticDir), host });

  const wss = new WebSocketServer({ noServer: true, maxPayload: BRIDGE_MAX_PAYLOAD });
  wss.on('error', () => undefined);
  acceptUpgrades(server, wss, connections, host);
  const unproven = unprovenPlaces(Math.max(1, options.maxUnproven ?? BRIDGE_MAX_UNPROVEN));
  const pushFields = createPushFields();
  wss.on('connection', (ws: WebSocket, req: http.IncomingMessage) => {
    // ws reports an oversized frame, invalid UTF-8 or a protocol violation as an 'error' and closes the socket with
    // 1009/1007/1002 itself; without this listener the error would be thrown and end the host process.
    ws.on('error', () => undefined);
    unproven.take(ws);
    const proven = connections.unproven(req.socket);
    runSocketSession(ws, {
      token,
      handlers: options.handlers,
      subscribe: options.subscribe,
      pushFields,
      handshakeTimeout: options.handshakeTimeout ?? BRIDGE_HANDSHAKE_TIMEOUT,
      ...(options.tap ? { tap: options.tap } : {}),
      onProven: () => {
        unproven.leave(ws);
        proven();
      },
      onClose: () => unproven.leave(ws),
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
