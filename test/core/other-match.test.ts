// One id, one match (issue 34, class 2), through the whole core on real parts: the simulator and a profile's SQLite
// file. A watched match is followed to kick-off (its close stored) with a pre-match bet on it; then the service is
// restarted as another world (an upstream reset: same ids, other matches) and the host with it. The id now names
// another match: nothing that match streams (prices, scores, its end) nor its settlement is written under the stored
// match (its close, tick history, the bet's CLV and result stay its own, no settlement alert), its stream is stopped
// (no quota spent on it), and the row is flagged, at once after a further restart of the host.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core';
import { LIVE_STATUS, parseServiceTime, PATHS } from '../../src/shared/api';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/sim';
import { createManualClock, type ManualClock } from '../support/manualClock';
import { openTestCore, type CoreCall } from '../support/testCore';

const T0 = '2026-11-20T12:00:00';
const KEY = 'other-match-enterprise';
const world = (seed: number, port = 0): SimulatorOptions => ({
  port,
  seed,
  clock: 'manual',
  startTime: T0,
  keys: [{ key: KEY, plan: 'enterprise' }],
  historyHours: 1,
  events: 12,
});

let core: Core | null = null;
const sims: Simulator[] = [];
afterEach(async () => {
  await core?.close();
  core = null;
  for (const s of sims.splice(0)) await s.close();
});

async function open(dataDir: string, baseUrl: string, clock: ManualClock): Promise<CoreCall> {
  const opened = await openTestCore({ dataDir, clock, service: { baseUrl, key: KEY } });
  core = opened.core;
  return opened.call;
}

/** Moves the simulator and the host's clock together, letting the real sockets deliver between steps. */
async function step(sim: Simulator, clock: ManualClock, seconds: number): Promise<void> {
  await sim.advance(seconds);
  await clock.advance(seconds * 1000);
  await new Promise((r) => setTimeout(r, 25));
}

async function until<T>(
  sim: Simulator,
  clock: ManualClock,
  probe: () => Promise<T | null>,
  what: string,
  maxSteps = 200,
): Promise<T> {
  for (let i = 0; i < maxSteps; i++) {
    const v = await probe();
    if (v !== null) return v;
    await step(sim, clock, 5);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Stream opens of one event in a simulator's request log. */
const streamOpens = (sim: Simulator, eventId: number) =>
  sim
    .requestLog()
    .filter((r) => r.path === PATHS.stream && new URLSearchParams(r.query).get('event_id') === String(eventId)).length;

describe('an id the service gives to another match', () => {
  it('writes nothing of that match under the stored one (close, ticks, CLV, settlement), stops its stream, and the row says so after a restart', async () => {
    // Two worlds that number their events alike: an id pre-match in the first names another match in the second.
    const simA = await startSimulator(world(31));
    sims.push(simA);
    const probeB = await startSimulator(world(32));
    const inB = new Set(probeB.truth.bookIds());
    const eventId = simA.truth.bookIds().find((id) => {
      const a = simA.truth.event(id)!;
      const b = probeB.truth.event(id);
      return a.live_status === LIVE_STATUS.willBeLive && b !== null && inB.has(id) && b.runner_home !== a.runner_home;
    });
    const other = eventId === undefined ? null : probeB.truth.event(eventId)!;
    await probeB.close();
    expect(eventId, 'an id that both worlds use for different matches').toBeDefined();
    const id = eventId!;
    const stored = simA.truth.event(id)!;

    // Run 1: the match is watched, a pre-match bet recorded, and it is followed to kick-off (its close is stored).
    const dataDir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-other-match-'));
    const clock = createManualClock(parseServiceTime(T0)!);
    let call = await open(dataDir, simA.url, clock);
    await call('watch:add', id);
    const ml = await until(
      simA,
      clock,
      async () => {
        const row = (await call('watch:list')).find((w) => w.eventId === id);
        return row?.markets.find((m) => m.market === 'moneyline' && m.period === 0 && m.prices?.home) ?? null;
      },
      'the pre-match moneyline',
    );
    const bet = await call('bets:add', {
      eventId: id,
      lineId: ml.lineId,
      side: 'home',
      price: ml.prices!.home!,
      stake: 10,
    });
    await step(simA, clock, 60);
    expect(simA.script.kickOff(id)).toBe(true);
    await until(
      simA,
      clock,
      async () => ((await call('lines:closing', id)).find((l) => l.lineId === ml.lineId)?.closedAt ? true : null),
      'the close',
    );
    await step(simA, clock, 30);
    // What the stored match has: nothing moves it any more (the first world's clock stands still from here).
    const closes = await call('lines:closing', id);
    const history = await call('event:lineHistory', id, ml.lineId);
    const betBefore = (await call('bets:list', {})).bets.find((b) => b.id === bet.id)!;
    expect(betBefore.closingPrice).not.toBeNull();
    expect(betBefore.clvByModel).not.toBeNull();
    await core!.close();
    core = null;
    const port = Number(new URL(simA.url).port);
    await simA.close();
    sims.splice(0);

    // Run 2: the service comes back as the other world, at the same address; the host starts again.
    const simB = await startSimulator(world(32, port));
    sims.push(simB);
    call = await open(dataDir, simB.url, clock);
    // The other match streams prices, goes live, scores, is abandoned and settles.
    for (let i = 0; i < 12; i++) await step(simB, clock, 10);
    expect(simB.script.kickOff(id)).toBe(true);
    for (let i = 0; i < 12; i++) await step(simB, clock, 10);
    expect(simB.script.abandon(id)).toBe(true);
    await until(
      simB,
      clock,
      async () => (simB.truth.settled().some((s) => s.event_id === id) ? true : null),
      "the other match's settlement",
      400,
    );
    await call('settlements:syncNow');
    await step(simB, clock, 5);

    // The stored match's close, tick history and bet are as they were: its close and CLV, no result.
    expect(await call('lines:closing', id)).toEqual(closes);
    expect(await call('event:lineHistory', id, ml.lineId)).toEqual(history);
    const betAfter = (await call('bets:list', {})).bets.find((b) => b.id === bet.id)!;
    expect(betAfter).toMatchObject({
      closingPrice: betBefore.closingPrice,
      clvByModel: betBefore.clvByModel,
      result: null,
    });
    // The other match's settlement is not the stored match's: none stored, no alert of it.
    expect(await call('settlements:detail', id)).toBeNull();
    expect((await call('alerts:list', {})).filter((a) => a.eventId === id && a.kind === 'settled')).toEqual([]);
    // The row keeps the watched match, flagged with the other one's name; its stream was opened once and stopped.
    const row = (await call('watch:list')).find((w) => w.eventId === id)!;
    expect(row).toMatchObject({
      runnerHome: stored.runner_home,
      runnerAway: stored.runner_away,
      sportId: stored.sport_id,
    });
    expect(row.otherMatch).toContain(`${other!.runner_home} v ${other!.runner_away}`);
    expect((await call('status:get')).streams.map((s) => s.eventId)).not.toContain(id);
    expect(streamOpens(simB, id)).toBe(1);
    await core!.close();
    core = null;

    // Run 3: after a restart the row says it at once, and the stream is not opened again.
    call = await open(dataDir, simB.url, clock);
    expect((await call('watch:list')).find((w) => w.eventId === id)?.otherMatch).toBe(row.otherMatch);
    await step(simB, clock, 10);
    expect((await call('status:get')).streams.map((s) => s.eventId)).not.toContain(id);
    expect(streamOpens(simB, id)).toBe(1);
  }, 120_000);
});
