// Over real HTTP against the simulator. Must show 4: with stream connections dropped every 15-20 s and a stall
// injected, the odds the client ends with equal the simulator's truth for every watched event, and no message is
// applied twice (faults and pings on the simulated clock, the client on a manual clock: no real sleep). Issue 17: a stream flapping on the busy day (snapshot, then dropped, over and over) stays within its opens
// per hour while the settlement walk keeps its schedule, and is live again once the flap is over; on the manual
// clock, two simulated hours in seconds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../support/manualClock';
import { createApiClient } from '../../src/core/api';
import { parseServiceTime, PATHS, type EventOdds } from '../../src/shared/api';
import { createStreamClient, DEFAULT_OPEN_CAP } from '../../src/core/stream/client';
import { ENT, PING_MS, STARTER, startTestSim, until, type Sim } from './helpers';

let sim: Sim;
beforeAll(async () => {
  sim = await startTestSim({ events: 24 });
});
afterAll(async () => {
  await sim.close();
});

function normalise(o: EventOdds | null) {
  return o && { ...o, markets: [...o.markets].sort((a, b) => a.line_id - b.line_id) };
}

describe('stream client against the simulator', () => {
  it('ends equal to the truth through drops and stalls, applying no message twice', async () => {
    // Faults and pings on the simulated clock, the client on a manual clock moved with it: no real sleep.
    const s = await startTestSim({ events: 24, faultClock: 'sim', pingIntervalMs: 5000 });
    const clock = createManualClock(s.now());
    const api = createApiClient({
      baseUrl: s.url,
      keyProvider: () => ENT,
      clock,
      governor: { retry: { maxAttempts: 3, baseMs: 20, maxMs: 100 }, keyPollMs: 50, timeoutMs: 5_000 },
    });
    // Drops every second or two would reach the hourly cap on opens; this test is about the state, not the cap.
    const streams = createStreamClient({
      api,
      clock,
      pingIntervalMs: 5000,
      backoff: { baseMs: 20, maxMs: 200 },
      openCap: { max: 10_000, windowMs: 3_600_000 },
    });
    const ids = s.truth.bookIds().slice(0, 6);
    const applied = new Map<number, Array<{ id: number | null; event: string }>>();
    streams.onApplied((eventId, m) => {
      const list = applied.get(eventId) ?? [];
      list.push(m);
      applied.set(eventId, list);
    });
    /** Moves both clocks in one-second steps until `done` holds or `ms` of simulated time have passed. */
    const run = async (ms: number, done: () => boolean = () => false) => {
      for (let t = 0; t < ms && !done(); t += 1000) {
        await s.advance(1);
        await clock.advance(1000);
      }
      return done();
    };
    for (const id of ids) streams.watch(id);
    expect(await run(10_000, () => ids.every((id) => streams.state(id)?.status === 'live'))).toBe(true);

    s.setFaults({ dropStreamEveryMs: 20_000 });
    await run(200_000);
    // A stall longer than twice the ping interval: only the watchdog can notice it.
    s.setFaults({ stallStreamMs: 30_000 });
    await run(32_000);
    s.setFaults({ dropStreamEveryMs: 15_000 });
    await run(150_000);
    s.setFaults({});

    const settledView = () =>
      ids.every((id) => {
        const truth = s.truth.event(id);
        if (truth === null) return streams.state(id)?.status === 'ended';
        return JSON.stringify(normalise(streams.odds(id))) === JSON.stringify(normalise(truth));
      });
    expect(await run(60_000, settledView)).toBe(true);
    for (const id of ids) {
      const truth = s.truth.event(id);
      if (truth === null) expect(streams.state(id)?.status).toBe('ended');
      else expect(normalise(streams.odds(id))).toEqual(normalise(truth));
    }

    let connections = 0;
    let trips = 0;
    let changes = 0;
    for (const id of ids) {
      const stats = streams.stats(id)!;
      connections += stats.connections;
      trips += stats.watchdogTrips;
      // Ids of applied updates only ever grow: a replayed or repeated message is never applied again.
      let last = -Infinity;
      for (const m of applied.get(id) ?? []) {
        if (m.event === 'snapshot') {
          last = m.id ?? last;
          continue;
        }
        expect(m.id).not.toBeNull();
        expect(m.id!).toBeGreaterThan(last);
        last = m.id!;
        changes++;
      }
    }
    expect(connections).toBeGreaterThan(ids.length * 3);
    expect(trips).toBeGreaterThan(0);
    expect(changes).toBeGreaterThan(20);
    streams.close();
    api.dispose();
    await s.close();
  });

  it('fails a stream on a plan restriction without retrying', async () => {
    const clock = createManualClock(sim.now());
    const api = createApiClient({ baseUrl: sim.url, keyProvider: () => STARTER, clock });
    const streams = createStreamClient({ api, clock, pingIntervalMs: PING_MS, backoff: { baseMs: 20, maxMs: 200 } });
    const id = sim.truth.bookIds()[0]!;
    streams.watch(id);
    expect(await until(() => streams.state(id)?.status === 'failed', 2000)).toBe(true);
    expect(streams.state(id)?.error).toMatchObject({ kind: 'plan', requiredPlan: 'enterprise' });
    const count = sim.requestLog().length;
    await clock.advance(3_600_000);
    expect(await until(() => sim.requestLog().length > count, 200)).toBe(false);
    expect(streams.state(id)?.status).toBe('failed');
    streams.close();
    api.dispose();
  });
});

