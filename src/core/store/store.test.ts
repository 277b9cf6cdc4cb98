import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, SecretSettingError } from '.';
import type { SpecialTick } from '../../shared/api';
import { cleanMarket, market, settledAtSeconds, settledEvent } from '../../../test/store/gen';

const DAY = 86_400_000;

function memStore(now = { t: 10 * DAY }) {
  return { store: openStore({ path: ':memory:', clock: () => now.t, retentionDays: 2 }), now };
}

function tick(specialId: number, contestantId: number, ts: string, maxWin: number, withTrue = false): SpecialTick {
  return {
    event_id: 5,
    special_id: specialId,
    special_name: 'Top scorer',
    contestant_id: contestantId,
    contestant_name: `C${contestantId}`,
    handicap: 0,
    odds: 3,
    todds: 3.1,
    period: 0,
    max_win: maxWin,
    cutoff: '2026-02-01T00:00:00',
    timestamp: ts,
    true_odds_by_model: withTrue ? { LOG: 3.1, EM: 3.2, MPTO: 3.0, SHIN: 3.1, OR: 3.3 } : null,
  };
}

describe('settlements', () => {
  it('stores a settlement seen twice once, with all its lines, and the cursor with it', () => {
    const { store } = memStore();
    store.settlements.recordSettledPage([settledEvent(0), settledEvent(1), settledEvent(2)], settledAtSeconds(2));
    store.settlements.recordSettledPage([settledEvent(2), settledEvent(3)], settledAtSeconds(3));
    const all = [...store.settlements.exportSettlements()];
    expect(all.map((e) => e.event_id)).toEqual([1_000_000, 1_000_001, 1_000_002, 1_000_003]);
    expect(all[2]).toEqual(settledEvent(2));
    expect(store.settlements.settledCursor()).toBe(settledAtSeconds(3));
  });

  it('never moves the cursor backwards', () => {
    const { store } = memStore();
    store.settlements.recordSettledPage([settledEvent(9)], 500);
    store.settlements.recordSettledPage([settledEvent(1)], 100);
    expect(store.settlements.settledCursor()).toBe(500);
    expect(store.settlements.knownSettlements([1_000_001, 1_000_009, 42])).toEqual(new Set([1_000_001, 1_000_009]));
  });

  it('rolls back settlements and cursor together when the batch fails', () => {
    const { store } = memStore();
    const bad = { ...settledEvent(1), settled_at: 'not a time' };
    expect(() => store.settlements.recordSettledPage([settledEvent(0), bad], 999)).toThrow();
    expect(store.settlements.settledCursor()).toBeNull();
    expect(store.settlements.settlement(1_000_000)).toBeNull();
  });

  it('filters by sport, league, team, date range and outcome, paged with a total', () => {
    const { store } = memStore();
    const events = Array.from({ length: 120 }, (_, i) => settledEvent(i));
    store.settlements.recordSettledPage(events, 0);
    const sport2 = events.filter((e) => e.sport_id === 2);
    const p1 = store.settlements.querySettlements({ sportId: 2, limit: 10 });
    expect(p1.total).toBe(sport2.length);
    expect(p1.rows).toHaveLength(10);
    const p2 = store.settlements.querySettlements({ sportId: 2, limit: 10, after: p1.next! });
    const ids = [...p1.rows, ...p2.rows].map((r) => r.eventId);
    expect(new Set(ids).size).toBe(20);
    // Newest first, ties by event id.
    const expected = [...sport2].sort((a, b) => b.settled_at.localeCompare(a.settled_at) || b.event_id - a.event_id);
    expect(ids).toEqual(expected.slice(0, 20).map((e) => e.event_id));

    expect(store.settlements.querySettlements({ leagueId: 103 }).total).toBe(
      events.filter((e) => e.league_id === 103).length,
    );
    const team = events[7]!.runner_home;
    const byTeam = store.settlements.querySettlements({ team: team.toUpperCase(), limit: 500 });
    expect(byTeam.total).toBe(events.filter((e) => e.runner_home === team || e.runner_away === team).length);
    expect(
      store.settlements.querySettlements({ team: team.toLowerCase(), sportId: events[7]!.sport_id }).total,
    ).toBeGreaterThan(0);

    const from = Date.parse(`${events[30]!.settled_at}Z`);
    const to = Date.parse(`${events[60]!.settled_at}Z`);
    expect(store.settlements.querySettlements({ from, to }).total).toBe(30);

    const mlHomeWin = events.filter((e) =>
      e.settlement.some((l) => l.market === 'moneyline' && l.period === 0 && l.outcome_home === 'win'),
    );
    expect(
      store.settlements.querySettlements({ outcome: { side: 'home', result: 'win', scope: 'moneyline' } }).total,
    ).toBe(mlHomeWin.length);
    const anyAwayPush = events.filter((e) =>
      e.settlement.some((l) => l.market === 'spread' && l.outcome_away === 'push'),
    );
    expect(
      store.settlements.querySettlements({ outcome: { side: 'away', result: 'push', scope: 'any', market: 'spread' } })
        .total,
    ).toBe(anyAwayPush.length);
  });

  it('exports with since and sport filters', () => {
    const { store } = memStore();
    store.settlements.recordSettledPage(
      Array.from({ length: 30 }, (_, i) => settledEvent(i)),
      0,
    );
    const since = Date.parse(`${settledEvent(15).settled_at}Z`);
    const out = [...store.settlements.exportSettlements({ since, sportId: 1 })];
    // Exactly the generated settlements of sport 1 from event 15 on (15, 20 and 25), not an empty list.
    const want = Array.from({ length: 30 }, (_, i) => settledEvent(i)).filter(
      (e) => e.sport_id === 1 && Date.parse(`${e.settled_at}Z`) >= since,
    );
    expect(want.length).toBeGreaterThan(0);
    expect(out.map((e) => e.event_id).sort((x, y) => x - y)).toEqual(want.map((e) => e.event_id).sort((x, y) => x - y));
    expect(out.every((e) => e.sport_id === 1 && Date.parse(`${e.settled_at}Z`) >= since)).toBe(true);
    expect(out.length).toBe(
      Array.from({ length: 30 }, (_, i) => settledEvent(i)).filter(
        (e) => e.sport_id === 1 && Date.parse(`${e.settled_at}Z`) >= since,
      ).length,
    );
  });
});

