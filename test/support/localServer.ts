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
