// Contract suite: the simulator over real HTTP, every operation and every error row of the spec, checked with the
// shared schemas (zero problems), status codes and headers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CoverageSchema,
  DetailBodySchema,
  ENTERPRISE_PATHS,
  FixtureSchema,
  OutrightMarketSchema,
  PATHS,
  PeriodResultSchema,
  PeriodSchema,
  PlanRestrictionBodySchema,
  SettledEventSchema,
  SpecialFixtureSchema,
  SpecialOpeningSchema,
  SportSchema,
  StatusSchema,
  ValidationBodySchema,
  parseRecord,
  parseRecords,
  parseSettledPage,
  type Fixture,
  type PeriodResult,
  type SpecialOpening,
} from '../../src/shared/api';
import { tennisGamePeriod } from '../../src/shared/periods';
import { startSimulator, type Simulator } from '../../src/sim';
import { get } from '../../src/sim/testing';

const ENT = 'contract-enterprise';
const START = 'contract-starter';
let sim: Simulator;

function records<T>(schema: Parameters<typeof parseRecords<T>>[0], body: unknown): T[] {
  expect(Array.isArray(body)).toBe(true);
  const parsed = parseRecords(schema, body as unknown[]);
  expect(parsed.problems).toEqual([]);
  return parsed.items;
}

beforeAll(async () => {
  sim = await startSimulator({
    seed: 11,
    events: 40,
    keys: [
      { key: ENT, plan: 'enterprise' },
      { key: START, plan: 'starter' },
    ],
  });
});
afterAll(() => sim.close());

describe('open operations', () => {
  it('/api/status needs no key and reports the simulated clock', async () => {
    const r = await get(sim.url, PATHS.status);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    const status = parseRecord(StatusSchema, r.json, '');
    expect(status.ok && status.value).toMatchObject({
      status: 'ok',
      version: '1.0.0',
      time: new Date(sim.now()).toISOString().slice(0, 19),
    });
  });

  it('/api/sports, /api/periods and /api/coverage match their schemas; coverage counts the book', async () => {
    const sports = records(SportSchema, (await get(sim.url, PATHS.sports, START)).json);
    expect(sports.map((s) => s.name)).toEqual([
      'Soccer',
      'Basketball',
      'Baseball',
      'Tennis',
      'Volleyball',
      'Table Tennis',
    ]);
    const periods = records(PeriodSchema, (await get(sim.url, PATHS.periods, START)).json);
    expect(periods[0]).toEqual({ period: 0, description: 'Match' });
    const coverage = parseRecord(CoverageSchema, (await get(sim.url, PATHS.coverage, START)).json, '');
    if (!coverage.ok) throw new Error(coverage.problem.message);
    const fixtures = records<Fixture>(FixtureSchema, (await get(sim.url, PATHS.fixtures, START)).json);
    for (const s of sports)
      expect(coverage.value.standard[s.name]).toBe(fixtures.filter((f) => f.sport_id === s.sport_id).length);
  });

  it('/api/fixtures filters by sport_id, and live=2 keeps only events live now', async () => {
    const all = records<Fixture>(FixtureSchema, (await get(sim.url, PATHS.fixtures, START)).json);
    expect(new Set(all.map((f) => f.live_status))).toEqual(new Set([0, 1, 2]));
    const live = records<Fixture>(FixtureSchema, (await get(sim.url, `${PATHS.fixtures}?live=2`, START)).json);
    expect(live.length).toBeGreaterThan(0);
    expect(live.every((f) => f.live_status === 1)).toBe(true);
    expect(live.length).toBe(all.filter((f) => f.live_status === 1).length);
    const tennis = records<Fixture>(FixtureSchema, (await get(sim.url, `${PATHS.fixtures}?sport_id=4`, START)).json);
    expect(tennis.length).toBe(all.filter((f) => f.sport_id === 4).length);
  });
});

