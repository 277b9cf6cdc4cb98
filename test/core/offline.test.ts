// Offline whole (issue 15): once the service is unreachable, sports (names and the filter), period descriptions,
// outrights and every settled event with its lines and period results still come from the profile's store.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core/core';
import { createMemorySecretStore } from '../../src/core/secrets/memory';
import { parseServiceTime } from '../../src/shared/api';
import type { Channel, RequestArgs, ResponseMap } from '../../src/shared/ipc/contract';
import { startSimulator, type Simulator } from '../../src/sim';
import { PERIODS } from '../../src/sim/catalog';
import { createManualClock } from '../support/manualClock';

const T0 = '2026-11-20T00:00:00';
let sim: Simulator | null = null;
let core: Core | null = null;
afterEach(async () => {
  await core?.close();
  core = null;
  await sim?.close();
  sim = null;
});

describe('offline review', () => {
  it('answers sports, periods, outrights and settled events with their lines and period results from the store', async () => {
    const key = 'offline-key-enterprise';
    const clock = createManualClock(parseServiceTime(T0)!);
    sim = await startSimulator({
      port: 0,
      seed: 17,
      clock: 'manual',
      startTime: T0,
      keys: [{ key, plan: 'enterprise' }],
      events: 40,
    });
    core = await createCore({
      host: 'browser',
      version: 'test',
      dataDir: mkdtempSync(path.join(tmpdir(), 'oddsdesk-offline-')),
      secrets: createMemorySecretStore(),
      logger: () => undefined,
      notifier: { notify: () => undefined },
      clock,
      envService: { baseUrl: sim.url, key },
    });
    await core.ready;
    const c = core;
    // A request to a service that is gone retries on the app's clock before it gives up: time moves while we wait.
    const call = async <C extends Channel>(channel: C, ...args: RequestArgs<C>): Promise<ResponseMap[C]> => {
      let done = false;
      const answer = Promise.resolve(
        (c.handlers[channel] as (...a: unknown[]) => ResponseMap[C] | Promise<ResponseMap[C]>)(...args),
      ).finally(() => (done = true));
      while (!done) await clock.advance(1000);
      return answer;
    };

    const sports = await call('sports:list');
    const tennis = sports.find((s) => s.name === 'Tennis')!;
    expect(tennis).toBeDefined();
    const outrights = await call('outrights:list', {});
    expect(outrights.length).toBeGreaterThan(0);
    expect(await call('periods:list')).toEqual([...PERIODS].sort((a, b) => a.period - b.period));
    const settled = await call('settlements:query', { sportId: tennis.sport_id });
    expect(settled.rows.length).toBeGreaterThan(0);
    const eventId = settled.rows[0]!.eventId;
    const online = await call('settlements:detail', eventId);
    expect(online!.sportName).toBe('Tennis');
    expect(online!.periodResults.length).toBeGreaterThan(0);
    const labels = online!.periodResults.map((r) => r.periodLabel);
    expect(labels).toContain('Set 1 Game 1');
    // The service's "1st Half / 1st Set" (one list for every sport) in tennis's own word.
    expect(PERIODS.find((p) => p.period === 1)!.description).toBe('1st Half / 1st Set');
    expect(labels).toContain('1st Set');

    // A watched event's market lines: their limits (a baseline at least) reach the max_win timeline, offline too.
    const fixtures = await call('fixtures:list', {});
    const watched = fixtures.find((f) => f.live_status === 1) ?? fixtures[0]!;
    await call('watch:add', watched.event_id);
    let timeline = (await call('specials:list', watched.event_id)).lineMaxWinPoints;
    // Real I/O (the stream's snapshot reaching the store): polled until it lands, bounded by a deadline rather than a
    // count of polls, so a loaded machine gets the time it needs.
    for (const end = Date.now() + 15_000; timeline.length === 0 && Date.now() < end;) {
      await new Promise((r) => setTimeout(r, 20));
      timeline = (await call('specials:list', watched.event_id)).lineMaxWinPoints;
    }
    expect(timeline.length).toBeGreaterThan(0);
    for (const p of timeline)
      expect(p).toMatchObject({ eventId: watched.event_id, market: expect.any(String), period: expect.any(Number) });

    // The service goes away.
    await sim.close();
    sim = null;
    expect(await call('sports:list')).toEqual(expect.arrayContaining(sports));
    expect((await call('outrights:list', {})).map((m) => m.special_id).sort()).toEqual(
      outrights.map((m) => m.special_id).sort(),
    );
    expect((await call('periods:list')).length).toBe(PERIODS.length);
    expect((await call('settlements:query', { sportId: tennis.sport_id })).rows).toEqual(settled.rows);
    expect(await call('settlements:detail', eventId)).toEqual(online);
    expect((await call('specials:list', watched.event_id)).lineMaxWinPoints.slice(0, timeline.length)).toEqual(
      timeline,
    );
  }, 60_000);
});
