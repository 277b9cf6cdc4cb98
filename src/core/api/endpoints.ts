// The service's operations, one method each, in groups: the look-ups (sports, fixtures, coverage, periods, period
// results), the settlements (the settled walk's pages and one match's settlement) and the specials and outrights.
// Each checks its arguments, asks through ./requests.ts and validates the answer against the contract in
// src/shared/api, record by record, so one bad record is dropped and reported, not the whole answer.
import { z } from 'zod';
import {
  CoverageSchema,
  DEVIG_MODELS,
  FIXTURES_LIVE_NOW,
  FixtureSchema,
  OutrightMarketSchema,
  PARAMS,
  PATHS,
  PeriodResultSchema,
  PeriodSchema,
  RESPONSE_LIMITS,
  SETTLED_LIMIT,
  parseSettledEvent,
  SpecialFixtureSchema,
  SpecialOpeningSchema,
  SportSchema,
  StatusSchema,
  parseRecord,
  parseServiceTime,
  parseSettledPage,
  type Coverage,
  type DevigModel,
  type Fixture,
  type OutrightMarket,
  type Period,
  type PeriodResult,
  type ServiceStatus,
  type SettledEvent,
  type SettledPage,
  type SpecialFixture,
  type SpecialOpening,
  type SpecialTick,
  type Sport,
} from '../../shared/api';
import type { Governor } from './governor';
import { badPayload, badRecord, validation, type JsonRequests } from './requests';
import type { ApiResult, BadRecord, RequestOptions } from './types';

export interface SettledQuery {
  /** The `last` of the previous page, or an ISO date-time without zone. */
  since?: number | string;
  sportId?: number;
  leagueId?: number;
  limit?: number;
}

export interface LookupEndpoints {
  sports(o?: RequestOptions): Promise<ApiResult<Sport[]>>;
  fixtures(q?: { sportId?: number; live?: boolean }, o?: RequestOptions): Promise<ApiResult<Fixture[]>>;
  coverage(o?: RequestOptions): Promise<ApiResult<Coverage>>;
  periods(o?: RequestOptions): Promise<ApiResult<Period[]>>;
  results(eventId: number, o?: RequestOptions): Promise<ApiResult<PeriodResult[]>>;
}

export interface SettlementEndpoints {
  settled(q?: SettledQuery, o?: RequestOptions): Promise<ApiResult<SettledPage>>;
  settlement(eventId: number, o?: RequestOptions): Promise<ApiResult<SettledEvent>>;
}

export interface SpecialsEndpoints {
  specialsOpening(
    q: { eventId: number; specialId?: number; model?: DevigModel },
    o?: RequestOptions,
  ): Promise<ApiResult<SpecialOpening[]>>;
  specialsFixtures(
    q: { eventId: number; hasOpening?: boolean; hasClosing?: boolean },
    o?: RequestOptions,
  ): Promise<ApiResult<SpecialFixture[]>>;
  specialsHistory(q: { eventId: number; specialId: number }, o?: RequestOptions): Promise<ApiResult<SpecialTick[]>>;
  outrightMarkets(
    q?: { minContestants?: number; sportId?: number },
    o?: RequestOptions,
  ): Promise<ApiResult<OutrightMarket[]>>;
}

/** GET /api/status, timed so the service's `time` gives the skew of its clock against ours. */
export function readStatus(
  json: JsonRequests,
  governor: Governor,
  o: RequestOptions | undefined,
  maxAttempts?: number,
): Promise<ApiResult<ServiceStatus>> {
  return json.guarded(PATHS.status, async () => {
    const timing = { sentAt: 0, receivedAt: 0 };
    const r = await json.getJson(PATHS.status, {}, o, 'normal', {
      timing,
      ...(maxAttempts === undefined ? {} : { maxAttempts }),
    });
    if (!r.ok) return r;
    const parsed = parseRecord(StatusSchema, r.body, '');
    if (!parsed.ok) return { ok: false, error: badPayload(PATHS.status, parsed.problem.message, parsed.problem.path) };
    const serviceMs = parseServiceTime(parsed.value.time);
    if (serviceMs !== null) governor.noteServiceTime(serviceMs, timing.sentAt, timing.receivedAt);
    else
      governor.log(
        'warn',
        `Service status: the time ${JSON.stringify(parsed.value.time.slice(0, 40))} is not a date-time; clock skew not measured`,
      );
    return { ok: true, value: parsed.value, problems: [] };
  });
}

const CoverageEnvelope = z.object({ standard: z.record(z.string(), z.unknown()) });
const coverageCount = CoverageSchema.shape.standard.valueType;

