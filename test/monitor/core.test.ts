// The core as the desktop and browser hosts run it, against the simulator: starter and enterprise keys, live odds
// batches, settlement alerts and notifications for watched matches.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core/core';
import { DEFAULT_BATCH_MS } from '../../src/core/monitor';
import type { UserNotification } from '../../src/core/notifier';
import { createMemorySecretStore } from '../../src/core/secrets/memory';
import type { Fixture } from '../../src/shared/api';
import type {
  Channel,
  CoreHandlers,
  OddsBatch,
  PushPayloads,
  RequestArgs,
  ResponseMap,
} from '../../src/shared/ipc/contract';
import { startSimulator, type Simulator } from '../../src/sim';
import { createManualClock, type ManualClock } from '../support/manualClock';

let sim: Simulator | null = null;
let core: Core | null = null;
afterEach(async () => {
  await core?.close();
  core = null;
  await sim?.close();
  sim = null;
});

const tmpDir = () => mkdtempSync(path.join(tmpdir(), 'oddsdesk-core-'));

/**
 * Moves the simulator and the core's clock together, a few simulated seconds at a time, until `probe` holds: virtual
 * time, bounded by a number of steps, never a real sleep. The I/O each step starts lands before the next one.
 */
async function until<T>(
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  maxSimSeconds: number,
  what: string,
  stepS = 5,
): Promise<T> {
  for (let waited = 0; ; waited += stepS) {
    const v = await probe();
    if (v) return v;
    if (waited >= maxSimSeconds) throw new Error(`no ${what} within ${maxSimSeconds} simulated seconds`);
    await sim!.advance(stepS);
    await clock!.advance(stepS * 1000);
  }
}

let clock: ManualClock | null = null;

async function startCore(plan: 'starter' | 'enterprise') {
  sim = await startSimulator({ port: 0, seed: 5, clock: 'manual', keys: [{ key: `core-${plan}-key`, plan }] });
  clock = createManualClock(sim.now());
  const notifications: UserNotification[] = [];
  const pushes: Array<{ event: string; payload: unknown }> = [];
  core = await createCore({
    host: 'browser',
    version: 'test',
    dataDir: tmpDir(),
    secrets: createMemorySecretStore(),
    logger: () => undefined,
    notifier: { notify: (n) => notifications.push(n) },
    envService: { baseUrl: sim.url, key: `core-${plan}-key` },
    initialSettings: { maxWinThresholdPct: 0 },
    clock,
    // The simulator pings in real time while this clock runs far ahead: keep the watchdog out of it.
    pingIntervalMs: 3_600_000,
  });
  await core.ready;
  core.subscribe((event, payload) => pushes.push({ event, payload }));
  const handlers: CoreHandlers = core.handlers;
  const call = async <C extends Channel>(channel: C, ...args: RequestArgs<C>): Promise<ResponseMap[C]> =>
    (handlers[channel] as (...a: unknown[]) => ResponseMap[C] | Promise<ResponseMap[C]>)(...args);
  return { notifications, pushes, call };
}

describe('core on a starter key', () => {
  it('says plainly what needs enterprise, and everything else still works', async () => {
    const { call } = await startCore('starter');
    const fixtures: Fixture[] = await call('fixtures:list', {});
    expect(fixtures.length).toBeGreaterThan(0);
    await call('watch:add', fixtures[0]!.event_id);
    const status = await until(
      async () => {
        const st = await call('status:get');
        return st.restricted.some((r) => r.path === '/api/stream/event') && st;
      },
      60,
      'stream restriction',
      1,
    );
    const r = status.restricted.find((x) => x.path === '/api/stream/event')!;
    expect(r).toMatchObject({ requiredPlan: 'enterprise', yourPlan: 'starter' });
    expect(status.streams.find((s) => s.eventId === fixtures[0]!.event_id)?.state ?? 'restricted').toBe('restricted');

    const specials = await call('specials:list', fixtures[0]!.event_id);
    expect(specials.restricted?.message).toMatch(/enterprise/);

    // Settlements, coverage and the offline review need no enterprise plan.
    const before = sim!.truth.settled().length;
    await call('settlements:syncNow');
    const page = await call('settlements:query', { limit: 10 });
    const after = sim!.truth.settled().length;
    expect(page.rows.length).toBe(10);
    // Every settlement the simulator had produced is there: its clock stands still unless the test moves it.
    expect(page.total).toBe(before);
    expect(after).toBe(before);
    const coverage = await call('coverage:get');
    expect(coverage.sports.length).toBeGreaterThan(1);
  }, 60_000);
});

describe('core on an enterprise key', () => {
  it('pushes live odds coalesced into frame-sized batches (at most one per 16 ms), and alerts and notifies when a watched match settles', async () => {
    const { call, pushes, notifications } = await startCore('enterprise');
    const fixtures: Fixture[] = await call('fixtures:list', {});
    // The matches that start first settle first.
    const soonest = [...fixtures].sort((a, b) => a.starts.localeCompare(b.starts)).slice(0, 3);
    for (const f of soonest) await call('watch:add', f.event_id);

    await until(() => pushes.filter((p) => p.event === 'onOdds').length >= 10, 600, 'odds batches');
    const batches = pushes.filter((p) => p.event === 'onOdds').map((p) => p.payload as OddsBatch);
    const gaps = batches.slice(1).map((b, i) => b.at - batches[i]!.at);
    // One batch per coalescing interval at most (allowing the timer's own 1 ms granularity).
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(DEFAULT_BATCH_MS - 1);
    expect(batches.some((b) => b.events.some((e) => e.markets.length > 0))).toBe(true);
    const detail = await call('event:detail', soonest[0]!.event_id);
    expect(detail.markets.length).toBeGreaterThan(0);

    const settledAlert = await until(
      () => pushes.find((p) => p.event === 'onAlert' && (p.payload as PushPayloads['onAlert']).kind === 'settled'),
      12 * 3600,
      'a watched match to settle',
      30,
    );
    const alert = settledAlert.payload as PushPayloads['onAlert'];
    expect(soonest.map((f) => f.event_id)).toContain(alert.eventId);
    const n = await until(
      () => notifications.find((x) => x.kind === 'settlement' && x.eventId === alert.eventId),
      5,
      'the notification',
      1,
    );
    expect(n.title).toMatch(/^Settled: .+ v .+ \d+–\d+$/);
    expect(n.body).toMatch(/^Moneyline (Home|Draw|Away): won$/m);
    expect(n.body).not.toMatch(/\bH [WLP]\b|\(p\d+\)/);
    const found = await call('settlements:query', {
      team: soonest.find((f) => f.event_id === alert.eventId)!.runner_home,
    });
    expect(found.rows.map((r) => r.eventId)).toContain(alert.eventId);
  }, 120_000);
});
