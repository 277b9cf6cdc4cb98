// The demo's first run: a new demo profile watches live events (one per sport first, those with most left to play)
// and matches about to kick off, so the first screen moves; it happens once, never again after the trader cleared
// the list, and never to a profile that already watches something. Its watches are monitored like any other: a
// first-run match that kicks off has its closes stored and alerts.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core';
import { FIRST_RUN_MIN_LEAD_MS, FIRST_RUN_WATCHES, pickFirstRunWatches } from '../../src/core/firstRun';
import { parseServiceTime, type Fixture, type Market, type Prices } from '../../src/shared/api';
import { startSimulator, type Simulator } from '../../src/sim';
import { createManualClock, type ManualClock } from '../support/manualClock';
import { openTestCore, type CoreCall } from '../support/testCore';

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
  const now = parseServiceTime('2026-11-20T12:00:00')!;
  it('takes live events only, one per sport first, latest kick-off first, when nothing is about to start', () => {
    const f = [
      fixture(1, 1, '2026-11-20T11:00:00', 1),
      fixture(2, 1, '2026-11-20T11:50:00', 1),
      fixture(3, 2, '2026-11-20T11:10:00', 1),
      fixture(4, 3, '2026-11-20T13:00:00', 0), // not offered in play: never picked
      fixture(5, 1, '2026-11-20T11:40:00', 1),
    ];
    expect(pickFirstRunWatches(f, now, 3)).toEqual([2, 3, 5]);
    expect(pickFirstRunWatches(f, now, 10)).toEqual([2, 3, 5, 1]);
    expect(pickFirstRunWatches([fixture(4, 3, '2026-11-20T13:00:00', 0)], now)).toEqual([]);
  });

  it('takes three live and one about to kick off (soonest first, far enough ahead to see its pre-match prices)', () => {
    const f = [
      fixture(1, 1, '2026-11-20T11:30:00', 1),
      fixture(2, 2, '2026-11-20T11:50:00', 1),
      fixture(3, 3, '2026-11-20T11:40:00', 1),
      fixture(10, 1, '2026-11-20T12:00:10', 2), // kicks off in 10 s: too soon to see a price before it
      fixture(11, 4, '2026-11-20T12:20:00', 2),
      fixture(12, 5, '2026-11-20T12:05:00', 2),
      fixture(13, 5, '2026-11-20T12:02:00', 2),
      fixture(14, 6, '2026-11-20T12:01:00', 0), // will not be offered in play
    ];
    expect(FIRST_RUN_MIN_LEAD_MS).toBeGreaterThan(10_000);
    // Live: 2 (latest), 3, 1; upcoming: 13 (the soonest far enough ahead).
    expect(pickFirstRunWatches(f, now, 4)).toEqual([2, 3, 1, 13]);
    // Nothing live: the upcoming fill the list, one per sport first (11 before 12, whose sport 13 has).
    expect(
      pickFirstRunWatches(
        f.filter((x) => x.live_status !== 1),
        now,
        4,
      ),
    ).toEqual([13, 11, 12]);
    // One live only: the upcoming fill the rest.
    expect(
      pickFirstRunWatches(
        f.filter((x) => x.event_id !== 2 && x.event_id !== 3),
        now,
        4,
      ),
    ).toEqual([1, 13, 11, 12]);
  });
});

async function openDemoCore(
  dataDir: string,
  clock: ManualClock = createManualClock(parseServiceTime(T0)!),
): Promise<{ core: Core; call: CoreCall }> {
  return openTestCore({ dataDir, clock, demo: { baseUrl: sim!.url, key: DEMO_KEY } });
}

