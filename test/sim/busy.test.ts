// The busy day on the manual clock: two simulated hours (36 minutes by default, the full two under `npm run
// test:soak`) in seconds with at least 3,000 settlements an hour, mostly set sports, crowded seconds (some over 200, one an hour over 1,000 across sports, never over 900 for one sport, so a
// walk split by sport always moves), /api/results empty until the publication delay has passed, a quota of 1,000
// an hour answered with 429 + Retry-After, and streams that drop right after their snapshot while they flap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PATHS,
  PeriodResultSchema,
  parseRecords,
  parseServiceTime,
  parseSettledPage,
  type SettledEvent,
} from '../../src/shared/api';
import { startSimulator, type Simulator } from '../../src/sim';
import { runSimCli } from '../../src/sim/cli';
import { get, openSse } from '../../src/sim/testing';
import { logSoak, soak } from '../support/soak';

const START = '2026-11-22T12:00:00';
const startSec = Date.UTC(2026, 10, 22, 12) / 1000;
const sec = (iso: string) => Math.floor((parseServiceTime(iso) ?? 0) / 1000);
// Two simulated hours under `npm run test:soak`; by default 36 minutes, which cross the crowded seconds at :12, :24
// and :36 and the hour's flood at :30.
const MINUTES = soak(36, 120);

let sim: Simulator;
let key: string;
let advanceMs = 0;
beforeAll(async () => {
  sim = await startSimulator({
    seed: 42,
    busy: true,
    startTime: START,
    keys: [{ key: 'busy-test-enterprise', plan: 'enterprise' }],
  });
  key = sim.keys[0]!.key;
  logSoak(`busy day: ${MINUTES} simulated minutes (full: 120)`);
  const t = Date.now();
  for (let minute = 0; minute < MINUTES; minute++) await sim.advance(60);
  advanceMs = Date.now() - t;
});
afterAll(() => sim.close());

function runSettlements(): SettledEvent[] {
  return sim.truth.settled().filter((s) => sec(s.settled_at) > startSec);
}

