// The ONE contract between the renderer and the core: every request (`domain:verb`) with its argument schema and
// result type, and every pushed event (`onX`) with its payload. Electron IPC (main + preload) and the browser
// bridge (WebSocket) are both built from it, so the renderer runs unchanged on either. The key never crosses it:
// the renderer can set a key and learn whether one is stored, never read it.
import { z } from 'zod';
import type { AppError, Result } from '../errors';
import { toAppError } from '../errors';
import { checkApiKey } from '../apiKey';
import { checkBaseUrl } from '../baseUrl';
import type { Coverage, DevigModel, Fixture, OutrightMarket, Period, Plan, SettledEvent, Sport } from '../api';
import { DEVIG_MODELS } from '../api';
import { QUOTA_PER_HOUR_RANGE, type Purpose } from '../requests';
import { canonicalTimeZone, ODDS_FORMATS, type OddsFormat } from '../formats';
import { GRID_COLUMNS, GRID_SORT_KEYS, type GridLayout } from '../gridLayout';
import type {
  AlertRecord,
  BetRevision,
  BetTotals,
  BetView,
  LineCloseView,
  MoverRow,
  PriceAlertOverrides,
  PriceSide,
  DropAlertPhase,
  EventView,
  LineHistoryPoint,
  LineMaxWinChange,
  LiveStatePoint,
  MarketView,
  MaxWinPoint,
  PeriodResultView,
  SettlementAlertScope,
  SettlementPage,
  SettlementRow,
  SpecialHistoryPoint,
  SpecialView,
  StoreUsage,
  WatchedEventView,
} from '../domain';
import { DROP_ALERT_PHASES, SETTLEMENT_ALERT_SCOPES } from '../domain';
import type { ModelScoreboard, ScoreProgress } from '../scoreboard';
import type { LabProgress, RuleLabResult } from '../ruleLab';
import type { LedgerReport } from '../ledger';
import type { Channel, DesktopChannel, PushEventName } from './channels';
import { isChannel, isDesktopChannel } from './channels';
import { WINDOW_VIEWS } from './windowRoute';
import { validationMessage } from './validationWords';

// The specials' rows are the store's read of them (domain types); the contract names them for the page.
export type { SpecialContestantView, SpecialView } from '../domain';

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

/**
 * The key goes wherever the base URL points, so the contract admits only what checkBaseUrl admits (https, or http on
 * loopback) and hands the handler its normalised form.
 */
// An API key: printable ASCII, no spaces or control characters, 8-512 long (src/shared/apiKey.ts). The refusal
// names the rule, never the key.
const apiKey = z.string().superRefine((text, ctx) => {
  const r = checkApiKey(text);
  if (!r.ok) ctx.addIssue({ code: 'custom', message: r.message });
});

const baseUrl = z
  .string()
  .max(500)
  .transform((text, ctx) => {
    const r = checkBaseUrl(text);
    if (r.ok) return r.url;
    ctx.addIssue({ code: 'custom', message: r.message });
    return z.NEVER;
  });

/** The watchlist grid's columns and sort, kept per profile (src/shared/gridLayout.ts). */
const gridLayout = z
  .object({
    columns: z
      .array(z.enum(GRID_COLUMNS))
      .max(GRID_COLUMNS.length)
      .refine((cs) => new Set(cs).size === cs.length, 'a list that names each column once')
      .nullable(),
    sort: z.object({ key: z.enum(GRID_SORT_KEYS), dir: z.union([z.literal(1), z.literal(-1)]) }).strict(),
  })
  .strict();