describe('settlements and results', () => {
  it('a settled event leaves /api/fixtures and shows in /api/settled, /api/settlement and (sets) /api/results', async () => {
    const settled = sim.truth.settled();
    expect(settled.length).toBeGreaterThan(3);
    const fixtures = records<Fixture>(FixtureSchema, (await get(sim.url, PATHS.fixtures, START)).json);
    for (const s of settled) expect(fixtures.some((f) => f.event_id === s.event_id)).toBe(false);

    const page = parseSettledPage((await get(sim.url, `${PATHS.settled}?since=0&limit=1000`, START)).json);
    expect(page.problems).toEqual([]);
    expect(page.items.map((e) => e.event_id)).toEqual(settled.map((e) => e.event_id));

    const one = settled[0];
    if (!one) throw new Error('no settlement');
    const r = await get(sim.url, `${PATHS.settlement}?event_id=${one.event_id}`, START);
    expect(r.status).toBe(200);
    expect(parseRecord(SettledEventSchema, r.json, '').ok).toBe(true);
    expect(r.json).toEqual(one);
  });

  it('settlement lines carry win/loss/push for every main market, and whole lines push', () => {
    const lines = sim.truth.settled().flatMap((s) => s.settlement);
    expect(new Set(lines.map((l) => l.market))).toEqual(new Set(['moneyline', 'spread', 'totals', 'team_total']));
    expect(lines.some((l) => l.outcome_home === 'push' && Number.isInteger(l.line))).toBe(true);
    for (const s of sim.truth.settled()) {
      const totals = s.settlement.find((l) => l.market === 'totals');
      if (!totals || totals.line === null) throw new Error('no totals line');
      const over = s.score_home + s.score_away - totals.line;
      expect(totals.outcome_home).toBe(over > 0 ? 'win' : over < 0 ? 'loss' : 'push');
    }
  });

  it('/api/results: set sports follow the period rule, continuous sports are empty', async () => {
    const settled = sim.truth.settled();
    const tennis = settled.find((s) => s.sport_id === 4);
    const soccer = settled.find((s) => s.sport_id === 1 || s.sport_id === 2 || s.sport_id === 3);
    if (!tennis || !soccer) throw new Error('need a settled tennis and a continuous event');
    const rows = records<PeriodResult>(
      PeriodResultSchema,
      (await get(sim.url, `${PATHS.results}?event_id=${tennis.event_id}`, START)).json,
    );
    const full = rows.find((r) => r.period === 0);
    expect(full).toMatchObject({ sets_home: tennis.score_home, sets_away: tennis.score_away, status: 1 });
    const sets = rows.filter((r) => r.period >= 1 && r.period <= 5);
    expect(sets.length).toBe(tennis.score_home + tennis.score_away);
    expect(sets.filter((r) => r.score_home === 1).length).toBe(tennis.score_home);
    const games = rows.filter((r) => r.period >= 6);
    expect(games.length).toBeGreaterThanOrEqual(12);
    for (const r of [...sets, ...games]) expect([r.score_home, r.score_away].sort()).toEqual([0, 1]);
    expect(games.some((r) => r.period === tennisGamePeriod(1, 1))).toBe(true);
    expect(games.every((r) => (r.period - 6) % 13 < 13 && r.period <= tennisGamePeriod(3, 13))).toBe(true);
    const ids = rows.map((r) => r.settlement_id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect((await get(sim.url, `${PATHS.results}?event_id=${soccer.event_id}`, START)).json).toEqual([]);
    expect((await get(sim.url, `${PATHS.results}?event_id=999`, START)).json).toEqual([]);
  });

  it('/api/settlement of an event still in the book is 404 with a detail', async () => {
    const id = sim.truth.bookIds()[0];
    const r = await get(sim.url, `${PATHS.settlement}?event_id=${id}`, START);
    expect(r.status).toBe(404);
    expect(DetailBodySchema.safeParse(r.json).success).toBe(true);
  });
});

describe('specials and outrights (enterprise)', () => {
  /** An event with specials whose cutoff is at least `aheadS` simulated seconds away. */
  const eventWithSpecials = async (aheadS = 0): Promise<{ id: number; rows: SpecialOpening[] }> => {
    for (const id of sim.truth.bookIds()) {
      const rows = records<SpecialOpening>(
        SpecialOpeningSchema,
        (await get(sim.url, `${PATHS.specialsOpening}?event_id=${id}`, ENT)).json,
      );
      const cutoff = rows[0] ? Date.parse(`${rows[0].cutoff}Z`) : 0;
      if (rows.length && cutoff - sim.now() >= aheadS * 1000) return { id, rows };
    }
    throw new Error('no event with specials');
  };

  it('/api/specials/opening: opening records with true_odds_by_model; todds follows model, then account, then MPTO', async () => {
    const { id, rows } = await eventWithSpecials();
    for (const r of rows) {
      expect(r.true_odds_by_model).toBeTruthy();
      expect(r.todds).toBe(r.true_odds_by_model?.MPTO);
    }
    const shin = records<SpecialOpening>(
      SpecialOpeningSchema,
      (await get(sim.url, `${PATHS.specialsOpening}?event_id=${id}&model=SHIN`, ENT)).json,
    );
    shin.forEach((r) => expect(r.todds).toBe(r.true_odds_by_model?.SHIN));
    const logKey = sim.addKey('enterprise', { model: 'LOG' });
    const pref = records<SpecialOpening>(
      SpecialOpeningSchema,
      (await get(sim.url, `${PATHS.specialsOpening}?event_id=${id}`, logKey)).json,
    );
    pref.forEach((r) => expect(r.todds).toBe(r.true_odds_by_model?.LOG));
    const oneSpecial = rows[0]?.special_id;
    const filtered = records<SpecialOpening>(
      SpecialOpeningSchema,
      (await get(sim.url, `${PATHS.specialsOpening}?event_id=${id}&special_id=${oneSpecial}`, ENT)).json,
    );
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.every((r) => r.special_id === oneSpecial)).toBe(true);
  });

  it('/api/specials/history: one tick group per max_win change; only opening and (after cutoff) closing carry true odds', async () => {
    const { id, rows } = await eventWithSpecials(2 * 3600);
    const specialId = rows[0]?.special_id;
    const history = async () =>
      records<SpecialOpening>(
        SpecialOpeningSchema,
        (await get(sim.url, `${PATHS.specialsHistory}?event_id=${id}&special_id=${specialId}`, ENT)).json,
      );
    const cutoff = Date.parse(`${rows[0]?.cutoff}Z`);
    await sim.advance(Math.max(0, (cutoff - sim.now()) / 1000 - 60));
    const before = await history();
    const stamps = [...new Set(before.map((t) => t.timestamp))];
    expect(stamps.length).toBeGreaterThan(2);
    const withTrue = before.filter((t) => t.true_odds_by_model);
    expect(new Set(withTrue.map((t) => t.timestamp))).toEqual(new Set([stamps[0]]));
    const maxWins = stamps.map((s) => before.find((t) => t.timestamp === s)?.max_win ?? 0);
    for (let i = 1; i < maxWins.length; i++) expect(maxWins[i]).toBeGreaterThan(maxWins[i - 1] ?? Infinity);
    await sim.advance(120);
    const after = await history();
    expect(after.length).toBe(before.length);
    const last = stamps[stamps.length - 1];
    expect(new Set(after.filter((t) => t.true_odds_by_model).map((t) => t.timestamp))).toEqual(
      new Set([stamps[0], last]),
    );
    const changes = sim.truth.maxWinChanges().filter((c) => c.special_id === specialId);
    expect(changes.length).toBe(before.length - before.filter((t) => t.timestamp === stamps[0]).length);
    const closing = await get(sim.url, `${PATHS.specialsFixtures}?event_id=${id}&has_closing=1`, ENT);
    expect(
      records(SpecialFixtureSchema, closing.json).some((f) => (f as { special_id: number }).special_id === specialId),
    ).toBe(true);
  });

  it('/api/specials/fixtures: event specials carry the event; tournament futures have event_id and runners null', async () => {
    const { id } = await eventWithSpecials();
    const fx = records(
      SpecialFixtureSchema,
      (await get(sim.url, `${PATHS.specialsFixtures}?event_id=${id}&has_opening=true`, ENT)).json,
    );
    expect(fx.length).toBeGreaterThan(0);
    expect(fx.every((f) => f.event_id === id && f.runner_home !== null)).toBe(true);
    const outrights = records(OutrightMarketSchema, (await get(sim.url, PATHS.outrightMarkets, ENT)).json);
    const futures = outrights.find((o) => o.special_name.endsWith('Winner'));
    if (!futures) throw new Error('no futures market');
    const ff = records(
      SpecialFixtureSchema,
      (await get(sim.url, `${PATHS.specialsFixtures}?event_id=${futures.event_id}`, ENT)).json,
    );
    expect(ff.length).toBe(futures.contestants.length);
    expect(
      ff.every(
        (f) => f.event_id === null && f.runner_home === null && f.runner_away === null && f.category === 'futures',
      ),
    ).toBe(true);
  });

  it('/api/specials/outright-markets honours min_contestants and sport_id', async () => {
    const all = records(OutrightMarketSchema, (await get(sim.url, PATHS.outrightMarkets, ENT)).json);
    expect(all.length).toBeGreaterThan(0);
    expect(all.every((o) => o.contestants.length >= 8)).toBe(true);
    const wide = records(
      OutrightMarketSchema,
      (await get(sim.url, `${PATHS.outrightMarkets}?min_contestants=12`, ENT)).json,
    );
    expect(wide.every((o) => o.contestants.length >= 12)).toBe(true);
    expect(wide.length).toBeLessThan(all.length);
    const soccer = records(OutrightMarketSchema, (await get(sim.url, `${PATHS.outrightMarkets}?sport_id=1`, ENT)).json);
    expect(soccer.length).toBeGreaterThan(0);
    expect(soccer.every((o) => o.sport_id === 1)).toBe(true);
  });
});

