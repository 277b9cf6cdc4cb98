// Must show 1 and 5: every error kind the simulator can produce maps to its AppError kind, and a response with
// one malformed record yields the good records plus one reported bad_payload. Real HTTP against the simulator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { ENT, STARTER, makeClient, startTestSim, type Sim } from './helpers';

let sim: Sim;
beforeAll(async () => {
  sim = await startTestSim();
});
afterAll(async () => {
  await sim.close();
});

function noKeyIn(value: unknown, key: string) {
  expect(JSON.stringify(value)).not.toContain(key);
}

describe('error kinds against the simulator', () => {
  it('auth: an unknown key gives auth (401) and the key appears nowhere in the error', async () => {
    const api = makeClient(sim.url, { key: 'not-a-real-key-999' });
    const r = await api.fixtures();
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.kind).toBe('auth');
      expect(r.error.message).toMatch(/key/i);
      noKeyIn(r.error, 'not-a-real-key-999');
    }
    expect(api.governor.state().auth).toBe('rejected');
    api.dispose();
  });

  it('plan: a starter key on specials gives plan with both plans, then no more requests to that path', async () => {
    const api = makeClient(sim.url, { key: STARTER });
    const fixtures = await api.fixtures();
    expect(fixtures.ok).toBe(true);
    const eventId = fixtures.ok ? fixtures.value[0]!.event_id : 1;
    const r = await api.specialsFixtures({ eventId });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toMatchObject({ kind: 'plan', yourPlan: 'starter', requiredPlan: 'enterprise' });
      expect(r.error.message).toContain('requires enterprise; your plan: starter');
    }
    const before = sim.requestLog().length;
    const again = await api.specialsFixtures({ eventId });
    expect(!again.ok && again.error.kind).toBe('plan');
    expect(sim.requestLog().length).toBe(before);
    expect(api.governor.state()).toMatchObject({ plan: 'starter' });
    expect(api.governor.state().restrictedPaths.map((p) => p.path)).toEqual(['/api/specials/fixtures']);
    api.dispose();
  });

  it('validation: a 422 carries its detail', async () => {
    const api = makeClient(sim.url, { key: ENT });
    const r = await api.results(1.5);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.kind).toBe('validation');
      expect(r.error.status).toBe(422);
      expect(r.error.message).toContain('event_id');
    }
    api.dispose();
  });

  it('not_found: settlement of an event that is not settled', async () => {
    const api = makeClient(sim.url, { key: ENT });
    const fixtures = await api.fixtures();
    const eventId = fixtures.ok ? fixtures.value[0]!.event_id : 1;
    const r = await api.settlement(eventId);
    expect(!r.ok && r.error.kind).toBe('not_found');
    api.dispose();
  });

  it('rate_limit: a 429 carries retryAfter', async () => {
    const key = sim.addKey('enterprise', { quotaPerHour: 2 });
    // Without X-RateLimit-* the client cannot know the quota is spent, so the third request meets the 429.
    sim.setFaults({ retryAfterS: 1, rateLimitHeaders: false }, key);
    const api = makeClient(sim.url, { key });
    expect((await api.periods()).ok).toBe(true);
    expect((await api.periods()).ok).toBe(true);
    const r = await api.periods();
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.kind).toBe('rate_limit');
      expect(r.error.retryAfter).toBe(1);
      noKeyIn(r.error, key);
    }
    expect(api.governor.state().pausedUntil).not.toBeNull();
    api.dispose();
  });

  it('server: 5xx is retried with backoff, then reported as server', async () => {
    const key = sim.addKey('enterprise');
    sim.setFaults({ serverErrorRate: 1 }, key);
    const api = makeClient(sim.url, { key }, { maxAttempts: 3 });
    const before = sim.requestLog().length;
    const r = await api.periods();
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.kind).toBe('server');
      expect(r.error.status).toBeGreaterThanOrEqual(500);
    }
    expect(
      sim
        .requestLog()
        .slice(before)
        .filter((e) => e.path === '/api/periods'),
    ).toHaveLength(3);
    api.dispose();
  });

  it('network: a closed port gives network', async () => {
    const port = await new Promise<number>((resolve) => {
      const srv = createServer();
      srv.listen(0, '127.0.0.1', () => {
        const p = (srv.address() as { port: number }).port;
        srv.close(() => resolve(p));
      });
    });
    const api = makeClient(`http://127.0.0.1:${port}`, { key: ENT }, { maxAttempts: 2 });
    const r = await api.periods();
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.kind).toBe('network');
      expect(r.error.message).toContain(`127.0.0.1:${port}`);
      noKeyIn(r.error, ENT);
    }
    api.dispose();
  });

  it('bad_payload: broken JSON fails the whole answer', async () => {
    const api = makeClient(sim.url, { key: ENT });
    // /api/status carries no record, so the simulator truncates its JSON. It takes no key: the fault is global.
    sim.setFaults({ malformedRate: 1 });
    try {
      const r = await api.status();
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.kind).toBe('bad_payload');
    } finally {
      sim.setFaults({});
    }
    api.dispose();
  });
});

describe('one malformed record', () => {
  it('yields the good records plus one reported bad_payload with its path', async () => {
    const key = sim.addKey('enterprise');
    const api = makeClient(sim.url, { key });
    const clean = await api.fixtures();
    expect(clean.ok && clean.problems).toEqual([]);
    sim.setFaults({ malformedRate: 1 }, key);
    // The simulator breaks one record 70% of the time and truncates the JSON otherwise: both are checked.
    let recordCases = 0;
    for (let i = 0; i < 12 && recordCases < 2; i++) {
      const r = await api.fixtures();
      if (!r.ok) {
        expect(r.error.kind).toBe('bad_payload');
        continue;
      }
      recordCases++;
      if (!clean.ok) continue;
      expect(r.problems).toHaveLength(1);
      expect(r.problems[0]).toMatchObject({ kind: 'bad_payload' });
      expect(r.problems[0]!.path).toMatch(/^\[\d+\]$/);
      expect(r.value).toHaveLength(clean.value.length - 1);
      const bad = Number(/\[(\d+)\]/.exec(r.problems[0]!.path)![1]);
      expect(r.value).toEqual(clean.value.filter((_, j) => j !== bad));
    }
    expect(recordCases).toBeGreaterThan(0);
    api.dispose();
  });
});
