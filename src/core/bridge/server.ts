// The browser-mode host transport: serves the built renderer and carries the IPC contract over a WebSocket, so
// the same renderer that runs in Electron runs in a browser. It listens on 127.0.0.1 only; a WebSocket must present
// the per-launch token and come from the page's own origin, because any web page the user visits could otherwise
// reach a localhost port.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import type { CoreHandlers, PushListener } from '../../shared/ipc/contract';
import { dispatch } from '../../shared/ipc/contract';
import type { BridgeClientMessage, BridgeServerMessage } from './protocol';
import { BRIDGE_PATH } from './protocol';

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
}

export interface BridgeServer {
  url: string;
  /** The URL to open: carries the token in the fragment, so it never travels in an HTTP request line. */
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
  "connect-src 'self' ws://127.0.0.1:* ws://localhost:*; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export async function startBridge(options: BridgeOptions): Promise<BridgeServer> {
  const token = options.token ?? randomBytes(24).toString('hex');
  const root = path.resolve(options.staticDir);
  let port = 0;
  const allowedHosts = () => [`127.0.0.1:${port}`, `localhost:${port}`];
  const allowedOrigins = () => allowedHosts().map((h) => `http://${h}`);

  const server = http.createServer(async (req, res) => {
    // A foreign Host header means DNS rebinding: a remote name pointed at 127.0.0.1.
    if (!allowedHosts().includes(req.headers.host ?? '')) {
      res.writeHead(421).end('Misdirected request');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    const urlPath = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const rel = urlPath === '/' ? 'index.html' : urlPath.slice(1);
    const file = path.resolve(root, rel);
    if (!file.startsWith(root + path.sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const stat = await fs.stat(file);
      if (!stat.isFile()) throw new Error('not a file');
      res.writeHead(200, {
        'Content-Type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
        'Content-Length': stat.size,
        'Content-Security-Policy': PAGE_CSP,
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
        'Cache-Control': 'no-store',
      });
      if (req.method === 'HEAD') res.end();
      else createReadStream(file).pipe(res);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
    }
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: 1 << 20 });

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const presented = url.searchParams.get('token') ?? '';
    const reject = (status: number, text: string) => {
      socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    if (url.pathname !== BRIDGE_PATH) return reject(404, 'Not Found');
    if (!allowedHosts().includes(req.headers.host ?? '')) return reject(421, 'Misdirected Request');
    if (!allowedOrigins().includes(req.headers.origin ?? '')) return reject(403, 'Forbidden');
    if (!sameToken(presented, token)) return reject(401, 'Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  wss.on('connection', (ws: WebSocket) => {
    const send = (message: BridgeServerMessage) => {
      if (ws.readyState !== ws.OPEN) return;
      const text = JSON.stringify(message);
      options.tap?.('out', text);
      ws.send(text);
    };
    const unsubscribe = options.subscribe((event, payload) => send({ type: 'push', event, payload }));
    ws.on('message', async (data) => {
      const text = data.toString();
      options.tap?.('in', text);
      let message: BridgeClientMessage;
      try {
        message = JSON.parse(text) as BridgeClientMessage;
      } catch {
        return; // Not ours: a page with the token never sends broken JSON.
      }
      if (message?.type !== 'invoke' || typeof message.id !== 'number') return;
      const result = await dispatch(options.handlers, message.channel, message.args);
      send({ type: 'result', id: message.id, result });
    });
    ws.on('close', unsubscribe);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/`;
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
