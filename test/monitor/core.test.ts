// The core as the desktop and browser hosts run it, against the simulator: starter and enterprise keys, live odds
// batches, settlement alerts and notifications for watched matches.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core/app';
import { DEFAULT_BATCH_MS } from '../../src/core/monitor';
import type { UserNotification } from '../../src/core/notifier';
import { createMemorySecretStore } from '../../src/core/secrets/memory';
import type { Fixture } from '../../src/shared/api';
import type { Channel, CoreHandlers, OddsBatch, PushPayloads, RequestArgs, ResponseMap } from '../../src/shared/ipc/contract';
import { startSimulator, type Simulator } from '../../src/sim';

let sim: Simulator | null = null;
let core: Core | null = null;
afterEach(async () => {
  await core?.close();
  core = null;
  await sim?.close();
  sim = null;
});

const tmpDir = () => mkdtempSync(path.join(tmpdir(), 'oddsdesk-core-'));

async function until<T>(probe: () => T | undefined | null | false, timeoutMs = 20_000, what = 'condition'): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function startCore(plan: 'starter' | 'enterprise', speed = 60) {
  sim = await startSimulator({ port: 0, seed: 5, clock: 'real', speed, keys: [{ key: `core-${plan}-key`, plan }], pingIntervalMs: 1000 });
  const notifications: UserNotification[] = [];
  const pushes: Array<{ event: string; payload: unknown }> = [];
  core = await createCore({
    host: 'browser',
    version: 'test',
    dataDir: tmpDir(),
    secrets: createMemorySecretStore(),
    notifier: { notify: (n) => notifications.push(n) },
    envService: { baseUrl: sim.url, key: `core-${plan}-key` },
    initialSettings: { maxWinThresholdPct: 0 },
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
    let status = await call('status:get');
    for (const end = Date.now() + 20_000; !status.restricted.some((r) => r.path === '/api/stream/event') && Date.now() < end; ) {
      await new Promise((r) => setTimeout(r, 50));
      status = await call('status:get');
    }
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
    // Every settlement the simulator had produced is there (more may settle while the test runs).
    expect(page.total).toBeGreaterThanOrEqual(before);
    expect(page.total).toBeLessThanOrEqual(after);
    const coverage = await call('coverage:get');
    expect(coverage.sports.length).toBeGreaterThan(1);
  }, 60_000);
});

describe('core on an enterprise key', () => {
  it('pushes live odds coalesced into frame-sized batches (at most one per 16 ms), and alerts and notifies when a watched match settles', async () => {
    const { call, pushes, notifications } = await startCore('enterprise', 600);
    const fixtures: Fixture[] = await call('fixtures:list', {});
    // The matches that start first settle first.
    const soonest = [...fixtures].sort((a, b) => a.starts.localeCompare(b.starts)).slice(0, 3);
    for (const f of soonest) await call('watch:add', f.event_id);

    await until(() => pushes.filter((p) => p.event === 'onOdds').length >= 10, 20_000, 'odds batches');
    const batches = pushes.filter((p) => p.event === 'onOdds').map((p) => p.payload as OddsBatch);
    const gaps = batches.slice(1).map((b, i) => b.at - batches[i]!.at);
    // One batch per coalescing interval at most (allowing the timer's own 1 ms granularity).
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(DEFAULT_BATCH_MS - 1);
    expect(batches.some((b) => b.events.some((e) => e.markets.length > 0))).toBe(true);
    const detail = await call('event:detail', soonest[0]!.event_id);
    expect(detail.markets.length).toBeGreaterThan(0);

    const settledAlert = await until(
      () => pushes.find((p) => p.event === 'onAlert' && (p.payload as PushPayloads['onAlert']).kind === 'settled'),
      90_000,
      'a watched match to settle',
    );
    const alert = settledAlert.payload as PushPayloads['onAlert'];
    expect(soonest.map((f) => f.event_id)).toContain(alert.eventId);
    const n = await until(() => notifications.find((x) => x.kind === 'settlement' && x.eventId === alert.eventId), 5_000, 'the notification');
    expect(n.title).toMatch(/^Settled: .+ v .+ \d+–\d+$/);
    expect(n.body).toMatch(/^Moneyline (Home|Draw|Away): won$/m);
    expect(n.body).not.toMatch(/\bH [WLP]\b|\(p\d+\)/);
    const found = await call('settlements:query', { team: soonest.find((f) => f.event_id === alert.eventId)!.runner_home });
    expect(found.rows.map((r) => r.eventId)).toContain(alert.eventId);
  }, 120_000);
});