describe('error rows', () => {
  it('401 for a missing, unknown, revoked or regenerated key, with detail "Not authenticated"', async () => {
    const key = sim.addKey('starter');
    const renewed = sim.regenerateKey(key);
    const revoked = sim.addKey('starter');
    sim.revokeKey(revoked);
    for (const k of [undefined, 'nope', key, revoked]) {
      const r = await get(sim.url, PATHS.coverage, k);
      expect(r.status).toBe(401);
      expect(r.json).toEqual({ detail: 'Not authenticated' });
    }
    expect((await get(sim.url, PATHS.coverage, renewed)).status).toBe(200);
  });

  it('403 with detail, your_plan and required_plan on every enterprise path for a starter key', async () => {
    for (const path of ENTERPRISE_PATHS) {
      const r = await get(sim.url, `${path}?event_id=1`, START);
      expect(r.status, path).toBe(403);
      const body = PlanRestrictionBodySchema.parse(r.json);
      expect(body).toMatchObject({ your_plan: 'starter', required_plan: 'enterprise' });
    }
  });

  it.each([
    [`${PATHS.results}`, 'event_id', 'missing'],
    [`${PATHS.settlement}`, 'event_id', 'missing'],
    [`${PATHS.specialsOpening}`, 'event_id', 'missing'],
    [`${PATHS.specialsFixtures}`, 'event_id', 'missing'],
    [`${PATHS.specialsHistory}`, 'event_id', 'missing'],
    [`${PATHS.stream}`, 'event_id', 'missing'],
    [`${PATHS.results}?event_id=abc`, 'event_id', 'int_parsing'],
    [`${PATHS.specialsFixtures}?event_id=1&has_opening=yes`, 'has_opening', 'bool_parsing'],
    [`${PATHS.specialsFixtures}?event_id=1&has_closing=0`, 'has_closing', 'bool_parsing'],
    [`${PATHS.settled}?limit=0`, 'limit', 'greater_than_equal'],
    [`${PATHS.settled}?limit=1001`, 'limit', 'less_than_equal'],
    [`${PATHS.settled}?limit=ten`, 'limit', 'int_parsing'],
    [`${PATHS.settled}?since=yesterday`, 'since', 'value_error'],
    [`${PATHS.specialsOpening}?event_id=1&model=XYZ`, 'model', 'enum'],
    [`${PATHS.fixtures}?sport_id=x`, 'sport_id', 'int_parsing'],
  ])('422 on %s', async (path, param, type) => {
    const r = await get(sim.url, path, ENT);
    expect(r.status).toBe(422);
    const body = ValidationBodySchema.parse(r.json);
    expect(body.detail).toContainEqual(expect.objectContaining({ loc: ['query', param], type }));
  });

  it('accepted flag values and limits pass', async () => {
    for (const v of ['1', 'true', 'false'])
      expect(
        (await get(sim.url, `${PATHS.specialsFixtures}?event_id=1&has_opening=${v}&has_closing=${v}`, ENT)).status,
      ).toBe(200);
    for (const l of [1, 1000]) expect((await get(sim.url, `${PATHS.settled}?limit=${l}`, ENT)).status).toBe(200);
    expect((await get(sim.url, `${PATHS.settled}?since=2026-11-22T10:00:00`, ENT)).status).toBe(200);
  });

  it('stream of an unknown event is 404', async () => {
    const r = await get(sim.url, `${PATHS.stream}?event_id=42`, ENT);
    expect(r.status).toBe(404);
    expect(DetailBodySchema.safeParse(r.json).success).toBe(true);
  });
});

