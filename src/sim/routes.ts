// The /api operations of the simulated service: each reads its query through QueryReader and answers from the
// world. Auth, quota, plans and faults happen before these run (server.ts); the stream lives in stream.ts.
import type { DevigModel } from '../shared/api';
import {
  DEFAULT_DEVIG_MODEL,
  PARAMS,
  PATHS,
  SETTLED_DEFAULT_WINDOW_S,
  OUTRIGHT_MIN_CONTESTANTS_DEFAULT,
  FIXTURES_LIVE_NOW,
  SPEC_VERSION,
  formatServiceTime,
} from '../shared/api';
import { PERIODS } from './catalog';
import type { KeyRecord } from './access';
import type { QueryReader } from './validate';
import type { World } from './world';

export interface JsonAnswer {
  status: number;
  body: unknown;
}

export interface RouteContext {
  world: World;
  q: QueryReader;
  key: KeyRecord | null;
  simNowMs: number;
}

/** Returns the answer, or null when validation found issues (the caller turns those into the 422). */
type Route = (ctx: RouteContext) => JsonAnswer | null;

const ok = (body: unknown): JsonAnswer => ({ status: 200, body });

/** Model for the leading todds: the query, then the account preference, then the service default. */
function modelOf(ctx: RouteContext, param: string): DevigModel {
  return ctx.q.model(param) ?? ctx.key?.model ?? DEFAULT_DEVIG_MODEL;
}

export const ROUTES: Record<string, Route> = {
  [PATHS.status]: (ctx) => ok({ status: 'ok', version: SPEC_VERSION, time: formatServiceTime(ctx.simNowMs) }),

  [PATHS.sports]: (ctx) => ok(ctx.world.sports()),

  [PATHS.coverage]: (ctx) => ok(ctx.world.coverage()),

  [PATHS.periods]: () => ok(PERIODS),

  [PATHS.fixtures]: (ctx) => {
    const p = PARAMS.fixtures;
    const sportId = ctx.q.optionalInt(p.sportId);
    const live = ctx.q.optionalInt(p.live);
    if (ctx.q.issues.length) return null;
    return ok(ctx.world.fixtures(sportId, live === FIXTURES_LIVE_NOW));
  },

  [PATHS.results]: (ctx) => {
    const eventId = ctx.q.requiredInt(PARAMS.results.eventId);
    if (eventId === null) return null;
    return ok(ctx.world.results(eventId));
  },

  [PATHS.settlement]: (ctx) => {
    const eventId = ctx.q.requiredInt(PARAMS.settlement.eventId);
    if (eventId === null) return null;
    const settled = ctx.world.settlement(eventId);
    return settled ? ok(settled) : { status: 404, body: { detail: `Event ${eventId} is not settled` } };
  },

  [PATHS.settled]: (ctx) => {
    const p = PARAMS.settled;
    const sinceParam = ctx.q.since(p.since);
    const sportId = ctx.q.optionalInt(p.sportId);
    const leagueId = ctx.q.optionalInt(p.leagueId);
    const limit = ctx.q.limit(p.limit);
    if (ctx.q.issues.length) return null;
    const since = sinceParam ?? Math.floor(ctx.simNowMs / 1000) - SETTLED_DEFAULT_WINDOW_S;
    const page = ctx.world.settledSince(since, { sportId, leagueId }, limit);
    const lastRow = page[page.length - 1];
    return ok({ last: lastRow ? lastRow.sec : since, since, count: page.length, events: page.map((r) => r.event) });
  },

  [PATHS.specialsOpening]: (ctx) => {
    const p = PARAMS.specialsOpening;
    const eventId = ctx.q.requiredInt(p.eventId);
    const specialId = ctx.q.optionalInt(p.specialId);
    const model = modelOf(ctx, p.model);
    if (eventId === null || ctx.q.issues.length) return null;
    return ok(ctx.world.specialsOpening(eventId, specialId, model));
  },

  [PATHS.specialsHistory]: (ctx) => {
    const p = PARAMS.specialsHistory;
    const eventId = ctx.q.requiredInt(p.eventId);
    const specialId = ctx.q.optionalInt(p.specialId);
    const model = modelOf(ctx, PARAMS.specialsOpening.model);
    if (eventId === null || ctx.q.issues.length) return null;
    return ok(ctx.world.specialsHistory(eventId, specialId, model));
  },

  [PATHS.specialsFixtures]: (ctx) => {
    const p = PARAMS.specialsFixtures;
    const eventId = ctx.q.requiredInt(p.eventId);
    const hasOpening = ctx.q.flag(p.hasOpening);
    const hasClosing = ctx.q.flag(p.hasClosing);
    if (eventId === null || ctx.q.issues.length) return null;
    return ok(ctx.world.specialFixtures(eventId, hasOpening, hasClosing));
  },

  [PATHS.outrightMarkets]: (ctx) => {
    const p = PARAMS.outrightMarkets;
    const min = ctx.q.optionalInt(p.minContestants) ?? OUTRIGHT_MIN_CONTESTANTS_DEFAULT;
    const sportId = ctx.q.optionalInt(p.sportId);
    const model = modelOf(ctx, PARAMS.specialsOpening.model);
    if (ctx.q.issues.length) return null;
    return ok(ctx.world.outrightMarkets(min, sportId, model));
  },
};