const settingsPatch = z
  .object({
    baseUrl: baseUrl.nullable().optional(),
    devigModel: z.enum(DEVIG_MODELS).optional(),
    maxWinThresholdPct: z.number().min(0).max(1000).optional(),
    notifySettlements: z.boolean().optional(),
    settlementAlerts: z
      .enum(
        SETTLEMENT_ALERT_SCOPES as readonly SettlementAlertScope[] as [SettlementAlertScope, ...SettlementAlertScope[]],
      )
      .optional(),
    settlementSports: z.array(id).max(500).optional(),
    settlementLeagues: z.array(id).max(5000).optional(),
    settlementSound: z.boolean().optional(),
    /** The window's sound for max stake alerts (off by default). */
    maxWinSound: z.boolean().optional(),
    /** The window's sound for price and drop alerts (off by default). */
    priceSound: z.boolean().optional(),
    notifyMaxWin: z.boolean().optional(),
    doNotDisturb: z.boolean().optional(),
    retentionDays: z.number().int().min(1).max(3650).optional(),
    rawTickHours: z.number().int().min(1).max(168).optional(),
    settledEverySeconds: z.number().int().min(10).max(3600).optional(),
    /** The hourly request quota of the trader's plan; the service's X-RateLimit-* headers take precedence. */
    quotaPerHour: z.number().int().min(QUOTA_PER_HOUR_RANGE.min).max(QUOTA_PER_HOUR_RANGE.max).optional(),
    theme: z.enum(['dark', 'light']).optional(),
    dropAlertPct: z.number().min(0).max(100).optional(),
    dropWindowMinutes: z.number().int().min(1).max(240).optional(),
    /** When drop alerts fire: before kick-off, in play, or both. */
    dropAlertPhase: z
      .enum(DROP_ALERT_PHASES as readonly DropAlertPhase[] as [DropAlertPhase, ...DropAlertPhase[]])
      .optional(),
    /** The sports whose drops alert; empty: every sport. */
    dropAlertSports: z.array(id).max(500).optional(),
    priceAlertHysteresisPct: z.number().min(0).max(50).optional(),
    notifyPriceAlerts: z.boolean().optional(),
    /** The unit stakes and P/L are shown in (EUR, USD, u, ...): printable, at most 8 characters, blank for none. */
    moneyUnit: z
      .string()
      .trim()
      .max(8)
      .refine(
        (u) => [...u].every((c) => c >= ' ' && c !== '\u007f' && c !== '<' && c !== '>'),
        'made of printable characters (no < or >)',
      )
      .optional(),
    /** How every price on screen reads (the exports keep the decimal price beside it). */
    oddsFormat: z.enum(ODDS_FORMATS).optional(),
    /** The IANA zone every time on screen is shown in, kept in its canonical spelling. */
    timeZone: z
      .string()
      .max(64)
      .transform((name, ctx) => {
        const zone = canonicalTimeZone(name.trim());
        if (zone) return zone;
        ctx.addIssue({ code: 'custom', message: 'a time zone name such as Europe/London or UTC' });
        return z.NEVER;
      })
      .optional(),
    /** The watchlist grid's columns and sort: the profile's, not the app's (stored with the profile's history). */
    gridLayout: gridLayout.optional(),
  })
  .strict();

const priceSide = z.enum(['home', 'draw', 'away', 'over', 'under']);
const decimalPrice = z.number().finite().gt(1).max(1000);
const betQuery = z
  .object({
    status: z.enum(['open', 'settled']).optional(),
    eventId: id.optional(),
    market: z.string().max(50).optional(),
    from: z.number().optional(),
    to: z.number().optional(),
  })
  .strict();
const stake = z.number().finite().positive().max(1e9);
const newBet = z.object({ eventId: id, lineId: id, side: priceSide, price: decimalPrice, stake }).strict();
const betEdit = z
  .object({ price: decimalPrice.optional(), stake: stake.optional(), note: z.string().max(500).optional() })
  .strict();
const priceAlertOverrides = z
  .object({
    dropPct: z.number().min(0).max(100).optional(),
    dropWindowMinutes: z.number().int().min(1).max(240).optional(),
    thresholds: z.array(z.object({ lineId: id, side: priceSide, price: decimalPrice }).strict()).max(200),
  })
  .strict();