describe('ticks, watchlist and retention', () => {
  it('keeps the latest odds per line and the history for charts', () => {
    const { store } = memStore();
    store.odds.recordSnapshot(
      {
        event_id: 5,
        sport_id: 1,
        league_id: 2,
        league_name: 'L',
        runner_home: 'A',
        runner_away: 'B',
        starts: '2026-01-01T12:00:00',
        live_status: 0,
        score_home: null,
        score_away: null,
        markets: [market(1, 0), market(2, 0)],
      },
      1000,
    );
    store.odds.recordTicks(5, [market(1, 1)], 2000);
    store.odds.recordTicks(5, [{ ...market(2, 2), prices: null }], 3000);
    store.watchlist.addWatch(5);
    store.watchlist.addWatch(5);
    const [w] = store.watchlist.watchedEvents();
    expect(w?.runnerHome).toBe('A');
    expect(w?.markets.find((m) => m.lineId === 1)?.prices).toEqual(cleanMarket(market(1, 1)).prices);
    expect(w?.markets.find((m) => m.lineId === 2)?.prices).toBeNull();
    expect(store.history.oddsHistory(5, 1).map((p) => p.at)).toEqual([1000, 2000]);
    store.watchlist.removeWatch(5);
    expect(store.watchlist.watchedEvents()).toEqual([]);
  });

  it('records score changes only when they change', () => {
    const { store } = memStore();
    store.odds.recordScore({ event_id: 5, ts: '', live_status: 1, score_home: 0, score_away: 0 }, 1);
    store.odds.recordScore({ event_id: 5, ts: '', live_status: 1, score_home: 0, score_away: 0 }, 2);
    store.odds.recordScore({ event_id: 5, ts: '', live_status: 1, score_home: 1, score_away: 0 }, 3);
    expect(store.history.liveStateHistory(5).map((p) => p.at)).toEqual([1, 3]);
  });

  it('deletes ticks past retention and keeps change points', () => {
    const { store, now } = memStore();
    store.odds.recordTicks(5, [market(1, 0)], 1 * DAY);
    store.odds.recordTicks(5, [market(1, 1)], 9 * DAY);
    store.odds.recordSpecialTicks([tick(70, 1, '1970-01-02T00:00:00', 100), tick(70, 1, '1970-01-02T01:00:00', 200)]);
    store.settlements.recordSettledPage([settledEvent(0)], 1);
    const report = store.maintenance.maintain();
    expect(report.oddsTicksDeleted).toBe(1);
    expect(report.specialTicksDeleted).toBe(2);
    expect(store.history.oddsHistory(5, 1).map((p) => p.at)).toEqual([9 * DAY]);
    expect(store.history.maxWinHistory(70, 1)).toHaveLength(2);
    expect(store.settlements.settlement(1_000_000)).not.toBeNull();
    now.t += 30 * DAY;
    expect(store.maintenance.maintain().oddsTicksDeleted).toBe(1);
  });
});