describe('quota', () => {
  it('counts every authenticated request, failed ones and stream opens included; 429 with Retry-After and the headers', async () => {
    const q = await startSimulator({ seed: 3, events: 6, historyHours: 0, quotaPerHour: 4 });
    try {
      const key = q.keys[0]?.key ?? '';
      const first = await get(q.url, PATHS.coverage, key);
      expect(first.headers.get('x-ratelimit-limit')).toBe('4');
      expect(first.headers.get('x-ratelimit-remaining')).toBe('3');
      const resetSec = Math.floor(q.now() / 1000 / 3600 + 1) * 3600;
      expect(first.headers.get('x-ratelimit-reset')).toBe(String(resetSec));
      expect((await get(q.url, `${PATHS.results}`, key)).status).toBe(422);
      expect((await get(q.url, `${PATHS.stream}?event_id=1`, key)).status).toBe(404);
      expect((await get(q.url, PATHS.status)).status).toBe(200); // no key: not counted
      const last = await get(q.url, PATHS.sports, key);
      expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
      const over = await get(q.url, PATHS.sports, key);
      expect(over.status).toBe(429);
      expect(over.json).toEqual({ detail: 'Hourly quota exceeded' });
      // Manual clock: the wait is quoted in simulated seconds up to the top of the hour.
      expect(over.headers.get('retry-after')).toBe(String(resetSec - Math.floor(q.now() / 1000)));
      await q.advance(resetSec - q.now() / 1000);
      expect((await get(q.url, PATHS.sports, key)).status).toBe(200);
    } finally {
      await q.close();
    }
  });

  it('on a real clock, Retry-After is the simulated wait divided by the speed, rounded up', async () => {
    const q = await startSimulator({
      seed: 3,
      events: 4,
      historyHours: 0,
      clock: 'real',
      speed: 600,
      quotaPerHour: 1,
      rateLimitHeaders: false,
    });
    try {
      const key = q.keys[0]?.key ?? '';
      const ok = await get(q.url, PATHS.sports, key);
      expect(ok.headers.get('x-ratelimit-limit')).toBeNull();
      const over = await get(q.url, PATHS.sports, key);
      expect(over.status).toBe(429);
      const wait = Number(over.headers.get('retry-after'));
      expect(Number.isInteger(wait)).toBe(true);
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(6); // at most one simulated hour / 600
    } finally {
      await q.close();
    }
  });
});