/** Arguments of each request, validated on the host side before any handler runs. */
export const requestSchemas = {
  'app:info': z.tuple([]),
  'app:reconnect': z.tuple([]),
  'status:get': z.tuple([]),
  'coverage:get': z.tuple([]),
  'sports:list': z.tuple([]),
  'periods:list': z.tuple([]),
  'fixtures:list': z.tuple([z.object({ sportId: id.optional(), liveOnly: z.boolean().optional() }).strict()]),
  'watch:list': z.tuple([]),
  'watch:add': z.tuple([id]),
  'watch:remove': z.tuple([id]),
  'event:detail': z.tuple([id]),
  'event:lineHistory': z.tuple([id, id]),
  'specials:list': z.tuple([id]),
  'specials:history': z.tuple([id, id, id]),
  'outrights:list': z.tuple([
    z.object({ sportId: id.optional(), minContestants: z.number().int().min(1).max(100).optional() }).strict(),
  ]),
  'settlements:query': z.tuple([settlementQuery]),
  'settlements:detail': z.tuple([id]),
  'settlements:syncNow': z.tuple([]),
  'settlements:exportCsv': z.tuple([settlementQuery]),
  // The file is chosen by the trader in the host's save dialog; no path ever comes from the renderer.
  'settlements:exportCsvToFile': z.tuple([settlementQuery]),
  'alerts:list': z.tuple([
    z.object({ limit: z.number().int().min(1).max(1000).optional(), beforeId: id.optional() }).strict(),
  ]),
  'alerts:mute': z.tuple([id, z.boolean()]),
  /** Snoozes an event's alerts until an instant (epoch ms; at most a week ahead), or ends the snooze (null). */
  'alerts:snooze': z.tuple([id, z.number().int().positive().nullable()]),
  'settings:get': z.tuple([]),
  'settings:update': z.tuple([settingsPatch]),
  // The base URL the trader saw beside the key: the key is stored for that service and no other, whatever a
  // settings save racing it does. Omitted: the configured one.
  'settings:setApiKey': z.tuple([apiKey, baseUrl.optional()]),
  'settings:clearApiKey': z.tuple([]),
  'settings:forgetAllKeys': z.tuple([]),
  'store:usage': z.tuple([]),
  'store:compact': z.tuple([]),
  'bets:add': z.tuple([newBet]),
  /** Takes the bet out of the log; kept in the file so bets:restore (Undo) brings it back. */
  'bets:remove': z.tuple([id]),
  /** A bet's price, stake or note changed by the trader (each change kept in its history). */
  'bets:update': z.tuple([id, betEdit]),
  'bets:restore': z.tuple([id]),
  'bets:history': z.tuple([id]),
  'bets:list': z.tuple([betQuery]),
  'bets:exportCsv': z.tuple([betQuery]),
  /** The trader's own result for a bet the app cannot settle (null takes it back). */
  'bets:settle': z.tuple([id, z.enum(['win', 'half_win', 'push', 'half_loss', 'loss']).nullable()]),
  /** The ledger report of the bets placed in [from, to) (epoch ms; either may be left out). */
  'bets:report': z.tuple([
    z
      .object({ from: z.number().int().nonnegative().optional(), to: z.number().int().nonnegative().optional() })
      .strict(),
  ]),
  'movers:list': z.tuple([]),
  'lines:closing': z.tuple([id]),
  'priceAlerts:get': z.tuple([id]),
  'priceAlerts:set': z.tuple([id, priceAlertOverrides]),
  /** The model scoreboard over the lines of matches kicking off at or after `since` (epoch ms), of one sport. */
  'models:score': z.tuple([
    z.object({ since: z.number().int().nonnegative().optional(), sportId: id.optional() }).strict(),
  ]),
  'models:progress': z.tuple([]),
  /** The rule lab over the lines of matches kicking off at or after `since` (epoch ms), of one sport. */
  'lab:run': z.tuple([z.object({ since: z.number().int().nonnegative().optional(), sportId: id.optional() }).strict()]),
  'lab:progress': z.tuple([]),
  'lab:cancel': z.tuple([]),
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
  /** Where this profile's history lives (a file path, or 'in memory'). */
  historyPath: string;
}

