// The upstream service contract as we have decided it: everything `docs/service/interface.md` states plus every
// decision of `docs/service/assumptions.md` on what it leaves "not shown". This folder is the ONE place those decisions live:
// a change against the real service is a change here and nowhere else.

export const SPEC_VERSION = '1.0.0';

/** Header that carries the key on every request except /api/status. */
export const API_KEY_HEADER = 'X-API-Key';

export const PATHS = {
  status: '/api/status',
  sports: '/api/sports',
  fixtures: '/api/fixtures',
  coverage: '/api/coverage',
  periods: '/api/periods',
  results: '/api/results',
  settled: '/api/settled',
  settlement: '/api/settlement',
  specialsOpening: '/api/specials/opening',
  specialsFixtures: '/api/specials/fixtures',
  specialsHistory: '/api/specials/history',
  outrightMarkets: '/api/specials/outright-markets',
  stream: '/api/stream/event',
} as const;
export type ApiPath = (typeof PATHS)[keyof typeof PATHS];

/** Paths that need the enterprise plan (spec, Authentication 6). /api/specials/history is a specials endpoint too. */
export const ENTERPRISE_PATHS: readonly ApiPath[] = [
  PATHS.specialsOpening,
  PATHS.specialsFixtures,
  PATHS.specialsHistory,
  PATHS.outrightMarkets,
  PATHS.stream,
];

export const PLANS = ['starter', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export const DEVIG_MODELS = ['LOG', 'EM', 'MPTO', 'SHIN', 'OR'] as const;
export type DevigModel = (typeof DEVIG_MODELS)[number];
/** Model used when neither the request nor the account names one. */
export const DEFAULT_DEVIG_MODEL: DevigModel = 'MPTO';

/** Query parameter names (docs/service/assumptions.md, "Query parameter names"). */
export const PARAMS = {
  settled: { since: 'since', sportId: 'sport_id', leagueId: 'league_id', limit: 'limit' },
  specialsOpening: { eventId: 'event_id', specialId: 'special_id', model: 'model' },
  specialsFixtures: { eventId: 'event_id', hasOpening: 'has_opening', hasClosing: 'has_closing' },
  outrightMarkets: { minContestants: 'min_contestants', sportId: 'sport_id' },
  specialsHistory: { eventId: 'event_id', specialId: 'special_id' },
  stream: { eventId: 'event_id' },
  fixtures: { sportId: 'sport_id', live: 'live' },
  settlement: { eventId: 'event_id' },
  results: { eventId: 'event_id' },
} as const;

export const SETTLED_LIMIT = { min: 1, max: 1000, default: 200 } as const;
/** Without `since`, /api/settled returns this window. */
export const SETTLED_DEFAULT_WINDOW_S = 24 * 3600;
export const OUTRIGHT_MIN_CONTESTANTS_DEFAULT = 8;
/** Accepted values of the boolean flags of /api/specials/fixtures; anything else is a 422. */
export const FLAG_VALUES = ['1', 'true', 'false'] as const;
/** `live=2` on /api/fixtures: only events that are live now. */
export const FIXTURES_LIVE_NOW = 2;

/** live_status of fixtures and streams. */
export const LIVE_STATUS = { notLive: 0, liveNow: 1, willBeLive: 2 } as const;

/** The stream sends `: ping` at least this often; silence for twice this long means the connection is dead. */
export const STREAM_PING_INTERVAL_S = 15;
export const STREAM_EVENTS = ['snapshot', 'odds', 'score', 'end'] as const;
export type StreamEventName = (typeof STREAM_EVENTS)[number];
export const STREAM_END_REASONS = ['settled', 'removed'] as const;

/**
 * The most of one answer's body we read, in bytes (the spec states no size; our bound, so that a hostile or broken
 * upstream cannot exhaust memory). The largest page the spec allows is /api/settled at limit=1000: a settled event
 * with its settlement lines is about 1 KB in the simulator (5 to 7 lines), and a real one with every main line of
 * every period settled might carry 200 lines of some 130 bytes, 26 KB, so a full page is about 26 MB. /api/fixtures of
 * a whole book (about 220 bytes an event) stays under that up to 100,000 events, and the specials and outright lists
 * are far smaller. 32 MiB holds the worst of them with room to spare; a body over it is not read (an error that is not
 * retried: asking again would fetch the same body).
 */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/**
 * The most one stream line, or one message's lines together, may carry, in bytes. The largest message is a
 * `snapshot`: one `data:` line of EventOdds at about 210 bytes a market, so 1 MiB holds some 5,000 markets, several
 * times the deepest book one event plausibly has. A longer line or message drops the connection, which then reconnects
 * under the usual backoff.
 */
export const MAX_STREAM_MESSAGE_BYTES = 1024 * 1024;

/** HTTP status of a plan restriction (the spec does not show it). */
export const PLAN_RESTRICTED_STATUS = 403;
export const RATE_LIMIT_HEADERS = {
  retryAfter: 'Retry-After', // whole seconds
  limit: 'X-RateLimit-Limit',
  remaining: 'X-RateLimit-Remaining',
  reset: 'X-RateLimit-Reset', // Unix seconds
} as const;

export const OUTCOMES = ['win', 'loss', 'push'] as const;
export type Outcome = (typeof OUTCOMES)[number];
export const MARKET_KINDS = ['moneyline', 'spread', 'totals', 'team_total'] as const;
export type MarketKind = (typeof MARKET_KINDS)[number];
export const BET_TYPES = ['MULTI_WAY_HEAD_TO_HEAD', 'SPREAD', 'OVER_UNDER'] as const;

/**
 * A SettlementLine has outcome_home/draw/away only. For `totals` and `team_total` the over side is reported in
 * outcome_home and the under side in outcome_away; outcome_draw is `loss` on every two-way market.
 */
export const SETTLEMENT_OVER_UNDER_MAPPING = { over: 'outcome_home', under: 'outcome_away' } as const;
