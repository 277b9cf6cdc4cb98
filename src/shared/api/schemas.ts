// Runtime schemas of every record the service sends, and the TypeScript types derived from them: one source of
// truth for the simulator, the client and the tests. Objects ignore unknown fields (never fatal); a record that
// breaks its schema is dropped alone by `parseRecords`, never the whole response.
import { z } from 'zod';
import { isServiceTime } from './time';
import { DEVIG_MODELS, PLANS, STREAM_END_REASONS } from './spec';

const int = z.number().int();
const num = z.number().finite();
const serviceTime = z.string().refine(isServiceTime, { message: 'expected a date-time YYYY-MM-DDTHH:MM:SS' });
/**
 * Decimal odds are > 1; a price of 1 or less would divide fair probability by zero downstream. Specials and outright
 * records keep this strict rule (one contestant's row is already the unit that is dropped); a market's prices use the
 * per-side rule of PricesSchema below.
 */
const odds = num.gt(1);
/** A settlement word: the spec's win/loss/push, or another word the service uses, kept as sent. */
const outcomeWord = z.string().trim().min(1).max(40);

// ---- /api/status, /api/sports, /api/fixtures, /api/coverage, /api/periods ----

export const StatusSchema = z.object({ status: z.string(), version: z.string(), time: z.string() });
export type ServiceStatus = z.infer<typeof StatusSchema>;

export const SportSchema = z.object({ sport_id: int, name: z.string() });
export type Sport = z.infer<typeof SportSchema>;

export const FixtureSchema = z.object({
  event_id: int,
  sport_id: int,
  sport_name: z.string(),
  league_id: int,
  league_name: z.string(),
  runner_home: z.string(),
  runner_away: z.string(),
  starts: serviceTime,
  live_status: int,
});
export type Fixture = z.infer<typeof FixtureSchema>;

export const CoverageSchema = z.object({ standard: z.record(z.string(), int.nonnegative()) });
export type Coverage = z.infer<typeof CoverageSchema>;

export const PeriodSchema = z.object({ period: int, description: z.string() });
export type Period = z.infer<typeof PeriodSchema>;

// ---- results and settlements ----

export const PeriodResultSchema = z.object({
  event_id: int,
  period: int.nonnegative(),
  status: int,
  score_home: int.nullable(),
  score_away: int.nullable(),
  sets_home: int.nullable(),
  sets_away: int.nullable(),
  settlement_id: int,
  cancellation_reason: z.string().nullable(),
  timestamp: serviceTime.nullable(),
});
export type PeriodResult = z.infer<typeof PeriodResultSchema>;

export const SettlementLineSchema = z.object({
  line_id: int,
  period: int.nonnegative(),
  // moneyline, spread, totals, team totals; other values are kept, not rejected.
  market: z.string().min(1),
  line: num.nullable(),
  // The spec's words are win, loss and push. Another word (void, half-win, ...) is kept as sent, never a reason to
  // drop the line: the bet on it goes to the trader to settle by hand with the word named (src/shared/trading.ts).
  outcome_home: outcomeWord,
  outcome_draw: outcomeWord,
  outcome_away: outcomeWord,
});
export type SettlementLine = z.infer<typeof SettlementLineSchema>;

export const SettledEventSchema = z.object({
  event_id: int,
  sport_id: int,
  league_id: int,
  league_name: z.string(),
  runner_home: z.string(),
  runner_away: z.string(),
  starts: serviceTime,
  score_home: int,
  score_away: int,
  status: z.string(),
  settled_at: serviceTime,
  settlement: z.array(SettlementLineSchema),
});
export type SettledEvent = z.infer<typeof SettledEventSchema>;

/** The envelope of /api/settled; `events` is validated record by record with SettledEventSchema. */
export const SettledPageEnvelopeSchema = z.object({
  last: int,
  since: int,
  count: int.nonnegative(),
  events: z.array(z.unknown()),
});
export interface SettledPage {
  last: number;
  since: number;
  count: number;
  events: SettledEvent[];
}

