// How the core reaches the service on a corporate network. Every request, REST and the live stream alike, must go
// through the fetch its host injects (Electron passes net.fetch, which follows the OS proxy and certificate store;
// browser mode and the CLI pass createProxyFetch(process.env)). The service here lives at a host name that does not
// resolve (`.invalid`), so a request that bypassed the injected fetch or the proxy could not succeed at all.
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core/core';
import { createProxyFetch, isLoopbackHost, proxySettings } from '../../src/core/net/proxyFetch';
import { rawBodyOf } from '../../src/core/net/rawBody';
import { createMemorySecretStore } from '../../src/core/secrets/memory';
import type { Channel, RequestArgs, ResponseMap } from '../../src/shared/ipc/contract';
import { startSimulator, type Simulator } from '../../src/sim';

const UPSTREAM_HOST = 'odds-upstream.invalid';
const KEY = 'proxy-test-enterprise-key';

const cleanup: Array<() => Promise<unknown> | unknown> = [];

/** Reads a response's raw (lean path) body as text until `done` says it has enough, then cancels the body. */
function readRawUntil(res: Response, done: (text: string) => boolean): Promise<string> {
  const body = rawBodyOf(res)!;
  return new Promise<string>((resolve, reject) => {
    let got = '';
    body.start({
      data: (chunk) => {
        got += Buffer.from(chunk).toString('utf8');
        if (!done(got)) return;
        body.cancel();
        resolve(got);
      },
      end: () =>
        reject(new Error(`the body ended before it had what the test waits for; it read: ${JSON.stringify(got)}`)),
      error: reject,
    });
  });
}
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function until<T>(
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function startSim(): Promise<Simulator> {
  const sim = await startSimulator({
    port: 0,
    seed: 11,
    clock: 'real',
    speed: 60,
    keys: [{ key: KEY, plan: 'enterprise' }],
    pingIntervalMs: 1000,
  });
  cleanup.push(() => sim.close());
  return sim;
}

/** A core on the service at `baseUrl`, fetching with `fetch`. */
async function startCore(baseUrl: string, fetch: typeof globalThis.fetch) {
  const core: Core = await createCore({
    host: 'browser',
    version: 'test',
    dataDir: mkdtempSync(path.join(tmpdir(), 'oddsdesk-net-')),
    secrets: createMemorySecretStore(),
    logger: () => undefined,
    notifier: { notify: () => undefined },
    envService: { baseUrl, key: KEY },
    fetch,
  });
  cleanup.push(() => core.close());
  await core.ready;
  const call = async <C extends Channel>(channel: C, ...args: RequestArgs<C>): Promise<ResponseMap[C]> =>
    (core.handlers[channel] as (...a: unknown[]) => ResponseMap[C] | Promise<ResponseMap[C]>)(...args);
  return { core, call };
}

/** Lists fixtures, watches the first and waits until its stream is live and odds reached the store. */
async function watchOneLive(call: Awaited<ReturnType<typeof startCore>>['call']): Promise<number> {
  const fixtures = await call('fixtures:list', {});
  expect(fixtures.length).toBeGreaterThan(0);
  const eventId = fixtures[0]!.event_id;
  await call('watch:add', eventId);
  await until(
    async () => (await call('status:get')).streams.find((s) => s.eventId === eventId && s.state === 'live'),
    'the stream to be live',
  );
  await until(
    async () => (await call('event:detail', eventId).catch(() => null))?.markets.length,
    'streamed odds in the store',
  );
  return eventId;
}

describe('the core fetches only through the fetch its host injects', () => {
  it('uses it for REST requests and for the live stream', async () => {
    const sim = await startSim();
    const seen: string[] = [];
    // The only way to the service: the name resolves nowhere, this fetch alone knows where it lives.
    const injected: typeof fetch = (input, init) => {
      const url = new URL(String(input));
      seen.push(url.pathname);
      expect(url.hostname).toBe(UPSTREAM_HOST);
      url.host = `127.0.0.1:${sim.port}`;
      return fetch(url, init);
    };
    // https, as a real service is (plain http goes to loopback only); the injected fetch alone knows the way.
    const injectedHttp: typeof fetch = (input, init) => {
      const url = new URL(String(input));
      url.protocol = 'http:';
      return injected(url.toString(), init);
    };
    const { call } = await startCore(`https://${UPSTREAM_HOST}:${sim.port}`, injectedHttp);
    await watchOneLive(call);
    expect(seen).toContain('/api/fixtures');
    expect(seen).toContain('/api/stream/event');
  }, 60_000);
});

/**
 * A forward proxy as a corporate network has: CONNECT tunnels (what undici uses, for http and https targets) and
 * absolute-URI requests. It alone resolves the upstream name, and it records what passed through it.
 */
async function startProxy() {
  const connects: string[] = [];
  const requestLines: string[] = [];
  const resolve = (host: string) => (host === UPSTREAM_HOST ? '127.0.0.1' : host);
  const server = http.createServer((req, res) => {
    // Absolute-form request: http://host:port/path
    const target = new URL(req.url ?? '/');
    requestLines.push(`${req.method} ${target.pathname}`);
    const upstream = http.request(
      {
        host: resolve(target.hostname),
        port: target.port || 80,
        path: target.pathname + target.search,
        method: req.method,
        headers: req.headers,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    connects.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    let tunnelled = false;
    const upstream = net.connect(Number(port), resolve(host!), () => {
      tunnelled = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      // Plain HTTP inside the tunnel: the proxy can read each request line, as an inspecting proxy would.
      client.on('data', (chunk: Buffer) => {
        const line = /^([A-Z]+) (\S+) HTTP\/1\.1\r\n/.exec(chunk.toString('latin1'));
        if (line) requestLines.push(`${line[1]} ${new URL(line[2]!, 'http://x').pathname}`);
      });
      client.pipe(upstream);
      upstream.pipe(client);
    });
    const drop = () => {
      // As a real proxy does: a target it cannot reach is a 502, not a silent hang-up.
      if (!tunnelled && client.writable) client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
      else client.destroy();
      upstream.destroy();
    };
    upstream.on('error', drop);
    client.on('error', drop);
    sockets.add(client);
    sockets.add(upstream);
  });
  const sockets = new Set<net.Socket>();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  cleanup.push(
    () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return { url, connects, requestLines };
}

/** A TLS front for the simulator with a throwaway self-signed certificate for the upstream's name. */
async function startTlsFront(simPort: number) {
  const dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      `/CN=${UPSTREAM_HOST}`,
      '-addext',
      `subjectAltName=DNS:${UPSTREAM_HOST}`,
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  const cert = readFileSync(path.join(dir, 'cert.pem'), 'utf8');
  const paths: string[] = [];
  const server = https.createServer({ key: readFileSync(path.join(dir, 'key.pem')), cert }, (req, res) => {
    paths.push(new URL(req.url ?? '/', 'https://x').pathname);
    const upstream = http.request(
      { host: '127.0.0.1', port: simPort, path: req.url, method: req.method, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanup.push(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return { port: (server.address() as net.AddressInfo).port, cert, paths };
}

describe('browser mode and the CLI behind a proxy (HTTPS_PROXY / HTTP_PROXY / NO_PROXY)', () => {
  it('sends REST requests and the live stream through the proxy the environment names', async () => {
    const sim = await startSim();
    const proxy = await startProxy();
    // The service speaks TLS, as a real one does: a terminator with a certificate for the upstream's name in front
    // of the simulator. The proxy sees only the CONNECT; the terminator sees what came through the tunnel.
    const front = await startTlsFront(sim.port);
    const { call } = await startCore(
      `https://${UPSTREAM_HOST}:${front.port}`,
      createProxyFetch({ HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url }, { ca: front.cert }),
    );
    await watchOneLive(call);
    expect(proxy.connects).toContain(`${UPSTREAM_HOST}:${front.port}`);
    expect(front.paths).toContain('/api/fixtures');
    expect(front.paths).toContain('/api/stream/event');
  }, 60_000);

  it('goes direct for NO_PROXY hosts and for loopback (the demo simulator), so the proxy sees none of it', async () => {
    const sim = await startSim();
    const proxy = await startProxy();
    const proxied = createProxyFetch({ http_proxy: proxy.url, NO_PROXY: `${UPSTREAM_HOST},.example.invalid` });
    const demo = await proxied(`http://127.0.0.1:${sim.port}/api/status`);
    expect(demo.status).toBe(200);
    // Direct to a name that resolves nowhere: it fails, and not via the proxy.
    await expect(proxied(`http://${UPSTREAM_HOST}:${sim.port}/api/status`)).rejects.toThrow();
    await expect(proxied(`http://feed.example.invalid:${sim.port}/api/status`)).rejects.toThrow();
    expect(proxy.connects).toEqual([]);
    expect(proxy.requestLines).toEqual([]);
    // A host that is not excluded does go through it.
    expect(
      (await proxied(`http://other.invalid:${sim.port}/api/status`).catch(() => null))?.status ?? 'no answer',
    ).not.toBe(200);
    expect(proxy.connects).toEqual([`other.invalid:${sim.port}`]);
  }, 30_000);

  it("hands an event stream's body over as the socket's chunks (no web stream), and a refusal's as text, as fetch would", async () => {
    const sim = await startSim();
    const fetchLean = createProxyFetch({});
    const sse = { Accept: 'text/event-stream' };
    const id = sim.truth.bookIds().find((e) => sim.truth.event(e)?.markets.some((m) => m.prices))!;
    const res = await fetchLean(`${sim.url}/api/stream/event?event_id=${id}`, {
      headers: { ...sse, 'x-api-key': KEY },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.body).toBeNull();
    const text = await readRawUntil(res, (got) => got.includes('event: snapshot'));
    expect(text).toMatch(/event: snapshot\ndata: \{/);
    // A refusal keeps fetch's web body, so the governor reads its text as before.
    const refused = await fetchLean(`${sim.url}/api/stream/event?event_id=${id}`, {
      headers: { ...sse, 'x-api-key': 'not-a-key-of-the-sim' },
    });
    expect(refused.status).toBe(401);
    expect(await refused.text()).not.toBe('');
    // A connection refused rejects as fetch does: a TypeError whose cause has the code.
    const closed = await fetchLean('http://127.0.0.1:1/api/stream/event?event_id=1', { headers: sse }).catch(
      (e: unknown) => e,
    );
    expect(closed).toBeInstanceOf(TypeError);
    expect((closed as TypeError & { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
  }, 30_000);

  it('decompresses an event stream a service sends compressed though nobody asked (as fetch would), message by message', async () => {
    const { createGzip, constants } = await import('node:zlib');
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Content-Encoding': 'gzip' });
      const gz = createGzip();
      gz.pipe(res);
      gz.write('id: 1\nevent: snapshot\ndata: {"a":1}\n\n');
      gz.flush(constants.Z_SYNC_FLUSH); // the first message arrives whole while the stream stays open
      res.on('close', () => gz.destroy());
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanup.push(() => {
      server.closeAllConnections();
      server.close();
    });
    const res = await createProxyFetch({})(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}/s`, {
      headers: { Accept: 'text/event-stream' },
    });
    expect(res.headers.get('content-encoding')).toBeNull();
    const text = await readRawUntil(res, (got) => got.endsWith('\n\n'));
    expect(text).toBe('id: 1\nevent: snapshot\ndata: {"a":1}\n\n');
  });

  it('reads the settings as curl does and leaves Node fetch alone without them', () => {
    expect(proxySettings({ HTTP_PROXY: 'http://a:1', https_proxy: 'http://b:2', NO_PROXY: 'x' })).toEqual({
      httpProxy: 'http://a:1',
      httpsProxy: 'http://b:2',
      noProxy: 'x',
    });
    expect(proxySettings({ http_proxy: 'http://a:1' })).toEqual({
      httpProxy: 'http://a:1',
      httpsProxy: 'http://a:1',
      noProxy: '',
    });
    expect(proxySettings({ HTTPS_PROXY: ' ' })).toEqual({ httpProxy: null, httpsProxy: null, noProxy: '' });
    for (const h of ['localhost', '127.0.0.1', '127.8.9.10', '[::1]', 'app.localhost'])
      expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['128.0.0.1', 'localhost.example', '10.0.0.1', 'example.com'])
      expect(isLoopbackHost(h), h).toBe(false);
  });
});