export interface CoverageView {
  /** Sport name -> number of events in the book, sorted by sport name. */
  sports: Array<{ sport: string; events: number }>;
  fetchedAt: number;
  raw: Coverage;
}

/** 'failing': the stream kept dropping and used up its opens for the hour; it rests, then tries again by itself. */
export type StreamState = 'connecting' | 'live' | 'reconnecting' | 'failing' | 'ended' | 'failed' | 'restricted';
/** A failed stream's endReason when the service does not know the event: its match is gone from the book. */
export const STREAM_GONE = 'unknown';

export interface QuotaView {
  used: number;
  remaining: number | null;
  limit: number | null;
  /** ms; when the hour's budget resets, when known. */
  resetAt: number | null;
  /** ms; no request goes out before this (after a 429). */
  pausedUntil: number | null;
  /** Where the limit comes from: the service's rate-limit headers, or the trader's setting; null when not connected. */
  source: 'headers' | 'setting' | null;
  /** Requests sent in the current hour, by purpose (every attempt, 429s included). */
  byPurpose: Record<Purpose, number>;
  /** Of the current hour's requests, those the service answered 429. */
  rateLimited: number;
  /** Requests the governor refused this hour, by purpose, for being over their purpose's share (none was sent). */
  refused: Record<Purpose, number>;
  /** While paused: the Retry-After the service sent, in seconds, when it was longer than the hour and cut to it. */
  retryAfterClampedFromS: number | null;
  /** The service's clock minus ours (ms), measured from /api/status; null before it answered. */
  clockSkewMs: number | null;
}

export interface StatusView {
  connection: 'online' | 'offline' | 'unknown';
  /** ms; when `connection` last changed (null before the first answer): "offline since 14:02". */
  connectionSince?: number | null;
  demo: boolean;
  /** 'rejected': a 401 paused everything that needs the key until a new one is entered. */
  auth: 'ok' | 'rejected' | 'missing';
  plan: Plan | null;
  /** Paths refused by the plan, with what they need. */
  restricted: Array<{ path: string; requiredPlan: string; yourPlan: string }>;
  quota: QuotaView;
  /**
   * endReason: why an 'ended' stream ended, as the service said it ('settled', 'removed', ...); on a 'failed' stream,
   * STREAM_GONE when the service does not know the event (any more).
   */
  streams: Array<{ eventId: number; state: StreamState; lastMessageAt: number | null; endReason?: string | null }>;
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

export interface SpecialsView {
  eventId: number;
  /** Set when the plan does not allow specials: what to tell the trader. */
  restricted: AppError | null;
  specials: SpecialView[];
  maxWinPoints: MaxWinPoint[];
  /** The event's market lines' max_win change points (kept for good), for the same timeline. */
  lineMaxWinPoints: LineMaxWinChange[];
}

/** An event snoozed until an instant (epoch ms). */
export interface SnoozedEvent {
  eventId: number;
  until: number;
}

/** What "Forget all keys" did: how many keys it removed, and the settings after it (the no-key state). */
export interface ForgetKeysResult {
  removed: number;
  settings: SettingsSnapshot;
}

export interface SettingsSnapshot {
  baseUrl: string | null;
  /** Whether a key is stored for the base URL. The key itself never leaves the main process. */
  hasKey: boolean;
  keychain: { available: boolean; message: string | null };
  demo: boolean;
  devigModel: DevigModel;
  maxWinThresholdPct: number;
  notifySettlements: boolean;
  /** Which settlements alert and notify; sports and leagues count when it is 'chosen'. */
  settlementAlerts: SettlementAlertScope;
  settlementSports: number[];
  settlementLeagues: number[];
  /** The window's sound for settlement alerts (on by default). OS notifications are silent: the sound is the window's. */
  settlementSound: boolean;
  /** The window's sound for max stake alerts (off by default). */
  maxWinSound: boolean;
  /** The window's sound for price and drop alerts (off by default). */
  priceSound: boolean;
  notifyMaxWin: boolean;
  doNotDisturb: boolean;
  retentionDays: number;
  /** Hours of full tick detail before ticks are compacted into one-minute bars (absent: the store's default, 1). */
  rawTickHours: number;
  settledEverySeconds: number;
  /** The hourly quota of the trader's plan, used while the service sends no rate-limit headers. */
  quotaPerHour: number;
  theme: 'dark' | 'light';
  mutedEvents: number[];
  /** Events whose alerts are snoozed, and until when: listed, but no notification, sound or flash meanwhile. */
  snoozedEvents: SnoozedEvent[];
  /** A side's fair price moving this many percent (since the open or within the window) alerts; 0 = off. */
  dropAlertPct: number;
  dropWindowMinutes: number;
  /** When drop alerts fire: before kick-off, in play (the stream says the match is live), or both (default). */
  dropAlertPhase: DropAlertPhase;
  /** The sports whose events' drops alert; empty (default): every sport. Price thresholds are not limited. */
  dropAlertSports: number[];
  /** How far (percent) a price must cross back before a threshold or drop alert can fire again. */
  priceAlertHysteresisPct: number;
  notifyPriceAlerts: boolean;
  /** The unit stakes and P/L are shown in; blank for none. */
  moneyUnit: string;
  /** How every price on screen reads: decimal, American, fractional, Hong Kong, Malay, Indonesian or implied %. */
  oddsFormat: OddsFormat;
  /** The IANA zone times are shown in (default: the OS zone). */
  timeZone: string;
  /** The watchlist grid's columns and sort, as this profile keeps them. */
  gridLayout: GridLayout;
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
    /** With a snapshot: the event as recorded from its header (teams, league, start, score), for an event the
     * renderer knew by id only. */
    event?: EventView;
    /** The stream said the event left the book ('settled', 'removed', or whatever reason the service gave): its
     * prices are no longer live. */
    ended?: string;
  }>;
  at: number;
}

