// Runtime schemas of every record the service sends, and the TypeScript types derived from them: one source of
// truth for the simulator, the client and the tests. Objects ignore unknown fields (never fatal); a record that
// breaks its schema is dropped alone by `parseRecords`, never the whole response.
import { z } from 'zod';
import { isServiceTime } from './time';
import { RESPONSE_LIMITS } from './limits';
import { DEVIG_MODELS, PLANS, STREAM_END_REASONS } from './spec';

const int = z.number().int();
/**
 * Any text the service sends: a record whose text is longer than RESPONSE_LIMITS.textChars is refused with this
 * reason, so a 4 MB league name never reaches the store, the screen or a log line.
 */
const text = z
  .string()
  .max(
    RESPONSE_LIMITS.textChars,
    `longer than ${RESPONSE_LIMITS.textChars} characters (the most any text from the service may hold)`,
  );
const num = z.number().finite();
const serviceTime = text.refine(isServiceTime, { message: 'expected a date-time YYYY-MM-DDTHH:MM:SS' });
/**
 * Decimal odds are > 1; a price of 1 or less would divide fair probability by zero downstream. Specials and outright
 * records keep this strict rule (one contestant's row is already the unit that is dropped); a market's prices use the
 * per-side rule of PricesSchema below.
 */
const odds = num.gt(1);
/** A settlement word: the spec's win/loss/push, or another word the service uses, kept as sent. */
const outcomeWord = z.string().trim().min(1).max(40);

// ---- /api/status, /api/sports, /api/fixtures, /api/coverage, /api/periods ----

export const StatusSchema = z.object({ status: text, version: text, time: text });
export type ServiceStatus = z.infer<typeof StatusSchema>;

export const SportSchema = z.object({ sport_id: int, name: text });
export type Sport = z.infer<typeof SportSchema>;

export const FixtureSchema = z.object({
  event_id: int,
  sport_id: int,
  sport_name: text,
  league_id: int,
  league_name: text,
  runner_home: text,
  runner_away: text,
  starts: serviceTime,
  live_status: int,
});
export type Fixture = z.infer<typeof FixtureSchema>;

export const CoverageSchema = z.object({ standard: z.record(z.string(), int.nonnegative()) });
export type Coverage = z.infer<typeof CoverageSchema>;

export const PeriodSchema = z.object({ period: int, description: text });
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
  cancellation_reason: text.nullable(),
  timestamp: serviceTime.nullable(),
});
export type PeriodResult = z.infer<typeof PeriodResultSchema>;

export const SettlementLineSchema = z.object({
  line_id: int,
  period: int.nonnegative(),
  // moneyline, spread, totals, team totals; other values are kept, not rejected.
  market: text.min(1),
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
  league_name: text,
  runner_home: text,
  runner_away: text,
  starts: serviceTime,
  score_home: int,
  score_away: int,
  status: text,
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
  special_name: text,
  contestant_id: int,
  contestant_name: text,
  handicap: num,
  odds: odds,
  todds: odds,
  period: int,
  max_win: num.nonnegative(),
  cutoff: text,
  timestamp: text,
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
  bet_type: text,
  special_name: text,
  starts: text,
  cutoff: text,
  category: text,
  units: text,
  // null for tournament futures, and so are the runners.
  event_id: int.nullable(),
  period: int,
  runner_home: text.nullable(),
  runner_away: text.nullable(),
  contestant_id: int,
  contestant_name: text,
  timestamp: text,
});
export type SpecialFixture = z.infer<typeof SpecialFixtureSchema>;

export const ContestantSchema = z.object({ name: text, handicap: num, odds: odds, todds: odds });
export type Contestant = z.infer<typeof ContestantSchema>;

export const OutrightMarketSchema = z.object({
  event_id: int,
  special_id: int,
  special_name: text,
  cutoff: text,
  sport_id: int,
  sport_name: text,
  league_id: int,
  league_name: text,
  home: text,
  away: text,
  starts: text,
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
  market: text.min(1),
  side: z.enum(['home', 'away']).nullable(),
  line: num.nullable(),
  // null: the market went offline.
  prices: PricesSchema.nullable(),
  max_win: num.nonnegative(),
  updated_at: text,
});
export type Market = z.infer<typeof MarketSchema>;

