// Snooze (issue 25, alerts that get noticed): a snoozed event's alerts are still kept and listed, but until the snooze
// ends the core notifies nobody of them (the OS notification is decided here); when it ends, they notify again. The
// core and the simulator run on one manual clock, so the snooze's half hour passes in a few steps.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core/core';
import type { UserNotification } from '../../src/core/notifier';
import { createMemorySecretStore } from '../../src/core/secrets/memory';
import type { EventOdds } from '../../src/shared/api';
import type { AlertRecord } from '../../src/shared/domain';
import type { Channel, CoreHandlers, RequestArgs, ResponseMap } from '../../src/shared/ipc/contract';
import { startSimulator, type Simulator } from '../../src/sim';
import { createManualClock, type ManualClock } from '../support/manualClock';

const KEY = 'snooze-test-key';
let sim: Simulator | null = null;
let core: Core | null = null;
afterEach(async () => {
  await core?.close();
  core = null;
  await sim?.close();
  sim = null;
});

it('a snoozed event alerts into the list but notifies nobody, and notifies again once the snooze ends', async () => {
  sim = await startSimulator({ port: 0, seed: 7, clock: 'manual', keys: [{ key: KEY, plan: 'enterprise' }] });
  const clock: ManualClock = createManualClock(sim.now());
  const notifications: UserNotification[] = [];
  const alerts: AlertRecord[] = [];
  core = await createCore({
    host: 'browser',
    version: 'test',
    dataDir: mkdtempSync(path.join(tmpdir(), 'oddsdesk-snooze-')),
    secrets: createMemorySecretStore(),
    logger: () => undefined,
    notifier: { notify: (n) => notifications.push(n) },
    envService: { baseUrl: sim.url, key: KEY },
    // Only the thresholds below raise price alerts: no drop rule to fire on the world's own moves.
    initialSettings: { dropAlertPct: 0 },
    clock,
    pingIntervalMs: 3_600_000,
  });
  await core.ready;
  core.subscribe((event, payload) => event === 'onAlert' && alerts.push(payload as AlertRecord));
  // What the alert rules have seen: the monitor's coalesced batches (each goes to the price rules as it is emitted).
  const seen = new Map<number, number | undefined>();
  core.onMonitorEvent((e) => {
    if (e.type === 'batch') for (const x of e.events) for (const m of x.markets) seen.set(m.line_id, m.prices?.home);
  });
  const handlers: CoreHandlers = core.handlers;
  const call = async <C extends Channel>(channel: C, ...args: RequestArgs<C>): Promise<ResponseMap[C]> =>
    (handlers[channel] as (...a: unknown[]) => ResponseMap[C] | Promise<ResponseMap[C]>)(...args);
  const s = sim;
  /** Moves the simulator and the core's clock together: never a real sleep for time to pass. */
  const advance = async (seconds: number) => {
    await s.advance(seconds);
    await clock.advance(seconds * 1000);
  };
  /** Polls (a few real turns for the stream's bytes to arrive), then moves time a few seconds, until `probe` holds. */
  const until = async <T>(
    probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
    maxSimSeconds: number,
    what: string,
    stepS = 2,
  ): Promise<T> => {
    for (let waited = 0; ; waited += stepS) {
      for (let i = 0; i < 20; i++) {
        const v = await probe();
        if (v) return v;
        await new Promise((r) => setTimeout(r, 5));
      }
      if (waited >= maxSimSeconds) throw new Error(`no ${what} within ${maxSimSeconds} simulated seconds`);
      await advance(stepS);
    }
  };

  // Three matches hours from their start, each with a two-way moneyline: A for price alerts, B settles while
  // snoozed, C settles after its snooze ended.
  const mlOf = (e: EventOdds) => e.markets.find((m) => m.market === 'moneyline' && m.period === 0);
  const [a, b, c] = s.truth
    .bookIds()
    .map((id) => s.truth.event(id)!)
    .filter((e) => e.live_status !== 1 && Date.parse(`${e.starts}Z`) - s.now() > 3 * 3_600_000)
    .filter((e) => mlOf(e)?.prices && mlOf(e)!.prices!.draw === undefined)
    .slice(0, 3)
    .map((e) => e.event_id) as [number, number, number];
  expect(c).toBeDefined();
  const line = mlOf(s.truth.event(a)!)!.line_id;
  for (const id of [a, b, c]) await call('watch:add', id);
  /** Sets A's moneyline and waits until the monitor's batch carried it (the price rules see each batch). */
  const priceA = async (home: number, away: number) => {
    s.script.setMarket(a, line, { home, away });
    await until(() => seen.get(line) === home, 30, `A at ${home}`, 1);
  };
  // Home crossing 1.70 alerts, down or back up.
  await call('priceAlerts:set', a, { thresholds: [{ lineId: line, side: 'home', price: 1.7 }] });
  await priceA(2.0, 1.9);

  // Half an hour: the simulator settles in ten-minute batches, so B's settlement lands well within it.
  const snoozeEnds = clock.now() + 30 * 60_000;
  const snoozed = await call('alerts:snooze', a, snoozeEnds);
  await call('alerts:snooze', b, snoozeEnds);
  await call('alerts:snooze', c, snoozeEnds);
  expect(snoozed).toEqual([{ eventId: a, until: snoozeEnds }]);
  expect((await call('settings:get')).snoozedEvents.map((x) => x.eventId).sort()).toEqual([a, b, c].sort());

  // While snoozed: A's price alert and B's settlement are listed, and nothing is notified of either.
  await priceA(1.5, 2.6);
  const priceAlert = await until(
    () => alerts.find((x) => x.eventId === a && x.kind === 'price'),
    10,
    'the price alert',
  );
  expect(priceAlert.message).toMatch(/crossed 1\.7 ↓/);
  s.script.abandon(b);
  const settled = await until(
    () => alerts.find((x) => x.eventId === b && x.kind === 'settled'),
    15 * 60,
    'the settlement of B',
    30,
  );
  const listed = await call('alerts:list', {});
  expect(listed.map((x) => x.id)).toEqual(expect.arrayContaining([priceAlert.id, settled.id]));
  // Past the notify pacer's interval, so nothing is merely held back; still within the snooze.
  await advance(12);
  expect(clock.now()).toBeLessThan(snoozeEnds);
  expect(notifications.filter((n) => [a, b, c].includes(n.eventId ?? -1))).toEqual([]);

  // The snooze ends by itself: the same kinds notify again.
  await advance(Math.ceil((snoozeEnds - clock.now()) / 1000) + 1);
  expect((await call('settings:get')).snoozedEvents).toEqual([]);
  // The world has moved A's price on meanwhile: cross the threshold from wherever it is now.
  const last = seen.get(line)!;
  if (last > 1.7) await priceA(1.5, 2.6);
  else await priceA(2.2, 1.7);
  const n = await until(
    () => notifications.find((x) => x.eventId === a && x.kind === 'price'),
    10,
    'a price notification for A',
  );
  expect(n.body).toMatch(last > 1.7 ? /crossed 1\.7 ↓/ : /crossed 1\.7 ↑/);
  s.script.abandon(c);
  const settledC = await until(
    () => notifications.find((x) => x.eventId === c && x.kind === 'settlement'),
    15 * 60,
    'the settlement notification of C',
    30,
  );
  expect(settledC.title).toMatch(/^Settled/);
  // B stayed silent: its settlement, while snoozed, was never notified.
  expect(notifications.filter((x) => x.eventId === b)).toEqual([]);
}, 120_000);