export interface ResponseMap {
  'app:info': AppInfo;
  /** Reads settings and keychain again and reconnects (the retry after a locked keychain). */
  'app:reconnect': StatusView;
  'status:get': StatusView;
  'coverage:get': CoverageView;
  'sports:list': Sport[];
  /** The service's period descriptions as stored (fetched once per connection); empty before the first. */
  'periods:list': Period[];
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
  'settlements:detail': SettlementDetail | null;
  'settlements:syncNow': { added: number };
  'settlements:exportCsv': string;
  /** null: the trader cancelled the dialog. */
  'settlements:exportCsvToFile': { path: string; rows: number } | null;
  'alerts:list': AlertRecord[];
  'alerts:mute': null;
  /** The snoozes in force after the change. */
  'alerts:snooze': SnoozedEvent[];
  'settings:get': SettingsSnapshot;
  'settings:update': SettingsSnapshot;
  'settings:setApiKey': SettingsSnapshot;
  'settings:clearApiKey': SettingsSnapshot;
  /** Removes every service's key from the OS keychain, not only the current one's. */
  'settings:forgetAllKeys': ForgetKeysResult;
  'store:usage': StoreUsage;
  'store:compact': CompactNowResult;
  'bets:add': BetView;
  'bets:remove': null;
  'bets:update': BetView;
  'bets:restore': BetView;
  /** Oldest first: the bet as recorded, then as each edit, removal and restore left it. */
  'bets:history': BetRevision[];
  /** Newest first, with the totals of exactly these bets under the chosen model. */
  'bets:list': { bets: BetView[]; totals: BetTotals; model: DevigModel };
  'bets:exportCsv': string;
  'bets:settle': BetView;
  'bets:report': LedgerReport;
  'movers:list': MoverRow[];
  'lines:closing': LineCloseRow[];
  'priceAlerts:get': PriceAlertOverrides;
  'priceAlerts:set': PriceAlertOverrides;
  /** Scored in chunks, the host's event loop running between them; a second ask for the same filter joins the run. */
  'models:score': ModelScoreboard;
  /** How far the latest scoring run has got. */
  'models:progress': ScoreProgress;
  /** The rule lab (docs/trading.md, "Scoring a drop rule"), run in slices; a run asked again while it runs replaces it. */
  'lab:run': RuleLabResult;
  'lab:progress': LabProgress;
  /** Stops the running lab (its lab:run answers a cancelled error); false when none ran. */
  'lab:cancel': boolean;
}

