// What every handler module gets: the current connection (its store and engine), the settings service, the push
// projection, and `online` for requests to the service. Handlers return values or throw AppErrorException; the
// contract's dispatch turns both into {ok} results, so nothing throws across IPC.
import type { AppError } from '../../shared/errors';
import { AppErrorException } from '../../shared/errors';
import type { ApiClient } from '../api/client';
import { lookupAllowed } from '../budget';
import type { ApiResult } from '../api/types';
import type { Clock } from '../clock';
import type { Engine } from '../engine';
import type { Pushes } from '../pushes';
import type { SecretStore } from '../secrets/types';
import type { Connection, Session } from '../session';
import type { SettingsService } from '../settings';
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

export function requireEngine(ctx: CoreContext): Engine {
  const c = conn(ctx);
  if (c.engine) return c.engine;
  throw new AppErrorException(
    c.problem ?? { kind: 'auth', message: 'No service is configured: enter a base URL and key in Settings.' },
  );
}

/**
 * Runs a trader's look-up against the current service, within the look-ups' share of the hour (so clicking around
 * can never starve settlement discovery); notes whether the service answered at all.
 */
export async function online<T>(ctx: CoreContext, fn: (client: ApiClient) => Promise<ApiResult<T>>): Promise<T> {
  const client = requireEngine(ctx).client;
  const g = client.governor.state();
  if (!lookupAllowed({ limit: g.quota.limit, remaining: g.quota.remaining, hourByPurpose: g.requests.hour.byPurpose })) {
    const at = g.quota.resetAt ? new Date(g.quota.resetAt).toISOString().slice(11, 16) : 'the top of the hour';
    throw new AppErrorException({
      kind: 'rate_limit',
      message: `Look-ups have used their share of this hour's quota (${g.requests.hour.byPurpose.ui} requests), kept for settlements and live streams; they resume by ${at} UTC. What is cached is still shown.`,
    });
  }
  const r = await fn(client);
  ctx.pushes.noteOutcome(r.ok ? null : r.error);
  if (!r.ok) throw new AppErrorException(r.error);
  return r.value;
}

export const notFound = (message: string): AppErrorException => new AppErrorException({ kind: 'not_found', message } satisfies AppError);
