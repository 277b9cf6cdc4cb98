// Issue 37, every clock: the simulator on a clock minutes ahead of this machine's or behind it (`skewMs`, real clock),
// as a real service's may be. Every time it stamps (the status `time`, a price's `updated_at`, the `Date` header of
// every answer) is on its own clock, and the API client measures the skew from /api/status to within a second.
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/core/api';
import { PATHS, parseServiceTime } from '../../src/shared/api';
import { startSimulator, type Simulator } from '../../src/sim';

const KEY = 'skew-test-ent';
let sim: Simulator | null = null;
afterEach(async () => {
  await sim?.close();
  sim = null;
});

describe("the simulator's clock skewed from the host's", () => {
  for (const skewMs of [3 * 60_000, -3 * 60_000]) {
    it(`${skewMs > 0 ? 'ahead' : 'behind'} by 3 minutes: its times, its Date header and the measured skew say so`, async () => {
      sim = await startSimulator({
        port: 0,
        seed: 4,
        clock: 'real',
        speed: 1,
        skewMs,
        events: 10,
        keys: [{ key: KEY, plan: 'enterprise' }],
      });
      const before = Date.now();
      const r = await fetch(`${sim.url}${PATHS.status}`);
      const after = Date.now();
      const time = parseServiceTime(((await r.json()) as { time: string }).time)!;
      // Whole seconds: the service's time is at most a second short of our clock plus the skew.
      expect(time).toBeGreaterThan(before + skewMs - 1_000);
      expect(time).toBeLessThanOrEqual(after + skewMs);
      expect(Date.parse(r.headers.get('date')!)).toBe(time);
      expect(Math.abs(sim.now() - (Date.now() + skewMs))).toBeLessThan(1_000);

      // A price set now is stamped on its clock, not ours (the world moves in steps of a few seconds).
      const event = sim.truth
        .bookIds()
        .map((id) => sim!.truth.event(id)!)
        .find((e) => e.markets.some((m) => m.prices))!;
      const line = event.markets.find((m) => m.prices)!;
      sim.script.setMarket(event.event_id, line.line_id, { home: 2.2, away: 1.7 });
      const stamped = parseServiceTime(
        sim.truth.event(event.event_id)!.markets.find((m) => m.line_id === line.line_id)!.updated_at,
      )!;
      expect(stamped).toBeLessThanOrEqual(Date.now() + skewMs);
      expect(stamped).toBeGreaterThan(Date.now() + skewMs - 10_000);

      // The client's probe measures it, and its "service now" is the service's clock.
      const api = createApiClient({ baseUrl: sim.url, keyProvider: () => KEY });
      expect((await api.status()).ok).toBe(true);
      expect(Math.abs(api.clockSkewMs()! - skewMs)).toBeLessThan(1_500);
      expect(Math.abs(api.serviceNow() - sim.now())).toBeLessThan(1_500);
      api.dispose();
    });
  }

  it('skewMs needs the real clock and no startTime', async () => {
    await expect(startSimulator({ clock: 'manual', skewMs: 60_000 })).rejects.toThrow(/real clock/);
    await expect(startSimulator({ clock: 'real', startTime: '2026-11-22T12:00:00', skewMs: 60_000 })).rejects.toThrow(
      /real clock/,
    );
  });
});
