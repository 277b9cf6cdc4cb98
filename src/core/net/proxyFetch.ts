// The fetch for Node hosts (browser mode, the CLI) that honours the proxy environment a corporate desk sets:
// HTTPS_PROXY / HTTP_PROXY / NO_PROXY (either letter case), through undici's EnvHttpProxyAgent. Node's own fetch
// ignores them, so behind a proxy the app could not connect where curl and the browser could. The Electron host does
// not use this: it passes Electron's net.fetch, which follows the OS proxy settings and certificate store.
// Loopback targets never go through a proxy: the demo simulator runs in-process on 127.0.0.1, and a corporate proxy
// cannot reach the trader's own machine.
import { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { EnvHttpProxyAgent, fetch as undiciFetch, request as undiciRequest, type Dispatcher } from 'undici';
import { attachRawBody, rawBodyFromReadable } from './rawBody';

export type ProxyEnv = Record<string, string | undefined>;

export interface ProxySettings {
  httpProxy: string | null;
  httpsProxy: string | null;
  noProxy: string;
}

const pick = (env: ProxyEnv, name: string): string | null => {
  const v = env[name.toLowerCase()] ?? env[name.toUpperCase()];
  return v && v.trim() ? v.trim() : null;
};

/** The proxy settings the environment asks for; lower case wins, as in curl. */
export function proxySettings(env: ProxyEnv): ProxySettings {
  const httpProxy = pick(env, 'http_proxy');
  return { httpProxy, httpsProxy: pick(env, 'https_proxy') ?? httpProxy, noProxy: pick(env, 'no_proxy') ?? '' };
}

/** localhost, 127.0.0.0/8 and ::1: never proxied. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** A proxy URL without its credentials, for a log line. */
export function describeProxy(uri: string): string {
  try {
    const u = new URL(uri);
    return `${u.protocol}//${u.host}`;
  } catch {
    return '(unparseable proxy URL)';
  }
}

function urlOf(input: Parameters<typeof fetch>[0]): URL | null {
  try {
    return new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  } catch {
    return null;
  }
}

/** A request for a server-sent event stream: its body is read through the lean path (see eventStreamFetch). */
function wantsEventStream(init: RequestInit | undefined): boolean {
  const accept = new Headers(init?.headers).get('accept');
  return accept !== null && accept.includes('text/event-stream');
}

/**
 * One GET of a server-sent event stream through undici's request API, answered as a Response whose 2xx body comes as
 * a raw body (./rawBody.ts: the socket's chunks as 'data' events, no WHATWG stream under them). Redirects are not
 * followed (the API client follows them itself, within the service's origin); an answer that is not 2xx keeps a web
 * body, so a refusal is read exactly as fetch's. Network faults reject as fetch's do: a TypeError whose cause has
 * the code (ECONNREFUSED); a cancel rejects with the signal's reason.
 */
async function eventStreamFetch(
  input: Parameters<typeof fetch>[0],
  init: RequestInit | undefined,
  dispatcher: Dispatcher | undefined,
): Promise<Response> {
  const url = urlOf(input);
  if (!url) throw new TypeError('fetch failed', { cause: new Error('not a URL') });
  const signal = init?.signal ?? undefined;
  if (signal?.aborted) throw signal.reason;
  const headers: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
  let answer: Dispatcher.ResponseData;
  try {
    answer = await undiciRequest(url, {
      method: 'GET',
      headers,
      ...(signal ? { signal } : {}),
      ...(dispatcher ? { dispatcher } : {}),
    });
  } catch (e) {
    if (signal?.aborted) throw signal.reason;
    throw new TypeError('fetch failed', { cause: e });
  }
  const h = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      try {
        h.append(name, v);
      } catch {
        // A value fetch would refuse (a stray control character): left out, as fetch cannot carry it.
      }
    }
  }
  const status = answer.statusCode;
  const nullBody = status === 204 || status === 205 || status === 304;
  if (status < 200 || status > 599) {
    answer.body.destroy();
    throw new TypeError('fetch failed', { cause: new Error(`status ${status}`) });
  }
  if (nullBody || status >= 300) {
    if (nullBody) answer.body.destroy();
    const body = nullBody ? null : (Readable.toWeb(answer.body) as unknown as ReadableStream<Uint8Array>);
    return new Response(body, { status, headers: h });
  }
  // As fetch: a compressed body is decompressed (nothing asks for one, but a service may send one anyway).
  const encoding = (h.get('content-encoding') ?? '').trim().toLowerCase();
  const inflate =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : null;
  if (inflate) {
    h.delete('content-encoding');
    h.delete('content-length');
    answer.body.on('error', (e) => inflate.destroy(e));
    answer.body.pipe(inflate);
    return attachRawBody(
      new Response(null, { status, headers: h }),
      rawBodyFromReadable(inflate, () => {
        answer.body.destroy();
        inflate.destroy();
      }),
    );
  }
  return attachRawBody(new Response(null, { status, headers: h }), rawBodyFromReadable(answer.body));
}

/**
 * A fetch that sends requests through the proxies `env` names, REST and server-sent event streams alike; with no
 * proxy configured it is Node's own fetch. `env` is read once, here (pass `process.env` from the host). Event-stream
 * requests (Accept: text/event-stream) take the lean path of eventStreamFetch, through the same proxy rules.
 */
export function createProxyFetch(env: ProxyEnv, tls: { ca?: string | Buffer } = {}): typeof fetch {
  const settings = proxySettings(env);
  const direct = globalThis.fetch.bind(globalThis);
  if (!settings.httpProxy && !settings.httpsProxy) {
    const plain = (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> =>
      wantsEventStream(init) ? eventStreamFetch(input, init, undefined) : direct(input, init);
    return plain as typeof fetch;
  }
  // Empty strings, not undefined: undefined would make undici read process.env itself, behind our back. `tls.ca`
  // adds a certificate authority for the service behind the tunnel (tests; a desk's own CA comes through
  // NODE_EXTRA_CA_CERTS, which Node applies to every TLS connection).
  const agent = new EnvHttpProxyAgent({
    httpProxy: settings.httpProxy ?? '',
    httpsProxy: settings.httpsProxy ?? '',
    noProxy: settings.noProxy,
    ...(tls.ca ? { requestTls: { ca: tls.ca } } : {}),
  });
  const proxied = (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
    const url = urlOf(input);
    const loopback = url !== null && isLoopbackHost(url.hostname);
    if (wantsEventStream(init)) return eventStreamFetch(input, init, loopback ? undefined : agent);
    if (loopback) return direct(input, init);
    // undici's fetch is the WHATWG fetch the global one is built from (a newer copy): its Response, Headers and
    // body stream are the same web types, so the core cannot tell them apart. Its RequestInit typing differs only
    // in the dispatcher field.
    return undiciFetch(
      input as never,
      { ...(init as object), dispatcher: agent } as never,
    ) as unknown as Promise<Response>;
  };
  return proxied as typeof fetch;
}