/** A line's open and close with its CLV per side (percent, opening vs closing no-vig price, chosen model). */
export interface LineCloseRow extends LineCloseView {
  clv: Partial<Record<PriceSide, number>> | null;
}

/** One settled event explained: its lines, its period results, and what labels them (sport, period names). */
export interface SettlementDetail {
  settlement: SettledEvent;
  periodResults: PeriodResultView[];
  sportName: string | null;
  periodNames: Period[];
  /** The team of each team-total line (its market's side), where the stream showed the line. */
  teams?: Record<number, 'home' | 'away'>;
}

/**
 * A notification the core decided on (its kind, its pacing, and the settings that mute it: do-not-disturb, muted
 * events, the notify switches per kind), ready to show. Electron shows it natively; browser mode's page shows it as
 * a Web Notification and decides nothing.
 */
export interface NotificationView {
  /** Unique for the host's lifetime: the page's notification tag, so two tabs show one notification, not two. */
  id: number;
  kind: 'settlement' | 'max_win' | 'price';
  title: string;
  body: string;
  /** Clicking it opens this event (a settlement opens explained)... */
  eventId: number | null;
  /** ... at this line, selected in the detail (price, drop and max stake alerts of a line). */
  lineId: number | null;
  /** Play a sound with it (the settlement sound setting). */
  sound: boolean;
}

export interface PushPayloads {
  onStatus: StatusView;
  onOdds: OddsBatch;
  onWatchlist: WatchedEventView[];
  onAlert: AlertRecord;
  onSettlement: SettlementRow;
  onNotification: NotificationView;
  /** A notification was clicked: show this event, or its settlement (lines and period results) when it settled. */
  onFocusEvent: { eventId: number; kind?: 'event' | 'settlement'; lineId?: number | null };
  /** Raised by the browser transport itself (never by the core): whether the page reaches its host. */
  onBridge: { connected: boolean };
  /** The settings after a change from any window or tab (settings, key, mute, snooze), so every one shows the same. */
  onSettings: SettingsSnapshot;
}

/** What the renderer sees, in both hosts. */
export interface OddsdeskApi {
  invoke<C extends Channel>(channel: C, ...args: RequestArgs<C>): Promise<Result<ResponseMap[C]>>;
  on<E extends PushEventName>(event: E, listener: (payload: PushPayloads[E]) => void): () => void;
  /** The desktop shell's own requests; present only in Electron. */
  desktop?: DesktopApi;
}

// ---- the desktop shell (Electron main only): not the core's, so not in CoreHandlers ----

const desktopPatch = z.object({ closeToTray: z.boolean().optional() }).strict();
/** What a window of its own shows (./windowRoute.ts): a view, or one event's detail. */
const windowTarget = z.union([
  z.object({ view: z.literal('event'), eventId: id.max(Number.MAX_SAFE_INTEGER) }).strict(),
  z.object({ view: z.enum(WINDOW_VIEWS) }).strict(),
]);

export const desktopRequestSchemas = {
  'desktop:get': z.tuple([]),
  'desktop:update': z.tuple([desktopPatch]),
  'desktop:openLogFolder': z.tuple([]),
  'desktop:copyDiagnostics': z.tuple([]),
  'desktop:checkForUpdates': z.tuple([]),
  'desktop:installUpdate': z.tuple([]),
  'desktop:openWindow': z.tuple([windowTarget]),
} as const satisfies Record<DesktopChannel, z.ZodTuple>;