describe('specials', () => {
  it('stores max_win change points once and returns only real changes', () => {
    const { store } = memStore();
    expect(store.odds.recordSpecialTicks([tick(70, 1, '2026-01-01T00:00:00', 100, true)])).toEqual([]);
    const changes = store.odds.recordSpecialTicks([
      tick(70, 1, '2026-01-01T00:01:00', 100),
      tick(70, 1, '2026-01-01T00:02:00', 250),
    ]);
    expect(changes.map((c) => [c.previousMaxWin, c.maxWin])).toEqual([[100, 250]]);
    // The same history fetched again after a restart is not a new change.
    expect(store.odds.recordSpecialTicks([tick(70, 1, '2026-01-01T00:02:00', 250)])).toEqual([]);
    expect(store.history.maxWinHistory(70, 1).map((p) => p.maxWin)).toEqual([100, 250]);
    expect([...store.history.exportMaxWin()].length).toBe(2);
  });

  it('keeps opening and closing true odds per model for closing-line value', () => {
    const { store } = memStore();
    store.odds.recordSpecialTicks([tick(70, 1, '2026-01-01T00:00:00', 100, true)]);
    const closing = {
      ...tick(70, 1, '2026-01-01T05:00:00', 100),
      true_odds_by_model: { LOG: 2.5, EM: 2.6, MPTO: 2.4, SHIN: 2.5, OR: 2.7 },
    };
    store.odds.recordSpecialTicks([closing]);
    const [row] = store.history.closingLineValue({ specialId: 70, model: 'MPTO' });
    expect(row?.openingOdds).toBe(3);
    expect(row?.openingTrueOdds).toBe(3.0);
    expect(row?.closingTrueOdds).toBe(2.4);
    expect(row?.fairMove).toBeCloseTo(3.0 / 2.4 - 1);
    expect(store.history.specialsOf(5)[0]?.contestants[0]?.clv).toHaveLength(5);
  });

  describe('specials CLV: the opening offered odds against the fair close under each model (issue 22)', () => {
    // Opening record: offered odds 2.50, todds 2.60, true odds LOG 2.62, EM 2.64, MPTO 2.60, SHIN 2.61, OR 2.66.
    // An intermediate tick at 2.40 (no true odds). Closing record: offered 2.10, true odds below.
    const opening = {
      ...tick(70, 1, '2026-01-01T00:00:00', 100),
      odds: 2.5,
      todds: 2.6,
      true_odds_by_model: { LOG: 2.62, EM: 2.64, MPTO: 2.6, SHIN: 2.61, OR: 2.66 },
    };
    const between = { ...tick(70, 1, '2026-01-01T02:00:00', 120), odds: 2.4, todds: 2.5 };
    const closing = {
      ...tick(70, 1, '2026-01-01T05:00:00', 150),
      odds: 2.1,
      todds: 2.3,
      true_odds_by_model: { LOG: 2.2, EM: 2.25, MPTO: 2.3, SHIN: 2.4, OR: 2.5 },
    };
    // CLV = 2.50 / closing true - 1; fair move = opening true / closing true - 1 (what the view called CLV before).
    const table = [
      {
        model: 'LOG',
        close: 2.2,
        clv: 0.136364 /* 2.50/2.20 = 1.136364: +13.6% */,
        fairMove: 0.190909 /* 2.62/2.20 */,
      },
      {
        model: 'EM',
        close: 2.25,
        clv: 0.111111 /* 2.50/2.25 = 1.111111: +11.1% */,
        fairMove: 0.173333 /* 2.64/2.25 */,
      },
      {
        model: 'MPTO',
        close: 2.3,
        clv: 0.086957 /* 2.50/2.30 = 1.086957: +8.7% */,
        fairMove: 0.130435 /* 2.60/2.30 */,
      },
      { model: 'SHIN', close: 2.4, clv: 0.041667 /* 2.50/2.40 = 1.041667: +4.2% */, fairMove: 0.0875 /* 2.61/2.40 */ },
      { model: 'OR', close: 2.5, clv: 0 /* 2.50/2.50: 0.0% */, fairMove: 0.064 /* 2.66/2.50 */ },
    ] as const;

    it.each(table)('$model: CLV $clv, fair move $fairMove', ({ model, close, clv, fairMove }) => {
      const { store } = memStore();
      store.odds.recordSpecialTicks([opening, between, closing]);
      const [row] = store.history.closingLineValue({ specialId: 70, model });
      expect(row).toMatchObject({ openingOdds: 2.5, closingOdds: 2.1, closingTrueOdds: close });
      expect(row!.clv).toBeCloseTo(clv, 6);
      expect(row!.fairMove).toBeCloseTo(fairMove, 6);
    });

    it('the opening offered odds are kept when the opening comes after later ticks, and a CLV waits for the close', () => {
      const { store } = memStore();
      store.odds.recordSpecialTicks([between]);
      store.odds.recordSpecialTicks([opening]); // the opening endpoint answered after the history
      const [open] = store.history.closingLineValue({ specialId: 70, model: 'LOG' });
      expect(open).toMatchObject({
        openingOdds: 2.5,
        openingTrueOdds: 2.62,
        closingTrueOdds: null,
        clv: null,
        fairMove: null,
      });
      store.odds.recordSpecialTicks([closing]);
      expect(store.history.closingLineValue({ specialId: 70, model: 'LOG' })[0]!.clv).toBeCloseTo(2.5 / 2.2 - 1, 9);
    });

    it("the latest tick's true odds by model: the opening's, none after a later tick, then the closing's", () => {
      const { store } = memStore();
      const trueOdds = () => store.history.specialsOf(5)[0]!.contestants[0]!.trueOddsByModel;
      store.odds.recordSpecialTicks([opening]);
      expect(trueOdds()).toEqual(opening.true_odds_by_model);
      store.odds.recordSpecialTicks([between]);
      expect(trueOdds()).toBeNull();
      expect(store.history.specialsOf(5)[0]!.contestants[0]!.todds).toBe(2.5);
      store.odds.recordSpecialTicks([closing]);
      expect(trueOdds()).toEqual(closing.true_odds_by_model);
    });
  });
});

