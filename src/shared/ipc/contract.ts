// The ONE contract between the renderer and the core: every request (`domain:verb`) with its argument schema and
// result type, and every pushed event (`onX`) with its payload. Electron IPC (main + preload) and the browser
// bridge (WebSocket) are both built from it, so the renderer runs unchanged on either.
import { z } from 'zod';
import type { AppError, Result } from '../errors';
import { toAppError } from '../errors';
import type { Coverage } from '../api';
import type { Channel, PushEventName } from './channels';
import { isChannel } from './channels';

export * from './channels';

/** Arguments of each request, validated on the host side before any handler runs. */
export const requestSchemas = {
  'app:info': z.tuple([]),
  'coverage:get': z.tuple([]),
} as const satisfies Record<Channel, z.ZodTuple>;

export type RequestArgs<C extends Channel> = z.infer<(typeof requestSchemas)[C]>;

export interface AppInfo {
  version: string;
  /** True when running on the built-in simulator with a demo key. */
  demo: boolean;
  /** Which host the renderer talks to. */
  host: 'electron' | 'browser';
  baseUrl: string;
}

export interface CoverageView {
  /** Sport name -> number of events in the book, sorted by sport name. */
  sports: Array<{ sport: string; events: number }>;
  fetchedAt: number;
  raw: Coverage;
}

export interface StatusView {
  connection: 'online' | 'offline' | 'unknown';
  demo: boolean;
  lastError: AppError | null;
}

export interface ResponseMap {
  'app:info': AppInfo;
  'coverage:get': CoverageView;
}

export interface PushPayloads {
  onStatus: StatusView;
}

/** What the renderer sees, in both hosts. */
export interface OddsdeskApi {
  invoke<C extends Channel>(channel: C, ...args: RequestArgs<C>): Promise<Result<ResponseMap[C]>>;
  on<E extends PushEventName>(event: E, listener: (payload: PushPayloads[E]) => void): () => void;
}

/** What the core implements; a host turns it into an OddsdeskApi over its transport. */
export type CoreHandlers = {
  [C in Channel]: (...args: RequestArgs<C>) => Promise<ResponseMap[C]> | ResponseMap[C];
};

export type PushListener = <E extends PushEventName>(event: E, payload: PushPayloads[E]) => void;

/**
 * Validates an untrusted (channel, args) pair from a transport and runs its handler. Never throws: every failure
 * is a Result, so nothing throws across IPC.
 */
export async function dispatch(handlers: CoreHandlers, channel: unknown, args: unknown): Promise<Result<unknown>> {
  if (!isChannel(channel)) {
    return { ok: false, error: { kind: 'validation', message: `Unknown request channel: ${String(channel)}` } };
  }
  const parsed = requestSchemas[channel].safeParse(args ?? []);
  if (!parsed.success) {
    return {
      ok: false,
      error: { kind: 'validation', message: `Bad arguments for ${channel}: ${parsed.error.issues[0]?.message ?? ''}` },
    };
  }
  try {
    const handler = handlers[channel] as (...a: unknown[]) => unknown;
    const value = await handler(...(parsed.data as unknown[]));
    return { ok: true, value };
  } catch (e) {
    return { ok: false, error: toAppError(e) };
  }
}