export const EventOddsSchema = z.object({
  event_id: int,
  sport_id: int,
  league_id: int,
  league_name: text,
  runner_home: text,
  runner_away: text,
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

export const OddsMessageSchema = z.object({ event_id: int, ts: text, markets: z.array(z.unknown()) });
export interface OddsMessage {
  event_id: number;
  ts: string;
  markets: Market[];
}

export const ScoreMessageSchema = z.object({
  event_id: int,
  ts: text,
  live_status: int,
  score_home: int.nullable(),
  score_away: int.nullable(),
});
export type ScoreMessage = z.infer<typeof ScoreMessageSchema>;

export const EndMessageSchema = z.object({ event_id: int, reason: z.enum(STREAM_END_REASONS).or(text) });
export type EndMessage = z.infer<typeof EndMessageSchema>;

// ---- error bodies ----

export const DetailBodySchema = z.object({ detail: text });
export const PlanRestrictionBodySchema = z.object({
  detail: text,
  your_plan: text,
  required_plan: text,
});
export type PlanRestrictionBody = z.infer<typeof PlanRestrictionBodySchema>;
export const ValidationIssueSchema = z.object({
  loc: z.array(z.union([text, z.number()])),
  msg: text,
  type: text,
});
export const ValidationBodySchema = z.object({ detail: z.array(ValidationIssueSchema) });
export type ValidationBody = z.infer<typeof ValidationBodySchema>;
export const PlanSchema = z.enum(PLANS);

// ---- record-by-record parsing, within the caps of ./limits ----

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
  /**
   * How many records this one problem stands for, when more than one: the summary of the problems past the shown
   * ones and of the records a refused remainder held (RESPONSE_LIMITS). Such a problem names no single record.
   */
  count?: number;
}

export interface Parsed<T> {
  items: T[];
  problems: RecordProblem[];
}

/** Records a problem stands for. */
export const problemCount = (p: RecordProblem): number => p.count ?? 1;

/**
 * The problems of one response (or one walk) within the caps: the first `shown` kept whole, the rest counted into
 * one summary problem. `refused()` says when so many records were bad that the rest of the response is not read.
 */
export interface ProblemBudget {
  add(p: RecordProblem): void;
  refused(): boolean;
  /** The problems to report: at most `shown` whole ones and one summary (with the unread remainder, if any). */
  done(unread?: { count: number; reason: string }): RecordProblem[];
}

export function problemBudget(path: string, shown: number = RESPONSE_LIMITS.problemsShown): ProblemBudget {
  const kept: RecordProblem[] = [];
  let hidden = 0;
  let hiddenRecordLevel = false;
  let badRecords = 0;
  let badLines = 0;
  return {
    add(p) {
      if (p.scope === 'line') badLines += problemCount(p);
      else badRecords += problemCount(p);
      if (kept.length < shown) return void kept.push(p);
      hidden += problemCount(p);
      if (p.scope !== 'line') hiddenRecordLevel = true;
    },
    // Lines are many to a record: ten times as many bad lines as bad records refuse the rest.
    refused: () => badRecords >= RESPONSE_LIMITS.badRecords || badLines >= RESPONSE_LIMITS.badRecords * 10,
    done(unread) {
      const unreadCount = unread?.count ?? 0;
      if (hidden === 0 && unreadCount === 0) return kept;
      const parts: string[] = [];
      if (hidden > 0)
        parts.push(
          `${hidden} more record${hidden === 1 ? '' : 's'} broke the contract (the first ${kept.length} are shown)`,
        );
      if (unreadCount > 0)
        parts.push(`${unreadCount} record${unreadCount === 1 ? ' was' : 's were'} not read: ${unread!.reason}`);
      const summary: RecordProblem = {
        path,
        message: parts.join('; '),
        count: hidden + unreadCount,
        ...(hiddenRecordLevel || unreadCount > 0 ? {} : { scope: 'line' as const }),
      };
      return [...kept, summary];
    },
  };
}

/** Why the rest of a list was not read: too many bad records before it, or more records than the list may hold. */
function unreadReason(total: number, read: number, cap: number, refused: boolean) {
  const count = total - read;
  if (count <= 0) return undefined;
  return {
    count,
    reason: refused
      ? `after ${RESPONSE_LIMITS.badRecords} bad ones the rest of the answer was refused`
      : `the answer held ${total} records, more than the ${cap} it may`,
  };
}

function describe(error: z.ZodError): string {
  const max = RESPONSE_LIMITS.issuesPerProblem;
  const shown = error.issues
    .slice(0, max)
    .map((i) => `${i.path.length ? i.path.slice(0, 8).join('.') + ': ' : ''}${i.message}`)
    .join('; ');
  const more = error.issues.length - max;
  return more > 0 ? `${shown}; and ${more} more` : shown;
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
    problem: {
      path,
      message: describe(r.error),
      ...(Number.isSafeInteger(eventId) ? { eventId: eventId as number } : {}),
    },
  };
}

/**
 * Validates each element alone: good records are kept, each bad one becomes one problem (within the budget). At most
 * `maxRecords` are read, and none after the budget refuses the rest; one summary problem counts what was not read.
 */