describe('a flapping stream on the busy day, on the manual clock', () => {
  it('stays within its opens per hour, the settlement walk keeps its schedule, and it is live once the flap ends', async () => {
    const busy = await startTestSim({ busy: { flapMinutes: 60 }, historyHours: 0 });
    const clock = createManualClock(busy.now());
    const start = clock.now();
    const HOUR = 3_600_000;
    const api = createApiClient({ baseUrl: busy.url, keyProvider: () => ENT, clock });
    // Default backoff, healthy time and cap: what the app runs with. No watchdog: pings come on real time.
    const streams = createStreamClient({ api, clock, pingIntervalMs: 1e9 });
    try {
      const info = busy.busy!;
      const flapping = info.flappingEventIds[0]!;
      const startsLate = (id: number) =>
        (parseServiceTime(busy.truth.event(id)?.starts ?? '') ?? 0) >= start + 2 * HOUR;
      const calm = busy.truth.bookIds().find((id) => !info.flappingEventIds.includes(id) && startsLate(id))!;
      const statuses = new Set<string>();
      streams.onState((s) => {
        if (s.eventId === flapping) statuses.add(s.status);
      });
      streams.watch(flapping);
      streams.watch(calm);

      // Nothing but the flapping stream's own timer may be pending when time moves: its drops are real I/O.
      const idle = () => {
        const f = streams.state(flapping)!;
        const flapIdle = f.retryAt !== undefined || (f.status === 'live' && clock.now() >= info.flapUntil);
        return flapIdle && streams.state(calm)?.status === 'live';
      };
      const walks: Array<{ due: number; done: number; ok: boolean }> = [];
      let nextWalk = start;
      while (clock.now() < start + 2 * HOUR) {
        expect(await until(idle, 5000)).toBe(true);
        if (clock.now() >= nextWalk) {
          const due = nextWalk;
          const r = await api.settled({ since: Math.floor(due / 1000) - 60, limit: 1000 });
          walks.push({ due, done: clock.now(), ok: r.ok });
          nextWalk += 60_000;
        }
        const step = Math.min(start + 2 * HOUR, nextWalk, streams.state(flapping)!.retryAt ?? Infinity) - clock.now();
        await busy.advance(step / 1000);
        await clock.advance(step);
      }
      expect(await until(idle, 5000)).toBe(true);

      const opens = busy
        .requestLog()
        .filter((r) => r.path === PATHS.stream && r.query.includes(`event_id=${flapping}`))
        .map((r) => r.simAt);
      for (const at of opens)
        expect(opens.filter((o) => o >= at && o < at + HOUR).length).toBeLessThanOrEqual(DEFAULT_OPEN_CAP.max);
      expect(opens.length).toBeGreaterThan(DEFAULT_OPEN_CAP.max / 2); // it did flap, and hard
      expect(statuses.has('failing')).toBe(true);
      // Every walk went out on its minute and came back without the clock having to move.
      expect(walks).toHaveLength(120);
      expect(walks.filter((w) => !w.ok || w.done !== w.due)).toEqual([]);
      expect(busy.requestLog().filter((r) => r.status === 429)).toEqual([]);
      // The flap is over: both streams are live, and the calm one never had to reconnect.
      expect(streams.state(flapping)?.status).toBe('live');
      expect(streams.state(calm)?.status).toBe('live');
      expect(streams.stats(calm)?.connections).toBe(1);
    } finally {
      streams.close();
      api.dispose();
      await busy.close();
    }
  });
});
