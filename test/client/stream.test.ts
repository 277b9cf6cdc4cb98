// Must show 4 over real HTTP: with stream connections dropped every few hundred ms and a stall injected, the odds
// the client ends with equal the simulator's truth for every watched event, and no message is applied twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventOdds } from '../../src/shared/api';
import { createStreamClient } from '../../src/core/stream';
import { ENT, PING_MS, STARTER, delay, makeClient, startTestSim, until, type Sim } from './helpers';

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
    const api = makeClient(sim.url, { key: ENT });
    const streams = createStreamClient({ api, pingIntervalMs: PING_MS, backoff: { baseMs: 20, maxMs: 200 } });
    const ids = sim.truth.bookIds().slice(0, 6);
    const applied = new Map<number, Array<{ id: number | null; event: string }>>();
    streams.onApplied((eventId, m) => {
      const list = applied.get(eventId) ?? [];
      list.push(m);
      applied.set(eventId, list);
    });
    for (const id of ids) streams.watch(id);
    expect(await until(() => ids.every((id) => streams.state(id)?.status === 'live'), 3000)).toBe(true);

    const run = async (ms: number) => {
      const end = Date.now() + ms;
      while (Date.now() < end) {
        await sim.advance(20);
        await delay(40);
      }
    };
    sim.setFaults({ dropStreamEveryMs: 400 });
    await run(1500);
    // A stall longer than twice the ping interval: only the watchdog can notice it.
    sim.setFaults({ stallStreamMs: 6 * PING_MS });
    await run(6 * PING_MS + 300);
    sim.setFaults({ dropStreamEveryMs: 300 });
    await run(1200);
    sim.setFaults({});

    const settledView = () =>
      ids.every((id) => {
        const truth = sim.truth.event(id);
        if (truth === null) return streams.state(id)?.status === 'ended';
        return JSON.stringify(normalise(streams.odds(id))) === JSON.stringify(normalise(truth));
      });
    expect(await until(settledView, 5000)).toBe(true);
    for (const id of ids) {
      const truth = sim.truth.event(id);
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
  });

  it('fails a stream on a plan restriction without retrying', async () => {
    const api = makeClient(sim.url, { key: STARTER });
    const streams = createStreamClient({ api, pingIntervalMs: PING_MS, backoff: { baseMs: 20, maxMs: 200 } });
    const id = sim.truth.bookIds()[0]!;
    streams.watch(id);
    expect(await until(() => streams.state(id)?.status === 'failed', 2000)).toBe(true);
    expect(streams.state(id)?.error).toMatchObject({ kind: 'plan', requiredPlan: 'enterprise' });
    const count = sim.requestLog().length;
    await delay(300);
    expect(sim.requestLog().length).toBe(count);
    streams.close();
    api.dispose();
  });
});