export function parseRecords<T>(
  schema: z.ZodType<T>,
  values: readonly unknown[],
  basePath = '',
  maxRecords: number = RESPONSE_LIMITS.listRecords,
): Parsed<T> {
  const items: T[] = [];
  const budget = problemBudget(basePath);
  const n = Math.min(values.length, maxRecords);
  let i = 0;
  for (; i < n && !budget.refused(); i++) {
    const r = parseRecord(schema, values[i], `${basePath}[${i}]`);
    if (r.ok) items.push(r.value);
    else budget.add(r.problem);
  }
  return { items, problems: budget.done(unreadReason(values.length, i, maxRecords, budget.refused())) };
}

const SettledEventShellSchema = SettledEventSchema.extend({ settlement: z.array(z.unknown()) });

/**
 * One settled match, checked line by line: a line the schema does not accept is dropped and reported on its own
 * (scope 'line'), and the match is kept with its other lines. Only a bad match-level field spoils the record.
 */
export function parseSettledEvent(
  value: unknown,
  path: string,
): { ok: true; value: SettledEvent; lineProblems: RecordProblem[] } | { ok: false; problem: RecordProblem } {
  const shell = parseRecord(SettledEventShellSchema, value, path);
  if (!shell.ok) return shell;
  const lines = parseRecords(
    SettlementLineSchema,
    shell.value.settlement,
    `${path ? `${path}.` : ''}settlement`,
    RESPONSE_LIMITS.settlementLines,
  );
  const eventId = shell.value.event_id;
  return {
    ok: true,
    value: { ...shell.value, settlement: lines.items },
    lineProblems: lines.problems.map((p) => ({
      ...p,
      eventId,
      scope: 'line' as const,
      message:
        p.count === undefined
          ? `event ${eventId}: a settlement line was dropped (${p.message}); the rest of the settlement is kept`
          : `event ${eventId}: settlement lines were dropped (${p.message}); the rest of the settlement is kept`,
    })),
  };
}

/** `total`: how many records the page held, when only the first ones were handed over (the client's paged read). */
export function parseSettledEvents(
  values: readonly unknown[],
  basePath = '',
  total: number = values.length,
): Parsed<SettledEvent> {
  const items: SettledEvent[] = [];
  const budget = problemBudget(basePath);
  const cap = RESPONSE_LIMITS.settledPageRecords;
  const n = Math.min(values.length, cap);
  let i = 0;
  for (; i < n && !budget.refused(); i++) {
    const r = parseSettledEvent(values[i], `${basePath}[${i}]`);
    if (!r.ok) budget.add(r.problem);
    else {
      items.push(r.value);
      for (const p of r.lineProblems) budget.add(p);
    }
  }
  return { items, problems: budget.done(unreadReason(Math.max(total, values.length), i, cap, budget.refused())) };
}

const SettledPageHeaderSchema = SettledPageEnvelopeSchema.omit({ events: true });

export function parseSettledPage(
  body: unknown,
  total?: number | null,
): Parsed<SettledEvent> & { page: SettledPage | null; envelope?: RecordProblem } {
  // The envelope without its events: the schema of `events` would copy the whole list (a million entries of a hostile
  // page) before parseSettledEvents reads the few it may.
  const events = isObject(body) ? body['events'] : undefined;
  const env = parseRecord(SettledPageHeaderSchema, isObject(body) ? { ...body, events: undefined } : body, '');
  if (!env.ok || !Array.isArray(events)) {
    const problem = env.ok ? { path: 'events', message: 'events: expected an array' } : env.problem;
    return { items: [], problems: [problem], page: null, envelope: problem };
  }
  const { items, problems } = parseSettledEvents(events, 'events', total ?? events.length);
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
  if (market.length > RESPONSE_LIMITS.textChars || updated_at.length > RESPONSE_LIMITS.textChars) return null;
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
  return {
    line_id: line_id as number,
    period: period as number,
    market,
    side,
    line,
    prices: outPrices,
    max_win,
    updated_at,
  };
}

export function parseMarkets(values: readonly unknown[], basePath = 'markets'): Parsed<Market> {
  const items: Market[] = [];
  const budget = problemBudget(basePath);
  const cap = RESPONSE_LIMITS.listRecords;
  const n = Math.min(values.length, cap);
  let i = 0;
  for (; i < n && !budget.refused(); i++) {
    const v = values[i];
    const fast = fastMarket(v);
    if (fast) {
      items.push(fast);
      continue;
    }
    const r = parseRecord(MarketSchema, v, `${basePath}[${i}]`);
    if (r.ok) items.push(r.value);
    else budget.add(r.problem);
  }
  return { items, problems: budget.done(unreadReason(values.length, i, cap, budget.refused())) };
}
