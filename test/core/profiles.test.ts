// Issue 11: one engine per service. Demo and every service keep their own history and cursor; racing connects leave
// exactly one monitor, with each key sent only to the service it was stored for; a keychain that cannot be read is
// an error, not demo; and the retention setting reaches the store that prunes. Every simulator and the core run on
// manual clocks: a simulated day takes seconds.
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core/core';
import { createMemorySecretStore } from '../../src/core/secrets/memory';
import type { SecretStore } from '../../src/core/secrets/types';
import { openStore } from '../../src/core/store';
import { formatServiceTime, parseServiceTime, type Market } from '../../src/shared/api';
import type { Channel, RequestArgs, ResponseMap } from '../../src/shared/ipc/contract';
import { startSimulator, type Simulator } from '../../src/sim';
import { createManualClock } from '../support/manualClock';
import { logSoak, soak } from '../support/soak';

const T0 = '2026-11-20T00:00:00';
const T0_MS = parseServiceTime(T0)!;
const DAY_S = 86_400;
// How long demo runs before the real service is connected, and how long the real service has lived meanwhile: a day
// under `npm run test:soak`, six hours by default (both well inside the real walk's 24-hour window either way).
const HOURS = soak(6, 24);

const sims: Simulator[] = [];
let core: Core | null = null;
afterEach(async () => {
  await core?.close();
  core = null;
  for (const s of sims.splice(0)) await s.close();
});

async function sim(seed: number, key: string, startTime = T0): Promise<Simulator> {
  const s = await startSimulator({
    port: 0,
    seed,
    clock: 'manual',
    startTime,
    keys: [{ key, plan: 'enterprise' }],
    events: 40,
    historyHours: 1,
  });
  sims.push(s);
  return s;
}

function caller(c: Core) {
  return async <C extends Channel>(channel: C, ...args: RequestArgs<C>): Promise<ResponseMap[C]> =>
    (c.handlers[channel] as (...a: unknown[]) => ResponseMap[C] | Promise<ResponseMap[C]>)(...args);
}

const secondsOf = (t: string) => Math.floor(parseServiceTime(t)! / 1000);

