// What every handler module gets: the current connection (its store and engine), the settings service, the push
// projection, and `online` for requests to the service. Handlers return values or throw AppErrorException; the
// contract's dispatch turns both into {ok} results, so nothing throws across IPC.
import type { AppError } from '../../shared/errors';
import { AppErrorException } from '../../shared/errors';
import type { ApiClient } from '../api/client';
import type { ApiResult } from '../api/types';
import type { Clock } from '../clock';
import type { Engine } from '../engine';
import type { Pushes } from '../pushes';
import type { SecretStore } from '../secrets/types';
import type { Connection, Session } from '../session';
import type { SettingsService } from '../settingsService';
import type { Store } from '../store';

export interface CoreContext {
  clock: Clock;
  version: string;
  host: 'electron' | 'browser';
  settings: SettingsService;
  session: Session;
  pushes: Pushes;
  secrets: SecretStore;
  envService?: { baseUrl: string; key: string };
  historyPath(): string;
  /** The host's save dialog (Electron); resolves null when the trader cancels. Absent in browser mode. */
  chooseSavePath?: (suggestedName: string) => Promise<string | null>;
}

export const conn = (ctx: CoreContext): Connection => ctx.session.current();
export const store = (ctx: CoreContext): Store => ctx.session.current().store;

/**
 * The store once every stream write so far is committed: for a reader of ticks, latest lines, closes or alerts that
 * must see what the screen already showed (a bet on a line that just appeared, its chart, its close).
 */
export async function settledStore(ctx: CoreContext): Promise<Store> {
  const c = conn(ctx);
  // Ticks and closes the monitor holds for its next write go first: a tick the screen shows is then in the store too.
  c.engine?.monitor.flushWrites();
  await c.store.writer.settled();
  return c.store;
}

export function requireEngine(ctx: CoreContext): Engine {
  const c = conn(ctx);
  if (c.engine) return c.engine;
  throw new AppErrorException(
    c.problem ?? { kind: 'auth', message: 'No service is configured: enter a base URL and key in Settings.' },
  );
}

/**
 * Runs a trader's look-up against the current service and notes whether the service answered at all. The look-ups'
 * share of the hour (so clicking around can never starve settlement discovery) is the governor's to enforce: a
 * look-up over it comes back refused, having sent nothing.
 */
export async function online<T>(ctx: CoreContext, fn: (client: ApiClient) => Promise<ApiResult<T>>): Promise<T> {
  const r = await fn(requireEngine(ctx).client);
  noteOutcome(ctx, r.ok ? null : r.error);
  if (!r.ok) throw new AppErrorException(r.error);
  return r.value;
}

/**
 * Tells the status what a look-up's outcome says of the connection. An error the client decided itself, without a
 * request answered (a rate_limit with no status: a share refused, or a wait too long), says nothing about it.
 */
export function noteOutcome(ctx: CoreContext, error: AppError | null): void {
  if (error?.kind === 'rate_limit' && error.status === undefined) return;
  ctx.pushes.noteOutcome(error);
}

export const notFound = (message: string): AppErrorException =>
  new AppErrorException({ kind: 'not_found', message } satisfies AppError);
