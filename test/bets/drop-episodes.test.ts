// Issue 33, item 4: a burst of drops on one event (a goal moves every line) is one alert and one notification; the
// alert grows in place (same number) while the burst lasts, and a further steam after the episode has ended is a new
// one. The engine (client, streams, monitor, store) runs on the manual clock against the simulator, whose world moves
// only as the test scripts it.
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/core/engine';
import type { MonitorSettings } from '../../src/core/monitor';
import { EPISODE_RULES, type EpisodeData } from '../../src/core/monitor/dropEpisodes';
import { DEFAULT_MONITOR_SETTINGS } from '../../src/core/settingsService';
import type { UserNotification } from '../../src/core/notifier';
import { openStore, type Store } from '../../src/core/store';
import type { Market, Prices } from '../../src/shared/api';
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

/** A move that shortens the line's first side by `f` and lengthens the others: a drop of the rule's size. */
function steamed(prices: Prices, f: number): Prices {
  const sides = Object.keys(prices) as Array<keyof Prices>;
  const out: Prices = {};
  sides.forEach(
    (s, i) =>
      (out[s] = i === 0 ? Math.round(prices[s]! * f * 1000) / 1000 : Math.round(prices[s]! * (2 - f) * 1000) / 1000),
  );
  return out;
}

describe('drop episodes on the simulator', () => {
  it('a burst on one event is one alert and one notification, updated in place; a burst after it ended is another', async () => {
    sim = await startSimulator({
      port: 0,
      seed: 11,
      clock: 'manual',
      keys: [{ key: 'ent-ep-key', plan: 'enterprise' }],
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
      key: 'ent-ep-key',
      store,
      clock,
      logger: () => undefined,
      notifier: { notify: (n) => notifications.push(n) },
      settings: () => settings,
    });
    const pushed: AlertRecord[] = [];
    engine.monitor.on((e) => e.type === 'alert' && pushed.push(e.alert));
    await engine.start();

    // A pre-match event with at least six priced full-match lines whose first side is no longshot.
    const usable = (m: Market) =>
      m.period === 0 &&
      m.prices !== null &&
      Object.keys(m.prices).length >= 2 &&
      Object.values(m.prices).every((p) => p! > 1.2 && p! < 4);
    const eventId = sim.truth.bookIds().find((id) => {
      const e = sim!.truth.event(id);
      return e?.live_status !== 1 && e!.markets.filter(usable).length >= 6;
    })!;
    expect(eventId).toBeDefined();
    const lines = sim.truth.event(eventId)!.markets.filter(usable).slice(0, 6);
    await engine.monitor.watch(eventId);
    const shown = (m: Market, prices: Prices) =>
      store!.history.latestMarkets(eventId).find((x) => x.lineId === m.line_id)?.prices?.[
        Object.keys(prices)[0] as keyof Prices
      ] === Object.values(prices)[0];
    await advanceUntil(clock, () => lines.every((m) => shown(m, m.prices!)), 'the snapshot');
    await clock.advance(60_000);

    const drops = () => pushed.filter((a) => a.eventId === eventId && a.kind === 'drop');
    const dropNotes = () => notifications.filter((n) => n.kind === 'price' && n.eventId === eventId);

    // The goal: two lines move, then four more 300 ms later.
    const first = lines.map((m) => steamed(m.prices!, 0.85));
    for (const [i, m] of lines.slice(0, 2).entries())
      expect(sim.script.setMarket(eventId, m.line_id, first[i]!)).toBe(true);
    await advanceUntil(clock, () => drops().length > 0, 'the first drops');
    await clock.advance(300);
    for (const [i, m] of lines.slice(2).entries())
      expect(sim.script.setMarket(eventId, m.line_id, first[i + 2]!)).toBe(true);
    await advanceUntil(clock, () => lines.every((m, i) => shown(m, first[i]!)), 'the rest of the burst');
    await clock.advance(2_000);

    const ids = [...new Set(drops().map((a) => a.id))];
    expect(ids).toHaveLength(1);
    expect(dropNotes()).toHaveLength(1);
    // It grew in place: its latest push names all six lines, under the same number, as an update.
    const latest = drops().at(-1)!;
    expect(drops().length).toBeGreaterThan(1);
    expect(latest.updatedAt).toBeGreaterThan(latest.at);
    const data = latest.data as EpisodeData;
    expect(data.count).toBe(6);
    expect(new Set(data.lines.map((l) => l.lineId))).toEqual(new Set(lines.map((m) => m.line_id)));
    expect(data.lines.every((l) => l.pct <= -5)).toBe(true);
    expect(latest.message).toMatch(/^6 lines dropped on .+ v .+ \(EM\): /);
    // The alert log holds one row for the burst, with its last words.
    await store.writer.settled();
    const logged = store.alerts.listAlerts().filter((a) => a.eventId === eventId && a.kind === 'drop');
    expect(logged.map((a) => [a.id, a.message])).toEqual([[ids[0], latest.message]]);

    // Past the quiet gap, a further steam of the rule's size on the same lines is a new episode.
    await clock.advance(EPISODE_RULES.quietMs + 60_000);
    const second = first.map((p) => steamed(p, 0.85));
    for (const [i, m] of lines.entries()) expect(sim.script.setMarket(eventId, m.line_id, second[i]!)).toBe(true);
    await advanceUntil(clock, () => lines.every((m, i) => shown(m, second[i]!)), 'the second burst');
    await clock.advance(2_000);
    expect([...new Set(drops().map((a) => a.id))]).toHaveLength(2);
    expect(dropNotes()).toHaveLength(2);
    await store.writer.settled();
    expect(store.alerts.listAlerts().filter((a) => a.eventId === eventId && a.kind === 'drop')).toHaveLength(2);
  }, 60_000);
});