describe('faults and control', () => {
  it('per-key faults hit only that key: 5xx, malformed records, 429 storm, and they clear', async () => {
    const key = sim.addKey('starter');
    sim.setFaults({ serverErrorRate: 1 }, key);
    expect([500, 502, 503]).toContain((await get(sim.url, PATHS.sports, key)).status);
    expect((await get(sim.url, PATHS.sports, START)).status).toBe(200);
    sim.setFaults({ malformedRate: 1 }, key);
    let broken = 0;
    for (let i = 0; i < 6; i++) {
      const r = await get(sim.url, PATHS.fixtures, key);
      const bad = r.json === undefined || parseRecords(FixtureSchema, r.json as unknown[]).problems.length === 1;
      if (bad) broken++;
    }
    expect(broken).toBe(6);
    sim.setFaults({ rateLimitStormS: 5, retryAfterS: 7 }, key);
    const storm = await get(sim.url, PATHS.sports, key);
    expect(storm.status).toBe(429);
    expect(storm.headers.get('retry-after')).toBe('7');
    sim.setFaults({}, key);
    expect((await get(sim.url, PATHS.sports, key)).status).toBe(200);
  });

  it('the /__sim/ routes issue, regenerate and revoke keys, set faults, advance and expose truth and the request log', async () => {
    const post = async (path: string, body: unknown) => {
      const r = await fetch(new URL(path, sim.url), { method: 'POST', body: JSON.stringify(body) });
      return { status: r.status, json: (await r.json()) as Record<string, unknown> };
    };
    const issued = await post('/__sim/keys', { plan: 'starter', quotaPerHour: 50 });
    const key = String(issued.json.key);
    expect((await get(sim.url, PATHS.sports, key)).headers.get('x-ratelimit-limit')).toBe('50');
    const renewed = String((await post('/__sim/keys/regenerate', { key })).json.key);
    expect((await get(sim.url, PATHS.sports, key)).status).toBe(401);
    expect((await get(sim.url, PATHS.sports, renewed)).status).toBe(200);
    expect((await post('/__sim/faults', { key: renewed, serverErrorRate: 1 })).status).toBe(200);
    expect((await get(sim.url, PATHS.sports, renewed)).status).toBeGreaterThanOrEqual(500);
    expect((await post('/__sim/keys/revoke', { key: renewed })).status).toBe(200);
    expect((await get(sim.url, PATHS.sports, renewed)).status).toBe(401);
    const before = sim.now();
    const adv = await post('/__sim/advance', { seconds: 60 });
    expect(sim.now()).toBe(before + 60_000);
    expect(adv.json.now).toBe(new Date(sim.now()).toISOString().slice(0, 19));
    const truth = await get(sim.url, '/__sim/truth/settled');
    expect(truth.json).toEqual(sim.truth.settled());
    const id = sim.truth.bookIds()[0];
    expect((await get(sim.url, `/__sim/truth/event?event_id=${id}`)).json).toEqual(sim.truth.event(id ?? 0));
    const log = (await get(sim.url, '/__sim/requests')).json as Array<{
      keyId: string | null;
      status: number;
      path: string;
    }>;
    expect(log.some((e) => e.status === 401 && e.keyId !== null)).toBe(true);
    expect(JSON.stringify(log)).not.toContain(renewed);
    expect((await post('/__sim/keys', { plan: 'gold' })).status).toBe(400);
  });
});