// ---- specials and outrights ----

export const TrueOddsByModelSchema = z.object(
  Object.fromEntries(DEVIG_MODELS.map((m) => [m, odds])) as Record<(typeof DEVIG_MODELS)[number], typeof odds>,
);
export type TrueOddsByModel = z.infer<typeof TrueOddsByModelSchema>;

export const SpecialOpeningSchema = z.object({
  event_id: int,
  special_id: int,
  special_name: z.string(),
  contestant_id: int,
  contestant_name: z.string(),
  handicap: num,
  odds: odds,
  todds: odds,
  period: int,
  max_win: num.nonnegative(),
  cutoff: z.string(),
  timestamp: z.string(),
  // Only the opening (first) and closing (last before cutoff) ticks carry it.
  true_odds_by_model: TrueOddsByModelSchema.nullish(),
});
export type SpecialOpening = z.infer<typeof SpecialOpeningSchema>;
/** /api/specials/history returns ticks of the same shape, oldest first, one per max_win change. */
export type SpecialTick = SpecialOpening;

export const SpecialFixtureSchema = z.object({
  sport_id: int,
  league_id: int,
  special_id: int,
  bet_type: z.string(),
  special_name: z.string(),
  starts: z.string(),
  cutoff: z.string(),
  category: z.string(),
  units: z.string(),
  // null for tournament futures, and so are the runners.
  event_id: int.nullable(),
  period: int,
  runner_home: z.string().nullable(),
  runner_away: z.string().nullable(),
  contestant_id: int,
  contestant_name: z.string(),
  timestamp: z.string(),
});
export type SpecialFixture = z.infer<typeof SpecialFixtureSchema>;

export const ContestantSchema = z.object({ name: z.string(), handicap: num, odds: odds, todds: odds });
export type Contestant = z.infer<typeof ContestantSchema>;

export const OutrightMarketSchema = z.object({
  event_id: int,
  special_id: int,
  special_name: z.string(),
  cutoff: z.string(),
  sport_id: int,
  sport_name: z.string(),
  league_id: int,
  league_name: z.string(),
  home: z.string(),
  away: z.string(),
  starts: z.string(),
  live_status: int,
  contestants: z.array(ContestantSchema),
});
export type OutrightMarket = z.infer<typeof OutrightMarketSchema>;

// ---- the stream ----

/** The sides a market's `prices` may carry, in the order the fast path and the schema both build them. */
const PRICE_SIDES = ['home', 'draw', 'away', 'over', 'under'] as const;
type PriceSide = (typeof PRICE_SIDES)[number];

/** A market's prices after parsing: only the sides with a usable decimal price (a finite number > 1). */
export type Prices = Partial<Record<PriceSide, number>>;

/** A usable decimal price: a finite number above 1. */
export const isUsablePrice = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 1;

/**
 * One side's price as sent. A number that is not a usable decimal price (1.0 or less, for a line about to be decided,
 * or a non-finite value) and null mean "this side has no price now": the side is left out of `prices` and the rest of
 * the market is kept, so an update is never lost (with stale prices left on screen) because one side went to 1.0.
 * Any other type (a string, an object, a boolean) is a broken record and spoils the market, as every bad field does.
 */
const priceSide = z.custom<number | null | undefined>((v) => v === undefined || v === null || typeof v === 'number', {
  message: 'expected a decimal price (a number)',
});

export const PricesSchema = z
  .object({
    home: priceSide.optional(),
    draw: priceSide.optional(),
    away: priceSide.optional(),
    over: priceSide.optional(),
    under: priceSide.optional(),
  })
  .transform((sent): Prices => {
    const out: Prices = {};
    for (const k of PRICE_SIDES) {
      const p = sent[k];
      if (isUsablePrice(p)) out[k] = p;
    }
    return out;
  });

