// Issue 14, must-show 2: a bet recorded before kick-off gets its line's closing price, its CLV under each of the five
// models, and once the match settles its result and P/L, all equal to figures computed by hand; `cli export bets`
// prints them. The engine runs on the manual clock against the simulator; the close is scripted (the market goes
// offline), the settlement is the simulator's own.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/core/engine';
import { DEFAULT_MONITOR_SETTINGS } from '../../src/core/settings';
import { openStore, type Store } from '../../src/core/store';
import { parseServiceTime } from '../../src/shared/api';
import { startSimulator, type Simulator } from '../../src/sim';
import { runCli } from '../monitor/cliHarness';
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

/**
 * A home bet at 2.10 against a close of 1.80 / 2.10. Fair home at the close, worked out by hand (r = 1/1.8, 1/2.1):
 * EM 1 + 1.8/2.1 = 1.857143; MPTO and SHIN (equal on a two-way line) 1/(1/1.8 - (1/1.8 + 1/2.1 - 1)/2) = 1.852941;
 * LOG (r_h^k + r_a^k = 1, k = 1.0339) 1.850898; OR (odds ratio c = 1.0339 solved by bisection) 1.852803.
 * CLV = 2.10 / fair - 1.
 */
const CLV = { LOG: 13.4585, EM: 13.0769, MPTO: 13.3333, SHIN: 13.3333, OR: 13.3418 };
const PNL: Record<string, number> = { win: 110, loss: -100, push: 0 }; // stake 100 at 2.10

describe('the bet log', () => {
  it('a bet before kick-off gets its close, CLV under each model, then its result and P/L; cli export bets prints them', async () => {
    sim = await startSimulator({ port: 0, seed: 23, clock: 'manual', keys: [{ key: 'ent-bets-key', plan: 'enterprise' }] });
    const clock = createManualClock(sim.now());
    const db = path.join(mkdtempSync(path.join(tmpdir(), 'oddsdesk-bets-')), 'bets.db');
    store = openStore({ path: db, clock: () => clock.now() });
    engine = createEngine({ baseUrl: sim.url, key: 'ent-bets-key', store, clock, notifier: { notify: () => undefined }, settings: () => DEFAULT_MONITOR_SETTINGS });
    await engine.start();

    // The match that starts first among those with a two-way moneyline, still before its start.
    const candidates = sim.truth.bookIds().map((id) => sim!.truth.event(id)!).filter((e) => e.live_status !== 1 && e.markets.find((m) => m.line_id === e.event_id * 10)?.prices?.draw === undefined);
    const event = candidates.sort((a, b) => a.starts.localeCompare(b.starts))[0]!;
    const eventId = event.event_id;
    const lineId = eventId * 10;
    sim.script.setMarket(eventId, lineId, { home: 2.2, away: 1.7 });
    await engine.monitor.watch(eventId);
    await advanceUntil(clock, () => store!.latestMarkets(eventId).find((m) => m.lineId === lineId)?.prices?.home === 2.2, 'the snapshot');

    // The trader takes home at 2.10 for 100 (a price elsewhere; ours shows 2.20).
    await clock.advance(60_000);
    const bet = store.addBet({ eventId, lineId, side: 'home', price: 2.1, stake: 100 }, clock.now());
    expect(bet).toMatchObject({ closingPrice: null, clvByModel: null, result: null, pnl: null });

    // The line moves, then the market goes offline before the start: the last price before that is the close.
    await clock.advance(60_000);
    sim.script.setMarket(eventId, lineId, { home: 1.8, away: 2.1 });
    await advanceUntil(clock, () => store!.latestMarkets(eventId).find((m) => m.lineId === lineId)?.prices?.home === 1.8, 'the move');
    await clock.advance(60_000);
    sim.script.setMarket(eventId, lineId, null);
    await advanceUntil(clock, () => store!.latestMarkets(eventId).find((m) => m.lineId === lineId)?.prices === null, 'offline');
    await clock.advance(1_000);

    const close = store.lineCloses(eventId).find((c) => c.lineId === lineId)!;
    expect(close).toMatchObject({ opening: { home: 2.2, away: 1.7 }, closing: { home: 1.8, away: 2.1 }, closeReason: 'offline' });
    let [view] = store.listBets();
    expect(view!.closingPrice).toBe(1.8);
    for (const [model, clv] of Object.entries(CLV)) expect(view!.clvByModel![model as keyof typeof CLV], model).toBeCloseTo(clv, 3);
    // Nothing later moves a closed line: the world's own motion and the start leave the close as it was.

    // Play the match out on the simulator until its settlement is published, then walk /api/settled.
    const startsAt = parseServiceTime(event.starts)!;
    for (let i = 0; i < 200 && !sim.truth.settled().some((s) => s.event_id === eventId); i++) await sim.advance(600);
    expect(sim.now()).toBeGreaterThan(startsAt);
    const settled = sim.truth.settled().find((s) => s.event_id === eventId)!;
    expect(settled).toBeDefined();
    const r = await engine.monitor.syncSettled();
    expect(r.error).toBeNull();
    const outcome = settled.settlement.find((l) => l.line_id === lineId)!.outcome_home;

    [view] = store.listBets();
    expect(view).toMatchObject({ result: outcome, pnl: PNL[outcome], closingPrice: 1.8 });
    expect(store.lineCloses(eventId).find((c) => c.lineId === lineId)!.closing).toEqual({ home: 1.8, away: 2.1 });
    await engine.stop();
    engine = null;
    store.close();
    store = null;

    // The CLI prints the same figures, as JSON lines and as CSV.
    const json = runCli(['export', 'bets', '--db', db]);
    expect(await json.exited, json.stderr()).toBe(0);
    const [printed] = json.lines() as Array<{ price: number; stake: number; closingPrice: number; clvByModel: typeof CLV; result: string; pnl: number }>;
    expect(printed).toMatchObject({ eventId, lineId, side: 'home', price: 2.1, stake: 100, closingPrice: 1.8, result: outcome, pnl: PNL[outcome] });
    for (const [model, clv] of Object.entries(CLV)) expect(printed!.clvByModel[model as keyof typeof CLV]).toBeCloseTo(clv, 3);
    const csv = runCli(['export', 'bets', '--db', db, '--format', 'csv']);
    expect(await csv.exited, csv.stderr()).toBe(0);
    const [header, row] = csv.stdout().trim().split(/\r?\n/);
    expect(header).toBe('id,placed_at_utc,event_id,bet,line_id,market,period,line,side,price,stake,closing_price,clv_LOG_pct,clv_EM_pct,clv_MPTO_pct,clv_SHIN_pct,clv_OR_pct,result,pnl');
    const cells = row!.split(',');
    expect(cells.slice(8)).toEqual(['home', '2.1', '100', '1.8', '13.4585', '13.0769', '13.3333', '13.3333', '13.3418', outcome, String(PNL[outcome])]);
  }, 120_000);
});
