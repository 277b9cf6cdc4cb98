// Turns what the upstream answers (or fails to answer) into AppError values with messages a trader can act on,
// and keeps the API key out of every text that leaves the client.
import type { AppError } from '../../shared/errors';
import {
  DetailBodySchema,
  PATHS,
  PlanRestrictionBodySchema,
  RATE_LIMIT_HEADERS,
  ValidationBodySchema,
  type ApiPath,
} from '../../shared/api';

const LABELS: Record<ApiPath, string> = {
  [PATHS.status]: 'Service status',
  [PATHS.sports]: 'Sports list',
  [PATHS.fixtures]: 'Fixtures',
  [PATHS.coverage]: 'Coverage',
  [PATHS.periods]: 'Period list',
  [PATHS.results]: 'Period results',
  [PATHS.settled]: 'Settled matches',
  [PATHS.settlement]: 'Settlement',
  [PATHS.specialsOpening]: 'Specials opening odds',
  [PATHS.specialsFixtures]: 'Specials',
  [PATHS.specialsHistory]: 'Specials max-win history',
  [PATHS.outrightMarkets]: 'Outright markets',
  [PATHS.stream]: 'Live odds stream',
};

export function pathLabel(path: ApiPath): string {
  return LABELS[path] ?? path;
}

/**
 * Replaces every known key inside `text`, whatever its case: a host name, a header dump or an upper-cased message may
 * carry the key in another case than the trader typed. Keys shorter than 4 characters would redact ordinary words.
 */
export function scrub(text: string, keys: Iterable<string>): string {
  let out = text;
  for (const key of keys) {
    if (key.length < 4) continue;
    out = out.replace(new RegExp(key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), '[redacted key]');
  }
  return out;
}

export function scrubError(error: AppError, keys: Iterable<string>): AppError {
  const list = [...keys];
  const message = scrub(error.message, list);
  const path = error.path === undefined ? undefined : scrub(error.path, list);
  return message === error.message && path === error.path
    ? error
    : { ...error, message, ...(path === undefined ? {} : { path }) };
}

function jsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * Seconds from Retry-After: whole seconds per docs/service/assumptions.md; an HTTP date is accepted too. A date is the
 * service's clock, so it is measured against the answer's own `Date` header when there is one, else against our
 * clock corrected by the measured skew (`skewMs` = service clock minus ours), so a skewed machine clock neither
 * stretches nor cancels the pause.
 */
export function retryAfterSeconds(headers: Headers, nowMs: number, skewMs = 0): number | null {
  const raw = headers.get(RATE_LIMIT_HEADERS.retryAfter);
  if (raw === null || raw.trim() === '') return null;
  const text = raw.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text));
  const at = Date.parse(text);
  if (!Number.isFinite(at)) return null;
  const served = Date.parse(headers.get('Date') ?? '');
  const serviceNow = Number.isFinite(served) ? served : nowMs + skewMs;
  return Math.max(0, Math.ceil((at - serviceNow) / 1000));
}

function validationText(body: unknown): string | null {
  const v = ValidationBodySchema.safeParse(body);
  if (v.success) return v.data.detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; ');
  const d = DetailBodySchema.safeParse(body);
  return d.success ? d.data.detail : null;
}

/** Maps a non-2xx answer. `bodyText` is the answer's body, already read; `skewMs` as for `retryAfterSeconds`. */
export function errorFromStatus(
  path: ApiPath,
  status: number,
  headers: Headers,
  bodyText: string,
  nowMs: number,
  skewMs = 0,
): AppError {
  const what = pathLabel(path);
  const body = jsonOrNull(bodyText);
  const detail = DetailBodySchema.safeParse(body);
  const detailText = detail.success ? detail.data.detail : null;
  // The spec does not give the status of a plan restriction, only its body: recognised by its shape first, whatever
  // the status, so a 401 that says "your plan is starter" restricts that endpoint and never blocks the key.
  const plan = PlanRestrictionBodySchema.safeParse(body);
  if (plan.success) {
    return {
      kind: 'plan',
      status,
      yourPlan: plan.data.your_plan,
      requiredPlan: plan.data.required_plan,
      message: `${what} requires ${plan.data.required_plan}; your plan: ${plan.data.your_plan}. Upgrade the plan to use it.`,
    };
  }
  if (status === 401) {
    return {
      kind: 'auth',
      status,
      message:
        'The service rejected the API key (401): it is missing, wrong, regenerated or revoked. ' +
        'Enter the current key from your account page; requests that need the key are paused until then.',
    };
  }
  if (status === 403) {
    // Not a plan restriction (no plan in the body) and not a rejected key (that is 401): a refusal such as a proxy's
    // or a firewall's. It fails this request like any other refusal, and neither blocks the key nor marks the
    // endpoint as restricted by plan.
    return {
      kind: 'validation',
      status,
      message: `${what}: the service refused the request (403${detailText ? `: ${detailText}` : ''}). It is not a plan restriction and the key was not rejected; check the base URL and any proxy in between.`,
    };
  }
  if (status === 429) {
    const retryAfter = retryAfterSeconds(headers, nowMs, skewMs) ?? undefined;
    return {
      kind: 'rate_limit',
      status,
      ...(retryAfter === undefined ? {} : { retryAfter }),
      message:
        retryAfter === undefined
          ? 'The hourly request quota is used up; requests are paused until it resets.'
          : `The hourly request quota is used up; requests resume in ${retryAfter} s.`,
    };
  }
  if (status === 404) {
    return { kind: 'not_found', status, message: `${what}: not found${detailText ? ` (${detailText})` : ''}.` };
  }
  if (status === 422 || (status >= 400 && status < 500)) {
    const text = validationText(body);
    return {
      kind: 'validation',
      status,
      message: `${what}: the service refused the request (${status})${text ? `: ${text}` : ''}.`,
    };
  }
  return {
    kind: 'server',
    status,
    message: `${what}: the service failed (${status}). It is usually temporary; the request was retried and can be tried again later.`,
  };
}

/** A byte count as a trader reads it: whole MiB or KiB where it divides evenly (the caps do), else bytes. */
export function byteSize(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/**
 * An answer whose body passed the size cap (MAX_RESPONSE_BYTES): not read, and not retried, since asking again would
 * fetch the same body. `bad_payload`, like every answer that is not what the spec says, which pollers treat as
 * non-transient.
 */
export function responseTooLarge(path: ApiPath, maxBytes: number): AppError {
  return {
    kind: 'bad_payload',
    message: `The service sent a response larger than ${byteSize(maxBytes)} for ${path}; it was not read.`,
  };
}

/** Maps a fetch that threw (refused, reset, DNS, timeout) without echoing anything the key could be part of. */
export function networkError(path: ApiPath, baseUrl: string, cause: unknown, timedOut: boolean): AppError {
  let where = baseUrl;
  try {
    where = new URL(baseUrl).host;
  } catch {
    /* keep the raw text */
  }
  const code = causeCode(cause);
  return {
    kind: 'network',
    message: timedOut
      ? `${pathLabel(path)}: the service at ${where} did not answer in time. Check the connection; it will be retried.`
      : `${pathLabel(path)}: cannot reach the service at ${where}${code ? ` (${code})` : ''}. Check the base URL and the network connection.`,
  };
}

function causeCode(e: unknown): string | null {
  for (let cur = e, depth = 0; cur && typeof cur === 'object' && depth < 4; depth++) {
    const c = cur as { code?: unknown; cause?: unknown };
    if (typeof c.code === 'string') return c.code;
    cur = c.cause;
  }
  return null;
}