export const MarketSchema = z.object({
  line_id: int,
  period: int.nonnegative(),
  market: z.string().min(1),
  side: z.enum(['home', 'away']).nullable(),
  line: num.nullable(),
  // null: the market went offline.
  prices: PricesSchema.nullable(),
  max_win: num.nonnegative(),
  updated_at: z.string(),
});
export type Market = z.infer<typeof MarketSchema>;

export const EventOddsSchema = z.object({
  event_id: int,
  sport_id: int,
  league_id: int,
  league_name: z.string(),
  runner_home: z.string(),
  runner_away: z.string(),
  starts: serviceTime,
  live_status: int,
  score_home: int.nullable(),
  score_away: int.nullable(),
  markets: z.array(z.unknown()),
});
/** A snapshot after its markets were validated one by one. */
export interface EventOdds extends Omit<z.infer<typeof EventOddsSchema>, 'markets'> {
  markets: Market[];
}

export const OddsMessageSchema = z.object({ event_id: int, ts: z.string(), markets: z.array(z.unknown()) });
export interface OddsMessage {
  event_id: number;
  ts: string;
  markets: Market[];
}

export const ScoreMessageSchema = z.object({
  event_id: int,
  ts: z.string(),
  live_status: int,
  score_home: int.nullable(),
  score_away: int.nullable(),
});
export type ScoreMessage = z.infer<typeof ScoreMessageSchema>;

export const EndMessageSchema = z.object({ event_id: int, reason: z.enum(STREAM_END_REASONS).or(z.string()) });
export type EndMessage = z.infer<typeof EndMessageSchema>;

// ---- error bodies ----

export const DetailBodySchema = z.object({ detail: z.string() });
export const PlanRestrictionBodySchema = z.object({
  detail: z.string(),
  your_plan: z.string(),
  required_plan: z.string(),
});
export type PlanRestrictionBody = z.infer<typeof PlanRestrictionBodySchema>;
export const ValidationIssueSchema = z.object({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
});
export const ValidationBodySchema = z.object({ detail: z.array(ValidationIssueSchema) });
export type ValidationBody = z.infer<typeof ValidationBodySchema>;
export const PlanSchema = z.enum(PLANS);

// ---- record-by-record parsing ----

/** One record that failed its schema: where it was, and why. */
export interface RecordProblem {
  path: string;
  message: string;
  /** The record's event_id when it was still readable, so the one record can be asked for again on its own. */
  eventId?: number;
  /**
   * 'line': one settlement line of an otherwise good record was dropped (say, an outcome word this client does not
   * know). The record itself is kept and fetching it again would not help, so nothing asks for it again.
   */
  scope?: 'line';
}

export interface Parsed<T> {
  items: T[];
  problems: RecordProblem[];
}

function describe(error: z.ZodError): string {
  return error.issues
    .map((i) => `${i.path.length ? i.path.join('.') + ': ' : ''}${i.message}`)
    .join('; ');
}

/** Validates one value; on failure returns a problem located at `path`. */
export function parseRecord<T>(
  schema: z.ZodType<T>,
  value: unknown,
  path: string,
): { ok: true; value: T } | { ok: false; problem: RecordProblem } {
  const r = schema.safeParse(value);
  if (r.success) return { ok: true, value: r.data };
  const eventId = (value as { event_id?: unknown } | null)?.event_id;
  return {
    ok: false,
    problem: { path, message: describe(r.error), ...(Number.isSafeInteger(eventId) ? { eventId: eventId as number } : {}) },
  };
}

/** Validates each element alone: good records are kept, each bad one becomes one problem. */
export function parseRecords<T>(schema: z.ZodType<T>, values: readonly unknown[], basePath = ''): Parsed<T> {
  const items: T[] = [];
  const problems: RecordProblem[] = [];
  values.forEach((v, i) => {
    const r = parseRecord(schema, v, `${basePath}[${i}]`);
    if (r.ok) items.push(r.value);
    else problems.push(r.problem);
  });
  return { items, problems };
}

const SettledEventShellSchema = SettledEventSchema.extend({ settlement: z.array(z.unknown()) });

