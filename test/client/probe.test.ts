// The free probe and the account by purpose over real HTTP: /api/status goes out without the key and costs no
// quota, its `time` gives the skew of the service's clock, a fault is followed by status probes (not keyed
// requests) until the service answers, and each operation is counted under the purpose it serves. The client runs
// on the manual clock; the simulator is real.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/core/api';
import { createStreamClient } from '../../src/core/stream';
import { PATHS } from '../../src/shared/api';
import { createManualClock } from '../support/manualClock';
import { ENT, PING_MS, startTestSim, until, type Sim } from './helpers';

let sim: Sim;
beforeAll(async () => {
  sim = await startTestSim();
});
afterAll(async () => {
  await sim.close();
});

describe('status probe', () => {
  it('sends no key, costs no quota, and measures the skew of the service clock', async () => {
    const clock = createManualClock(1_700_000_000_000);
    const api = createApiClient({ baseUrl: sim.url, keyProvider: () => ENT, clock });
    const before = sim.requestLog().length;
    const r = await api.status();
    expect(r.ok).toBe(true);
    const mine = sim.requestLog().slice(before);
    expect(mine.map((e) => [e.path, e.keyId])).toEqual([[PATHS.status, null]]);
    const s = api.governor.state();
    expect(s.quota.used).toBe(0);
    expect(s.requests.hour.total).toBe(0);
    // The service's `time` is whole seconds: the measure is at most a second short of the true skew.
    const truth = sim.now() - clock.now();
    expect(api.clockSkewMs()).not.toBeNull();
    expect(truth - api.clockSkewMs()!).toBeGreaterThanOrEqual(0);
    expect(truth - api.clockSkewMs()!).toBeLessThan(1000);
    expect(Math.abs(api.serviceNow() - sim.now())).toBeLessThan(1000);
    api.dispose();
  });

  it('after a network fault knocks with /api/status only, backing off, until the service answers', async () => {
    const clock = createManualClock(1_700_000_000_000);
    let down = true;
    const attempts: string[] = [];
    const api = createApiClient({
      baseUrl: sim.url,
      keyProvider: () => ENT,
      clock,
      governor: { retry: { maxAttempts: 1 } },
      probe: { baseMs: 1000, maxMs: 1000 },
      fetch: (input, init) => {
        attempts.push(new URL(String(input)).pathname);
        return down
          ? Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }))
          : fetch(input, init);
      },
    });
    const r = await api.fixtures();
    expect(!r.ok && r.error.kind).toBe('network');
    expect(api.governor.state().reachable).toBe(false);
    await clock.advance(1000);
    await clock.advance(1000);
    expect(attempts.length).toBeGreaterThanOrEqual(3);
    expect(attempts.slice(1).every((p) => p === PATHS.status)).toBe(true);
    expect(api.governor.state().reachable).toBe(false);

    down = false;
    const logBefore = sim.requestLog().length;
    await clock.advance(1000);
    expect(await until(() => api.governor.state().reachable === true, 3000)).toBe(true);
    const seen = sim.requestLog().slice(logBefore);
    expect(seen.map((e) => [e.path, e.keyId])).toEqual([[PATHS.status, null]]);
    // Back: the probing stops.
    const n = attempts.length;
    await clock.advance(10_000);
    expect(attempts).toHaveLength(n);
    // Only the keyed request that met the fault was counted.
    expect(api.governor.state().requests.hour).toMatchObject({ total: 1, byPurpose: { lookup: 1 } });
    api.dispose();
  });
});

describe('account by purpose', () => {
  it('counts each operation under the purpose it serves, stream opens included, and agrees with the service', async () => {
    const api = createApiClient({ baseUrl: sim.url, keyProvider: () => ENT });
    const streams = createStreamClient({ api, pingIntervalMs: PING_MS });
    const before = sim.requestLog().length;
    const fixtures = await api.fixtures();
    expect(fixtures.ok).toBe(true);
    const eventId = fixtures.ok ? fixtures.value[0]!.event_id : 0;
    const page = await api.settled({ limit: 5 });
    expect(page.ok).toBe(true);
    const settledId = page.ok ? page.value.events[0]!.event_id : 0;
    await api.settlement(settledId);
    await api.results(settledId);
    await api.specialsFixtures({ eventId });
    await api.periods({ purpose: 'ui' });
    streams.watch(eventId);
    expect(await until(() => streams.state(eventId)?.status === 'live', 3000)).toBe(true);
    await api.status();
    const keyed = sim
      .requestLog()
      .slice(before)
      .filter((e) => e.keyId !== null);
    expect(api.governor.state().requests.hour).toEqual({
      total: keyed.length,
      rateLimited: 0,
      byPurpose: { settled: 1, repair: 1, results: 1, specials: 1, stream: 1, lookup: 1, ui: 1 },
      refused: { settled: 0, repair: 0, results: 0, specials: 0, stream: 0, lookup: 0, ui: 0 },
    });
    streams.close();
    api.dispose();
  });
});
