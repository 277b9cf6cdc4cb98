// The fetch for Node hosts (browser mode, the CLI) that honours the proxy environment a corporate desk sets:
// HTTPS_PROXY / HTTP_PROXY / NO_PROXY (either letter case), through undici's EnvHttpProxyAgent. Node's own fetch
// ignores them, so behind a proxy the app could not connect where curl and the browser could. The Electron host does
// not use this: it passes Electron's net.fetch, which follows the OS proxy settings and certificate store.
// Loopback targets never go through a proxy: the demo simulator runs in-process on 127.0.0.1, and a corporate proxy
// cannot reach the trader's own machine.
import { EnvHttpProxyAgent, fetch as undiciFetch } from 'undici';

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

/**
 * A fetch that sends requests through the proxies `env` names, REST and server-sent event streams alike; with no
 * proxy configured it is Node's own fetch. `env` is read once, here (pass `process.env` from the host).
 */
export function createProxyFetch(env: ProxyEnv, tls: { ca?: string | Buffer } = {}): typeof fetch {
  const settings = proxySettings(env);
  if (!settings.httpProxy && !settings.httpsProxy) return globalThis.fetch.bind(globalThis);
  // Empty strings, not undefined: undefined would make undici read process.env itself, behind our back. `tls.ca`
  // adds a certificate authority for the service behind the tunnel (tests; a desk's own CA comes through
  // NODE_EXTRA_CA_CERTS, which Node applies to every TLS connection).
  const agent = new EnvHttpProxyAgent({
    httpProxy: settings.httpProxy ?? '',
    httpsProxy: settings.httpsProxy ?? '',
    noProxy: settings.noProxy,
    ...(tls.ca ? { requestTls: { ca: tls.ca } } : {}),
  });
  const direct = globalThis.fetch.bind(globalThis);
  const proxied = (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
    const url = urlOf(input);
    if (url && isLoopbackHost(url.hostname)) return direct(input, init);
    // undici's fetch is the WHATWG fetch the global one is built from (a newer copy): its Response, Headers and
    // body stream are the same web types, so the core cannot tell them apart. Its RequestInit typing differs only
    // in the dispatcher field.
    return undiciFetch(input as never, { ...(init as object), dispatcher: agent } as never) as unknown as Promise<Response>;
  };
  return proxied as typeof fetch;
}