describe('first run of the demo profile', () => {
  it('watches live and upcoming events once; a trader who cleared the list finds it clear at the next start', async () => {
    sim = await startSimulator({
      port: 0,
      seed: 11,
      clock: 'manual',
      startTime: T0,
      keys: [{ key: DEMO_KEY, plan: 'enterprise' }],
      historyHours: 2,
    });
    const book = (await (
      await fetch(new URL('/api/fixtures', sim.url), { headers: { 'X-API-Key': DEMO_KEY } })
    ).json()) as Fixture[];
    const liveNow = new Set(book.filter((f) => f.live_status === 1).map((f) => f.event_id));
    const upcoming = new Set(book.filter((f) => f.live_status === 2).map((f) => f.event_id));
    expect(liveNow.size).toBeGreaterThanOrEqual(3);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-first-run-'));

    let opened = await openDemoCore(dataDir);
    core = opened.core;
    expect((await opened.call('app:info')).demo).toBe(true);
    const first = await opened.call('watch:list');
    expect(first.length).toBe(FIRST_RUN_WATCHES);
    // Three live, one about to kick off, named from the fixtures (not "Event 1234"), with their streams opening.
    expect(first.filter((w) => liveNow.has(w.eventId)).length).toBe(FIRST_RUN_WATCHES - 1);
    expect(first.filter((w) => upcoming.has(w.eventId)).length).toBe(1);
    for (const w of first) {
      expect(w.runnerHome).toBeTruthy();
      expect(w.leagueName).toBeTruthy();
    }
    expect(new Set((await opened.call('status:get')).streams.map((s) => s.eventId))).toEqual(
      new Set(first.map((w) => w.eventId)),
    );

    // The trader clears the list; the next start of the same profile leaves it clear.
    for (const w of first) await opened.call('watch:remove', w.eventId);
    await core.close();
    opened = await openDemoCore(dataDir);
    core = opened.core;
    expect(await opened.call('watch:list')).toEqual([]);
  });

  it('leaves a demo profile that already watches something as it is', async () => {
    sim = await startSimulator({
      port: 0,
      seed: 12,
      clock: 'manual',
      startTime: T0,
      keys: [{ key: DEMO_KEY, plan: 'enterprise' }],
      historyHours: 2,
    });
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

  it('monitors its watches like any other: a first-run match that kicks off has its close stored and alerts', async () => {
    sim = await startSimulator({
      port: 0,
      seed: 11,
      clock: 'manual',
      startTime: T0,
      keys: [{ key: DEMO_KEY, plan: 'enterprise' }],
      historyHours: 2,
    });
    const clock = createManualClock(sim.now());
    // What the service last offered on each line before its match went live, as the stream said it (the book's
    // prices at the start, then every odds message up to the score message that says live): a close must be this.
    const offered = new Map<number, Map<number, Prices | null>>();
    const live = new Set<number>();
    for (const id of sim.truth.bookIds())
      offered.set(id, new Map(sim.truth.event(id)!.markets.map((m) => [m.line_id, m.prices])));
    sim.onStreamMessage((eventId, m) => {
      if (live.has(eventId)) return;
      const data = JSON.parse(m.data) as { live_status?: number; markets?: Market[] };
      if (m.event === 'score' && data.live_status === 1) live.add(eventId);
      if (m.event !== 'odds') return;
      const lines = offered.get(eventId) ?? new Map<number, Prices | null>();
      offered.set(eventId, lines);
      for (const mk of data.markets ?? []) lines.set(mk.line_id, mk.prices);
    });
    const opened = await openDemoCore(mkdtempSync(path.join(tmpdir(), 'oddsdesk-first-run-')), clock);
    core = opened.core;
    const { call } = opened;
    const watched = await call('watch:list');
    const ids = watched.map((w) => w.eventId);
    const upcoming = watched.filter((w) => w.liveStatus === 2).map((w) => w.eventId);
    expect(upcoming.length).toBeGreaterThan(0);
    expect((await call('settings:get')).demo).toBe(true);

    /** Moves the simulator and the core's clock together until `probe` holds: virtual time, never a real sleep. */
    async function until<T>(
      probe: () => Promise<T | null>,
      maxSimSeconds: number,
      what: string,
      stepS = 10,
    ): Promise<T> {
      for (let waited = 0; ; waited += stepS) {
        const v = await probe();
        if (v !== null) return v;
        if (waited >= maxSimSeconds) throw new Error(`no ${what} within ${maxSimSeconds} simulated seconds`);
        await sim!.advance(stepS);
        await clock.advance(stepS * 1000);
      }
    }

    // An upcoming first-run match kicks off: its lines close at the last pre-match prices the app saw.
    const closed = await until(
      async () => {
        for (const id of upcoming) {
          const lines = (await call('lines:closing', id)).filter((l) => l.closedAt !== null && l.closing !== null);
          if (lines.length > 0) return { id, lines };
        }
        return null;
      },
      6 * 3600,
      'close of a first-run match',
    );
    expect(closed.lines.some((l) => l.market === 'moneyline')).toBe(true);
    expect(live.has(closed.id)).toBe(true);
    for (const l of closed.lines) {
      expect(l.closedAt!).toBeGreaterThanOrEqual(parseServiceTime(T0)!);
      expect(l.stale, `line ${l.lineId} followed to kick-off`).toBe(false);
      expect(l.closing, `line ${l.lineId} (${l.market}) closed at the last pre-match prices offered`).toEqual(
        offered.get(closed.id)!.get(l.lineId),
      );
    }

    // And it alerts: the limit moves as it goes in play (the Alerts list of a first run is not empty).
    const alerts = await until(
      async () => {
        const mine = (await call('alerts:list', {})).filter((a) => a.eventId !== null && ids.includes(a.eventId));
        return mine.length > 0 ? mine : null;
      },
      600,
      'alert of a first-run match',
      5,
    );
    expect(alerts.map((a) => a.kind)).toContain('max_win');
    expect(upcoming).toContain(alerts.find((a) => a.kind === 'max_win')!.eventId);
  }, 120_000);
});
