// Issue 11: the demo world runs on the wall clock. Its matches are compressed, but nothing in it is started, settled
// or timestamped in the future, so a demo cursor is a real second and demo screens never show tomorrow's results.
// Issue 24: it serves the service and nothing else; its control routes answer 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEY, startDemo, type Demo } from '../../src/sim/demo';
import { FixtureSchema, PATHS, parseRecords, parseServiceTime, parseSettledPage } from '../../src/shared/api';
import { get } from '../../src/sim/testing';

let demo: Demo;
beforeAll(async () => {
  demo = await startDemo({ seed: 7 });
});
afterAll(() => demo.close());

describe('demo world', () => {
  it('has settlements and live matches, none of them after the wall clock', async () => {
    const now = Date.now();
    const settled = await get(demo.baseUrl, `${PATHS.settled}?limit=1000`, DEMO_KEY);
    const page = parseSettledPage(settled.json).page!;
    expect(page.events.length).toBeGreaterThan(20);
    for (const e of page.events) {
      expect(parseServiceTime(e.settled_at)!, `settled_at ${e.settled_at}`).toBeLessThanOrEqual(Date.now() + 1000);
      expect(parseServiceTime(e.starts)!).toBeLessThan(parseServiceTime(e.settled_at)!);
    }
    // The cursor is a second of the wall clock, not hours ahead of it.
    expect(page.last * 1000).toBeLessThanOrEqual(Date.now() + 1000);
    expect(page.last * 1000).toBeGreaterThan(now - 3 * 3600_000);
    const fixtures = parseRecords(
      FixtureSchema,
      (await get(demo.baseUrl, PATHS.fixtures, DEMO_KEY)).json as unknown[],
    ).items;
    const live = fixtures.filter((f) => f.live_status === 1);
    expect(live.length).toBeGreaterThanOrEqual(3);
    for (const f of live) expect(parseServiceTime(f.starts)!).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('plays the trading situations of issue 22 now and then: suspensions, draw gaps, decided prices, void matches', async () => {
    const scenarios = demo.scenarios();
    const played = new Set(scenarios.filter((s) => s.state === 'played').map((s) => s.kind));
    for (const kind of ['suspension', 'draw_gap', 'decided_price']) expect(played, kind).toContain(kind);
    expect(played.has('abandoned') || played.has('cancelled')).toBe(true);
    const settled = parseSettledPage((await get(demo.baseUrl, `${PATHS.settled}?limit=1000`, DEMO_KEY)).json).items;
    expect(
      settled.some(
        (e) => e.sport_id === 1 && e.settlement.some((l) => l.line !== null && Math.abs((l.line * 2) % 1) === 0.5),
      ),
    ).toBe(true);
  });

  it('answers 404 to every control route, so nothing outside the app can issue keys, move time or switch faults on', async () => {
    const base = new URL(demo.baseUrl);
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/__sim/requests'],
      ['GET', '/__sim/truth/scenarios'],
      ['GET', '/__sim/truth/settled'],
      ['POST', '/__sim/keys', { plan: 'enterprise', key: 'planted-by-a-page' }],
      ['POST', '/__sim/faults', { serverErrorRate: 1 }],
      ['POST', '/__sim/keys/revoke', { key: DEMO_KEY }],
    ];
    for (const [method, path, body] of routes) {
      const res = await fetch(new URL(path, base), { method, ...(body ? { body: JSON.stringify(body) } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(await res.json()).toEqual({ detail: 'Not Found' });
    }
    // None of them did anything: no planted key, no faults, the demo key still works.
    expect((await get(demo.baseUrl, PATHS.sports, 'planted-by-a-page')).status).toBe(401);
    for (let i = 0; i < 5; i++) expect((await get(demo.baseUrl, PATHS.sports, DEMO_KEY)).status).toBe(200);
  });
});
