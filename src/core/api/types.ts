// Types shared by the API client, the governor and the stream client: results, record problems, logging.
import type { AppError } from '../../shared/errors';
import type { RecordProblem } from '../../shared/api';
import type { Purpose } from '../../shared/requests';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
/** Every line handed to a logger has already been scrubbed of the API key. */
export type Logger = (level: LogLevel, message: string) => void;

/** One record dropped from an otherwise usable answer. It is an AppError too, so hosts can show it as one. */
export interface BadRecord extends RecordProblem {
  kind: 'bad_payload';
  message: string;
  path: string;
}

export type ApiResult<T> = { ok: true; value: T; problems: BadRecord[] } | { ok: false; error: AppError };

export type Priority = 'high' | 'normal' | 'low';

export { PURPOSES, type Purpose } from '../../shared/requests';
/** What a request is for: every request is counted under one, so the trader sees where the hourly quota went. */
export type RequestPurpose = Purpose;

export interface RequestOptions {
  /** Stream opens and settlement polling go ahead of background refreshes. */
  priority?: Priority;
  /** What the request is spent on; when absent, the purpose its path usually serves (`purposeOfPath`). */
  purpose?: Purpose;
  signal?: AbortSignal;
}

export type KeyProvider = () => string | null | undefined | Promise<string | null | undefined>;
