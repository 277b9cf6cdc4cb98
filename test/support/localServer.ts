// A throwaway HTTP server on 127.0.0.1 for tests that play a scripted upstream: it listens on a free port and, on
// close, destroys the sockets still open (an SSE stream would otherwise keep server.close waiting for ever).
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface LocalServer {
  url: string;
  close(): Promise<void>;
}

export async function listenLocal(handler: http.RequestListener): Promise<LocalServer> {
  const sockets = new Set<Socket>();
  const server = http.createServer(handler);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** How much an endless body wrote, and whether the client dropped it. */
export interface EndlessBody {
  written: number;
  closed: boolean;
}

/**
 * Writes `head`, then `piece` over and over (about 64 KiB at a time, as fast as the socket drains) until the client
 * drops the connection: a hostile upstream that never ends its body. Counts into `out`, which it returns.
 */
export function writeEndless<T extends EndlessBody>(res: http.ServerResponse, head: string, piece: string, out: T): T {
  const chunk = piece.repeat(Math.ceil((64 * 1024) / piece.length));
  res.on('close', () => (out.closed = true));
  res.write(head);
  const pump = () => {
    while (!out.closed) {
      out.written += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
  };
  pump();
  return out;
}