export function lookupEndpoints(json: JsonRequests): LookupEndpoints {
  return {
    sports: (o) => json.list(PATHS.sports, SportSchema, {}, o, 'low'),
    fixtures: (q = {}, o) =>
      json.list(
        PATHS.fixtures,
        FixtureSchema,
        { [PARAMS.fixtures.sportId]: q.sportId, [PARAMS.fixtures.live]: q.live ? FIXTURES_LIVE_NOW : undefined },
        o,
        'normal',
      ),
    coverage: (o) =>
      json.guarded(PATHS.coverage, async () => {
        // Each sport's count is checked alone: one bad count must not hide the others.
        const r = await json.getJson(PATHS.coverage, {}, o, 'low');
        if (!r.ok) return r;
        const env = CoverageEnvelope.safeParse(r.body);
        if (!env.success) return { ok: false, error: badPayload(PATHS.coverage, 'expected {"standard": {...}}', '') };
        const standard: Record<string, number> = {};
        const problems: BadRecord[] = [];
        for (const [sport, count] of Object.entries(env.data.standard)) {
          const c = parseRecord(coverageCount, count, `standard.${sport}`);
          if (c.ok) standard[sport] = c.value;
          else problems.push(badRecord(PATHS.coverage, c.problem));
        }
        return { ok: true, value: { standard }, problems };
      }),
    periods: (o) => json.list(PATHS.periods, PeriodSchema, {}, o, 'low'),
    results: (eventId, o) =>
      json.list(PATHS.results, PeriodResultSchema, { [PARAMS.results.eventId]: eventId }, o, 'normal'),
  };
}

export function settlementEndpoints(json: JsonRequests): SettlementEndpoints {
  return {
    settled: (q = {}, o) =>
      json.guarded(PATHS.settled, async () => {
        if (
          q.limit !== undefined &&
          !(Number.isInteger(q.limit) && q.limit >= SETTLED_LIMIT.min && q.limit <= SETTLED_LIMIT.max)
        ) {
          return {
            ok: false,
            error: validation(`Settled matches: limit must be ${SETTLED_LIMIT.min} to ${SETTLED_LIMIT.max}.`),
          };
        }
        const p = PARAMS.settled;
        const r = await json.getJson(
          PATHS.settled,
          { [p.since]: q.since, [p.sportId]: q.sportId, [p.leagueId]: q.leagueId, [p.limit]: q.limit },
          o,
          'high',
          { paged: { member: 'events', max: RESPONSE_LIMITS.settledPageRecords } },
        );
        if (!r.ok) return r;
        const parsed = parseSettledPage(r.body, r.total);
        if (!parsed.page)
          return { ok: false, error: badPayload(PATHS.settled, parsed.envelope?.message ?? 'bad page', '') };
        return { ok: true, value: parsed.page, problems: parsed.problems.map((pr) => badRecord(PATHS.settled, pr)) };
      }),
    settlement: (eventId, o) =>
      json.guarded(PATHS.settlement, async () => {
        const r = await json.getJson(PATHS.settlement, { [PARAMS.settlement.eventId]: eventId }, o, 'high');
        if (!r.ok) return r;
        const parsed = parseSettledEvent(r.body, '');
        if (!parsed.ok)
          return { ok: false, error: badPayload(PATHS.settlement, parsed.problem.message, parsed.problem.path) };
        return {
          ok: true,
          value: parsed.value,
          problems: parsed.lineProblems.map((p) => badRecord(PATHS.settlement, p)),
        };
      }),
  };
}

export function specialsEndpoints(json: JsonRequests): SpecialsEndpoints {
  return {
    specialsOpening: (q, o) => {
      if (q.model !== undefined && !DEVIG_MODELS.includes(q.model)) {
        return Promise.resolve({
          ok: false,
          error: validation(`Unknown de-vig model; use one of ${DEVIG_MODELS.join(', ')}.`),
        });
      }
      const p = PARAMS.specialsOpening;
      return json.list(
        PATHS.specialsOpening,
        SpecialOpeningSchema,
        { [p.eventId]: q.eventId, [p.specialId]: q.specialId, [p.model]: q.model },
        o,
        'normal',
      );
    },
    specialsFixtures: (q, o) => {
      const p = PARAMS.specialsFixtures;
      const flag = (b: boolean | undefined) => (b === undefined ? undefined : b ? '1' : 'false');
      return json.list(
        PATHS.specialsFixtures,
        SpecialFixtureSchema,
        { [p.eventId]: q.eventId, [p.hasOpening]: flag(q.hasOpening), [p.hasClosing]: flag(q.hasClosing) },
        o,
        'normal',
      );
    },
    specialsHistory: ({ eventId, specialId }, o) => {
      const p = PARAMS.specialsHistory;
      return json.list(
        PATHS.specialsHistory,
        SpecialOpeningSchema,
        { [p.eventId]: eventId, [p.specialId]: specialId },
        o,
        'normal',
      );
    },
    outrightMarkets: ({ minContestants, sportId } = {}, o) => {
      const p = PARAMS.outrightMarkets;
      const query = { [p.minContestants]: minContestants, [p.sportId]: sportId };
      return json.list(PATHS.outrightMarkets, OutrightMarketSchema, query, o, 'low');
    },
  };
}