describe('profiles', () => {
  it('a simulated day (six hours by default) of demo, then a real service whose settlements fall in that window: every real one stored, no demo row, the real cursor untouched by demo', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-profiles-'));
    const serviceDb = path.join(dataDir, 'named-real.db');
    let demo: Simulator | null = null;
    const clock = createManualClock(T0_MS);
    core = await createCore({
      host: 'browser',
      version: 'test',
      dataDir,
      serviceDb,
      secrets: createMemorySecretStore(),
      logger: () => undefined,
      notifier: { notify: () => undefined },
      clock,
      startDemo: async () => {
        demo = await sim(101, 'demo-key-101');
        return { baseUrl: demo.url, key: 'demo-key-101', close: async () => undefined };
      },
    });
    await core.ready;
    const call = caller(core);
    expect((await call('app:info')).demo).toBe(true);

    // A day of demo (six hours at the small size), walked every simulated hour.
    logSoak(`profiles: ${HOURS} simulated hours of demo, then of the real service (full: 24)`);
    for (let h = 0; h < HOURS; h++) {
      await demo!.advance(3600);
      await clock.advance(3_600_000);
      await call('settlements:syncNow');
    }
    const demoIds = new Set(demo!.truth.settled().map((s) => s.event_id));
    // More than 50 a day, pro rata at the small size (12.5 in six hours).
    const many = (50 * HOURS) / 24;
    expect(demoIds.size).toBeGreaterThan(many);
    // --db names the real service's history: demo never wrote into it, nor created it.
    expect(existsSync(serviceDb)).toBe(false);

    // The real service lived through the same hours.
    const real = await sim(202, 'real-key-202');
    await real.advance(HOURS * 3600);
    const nowS = Math.floor(real.now() / 1000);
    const expected = real.truth.settled().filter((s) => secondsOf(s.settled_at) >= nowS - DAY_S);
    expect(expected.length).toBeGreaterThan(many);
    // Settlements of the real service fall inside the window the demo walked.
    expect(expected.some((s) => secondsOf(s.settled_at) < Math.floor(T0_MS / 1000) + HOURS * 3600)).toBe(true);

    await call('settings:setApiKey', 'real-key-202', real.url);
    expect((await call('app:info')).demo).toBe(false);
    await call('settlements:syncNow');
    const info = await call('app:info');
    expect(info.historyPath).toBe(serviceDb);
    await core.close();
    core = null;

    const realStore = openStore({ path: serviceDb });
    try {
      const stored = [...realStore.settlements.exportSettlements()].map((s) => s.event_id).sort((a, b) => a - b);
      expect(stored).toEqual(expected.map((s) => s.event_id).sort((a, b) => a - b));
      // The cursor is where the real walk ended: the last real settlement's second, not a demo one.
      expect(realStore.settlements.settledCursor()).toBe(Math.max(...expected.map((s) => secondsOf(s.settled_at))));
      expect(realStore.settings.getSetting('profile.identity')).toBe(real.url);
    } finally {
      realStore.close();
    }
    // The demo's history is its own file, stamped as demo.
    const demoFile = path.join(dataDir, 'profiles', 'demo.db');
    const demoStore = openStore({ path: demoFile });
    try {
      expect(demoStore.settings.getSetting('profile.identity')).toBe('demo');
      const ids = [...demoStore.settlements.exportSettlements()].map((s) => s.event_id);
      expect(ids.length).toBeGreaterThan(many);
      expect(ids.every((id) => demoIds.has(id))).toBe(true);
    } finally {
      demoStore.close();
    }
    // Nothing else appeared in the data folder: settings, the demo profile, the named real history.
    expect(readdirSync(path.join(dataDir, 'profiles')).filter((f) => f.endsWith('.db'))).toEqual(['demo.db']);
  }, 120_000);

  it('racing connects (a settings save and a key save at once, twice) leave exactly one monitor, and each key reaches only its own service', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-race-'));
    const a = await sim(1, 'key-of-service-a');
    const b = await sim(2, 'key-of-service-b');
    const secrets = createMemorySecretStore({ [a.url]: 'key-of-service-a' });
    const clock = createManualClock(T0_MS);
    core = await createCore({
      host: 'browser',
      version: 'test',
      dataDir,
      secrets,
      logger: () => undefined,
      notifier: { notify: () => undefined },
      clock,
      initialSettings: { baseUrl: a.url },
    });
    await core.ready;
    const call = caller(core);
    const liveA = a.truth.bookIds()[0]!;
    await call('watch:add', liveA);

    // Twice: switch to B while B's key is saved; then back to A while A's key is saved again.
    await Promise.all([
      call('settings:update', { baseUrl: b.url }),
      call('settings:setApiKey', 'key-of-service-b', b.url),
    ]);
    await Promise.all([
      call('settings:setApiKey', 'key-of-service-a', a.url),
      call('settings:update', { baseUrl: a.url }),
    ]);
    await Promise.all([
      call('settings:update', { baseUrl: b.url }),
      call('settings:setApiKey', 'key-of-service-b', b.url),
    ]);
    await Promise.all([
      call('settings:setApiKey', 'key-of-service-a', a.url),
      call('settings:update', { baseUrl: a.url }),
    ]);
    expect((await call('app:info')).baseUrl).toBe(a.url);

    // Only A is followed from now on: B hears nothing more, however long the monitor's timers run.
    const bRequests = b.requestLog().length;
    await a.advance(600);
    await b.advance(600);
    await clock.advance(600_000);
    await call('settlements:syncNow');
    expect(b.requestLog().length).toBe(bRequests);
    expect(b.openStreams()).toBe(0);
    expect(a.openStreams()).toBeLessThanOrEqual(1);
    // Each simulator knows only its own key: any other key it received would be logged as 'unknown'.
    for (const s of [a, b]) expect(s.requestLog().filter((r) => r.keyId === 'unknown')).toEqual([]);
    expect(b.requestLog().length).toBeGreaterThan(0);
  }, 60_000);

  it('a stored key the keychain cannot read is an error with a retry, not a silent switch to demo', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-locked-'));
    const s = await sim(3, 'key-of-locked-service');
    let locked = true;
    const inner = createMemorySecretStore({ [s.url]: 'key-of-locked-service' });
    const secrets: SecretStore = {
      ...inner,
      availability: async () =>
        locked ? { available: false, message: 'The keyring is locked.' } : { available: true },
      get: async (account) => {
        if (locked) throw new Error('The keyring is locked.');
        return inner.get(account);
      },
    };
    let demoStarts = 0;
    core = await createCore({
      host: 'browser',
      version: 'test',
      dataDir,
      secrets,
      logger: () => undefined,
      notifier: { notify: () => undefined },
      clock: createManualClock(T0_MS),
      initialSettings: { baseUrl: s.url },
      startDemo: async () => {
        demoStarts++;
        const d = await sim(4, 'demo');
        return { baseUrl: d.url, key: 'demo', close: async () => undefined };
      },
    });
    await core.ready;
    const call = caller(core);
    let status = await call('status:get');
    expect(status.demo).toBe(false);
    expect(status.lastError?.kind).toBe('keychain');
    expect(status.lastError?.message).toContain('cannot be read');
    expect(demoStarts).toBe(0);
    locked = false;
    status = await call('app:reconnect');
    expect(status.lastError).toBeNull();
    expect((await call('app:info')).baseUrl).toBe(s.url);
    expect(demoStarts).toBe(0);
  });

  it('the retention setting changes what the store prunes', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-retention-'));
    const s = await sim(5, 'key-of-retention-service');
    const now = T0_MS + 40 * 86_400_000;
    const clock = createManualClock(now);
    core = await createCore({
      host: 'browser',
      version: 'test',
      dataDir,
      secrets: createMemorySecretStore(),
      envService: { baseUrl: s.url, key: 'key-of-retention-service' },
      logger: () => undefined,
      notifier: { notify: () => undefined },
      clock,
    });
    await core.ready;
    const call = caller(core);
    const file = (await call('app:info')).historyPath;
    // Ten minutes of ticks 10 days ago and 3 days ago (max_win unchanged), written through a second connection.
    const market = (at: number, price: number): Market => ({
      line_id: 77,
      period: 0,
      market: 'moneyline',
      side: null,
      line: null,
      prices: { home: price, away: 2 },
      max_win: 500,
      updated_at: formatServiceTime(at),
    });
    const writer = openStore({ path: file });
    for (const days of [10, 3]) {
      const from = now - days * 86_400_000;
      writer.odds.recordTickBatches(
        Array.from({ length: 10 }, (_, k) => ({
          eventId: 9,
          markets: [market(from + k * 60_000, 2 + k / 100)],
          at: from + k * 60_000,
        })),
      );
    }
    const pointsAround = (days: number) =>
      writer.history.oddsHistory(9, 77).filter((p) => Math.abs(p.at - (now - days * 86_400_000)) < 3_600_000).length;
    // Default retention (30 days): maintenance and compaction keep both stretches (as ticks or bars).
    await clock.advance(61_000);
    const tenDaysBefore = pointsAround(10);
    const threeDaysBefore = pointsAround(3);
    expect(tenDaysBefore).toBeGreaterThan(2);
    expect(threeDaysBefore).toBeGreaterThan(2);
    // Five days: the next maintenance drops the 10-day-old history (it had no max_win change, which would be kept
    // for good) and leaves the 3-day-old history as it was.
    // (The settled walk hourly meanwhile: the day the clock moves is for the daily maintenance, and a walk a minute
    // made it 1,440 walks of an idle service.)
    await call('settings:update', { retentionDays: 5, settledEverySeconds: 3600 });
    await clock.advance(86_400_000);
    expect(pointsAround(10)).toBe(0);
    expect(pointsAround(3)).toBe(threeDaysBefore);
    writer.close();
  });
});
