// The demo's first run: a new demo profile watches live events (one per sport first, those with most left to play),
// so the first screen moves; it happens once, never again after the trader cleared the list, and never to a
// profile that already watches something.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core/app';
import { FIRST_RUN_WATCHES, pickFirstRunWatches } from '../../src/core/firstRun';
import { createMemorySecretStore } from '../../src/core/secrets/memory';
import { parseServiceTime, type Fixture } from '../../src/shared/api';
import type { Channel, RequestArgs, ResponseMap } from '../../src/shared/ipc/contract';
import { startSimulator, type Simulator } from '../../src/sim';
import { createManualClock } from '../support/manualClock';

const T0 = '2026-11-20T12:00:00';
const DEMO_KEY = 'first-run-demo-key';
let core: Core | null = null;
let sim: Simulator | null = null;
afterEach(async () => {
  await core?.close();
  core = null;
  await sim?.close();
  sim = null;
});

const fixture = (id: number, sport: number, starts: string, live: number): Fixture => ({
  event_id: id,
  sport_id: sport,
  sport_name: `Sport ${sport}`,
  league_id: sport * 10,
  league_name: `League ${sport}`,
  runner_home: `H${id}`,
  runner_away: `A${id}`,
  starts,
  live_status: live,
});

describe('pickFirstRunWatches', () => {
  it('takes live events only, one per sport first, latest kick-off first', () => {
    const f = [
      fixture(1, 1, '2026-11-20T11:00:00', 1),
      fixture(2, 1, '2026-11-20T11:50:00', 1),
      fixture(3, 2, '2026-11-20T11:10:00', 1),
      fixture(4, 3, '2026-11-20T13:00:00', 0), // not started: never picked
      fixture(5, 1, '2026-11-20T11:40:00', 1),
    ];
    expect(pickFirstRunWatches(f, 3)).toEqual([2, 3, 5]);
    expect(pickFirstRunWatches(f, 10)).toEqual([2, 3, 5, 1]);
    expect(pickFirstRunWatches([fixture(4, 3, '2026-11-20T13:00:00', 0)])).toEqual([]);
  });
});

async function openDemoCore(dataDir: string): Promise<{ core: Core; call: <C extends Channel>(c: C, ...a: RequestArgs<C>) => Promise<ResponseMap[C]> }> {
  const clock = createManualClock(parseServiceTime(T0)!);
  const c = await createCore({
    host: 'browser',
    version: 'test',
    dataDir,
    secrets: createMemorySecretStore(),
    logger: () => undefined,
    notifier: { notify: () => undefined },
    clock,
    startDemo: async () => ({ baseUrl: sim!.url, key: DEMO_KEY, close: async () => undefined }),
  });
  await c.ready;
  const call = async <C extends Channel>(channel: C, ...args: RequestArgs<C>): Promise<ResponseMap[C]> =>
    (c.handlers[channel] as (...a: unknown[]) => ResponseMap[C] | Promise<ResponseMap[C]>)(...args);
  return { core: c, call };
}

describe('first run of the demo profile', () => {
  it('watches live events once; a trader who cleared the list finds it clear at the next start', async () => {
    sim = await startSimulator({ port: 0, seed: 11, clock: 'manual', startTime: T0, keys: [{ key: DEMO_KEY, plan: 'enterprise' }], historyHours: 2 });
    const liveNow = new Set(
      ((await (await fetch(new URL('/api/fixtures?live=2', sim.url), { headers: { 'X-API-Key': DEMO_KEY } })).json()) as Fixture[]).map((f) => f.event_id),
    );
    expect(liveNow.size).toBeGreaterThanOrEqual(3);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-first-run-'));

    let opened = await openDemoCore(dataDir);
    core = opened.core;
    expect((await opened.call('app:info')).demo).toBe(true);
    const first = await opened.call('watch:list');
    expect(first.length).toBe(Math.min(FIRST_RUN_WATCHES, liveNow.size));
    // Live events, named from the fixtures (not "Event 1234"), with their streams opening.
    for (const w of first) {
      expect(liveNow.has(w.eventId)).toBe(true);
      expect(w.runnerHome).toBeTruthy();
      expect(w.leagueName).toBeTruthy();
    }
    expect(new Set((await opened.call('status:get')).streams.map((s) => s.eventId))).toEqual(new Set(first.map((w) => w.eventId)));

    // The trader clears the list; the next start of the same profile leaves it clear.
    for (const w of first) await opened.call('watch:remove', w.eventId);
    await core.close();
    opened = await openDemoCore(dataDir);
    core = opened.core;
    expect(await opened.call('watch:list')).toEqual([]);
  });

  it('leaves a demo profile that already watches something as it is', async () => {
    sim = await startSimulator({ port: 0, seed: 12, clock: 'manual', startTime: T0, keys: [{ key: DEMO_KEY, plan: 'enterprise' }], historyHours: 2 });
    const dataDir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-first-run-'));
    let opened = await openDemoCore(dataDir);
    core = opened.core;
    const seeded = await opened.call('watch:list');
    expect(seeded.length).toBeGreaterThanOrEqual(3);
    const keep = seeded[0]!.eventId;
    for (const w of seeded.slice(1)) await opened.call('watch:remove', w.eventId);
    await core.close();
    opened = await openDemoCore(dataDir);
    core = opened.core;
    expect((await opened.call('watch:list')).map((w) => w.eventId)).toEqual([keep]);
  });
});