export type DesktopRequestArgs<C extends DesktopChannel> = z.infer<(typeof desktopRequestSchemas)[C]>;
export type DesktopPatch = z.infer<typeof desktopPatch>;

export interface UpdateView {
  /**
   * 'off': no update feed is configured in this build (updates come with a new installer). 'manual': a new version
   * exists but this build will not install it itself (on Linux: no release key, or the download's signature is
   * missing or does not verify); `message` says where to get it and why.
   */
  state: 'off' | 'idle' | 'checking' | 'latest' | 'available' | 'downloading' | 'ready' | 'manual' | 'error';
  currentVersion: string;
  /** The version on offer, once one is found. */
  version: string | null;
  /** 0–100 while downloading. */
  percent: number | null;
  message: string | null;
}

export interface DesktopView {
  /** Closing the window keeps Oddsdesk watching from the tray; quit from the tray or the menu. */
  closeToTray: boolean;
  /** False where the desktop has no tray: closing the window then quits. */
  trayAvailable: boolean;
  logFolder: string;
  update: UpdateView;
}

export interface DesktopResponseMap {
  'desktop:get': DesktopView;
  'desktop:update': DesktopView;
  /** Opens the log folder in the file manager. */
  'desktop:openLogFolder': null;
  /** The diagnostics summary, also put on the clipboard: versions, OS, connection, recent (scrubbed) log lines. */
  'desktop:copyDiagnostics': string;
  'desktop:checkForUpdates': UpdateView;
  /** Downloads (if needed), closes the app cleanly and installs. */
  'desktop:installUpdate': UpdateView;
  /** Opens a window for one view or event, with the main window's preload and security; one already open for it
   * comes forward instead. */
  'desktop:openWindow': null;
}

export interface DesktopApi {
  invoke<C extends DesktopChannel>(channel: C, ...args: DesktopRequestArgs<C>): Promise<Result<DesktopResponseMap[C]>>;
}

export type DesktopHandlers = {
  [C in DesktopChannel]: (...args: DesktopRequestArgs<C>) => Promise<DesktopResponseMap[C]> | DesktopResponseMap[C];
};

/** `dispatch` for the desktop shell's channels: validates, runs, never throws. */
export function dispatchDesktop(handlers: DesktopHandlers, channel: unknown, args: unknown): Promise<Result<unknown>> {
  return dispatchTo(
    desktopRequestSchemas,
    handlers as Record<DesktopChannel, unknown>,
    isDesktopChannel,
    'desktop request',
    channel,
    args,
  );
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
export function dispatch(handlers: CoreHandlers, channel: unknown, args: unknown): Promise<Result<unknown>> {
  return dispatchTo(requestSchemas, handlers as Record<Channel, unknown>, isChannel, 'request channel', channel, args);
}

/** The one validating dispatcher behind both contracts (the core's and the desktop shell's). */
async function dispatchTo<C extends string>(
  schemas: Record<C, z.ZodTuple>,
  handlers: Record<C, unknown>,
  known: (value: unknown) => value is C,
  what: string,
  channel: unknown,
  args: unknown,
): Promise<Result<unknown>> {
  if (!known(channel)) {
    // Never String() an untrusted value: an object whose toString is not a function makes String() throw.
    const shown =
      typeof channel === 'string' ? JSON.stringify(channel.slice(0, 64)) : `a value of type ${typeof channel}`;
    return { ok: false, error: { kind: 'validation', message: `Unknown ${what}: ${shown}` } };
  }
  const parsed = schemas[channel].safeParse(args ?? []);
  if (!parsed.success) {
    // In the trader's words, about the field: "Drop alert must be a number from 0 to 100".
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      error: {
        kind: 'validation',
        message: issue ? validationMessage(channel, schemas[channel], issue) : 'The request was not valid',
      },
    };
  }
  try {
    const handler = handlers[channel] as (...a: unknown[]) => unknown;
    return { ok: true, value: await handler(...(parsed.data as unknown[])) };
  } catch (e) {
    return { ok: false, error: toAppError(e) };
  }
}