describe('results, alerts, settings', () => {
  it('labels tennis periods', () => {
    const { store } = memStore();
    store.odds.recordSports([{ sport_id: 3, name: 'Tennis' }]);
    store.odds.recordFixtures([
      {
        event_id: 8,
        sport_id: 3,
        sport_name: 'Tennis',
        league_id: 1,
        league_name: 'ATP',
        runner_home: 'A',
        runner_away: 'B',
        starts: '2026-01-01T10:00:00',
        live_status: 0,
      },
    ]);
    const r = (period: number, sid: number) => ({
      event_id: 8,
      period,
      status: 1,
      score_home: 1,
      score_away: 0,
      sets_home: null,
      sets_away: null,
      settlement_id: sid,
      cancellation_reason: null,
      timestamp: '2026-01-01T12:00:00',
    });
    store.settlements.recordPeriodResults([r(0, 1), r(2, 1), r(6 + 13 + 2, 1)]);
    store.settlements.recordPeriodResults([{ ...r(0, 0), score_home: 9 }]); // older settlement id: ignored
    const labels = store.settlements.results(8).map((x) => x.periodLabel);
    expect(labels).toEqual(['Full match', 'Set 2', 'Set 2 Game 3']);
    expect(store.settlements.results(8)[0]?.scoreHome).toBe(1);
    expect([...store.settlements.exportResults({ sportId: 3 })]).toHaveLength(3);
  });

  it('appends and pages alerts', () => {
    const { store } = memStore();
    const a = store.alerts.appendAlert({ kind: 'max_win_change', message: 'x', data: { pct: 50 } });
    store.alerts.appendAlert({ kind: 'settled', eventId: 5, message: 'y' });
    expect(store.alerts.listAlerts().map((x) => x.kind)).toEqual(['settled', 'max_win_change']);
    expect(store.alerts.listAlerts({ beforeId: a.id + 1 })[0]?.data).toEqual({ pct: 50 });
  });

  it('never holds a key, secret or token', () => {
    const { store } = memStore();
    for (const name of ['apiKey', 'api_key', 'X-API-Key', 'secret', 'authToken', 'password', 'credentials'])
      expect(() => store.settings.setSetting(name, 'abc')).toThrow(SecretSettingError);
    store.settings.setSetting('devigModel', 'SHIN');
    expect(store.settings.listSettings()).toEqual({ devigModel: 'SHIN' });
  });
});

