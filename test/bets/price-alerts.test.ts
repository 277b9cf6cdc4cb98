// Issue 14, must-show 1: on the simulator, a scripted price move on a watched line fires exactly one drop alert and
// one threshold alert, and none while the price flickers around the threshold. The engine (client, streams,
// monitor, store) runs on the manual clock; only the simulator's HTTP is real.
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/core/engine';
import type { MonitorSettings } from '../../src/core/monitor';
import { DEFAULT_MONITOR_SETTINGS } from '../../src/core/settingsService';
import { priceAlertKey } from '../../src/core/monitor/priceWatch';
import type { UserNotification } from '../../src/core/notifier';
import { openStore, type Store } from '../../src/core/store';
import type { Prices } from '../../src/shared/api';
import { fairPrices } from '../../src/shared/trading';
import type { AlertRecord } from '../../src/shared/domain';
import { startSimulator, type Simulator } from '../../src/sim';
import { advanceUntil, createManualClock } from '../support/manualClock';

let sim: Simulator | null = null;
let engine: Engine | null = null;
let store: Store | null = null;
afterEach(async () => {
  await engine?.stop();
  store?.close();
  await sim?.close();
  sim = engine = store = null;
});

describe('price and drop alerts on the simulator', () => {
  it('a scripted move fires one threshold alert and one drop alert, none for the flicker, each notified once', async () => {
    sim = await startSimulator({
      port: 0,
      seed: 11,
      clock: 'manual',
      keys: [{ key: 'ent-price-key', plan: 'enterprise' }],
    });
    const clock = createManualClock(sim.now());
    store = openStore({ path: ':memory:', clock: () => clock.now() });
    const settings: MonitorSettings = {
      ...DEFAULT_MONITOR_SETTINGS,
      devigModel: 'EM',
      maxWinThresholdPct: 1000,
      notifyMaxWin: false,
      price: { dropPct: 5, dropWindowMinutes: 15, hysteresisPct: 1, notify: true },
    };
    const notifications: UserNotification[] = [];
    engine = createEngine({
      baseUrl: sim.url,
      key: 'ent-price-key',
      store,
      clock,
      logger: () => undefined,
      notifier: { notify: (n) => notifications.push(n) },
      settings: () => settings,
    });
    const alerts: AlertRecord[] = [];
    engine.monitor.on((e) => e.type === 'alert' && alerts.push(e.alert));
    await engine.start();

    // A match before its start with a two-way moneyline (home/away only), so the move is easy to compute by hand.
    const eventId = sim.truth.bookIds().find((id) => {
      const e = sim!.truth.event(id);
      const ml = e?.markets.find((m) => m.line_id === id * 10);
      return e?.live_status !== 1 && ml?.prices && ml.prices.draw === undefined;
    })!;
    expect(eventId).toBeDefined();
    const lineId = eventId * 10;
    // The line opens (for us: the snapshot we get on watching) at 2.00 / 1.90, fair home (EM: 1 + home/away for a two-way line) 2.0526; a threshold on
    // home at 1.90.
    sim.script.setMarket(eventId, lineId, { home: 2.0, away: 1.9 });
    store.settings.setSetting(priceAlertKey(eventId), { thresholds: [{ lineId, side: 'home', price: 1.9 }] });
    await engine.monitor.watch(eventId);
    await advanceUntil(
      clock,
      () => store!.history.latestMarkets(eventId).find((m) => m.lineId === lineId)?.prices?.home === 2.0,
      'the snapshot',
    );
    await clock.advance(60_000);

    const script: Prices[] = [
      { home: 1.95, away: 1.9 }, // fair 2.0263: -1.3%
      { home: 1.89, away: 1.9 }, // crosses 1.90 down: THE threshold alert; fair 1.9947, -2.8%
      { home: 1.905, away: 1.9 }, // flicker back above X, inside the 1% band
      { home: 1.895, away: 1.9 }, // and below again: nothing
      { home: 1.91, away: 1.9 }, // above, still inside the band (crossing back needs 1.919)
      { home: 1.88, away: 1.9 }, // below: nothing (fair 1.9895, -3.1%)
      { home: 1.8, away: 1.95 }, // fair 1.9231: -6.3% since the open: THE drop alert
      { home: 1.78, away: 1.97 }, // further: the drop already fired, nothing
    ];
    for (const prices of script) {
      expect(sim.script.setMarket(eventId, lineId, prices)).toBe(true);
      await advanceUntil(
        clock,
        () => store!.history.latestMarkets(eventId).find((m) => m.lineId === lineId)?.prices?.home === prices.home,
        `home ${prices.home}`,
      );
      await clock.advance(60_000); // a minute between moves, and the batch flushed
    }

    const mine = alerts.filter((a) => a.eventId === eventId && (a.kind === 'price' || a.kind === 'drop'));
    expect(mine.map((a) => a.kind)).toEqual(['price', 'drop']);
    expect(mine[0]!.data).toMatchObject({ lineId, side: 'home', threshold: 1.9, price: 1.89, direction: 'down' });
    const open = fairPrices({ home: 2.0, away: 1.9 }, 'EM')!.home!;
    const dropped = fairPrices({ home: 1.8, away: 1.95 }, 'EM')!.home!;
    expect(open).toBeCloseTo(1 + 2 / 1.9, 10);
    expect(dropped).toBeCloseTo(1 + 1.8 / 1.95, 10);
    expect(mine[1]!.data).toMatchObject({ lineId, side: 'home', basis: 'open', model: 'EM' });
    expect((mine[1]!.data as { pct: number }).pct).toBeCloseTo((dropped / open - 1) * 100, 9);
    expect((mine[1]!.data as { pct: number }).pct).toBeCloseTo(-6.3117, 3);
    // The same alert log as every other alert, and one notification each.
    expect(
      store.alerts
        .listAlerts()
        .filter((a) => a.kind === 'price' || a.kind === 'drop')
        .map((a) => a.id)
        .sort(),
    ).toEqual(mine.map((a) => a.id).sort());
    expect(notifications.filter((n) => n.kind === 'price')).toHaveLength(2);
  }, 60_000);
});
