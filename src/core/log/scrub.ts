// Keeps secrets out of log files and diagnostics: the API key, the browser bridge's token, proxy and URL
// credentials, bearer tokens. Pure (no I/O, no library), so every host's logger can run it on every line, and so it
// can be tested with real keys fed in. Two nets: the exact values the host has seen (`addSecret`), and the shapes a
// secret takes when something careless prints it (a header, a query parameter, a JSON field, URL user:password).
export const REDACTED = '[redacted]';

/** Field names whose values are secrets wherever they appear (objects, JSON, query strings, headers). */
const SECRET_NAMES = [
  'x-api-key',
  'api[-_]?key',
  'apikey',
  'key',
  'token',
  'access[-_]?token',
  'refresh[-_]?token',
  'secret',
  'password',
  'passwd',
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
];
const NAME = `(?:${SECRET_NAMES.join('|')})`;
const SECRET_NAME = new RegExp(`^${NAME}$`, 'i');

const PATTERNS: Array<[RegExp, string]> = [
  // "x-api-key": "…"  /  'token': '…'  (JSON and JS object dumps)
  [new RegExp(`(["']${NAME}["']\\s*:\\s*)(["'])(?:\\\\.|(?!\\2).)*\\2`, 'gi'), `$1$2${REDACTED}$2`],
  // X-API-Key: …  /  Authorization: Bearer …  (a header line, to the end of the line)
  [new RegExp(`(^|[\\s{,;(])(${NAME})(\\s*:\\s*)(?!\\s*["'])[^\\r\\n,;}]+`, 'gim'), `$1$2$3${REDACTED}`],
  // ?key=… &token=… #token=… key=… (query strings, fragments, key=value text)
  [new RegExp(`([?&#;\\s]|^)(${NAME})=[^&#\\s"'<>]+`, 'gi'), `$1$2=${REDACTED}`],
  // "invalid key sk_live_…": an opaque word (letters and digits, 16+) right after the word key/token/secret
  [
    /\b((?:api[ -]?)?(?:key|token|secret|password)\s+)(?=\S*\d)(?=\S*[A-Za-z])[A-Za-z0-9._~+/=-]{16,}/gi,
    `$1${REDACTED}`,
  ],
  // Bearer / Basic credentials wherever they stand
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{6,}/g, `$1 ${REDACTED}`],
  // scheme://user:password@host
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+@/gi, `$1${REDACTED}@`],
];

export interface Scrubber {
  /** Remember a secret value (the key the trader just entered, a token): every later occurrence is redacted. */
  addSecret(value: string | null | undefined): void;
  /** A copy of `text` with every secret redacted. */
  text(text: string): string;
  /** A log-safe copy of any value: strings scrubbed, errors turned into scrubbed text, objects walked. */
  value(value: unknown): unknown;
}

/** Secrets shorter than this are not matched by value (a 3-letter "key" would redact half the log). */
const MIN_SECRET_LENGTH = 6;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function scrubText(text: string, secrets: Iterable<string> = []): string {
  let out = text;
  for (const s of secrets) {
    if (s.length < MIN_SECRET_LENGTH) continue;
    // The value as is, and as it appears in a URL or form, in any case (a host name or an upper-cased message may
    // carry it in another case than the trader typed).
    for (const form of new Set([s, encodeURIComponent(s)]))
      out = out.replace(new RegExp(escapeRegExp(form), 'gi'), REDACTED);
  }
  for (const [re, replacement] of PATTERNS) out = out.replace(re, replacement);
  return out;
}

export function createScrubber(initial: Iterable<string> = []): Scrubber {
  const secrets = new Set<string>();
  const add = (v: string | null | undefined) => {
    const s = v?.trim();
    if (s && s.length >= MIN_SECRET_LENGTH) secrets.add(s);
  };
  for (const s of initial) add(s);
  // Longest first: a secret that contains another is redacted whole.
  const ordered = () => [...secrets].sort((a, b) => b.length - a.length);
  const text = (t: string) => scrubText(t, ordered());

  function value(v: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
    if (typeof v === 'string') return text(v);
    if (v === null || typeof v !== 'object') return typeof v === 'function' ? '[function]' : v;
    if (seen.has(v)) return '[circular]';
    seen.add(v);
    if (v instanceof Error) {
      // The stack repeats the message; both may carry what the error was built from.
      const c = v.cause === undefined ? undefined : value(v.cause, depth + 1, seen);
      const cause = c === undefined ? '' : `\ncaused by: ${typeof c === 'string' ? c : JSON.stringify(c)}`;
      return text(`${v.stack ?? `${v.name}: ${v.message}`}${cause}`);
    }
    if (depth >= 6) return '[…]';
    if (typeof Headers !== 'undefined' && v instanceof Headers) {
      return Object.fromEntries([...v.entries()].map(([k, x]) => [k, SECRET_NAME.test(k) ? REDACTED : text(x)]));
    }
    if (v instanceof URL) return text(v.href);
    if (Array.isArray(v)) return v.map((x) => value(x, depth + 1, seen));
    if (v instanceof Map)
      return [...v.entries()].map(([k, x]) => [
        value(k, depth + 1, seen),
        SECRET_NAME.test(String(k)) ? REDACTED : value(x, depth + 1, seen),
      ]);
    if (v instanceof Date) return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v))
      out[k] = SECRET_NAME.test(k) && x !== null && x !== undefined && x !== '' ? REDACTED : value(x, depth + 1, seen);
    return out;
  }

  return { addSecret: add, text, value: (v) => value(v) };
}