describe('one id, one match (issue 34)', () => {
  const fixture = {
    event_id: 1_000_000,
    sport_id: 1,
    sport_name: 'Soccer',
    league_id: 1,
    league_name: 'L',
    runner_home: 'Kingston City',
    runner_away: 'Greenfield City',
    starts: '2026-01-01T10:00:00',
    live_status: 1,
  };
  const baseball = {
    ...fixture,
    sport_id: 3,
    sport_name: 'Baseball',
    runner_home: 'Oakton Pilots',
    runner_away: 'Redford Owls',
  };

  it("a description of another match under a stored id is never merged: names, settlement and result stay the stored match's", () => {
    const { store } = memStore();
    store.odds.recordFixtures([fixture]);
    store.watchlist.addWatch(1_000_000);
    // The same match described again (a start moved by a day) is an update.
    store.odds.recordFixtures([{ ...fixture, starts: '2026-01-02T10:00:00' }]);
    expect(store.watchlist.watchedEvents()[0]?.starts).toBe(Date.UTC(2026, 0, 2, 10));
    expect(store.watchlist.watchedEvents()[0]?.otherMatch).toBeUndefined();
    // A restarted book gives the id to a baseball match: flagged with its name, nothing of it merged.
    store.odds.recordFixtures([baseball]);
    expect(store.watchlist.watchedEvents()[0]).toMatchObject({
      runnerHome: 'Kingston City',
      runnerAway: 'Greenfield City',
      sportId: 1,
      otherMatch: 'Oakton Pilots v Redford Owls (Baseball)',
    });
    expect(store.history.otherMatchIds()).toEqual([1_000_000]);
    // Its settlement is not the stored match's result.
    const other = {
      ...settledEvent(0),
      event_id: 1_000_000,
      sport_id: 3,
      runner_home: 'Oakton Pilots',
      runner_away: 'Redford Owls',
    };
    store.settlements.recordSettledPage([other], settledAtSeconds(0));
    expect([...store.settlements.exportSettlements()]).toEqual([]);
    // Nor do its snapshot's prices and score.
    store.odds.recordSnapshot(
      {
        event_id: 1_000_000,
        sport_id: 3,
        league_id: 9,
        league_name: 'B',
        runner_home: 'Oakton Pilots',
        runner_away: 'Redford Owls',
        starts: '2026-03-01T10:00:00',
        live_status: 1,
        score_home: 7,
        score_away: 2,
        markets: [market(1, 0)],
      },
      5000,
    );
    expect(store.watchlist.watchedEvents()[0]).toMatchObject({
      runnerHome: 'Kingston City',
      scoreHome: null,
      markets: [],
    });
    // The flag holds for good: whatever comes under the id later (the stored match's own names included) is not taken,
    // and the row keeps the name of the first other match.
    expect(store.odds.namesAnotherMatch({ ...fixture, starts: '2026-01-03T10:00:00' }, 'fixture')).toBe(true);
    store.odds.recordFixtures([
      { ...fixture, starts: '2026-01-03T10:00:00' },
      { ...fixture, event_id: 1_000_001 },
    ]);
    store.settlements.recordSettledPage(
      [
        {
          ...other,
          sport_id: 1,
          runner_home: 'Kingston City',
          runner_away: 'Greenfield City',
          starts: '2026-01-02T10:00:00',
        },
      ],
      settledAtSeconds(1),
    );
    expect(store.watchlist.watchedEvents()[0]).toMatchObject({
      starts: Date.UTC(2026, 0, 2, 10),
      otherMatch: 'Oakton Pilots v Redford Owls (Baseball)',
    });
    expect([...store.settlements.exportSettlements()]).toEqual([]);
    // Another id is judged on its own.
    expect(store.odds.namesAnotherMatch({ ...fixture, event_id: 1_000_001 }, 'stream')).toBe(false);
  });

  it('the flag is kept in the file: after a restart the row says it at once, and the stored match stays its own', () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-other-match-'));
    try {
      const file = join(dir, 'profile.db');
      let store = openStore({ path: file, clock: () => 10 * DAY });
      store.odds.recordFixtures([fixture]);
      store.watchlist.addWatch(1_000_000);
      // A stream's snapshot of another match under the id (as the monitor hands it over before anything else of it).
      expect(store.odds.namesAnotherMatch({ ...baseball, sport_name: null }, 'stream')).toBe(true);
      store.close();
      store = openStore({ path: file, clock: () => 11 * DAY });
      expect(store.history.otherMatchIds()).toEqual([1_000_000]);
      // The sport named from the service's list, once known.
      expect(store.watchlist.watchedEvents()[0]).toMatchObject({
        runnerHome: 'Kingston City',
        otherMatch: 'Oakton Pilots v Redford Owls',
      });
      store.odds.recordSports([{ sport_id: 3, name: 'Baseball' }]);
      expect(store.watchlist.watchedEvents()[0]?.otherMatch).toBe('Oakton Pilots v Redford Owls (Baseball)');
      store.settlements.recordSettledPage(
        [
          {
            ...settledEvent(0),
            event_id: 1_000_000,
            sport_id: 3,
            runner_home: 'Oakton Pilots',
            runner_away: 'Redford Owls',
          },
        ],
        settledAtSeconds(0),
      );
      expect([...store.settlements.exportSettlements()]).toEqual([]);
      store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