describe('the busy day', () => {
  it('settles thousands an hour, mostly set sports, in crowded seconds, and runs its hours in seconds', () => {
    // A bound on the machine's speed, kept generous: 20 s for the full two simulated hours, the same 20 s for the
    // small run's 36 minutes.
    expect(advanceMs).toBeLessThan(20_000);
    const run = runSettlements();
    // Clock hours from the start (the small run has one of 36 minutes); a partial hour is held to its share of the
    // hourly figures: 3,000 settlements and five crowded seconds an hour pro rata, its flood (at :30) in full.
    for (let from = 0; from < MINUTES; from += 60) {
      const to = Math.min(MINUTES, from + 60);
      const share = (to - from) / 60;
      const inHour = run.filter(
        (s) => sec(s.settled_at) > startSec + from * 60 && sec(s.settled_at) <= startSec + to * 60,
      );
      expect(inHour.length).toBeGreaterThanOrEqual(3000 * share);
      const sets = inHour.filter((s) => [4, 5, 6].includes(s.sport_id)).length;
      expect(sets / inHour.length).toBeGreaterThan(0.85);
      const perSecond = new Map<string, number>();
      for (const s of inHour) perSecond.set(s.settled_at, (perSecond.get(s.settled_at) ?? 0) + 1);
      const crowds = [...perSecond.values()];
      expect(crowds.filter((n) => n > 200).length).toBeGreaterThanOrEqual(Math.floor(5 * share));
      expect(crowds.filter((n) => n > 1000).length).toBeGreaterThanOrEqual(1);
    }
    const perSportSecond = new Map<string, number>();
    for (const s of run)
      perSportSecond.set(
        `${s.settled_at}/${s.sport_id}`,
        (perSportSecond.get(`${s.settled_at}/${s.sport_id}`) ?? 0) + 1,
      );
    expect(Math.max(...perSportSecond.values())).toBeLessThanOrEqual(900);
    expect(new Set(run.map((s) => s.event_id)).size).toBe(run.length);
  });

  it('a crowded second traps a walk over all sports, while a walk split by sport sees every settlement once', async () => {
    const page = async (query: string) => {
      const r = await get(sim.url, `${PATHS.settled}?${query}`, key);
      expect(r.status).toBe(200);
      const parsed = parseSettledPage(r.json);
      expect(parsed.problems).toEqual([]);
      return parsed.page!;
    };
    const run = runSettlements();
    const perSecond = new Map<number, number>();
    for (const s of run) perSecond.set(sec(s.settled_at), (perSecond.get(sec(s.settled_at)) ?? 0) + 1);
    const flood = [...perSecond].find(([, n]) => n > 1000)![0];
    const trapped = await page(`since=${flood}&limit=1000`);
    expect(trapped.count).toBe(1000);
    expect(trapped.last).toBe(flood); // the inclusive cursor cannot move past this second without a split

    const seen = new Set<number>();
    for (const sport of [1, 2, 3, 4, 5, 6]) {
      let since = startSec + 1;
      for (;;) {
        const p = await page(`since=${since}&sport_id=${sport}&limit=1000`);
        for (const e of p.events) seen.add(e.event_id);
        if (p.count < 1000) break;
        expect(p.last).toBeGreaterThan(since);
        since = p.last;
      }
    }
    expect([...seen].sort()).toEqual(run.map((s) => s.event_id).sort());
  });

  it('publishes /api/results only after the delay', async () => {
    expect(sim.busy?.resultsDelayS).toBe(300);
    const nowSec = Math.floor(sim.now() / 1000);
    const fresh = runSettlements().filter((s) => [4, 5, 6].includes(s.sport_id) && sec(s.settled_at) > nowSec - 60);
    const old = runSettlements().find((s) => [4, 5, 6].includes(s.sport_id) && sec(s.settled_at) < nowSec - 600)!;
    expect(fresh.length).toBeGreaterThan(0);
    const results = async (eventId: number) => {
      const r = await get(sim.url, `${PATHS.results}?event_id=${eventId}`, key);
      expect(r.status).toBe(200);
      const parsed = parseRecords(PeriodResultSchema, r.json as unknown[]);
      expect(parsed.problems).toEqual([]);
      return parsed.items;
    };
    expect((await results(old.event_id)).length).toBeGreaterThan(2);
    for (const s of fresh.slice(0, 3)) expect(await results(s.event_id)).toEqual([]);
    await sim.advance(300);
    for (const s of fresh.slice(0, 3)) {
      const rows = await results(s.event_id);
      expect(rows[0]).toMatchObject({
        event_id: s.event_id,
        period: 0,
        score_home: s.score_home,
        score_away: s.score_away,
      });
    }
  });

  it('answers the 1,001st request of an hour with 429 and Retry-After', async () => {
    const fresh = sim.addKey('enterprise');
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const batch = await Promise.all(Array.from({ length: 50 }, () => get(sim.url, PATHS.periods, fresh)));
      statuses.push(...batch.map((r) => r.status));
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const over = await get(sim.url, PATHS.periods, fresh);
    expect(over.status).toBe(429);
    const wait = Number(over.headers.get('retry-after'));
    const toHourEnd = 3600 - (Math.floor(sim.now() / 1000) % 3600);
    expect(wait).toBe(toHourEnd);
  });

  it('drops a flapping stream right after its snapshot while the flap lasts; other streams stay', async () => {
    // A world of its own: the shared one has moved on (two hours in at full size, past its 60-minute flap window).
    const flappy = await startSimulator({
      seed: 42,
      busy: { flapMinutes: 10 },
      historyHours: 0,
      startTime: START,
      keys: [{ key, plan: 'enterprise' }],
    });
    try {
      const [id] = flappy.busy!.flappingEventIds;
      expect(id).toBeDefined();
      const calm = flappy.truth.bookIds().find((e) => !flappy.busy!.flappingEventIds.includes(e))!;
      const url = (e: number) => `${flappy.url}${PATHS.stream}?event_id=${e}`;
      for (let i = 0; i < 3; i++) {
        const flap = await openSse(url(id!), key);
        await flap.closed;
        expect(flap.messages.map((m) => m.event)).toEqual(['snapshot']);
      }
      const steady = await openSse(url(calm), key);
      await steady.waitFor(1);
      await flappy.advance(60);
      expect(flappy.openStreams()).toBe(1);
      steady.close();

      await flappy.advance(600);
      const after = await openSse(url(id!), key);
      await after.waitFor(1);
      await flappy.advance(60);
      expect(flappy.openStreams()).toBeGreaterThanOrEqual(1);
      expect(after.messages[0]?.event).toBe('snapshot');
      after.close();
    } finally {
      await flappy.close();
    }
  });
});

describe('the flap fault', () => {
  it('drops every stream the given simulated seconds after its opening, on the manual clock', async () => {
    const s = await startSimulator({ seed: 3, events: 10, historyHours: 0, keys: [{ key, plan: 'enterprise' }] });
    try {
      s.setFaults({ flapStreamS: 10 });
      const id = s.truth.bookIds()[0]!;
      const conn = await openSse(`${s.url}${PATHS.stream}?event_id=${id}`, key);
      await conn.waitFor(1);
      await s.advance(5);
      expect(s.openStreams()).toBe(1);
      await s.advance(5);
      await conn.closed;
      expect(s.openStreams()).toBe(0);
      expect(conn.messages[0]?.event).toBe('snapshot');
    } finally {
      await s.close();
    }
  });
});

describe('npm run sim -- --busy', () => {
  it('starts the busy day with its quota and says which streams flap', async () => {
    const lines: string[] = [];
    const s = await runSimCli(
      ['--port', '0', '--busy', '--flap-events', '1', '--results-delay-s', '120', '--events', '30'],
      (l) => lines.push(l),
    );
    try {
      expect(s.busy).toMatchObject({ resultsDelayS: 120 });
      expect(s.busy!.flappingEventIds).toHaveLength(1);
      expect(lines.join('\n')).toContain(`streams of ${s.busy!.flappingEventIds[0]} flap until`);
      const r = await get(s.url, PATHS.periods, s.keys[0]!.key);
      expect(r.headers.get('x-ratelimit-limit')).toBe('1000');
    } finally {
      await s.close();
    }
  });
});
