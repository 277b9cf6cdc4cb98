// Must show 2 and 3 over real HTTP: after a 429 with Retry-After the simulator sees nothing from that key for that
// long, and after the key is regenerated the client sends nothing needing a key until it gets the new one, then
// recovers by itself (API calls and streams alike).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStreamClient } from '../../src/core/stream';
import { PING_MS, delay, makeClient, startTestSim, until, type Sim } from './helpers';

let sim: Sim;
beforeAll(async () => {
  sim = await startTestSim();
});
afterAll(async () => {
  await sim.close();
});

describe('governor against the simulator', () => {
  it('after a 429 with Retry-After: 2, no request from that key for 2 s', async () => {
    const key = sim.addKey('enterprise');
    const api = makeClient(sim.url, { key });
    expect((await api.periods()).ok).toBe(true);
    const keyId = sim.requestLog().at(-1)!.keyId;
    sim.setFaults({ rateLimitStormS: 2, retryAfterS: 2 }, key);
    const r = await api.periods();
    expect(!r.ok && r.error.kind).toBe('rate_limit');
    const mine = () => sim.requestLog().filter((e) => e.keyId === keyId);
    const t429 = mine().at(-1)!;
    expect(t429.status).toBe(429);
    // Everything asked for during the pause waits, whatever its priority.
    const waiting = await Promise.all([
      api.settled({}, { priority: 'high' }),
      api.periods({ priority: 'low' }),
      api.fixtures(),
    ]);
    const after = mine().filter((e) => e.at > t429.at);
    expect(after.length).toBeGreaterThanOrEqual(3);
    expect(after[0]!.at - t429.at).toBeGreaterThanOrEqual(2000);
    expect(waiting.every((w) => w.ok)).toBe(true);
    api.dispose();
  });

  it('after the key is regenerated, sends nothing needing a key until a new key comes, then recovers', async () => {
    const box = { key: sim.addKey('enterprise') as string | null };
    const api = makeClient(sim.url, box);
    const streams = createStreamClient({ api, pingIntervalMs: PING_MS, backoff: { baseMs: 20, maxMs: 200 } });
    const fixtures = await api.fixtures();
    expect(fixtures.ok).toBe(true);
    const eventId = fixtures.ok ? fixtures.value[0]!.event_id : 0;
    streams.watch(eventId);
    expect(await until(() => streams.state(eventId)?.status === 'live', 3000)).toBe(true);

    const newKey = sim.regenerateKey(box.key!);
    const regeneratedAt = Date.now();
    // Drop the open stream so its reconnect meets the 401 too (global: the connection belongs to the old key).
    sim.setFaults({ dropStreamEveryMs: 100 });
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await api.fixtures());
    results.push(await api.settled());
    expect(results.every((r) => !r.ok && r.error.kind === 'auth')).toBe(true);
    expect(api.governor.state().auth).toBe('rejected');
    await delay(1000);
    const sinceRegen = sim.requestLog().filter((e) => e.at >= regeneratedAt);
    // At most one HTTP call and one stream open learn of the 401 before the governor blocks; then silence.
    expect(sinceRegen.every((e) => e.status === 401)).toBe(true);
    expect(sinceRegen.length).toBeGreaterThanOrEqual(1);
    expect(sinceRegen.length).toBeLessThanOrEqual(2);
    expect(streams.state(eventId)?.status).toBe('reconnecting');
    expect(streams.state(eventId)?.error?.kind).toBe('auth');

    // The host stores the new key; it does not even call keyChanged(): the governor notices by itself.
    sim.setFaults({});
    box.key = newKey;
    expect(await until(() => api.governor.state().auth === 'ok', 2000)).toBe(true);
    expect((await api.fixtures()).ok).toBe(true);
    expect(await until(() => streams.state(eventId)?.status === 'live', 3000)).toBe(true);
    streams.close();
    api.dispose();
  });
});
