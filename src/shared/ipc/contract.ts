// The ONE contract between the renderer and the core: every request (`domain:verb`) with its argument schema and
// result type, and every pushed event (`onX`) with its payload. Electron IPC (main + preload) and the browser
// bridge (WebSocket) are both built from it, so the renderer runs unchanged on either. The key never crosses it:
// the renderer can set a key and learn whether one is stored, never read it.
import { z } from 'zod';
import type { AppError, Result } from '../errors';
import { toAppError } from '../errors';
import type { Coverage, DevigModel, Fixture, OutrightMarket, Plan, SettledEvent, Sport } from '../api';
import { DEVIG_MODELS } from '../api';
import type {
  AlertRecord,
  ClvRow,
  EventView,
  LineHistoryPoint,
  LiveStatePoint,
  MarketView,
  MaxWinPoint,
  PeriodResultView,
  SettlementPage,
  SettlementRow,
  SpecialHistoryPoint,
  StoreUsage,
  WatchedEventView,
} from '../domain';
import type { Channel, PushEventName } from './channels';
import { isChannel } from './channels';

export * from './channels';

const id = z.number().int().nonnegative();
const outcome = z.enum(['win', 'loss', 'push']);
const settlementQuery = z
  .object({
    sportId: id.optional(),
    leagueId: id.optional(),
    team: z.string().max(200).optional(),
    from: z.number().optional(),
    to: z.number().optional(),
    outcome: z
      .object({
        side: z.enum(['home', 'draw', 'away']),
        result: outcome,
        scope: z.enum(['moneyline', 'any']),
        market: z.string().max(50).optional(),
      })
      .optional(),
    limit: z.number().int().min(1).max(500).optional(),
    after: z.object({ settledAt: z.number(), eventId: id }).optional(),
    withoutTotal: z.boolean().optional(),
  })
  .strict();

const settingsPatch = z
  .object({
    baseUrl: z.string().url().max(500).nullable().optional(),
    devigModel: z.enum(DEVIG_MODELS).optional(),
    maxWinThresholdPct: z.number().min(0).max(1000).optional(),
    notifySettlements: z.boolean().optional(),
    notifyMaxWin: z.boolean().optional(),
    doNotDisturb: z.boolean().optional(),
    retentionDays: z.number().int().min(1).max(3650).optional(),
    rawTickHours: z.number().int().min(1).max(168).optional(),
    settledEverySeconds: z.number().int().min(10).max(3600).optional(),
    theme: z.enum(['dark', 'light']).optional(),
  })
  .strict();

/** Arguments of each request, validated on the host side before any handler runs. */
export const requestSchemas = {
  'app:info': z.tuple([]),
  'status:get': z.tuple([]),
  'coverage:get': z.tuple([]),
  'sports:list': z.tuple([]),
  'fixtures:list': z.tuple([z.object({ sportId: id.optional(), liveOnly: z.boolean().optional() }).strict()]),
  'watch:list': z.tuple([]),
  'watch:add': z.tuple([id]),
  'watch:remove': z.tuple([id]),
  'event:detail': z.tuple([id]),
  'event:lineHistory': z.tuple([id, id]),
  'specials:list': z.tuple([id]),
  'specials:history': z.tuple([id, id, id]),
  'outrights:list': z.tuple([z.object({ sportId: id.optional(), minContestants: z.number().int().min(1).max(100).optional() }).strict()]),
  'settlements:query': z.tuple([settlementQuery]),
  'settlements:detail': z.tuple([id]),
  'settlements:syncNow': z.tuple([]),
  'settlements:exportCsv': z.tuple([settlementQuery]),
  'alerts:list': z.tuple([z.object({ limit: z.number().int().min(1).max(1000).optional(), beforeId: id.optional() }).strict()]),
  'alerts:mute': z.tuple([id, z.boolean()]),
  'settings:get': z.tuple([]),
  'settings:update': z.tuple([settingsPatch]),
  'settings:setApiKey': z.tuple([z.string().min(8).max(512)]),
  'settings:clearApiKey': z.tuple([]),
  'store:usage': z.tuple([]),
  'store:compact': z.tuple([]),
} as const satisfies Record<Channel, z.ZodTuple>;

export type RequestArgs<C extends Channel> = z.infer<(typeof requestSchemas)[C]>;
export type SettingsPatch = z.infer<typeof settingsPatch>;

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

export type StreamState = 'connecting' | 'live' | 'reconnecting' | 'ended' | 'failed' | 'restricted';

export interface QuotaView {
  used: number;
  remaining: number | null;
  limit: number | null;
  /** ms; when the hour's budget resets, when known. */
  resetAt: number | null;
  /** ms; no request goes out before this (after a 429). */
  pausedUntil: number | null;
}