/**
 * One settled match, checked line by line: a line the schema does not accept is dropped and reported on its own
 * (scope 'line'), and the match is kept with its other lines. Only a bad match-level field spoils the record.
 */
export function parseSettledEvent(value: unknown, path: string): { ok: true; value: SettledEvent; lineProblems: RecordProblem[] } | { ok: false; problem: RecordProblem } {
  const shell = parseRecord(SettledEventShellSchema, value, path);
  if (!shell.ok) return shell;
  const lines = parseRecords(SettlementLineSchema, shell.value.settlement, `${path ? `${path}.` : ''}settlement`);
  const eventId = shell.value.event_id;
  return {
    ok: true,
    value: { ...shell.value, settlement: lines.items },
    lineProblems: lines.problems.map((p) => ({
      ...p,
      eventId,
      scope: 'line' as const,
      message: `event ${eventId}: a settlement line was dropped (${p.message}); the rest of the settlement is kept`,
    })),
  };
}

export function parseSettledEvents(values: readonly unknown[], basePath = ''): Parsed<SettledEvent> {
  const items: SettledEvent[] = [];
  const problems: RecordProblem[] = [];
  values.forEach((v, i) => {
    const r = parseSettledEvent(v, `${basePath}[${i}]`);
    if (!r.ok) problems.push(r.problem);
    else {
      items.push(r.value);
      problems.push(...r.lineProblems);
    }
  });
  return { items, problems };
}

export function parseSettledPage(body: unknown): Parsed<SettledEvent> & { page: SettledPage | null; envelope?: RecordProblem } {
  const env = parseRecord(SettledPageEnvelopeSchema, body, '');
  if (!env.ok) return { items: [], problems: [env.problem], page: null, envelope: env.problem };
  const { items, problems } = parseSettledEvents(env.value.events, 'events');
  return { items, problems, page: { ...env.value, events: items } };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isFinite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * The market schema's fast path, for the stream's hot loop (thousands of markets a second): a plain check of the
 * ordinary case that builds the same output zod would (known fields only, unknown ones dropped). It is never looser
 * than MarketSchema: anything it is unsure of (a wrong type, an edge such as an unsafe integer) returns null, and the
 * caller asks the schema, which also says what is wrong. A property test holds the two to the same answers.
 */
export function fastMarket(v: unknown): Market | null {
  if (!isObject(v)) return null;
  const { line_id, period, market, side, line, prices, max_win, updated_at } = v;
  if (!Number.isSafeInteger(line_id) || !Number.isSafeInteger(period) || (period as number) < 0) return null;
  if (typeof market !== 'string' || market.length === 0 || typeof updated_at !== 'string') return null;
  if (side !== null && side !== 'home' && side !== 'away') return null;
  if (line !== null && !isFinite(line)) return null;
  if (!isFinite(max_win) || max_win < 0) return null;
  let outPrices: Prices | null = null;
  if (prices !== null) {
    if (!isObject(prices)) return null;
    outPrices = {};
    for (const k of PRICE_SIDES) {
      const p = prices[k];
      // No price (absent, null) or an unusable one (1.0 or less, not finite): the side is left out, as the schema does.
      if (p === undefined || p === null) continue;
      if (typeof p !== 'number') return null; // a wrong type: the schema refuses it and says why
      if (isUsablePrice(p)) outPrices[k] = p;
    }
  }
  return { line_id: line_id as number, period: period as number, market, side, line, prices: outPrices, max_win, updated_at };
}

export function parseMarkets(values: readonly unknown[], basePath = 'markets'): Parsed<Market> {
  const items: Market[] = [];
  const problems: RecordProblem[] = [];
  values.forEach((v, i) => {
    const fast = fastMarket(v);
    if (fast) return void items.push(fast);
    const r = parseRecord(MarketSchema, v, `${basePath}[${i}]`);
    if (r.ok) items.push(r.value);
    else problems.push(r.problem);
  });
  return { items, problems };
}
