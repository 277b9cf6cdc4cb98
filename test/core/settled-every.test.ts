// "Check settled matches every N s" takes effect when it is set: a trader who sets 10 s while the default minute's
// wait is under way gets the next walk 10 s after the last one, not at the end of the old minute (the wait used to
// be armed once with the interval of its start). The core on the manual clock against the simulator; the walks are
// counted in the simulator's own request log.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core';
import { parseServiceTime } from '../../src/shared/api';
import { startSimulator, type Simulator } from '../../src/sim';
import { createManualClock } from '../support/manualClock';
import { openTestCore } from '../support/testCore';

const T0 = '2026-11-20T12:00:00';
const KEY = 'settled-every-key';
let core: Core | null = null;
let sim: Simulator | null = null;
let dir: string | null = null;
afterEach(async () => {
  await core?.close();
  core = null;
  await sim?.close();
  sim = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

describe('the settled walk interval', () => {
  it('set to 10 s during a 60 s wait: the next walk comes 10 s after the last; set back to 60 s: none for a minute', async () => {
    sim = await startSimulator({
      port: 0,
      seed: 5,
      clock: 'manual',
      startTime: T0,
      keys: [{ key: KEY, plan: 'enterprise' }],
      historyHours: 1,
    });
    dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-settled-every-'));
    const start = parseServiceTime(T0)!;
    const clock = createManualClock(start);
    const opened = await openTestCore({ dataDir: dir, clock, service: { baseUrl: sim.url, key: KEY } });
    core = opened.core;
    const settledCalls = () => sim!.requestLog().filter((r) => r.path === '/api/settled').length;
    // The first walk at start, then the default minute.
    await expect.poll(async () => (await opened.call('status:get')).lastSettledSync).not.toBeNull();
    expect((await opened.call('settings:get')).settledEverySeconds).toBe(60);
    const afterFirst = settledCalls();
    expect(afterFirst).toBeGreaterThan(0);
    await clock.advance(5_000);
    expect(settledCalls()).toBe(afterFirst);

    await opened.call('settings:update', { settledEverySeconds: 10 });
    await clock.advance(6_000); // 11 s since the first walk
    await expect.poll(settledCalls).toBeGreaterThan(afterFirst);
    await expect.poll(async () => (await opened.call('status:get')).lastSettledSync).toBe(start + 10_000);

    // Back to a minute: the walk just made is the last for a minute.
    await opened.call('settings:update', { settledEverySeconds: 60 });
    const afterSecond = settledCalls();
    await clock.advance(50_000);
    expect(settledCalls()).toBe(afterSecond);
    await clock.advance(15_000);
    await expect.poll(settledCalls).toBeGreaterThan(afterSecond);
  });
});
