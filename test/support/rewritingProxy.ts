// A different upstream in front of the simulator: forwards every request (streams included) unchanged, except the
// paths a test rewrites, so the app meets answers our simulator would never give (other period descriptions); with
// `streamData`, every `data:` line of the event streams passes through the test's hands too (a handicap that moves
// under its line id, which the simulator never does).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable, Transform } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

export interface RewritingProxy {
  url: string;
  /** Requests answered by a rewrite, by path. */
  rewritten: Map<string, number>;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'content-length', 'content-encoding', 'transfer-encoding', 'keep-alive']);

/** Rewrites each `data:` line of a server-sent event stream (its JSON) as it passes, line by line. */
function sseData(rewrite: (data: unknown) => unknown): Transform {
  let rest = '';
  const line = (l: string) => (l.startsWith('data: ') ? `data: ${JSON.stringify(rewrite(JSON.parse(l.slice(6))))}` : l);
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop()!;
      done(null, lines.map((l) => `${line(l)}\n`).join(''));
    },
    flush(done) {
      done(null, rest ? line(rest) : '');
    },
  });
}

/**
 * A rewrite answers its path with the JSON it returns; it may read the request's URL (its query). `streamData`
 * rewrites the JSON of every message of the event streams (/api/stream/event) on its way to the app.
 */
export async function startRewritingProxy(
  upstream: string,
  rewrites: Record<string, (url: URL) => unknown>,
  o: { streamData?: (data: unknown) => unknown } = {},
): Promise<RewritingProxy> {
  const rewritten = new Map<string, number>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', upstream);
    const rewrite = rewrites[url.pathname];
    if (rewrite) {
      rewritten.set(url.pathname, (rewritten.get(url.pathname) ?? 0) + 1);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(rewrite(url)));
      return;
    }
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host') headers[k] = v;
    fetch(url, { headers, signal: abort.signal })
      .then((up) => {
        const out: Record<string, string> = {};
        up.headers.forEach((v, k) => {
          if (!HOP_BY_HOP.has(k)) out[k] = v;
        });
        res.writeHead(up.status, out);
        if (!up.body) return void res.end();
        const body = Readable.fromWeb(up.body as WebReadableStream).on('error', () => res.destroy());
        if (o.streamData && url.pathname === '/api/stream/event') body.pipe(sseData(o.streamData)).pipe(res);
        else body.pipe(res);
      })
      .catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    rewritten,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
