// Errors are values with a kind and a message a trader can act on. They cross IPC and the bridge as data,
// never as thrown exceptions, and never carry the API key.

export const ERROR_KINDS = [
  'auth', // 401: key missing, invalid, regenerated or revoked
  'plan', // plan restriction: needs a higher plan
  'rate_limit', // 429: hourly quota exceeded
  'validation', // 422 from the service, or a bad argument from the UI
  'not_found',
  'server', // 5xx
  'network', // connection refused, reset, timeout
  'bad_payload', // the service answered with something that is not what the spec says
  'keychain', // the OS keychain is missing or refused
  'internal',
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

export interface AppError {
  kind: ErrorKind;
  message: string;
  /** Seconds to wait, for rate_limit. */
  retryAfter?: number;
  /** For plan: what the account has and what the endpoint needs. */
  yourPlan?: string;
  requiredPlan?: string;
  /** For bad_payload: where in the response the bad record was. */
  path?: string;
  status?: number;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (error: AppError): Result<never> => ({ ok: false, error });

/** An exception that carries an AppError, for code paths that throw inside the core. */
export class AppErrorException extends Error {
  constructor(readonly error: AppError) {
    super(error.message);
    this.name = 'AppErrorException';
  }
}

export function isAppError(value: unknown): value is AppError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AppError).kind === 'string' &&
    (ERROR_KINDS as readonly string[]).includes((value as AppError).kind) &&
    typeof (value as AppError).message === 'string'
  );
}

/** The message of anything thrown: an Error's message, an AppError's message, or the value as text. The one place a
 * caught value becomes words (a log line, a status, a problem report). */
export function errorMessage(e: unknown): string {
  if (e instanceof AppErrorException) return e.error.message;
  if (e instanceof Error) return e.message;
  if (isAppError(e)) return e.message;
  return String(e);
}

/** Turns anything thrown into an AppError. Unknown exceptions become `internal` with their message only. */
export function toAppError(e: unknown): AppError {
  if (e instanceof AppErrorException) return e.error;
  if (isAppError(e)) return e;
  return { kind: 'internal', message: errorMessage(e) };
}
