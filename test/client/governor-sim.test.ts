// Must show 2 and 3 over real HTTP: after a 429 with Retry-After the simulator sees nothing from that key for that
// long, and after the key is regenerated the client sends nothing needing a key until it gets the new one, then
// recovers by itself (API calls and streams alike). The clients run on the manual clock: the waits are virtual, and
// only the network is real (polled with `until`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/core/api';
import { createStreamClient } from '../../src/core/stream';
import { createManualClock, type ManualClock } from '../support/manualClock';
import { PING_MS, startTestSim, until, type KeyBox, type Sim } from './helpers';

let sim: Sim;
beforeAll(async () => {
  sim = await startTestSim();
});
afterAll(async () => {
  await sim.close();
});

/** A client on `clock` that notes the virtual time at which each request leaves. */
function clientOn(clock: ManualClock, box: KeyBox) {
  const sent: Array<{ path: string; at: number }> = [];
  const api = createApiClient({
    baseUrl: sim.url,
    keyProvider: () => box.key,
    clock,
    governor: { retry: { maxAttempts: 3, baseMs: 20, maxMs: 100 }, keyPollMs: 50, timeoutMs: 5_000 },
    fetch: (input, init) => {
      sent.push({ path: new URL(String(input)).pathname, at: clock.now() });
      return fetch(input, init);
    },
  });
  return { api, sent };
}

/** Moves virtual time in steps until `check` holds, giving the real network its turn between steps. */
async function advanceUntil(
  clock: ManualClock,
  check: () => boolean,
  stepMs: number,
  realLimitMs = 5000,
): Promise<boolean> {
  const end = Date.now() + realLimitMs;
  while (!check() && Date.now() < end) {
    await clock.advance(stepMs);
    await until(check, 20, 5);
  }
  return check();
}

describe('governor against the simulator', () => {
  it('after a 429 with Retry-After: 2, no request from that key for 2 s', async () => {
    const clock = createManualClock(1_700_000_000_000);
    const key = sim.addKey('enterprise');
    const { api, sent } = clientOn(clock, { key });
    expect((await api.periods()).ok).toBe(true);
    const keyId = sim.requestLog().at(-1)!.keyId;
    sim.setFaults({ rateLimitStormS: 60, retryAfterS: 2 }, key);
    const r = await api.periods();
    expect(!r.ok && r.error).toMatchObject({ kind: 'rate_limit', retryAfter: 2 });
    const mine = () => sim.requestLog().filter((e) => e.keyId === keyId);
    const t429 = mine().at(-1)!;
    expect(t429.status).toBe(429);
    // The service would answer again at once: only the client's own pause holds the requests back.
    sim.setFaults({}, key);
    const pausedAt = clock.now();
    const before = sent.length;
    // Everything asked for during the pause waits, whatever its priority.
    const waiting = Promise.all([
      api.settled({}, { priority: 'high' }),
      api.periods({ priority: 'low' }),
      api.fixtures(),
    ]);
    await clock.advance(1999);
    expect(sent).toHaveLength(before);
    expect(mine().at(-1)).toEqual(t429);
    await clock.advance(1);
    const results = await waiting;
    expect(results.every((w) => w.ok)).toBe(true);
    const after = sent.slice(before);
    expect(after).toHaveLength(3);
    expect(after.every((s) => s.at - pausedAt >= 2000)).toBe(true);
    expect(
      mine()
        .filter((e) => e.at > t429.at)
        .map((e) => e.status),
    ).toEqual([200, 200, 200]);
    api.dispose();
  });

  it('after the key is regenerated, sends nothing needing a key until a new key comes, then recovers', async () => {
    const clock = createManualClock(1_700_000_000_000);
    const box: KeyBox = { key: sim.addKey('enterprise') };
    const { api } = clientOn(clock, box);
    const streams = createStreamClient({ api, clock, pingIntervalMs: PING_MS, backoff: { baseMs: 20, maxMs: 200 } });
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
    expect(await advanceUntil(clock, () => streams.state(eventId)?.error?.kind === 'auth', 100)).toBe(true);
    // A virtual minute with the key still rejected: the governor polls the key provider, and sends nothing.
    await clock.advance(60_000);
    const sinceRegen = sim.requestLog().filter((e) => e.at >= regeneratedAt);
    // At most one HTTP call and one stream open learn of the 401 before the governor blocks; then silence.
    expect(sinceRegen.every((e) => e.status === 401)).toBe(true);
    expect(sinceRegen.length).toBeGreaterThanOrEqual(1);
    expect(sinceRegen.length).toBeLessThanOrEqual(2);
    expect(streams.state(eventId)?.status).toBe('reconnecting');

    // The host stores the new key; it does not even call keyChanged(): the governor notices by itself.
    sim.setFaults({});
    box.key = newKey;
    await clock.advance(100);
    expect(api.governor.state().auth).toBe('ok');
    expect((await api.fixtures()).ok).toBe(true);
    expect(await until(() => streams.state(eventId)?.status === 'live', 3000)).toBe(true);
    streams.close();
    api.dispose();
  });
});