export interface StatusView {
  connection: 'online' | 'offline' | 'unknown';
  demo: boolean;
  /** 'rejected': a 401 paused everything that needs the key until a new one is entered. */
  auth: 'ok' | 'rejected' | 'missing';
  plan: Plan | null;
  /** Paths refused by the plan, with what they need. */
  restricted: Array<{ path: string; requiredPlan: string; yourPlan: string }>;
  quota: QuotaView;
  streams: Array<{ eventId: number; state: StreamState; lastMessageAt: number | null }>;
  /** ms of the last successful /api/settled walk. */
  lastSettledSync: number | null;
  lastError: AppError | null;
}

export interface FixtureView extends Fixture {
  watched: boolean;
}

export interface EventDetail {
  event: EventView;
  watched: boolean;
  settled: boolean;
  markets: MarketView[];
  periodResults: PeriodResultView[];
  liveStates: LiveStatePoint[];
  settlement: SettledEvent | null;
}

export interface SpecialContestantView {
  contestantId: number;
  contestantName: string;
  handicap: number | null;
  odds: number | null;
  todds: number | null;
  maxWin: number | null;
  /** Opening and closing true odds under every model, with the closing-line value of the opening price. */
  clv: ClvRow[];
}

export interface SpecialView {
  eventId: number | null;
  specialId: number;
  specialName: string;
  betType: string;
  category: string;
  units: string;
  period: number;
  cutoff: string;
  contestants: SpecialContestantView[];
}

export interface SpecialsView {
  eventId: number;
  /** Set when the plan does not allow specials: what to tell the trader. */
  restricted: AppError | null;
  specials: SpecialView[];
  maxWinPoints: MaxWinPoint[];
}

export interface SettingsView {
  baseUrl: string | null;
  /** Whether a key is stored for the base URL. The key itself never leaves the main process. */
  hasKey: boolean;
  keychain: { available: boolean; message: string | null };
  demo: boolean;
  devigModel: DevigModel;
  maxWinThresholdPct: number;
  notifySettlements: boolean;
  notifyMaxWin: boolean;
  doNotDisturb: boolean;
  retentionDays: number;
  /** Hours of full tick detail before ticks are compacted into one-minute bars (absent: the store's default, 1). */
  rawTickHours?: number;
  settledEverySeconds: number;
  theme: 'dark' | 'light';
  mutedEvents: number[];
}

/** What a "compact now" did: steps of one small transaction each, until nothing past the raw window is raw. */
export interface CompactNowResult {
  done: boolean;
  ticksCompacted: number;
  ticksDropped: number;
  steps: number;
  longestStepMs: number;
  ms: number;
}

export interface OddsBatch {
  /** Latest value per market since the previous batch, per event. */
  events: Array<{
    eventId: number;
    markets: MarketView[];
    score?: { liveStatus: number | null; scoreHome: number | null; scoreAway: number | null };
    /** A snapshot replaced everything held for the event. */
    replace?: boolean;
  }>;
  at: number;
}

export interface ResponseMap {
  'app:info': AppInfo;
  'status:get': StatusView;
  'coverage:get': CoverageView;
  'sports:list': Sport[];
  'fixtures:list': FixtureView[];
  'watch:list': WatchedEventView[];
  'watch:add': WatchedEventView;
  'watch:remove': null;
  'event:detail': EventDetail;
  'event:lineHistory': LineHistoryPoint[];
  'specials:list': SpecialsView;
  'specials:history': SpecialHistoryPoint[];
  'outrights:list': OutrightMarket[];
  'settlements:query': SettlementPage;
  'settlements:detail': { settlement: SettledEvent; periodResults: PeriodResultView[] } | null;
  'settlements:syncNow': { added: number };
  'settlements:exportCsv': string;
  'alerts:list': AlertRecord[];
  'alerts:mute': null;
  'settings:get': SettingsView;
  'settings:update': SettingsView;
  'settings:setApiKey': SettingsView;
  'settings:clearApiKey': SettingsView;
  'store:usage': StoreUsage;
  'store:compact': CompactNowResult;
}

export interface PushPayloads {
  onStatus: StatusView;
  onOdds: OddsBatch;
  onWatchlist: WatchedEventView[];
  onAlert: AlertRecord;
  onSettlement: SettlementRow;
  /** A notification was clicked: show this event. */
  onFocusEvent: { eventId: number };
  /** Raised by the browser transport itself (never by the core): whether the page reaches its host. */
  onBridge: { connected: boolean };
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
