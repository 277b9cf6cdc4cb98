import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '.';
import { LATEST_VERSION, MIGRATIONS, migrate, schemaVersion } from './migrations';
import { registerSqlFunctions } from './queries/sqlFunctions';
import { formatServiceTime } from '../../shared/api';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'store-mig-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function rawAt(version: number, path: string): Database.Database {
  const db = new Database(path);
  registerSqlFunctions(db);
  migrate(db, version);
  return db;
}

/** A match (event 9) with its moneyline (line 90, 2.1 / 3.4 / 3.0), as the stream leaves it in the file. */
const MATCH_9 = `
  INSERT INTO events (event_id, runner_home, runner_away, source, first_seen, last_seen) VALUES (9, 'E', 'F', 'stream', 1, 1);
  INSERT INTO market_lines (event_id, line_id, period, market, price_home, price_draw, price_away, seen_at) VALUES (9, 90, 0, 'moneyline', 2.1, 3.4, 3.0, 1);`;

describe('migrations', () => {
  it('are numbered 1..N without gaps', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    expect(LATEST_VERSION).toBeGreaterThanOrEqual(2);
  });

  it('build the latest schema from an empty file', () => {
    const store = openStore({ path: join(dir, 'empty.db') });
    expect(store.maintenance.schemaVersion()).toBe(LATEST_VERSION);
    store.settings.setSetting('theme', 'dark');
    expect(store.settings.getSetting('theme')).toBe('dark');
    store.close();
  });

  it('upgrade a version-1 file and keep its data, backfilling search columns', () => {
    const path = join(dir, 'v1.db');
    const db = rawAt(1, path);
    expect(schemaVersion(db)).toBe(1);
    db.exec(`
      INSERT INTO events (event_id, source, first_seen, last_seen) VALUES (7, 'settlement', 1, 1);
      INSERT INTO settlements VALUES (7, 1, 2, 'L', 'Østers IF', 'Malmö FF', 10, 2, 1, 'ended', 1000, 2, 5);
      INSERT INTO settlement_lines VALUES (7, 1, 0, 'moneyline', NULL, 'win', 'loss', 'loss');
      INSERT INTO settlement_lines VALUES (7, 2, 0, 'spread', -1.5, 'loss', 'loss', 'win');
      INSERT INTO settled_cursor VALUES (1, 99, 1);
      INSERT INTO watchlist VALUES (7, 3);`);
    db.close();

    const store = openStore({ path });
    expect(store.maintenance.schemaVersion()).toBe(LATEST_VERSION);
    expect(store.settlements.settledCursor()).toBe(99);
    expect(store.watchlist.watchIds()).toEqual([7]);
    expect(store.settlements.settlement(7)?.settlement).toHaveLength(2);
    const byTeam = store.settlements.querySettlements({ team: 'ØSTERS' });
    expect(byTeam.rows.map((r) => r.eventId)).toEqual([7]);
    expect(store.settlements.querySettlements({ team: 'MALMÖ', sportId: 1 }).total).toBe(1);
    const homeWins = store.settlements.querySettlements({
      outcome: { side: 'home', result: 'win', scope: 'moneyline' },
    });
    expect(homeWins.rows[0]?.moneyline).toEqual({ home: 'win', draw: 'loss', away: 'loss' });
    store.close();
  });

  it('step through every earlier version to the latest', () => {
    for (let from = 0; from < LATEST_VERSION; from++) {
      const path = join(dir, `from-${from}.db`);
      const db = rawAt(from, path);
      db.exec(`INSERT INTO sports (sport_id, name) VALUES (3, 'Tennis')`.repeat(from >= 1 ? 1 : 0));
      db.close();
      const store = openStore({ path });
      expect(store.maintenance.schemaVersion()).toBe(LATEST_VERSION);
      store.close();
      const check = new Database(path, { readonly: true });
      expect(check.prepare('SELECT count(*) FROM sports').pluck().get()).toBe(from >= 1 ? 1 : 0);
      check.close();
    }
  });

  it('upgrade a version-2 file whose odds ticks are all raw: they read back, then compact into bars', () => {
    const path = join(dir, 'v2.db');
    const db = rawAt(2, path);
    const insert = db.prepare(`INSERT INTO odds_ticks (event_id, line_id, at, line, price_home, price_draw, price_away,
      price_over, price_under, max_win) VALUES (5, 1, ?, NULL, ?, NULL, 1.9, NULL, NULL, ?)`);
    for (let i = 0; i < 120; i++) insert.run(i * 1000, 2 + i / 1000, i < 60 ? 500 : 750);
    db.close();

    let now = 10 * 3_600_000;
    const store = openStore({ path, clock: () => now, rawTickHours: 1 });
    expect(store.maintenance.schemaVersion()).toBe(LATEST_VERSION);
    const before = store.history.oddsHistory(5, 1);
    expect(before).toHaveLength(120);
    expect(store.maintenance.compactStep().ticksCompacted).toBe(120);
    const after = store.history.oddsHistory(5, 1);
    // Two one-minute bars (open and close each) and the kept max_win ticks (baseline and the change at 60 s);
    // prices exactly as stored, even those thousandths cannot hold.
    expect(after.map((p) => [p.at, p.prices?.home, p.maxWin])).toEqual([
      [0, 2, null],
      [0, 2, 500],
      [59_999, 2.059, 500],
      [60_000, 2.06, 500],
      [60_000, 2.06, 750],
      [119_999, 2 + 119 / 1000, 750],
    ]);
    now += 1;
    store.close();
  });

  it('005 adds closing lines and the bet log to a version-4 file, keeping its watchlist; the schema refuses a bet at odds <= 1 or without stake', () => {
    const path = join(dir, 'v4.db');
    const db = rawAt(4, path);
    db.exec(`INSERT INTO watchlist VALUES (7, 3);
      INSERT INTO events (event_id, runner_home, runner_away, source, first_seen, last_seen) VALUES (7, 'A', 'B', 'stream', 1, 1);
      INSERT INTO market_lines (event_id, line_id, period, market, price_home, price_away, seen_at) VALUES (7, 70, 0, 'moneyline', 2.1, 1.8, 1);`);
    db.close();
    const store = openStore({ path });
    expect(store.maintenance.schemaVersion()).toBe(LATEST_VERSION);
    expect(store.watchlist.watchIds()).toEqual([7]);
    const bet = store.bets.addBet({ eventId: 7, lineId: 70, side: 'home', price: 2.1, stake: 10 }, 5);
    expect(bet).toMatchObject({
      label: 'A v B · Moneyline Home · Full match',
      closingPrice: null,
      clvByModel: null,
      result: null,
      pnl: null,
    });
    store.close();
    const raw = new Database(path);
    const insert = raw.prepare(
      `INSERT INTO bets (placed_at, event_id, line_id, side, price, stake, period, market) VALUES (1, 7, 70, ?, ?, ?, 0, 'moneyline')`,
    );
    expect(() => insert.run('home', 1, 10)).toThrow(/CHECK/);
    expect(() => insert.run('home', 2, 0)).toThrow(/CHECK/);
    expect(() => insert.run('left', 2, 5)).toThrow(/CHECK/);
    raw.close();
  });

  it("006 keeps a version-5 file's closes and bets, allows the kick-off and gone close reasons, and a bet's result set by hand", () => {
    const path = join(dir, 'v5.db');
    const db = rawAt(5, path);
    db.exec(`INSERT INTO events (event_id, runner_home, runner_away, source, first_seen, last_seen) VALUES (8, 'C', 'D', 'stream', 1, 1);
      INSERT INTO market_lines (event_id, line_id, period, market, line, price_home, price_away, seen_at) VALUES (8, 85, 0, 'spread', -0.25, 1.9, 1.95, 1);
      INSERT INTO line_closes (event_id, line_id, period, market, line, opened_at, open_home, open_away, last_at, last_home, last_away, closed_at, close_reason)
        VALUES (8, 85, 0, 'spread', -0.25, 1, 2.0, 1.85, 2, 1.9, 1.95, 3, 'offline');
      INSERT INTO bets (placed_at, event_id, line_id, side, price, stake, period, market, line) VALUES (1, 8, 85, 'home', 1.9, 100, 0, 'spread', -0.25);`);
    db.close();
    const store = openStore({ path });
    expect(store.maintenance.schemaVersion()).toBe(LATEST_VERSION);
    // The old close (at a suspension, as version 5 read it) is kept as it was, with its reason.
    expect(store.bets.lineCloses(8).map((c) => [c.closing, c.closeReason])).toEqual([
      [{ home: 1.9, away: 1.95 }, 'offline'],
    ]);
    const [bet] = store.bets.listBets();
    expect(bet).toMatchObject({ sideWords: 'Home -0.25', closingPrice: 1.9, result: null });
    expect(store.bets.settleBetByHand(bet!.id, 'half_loss')).toMatchObject({
      result: 'half_loss',
      resultBy: 'hand',
      pnl: -50,
    });
    expect(store.bets.settleBetByHand(bet!.id, null)).toMatchObject({ result: null, resultBy: null, pnl: null });
    store.close();
    const raw = new Database(path);
    raw.exec(`UPDATE line_closes SET close_reason = 'gone'`);
    raw.exec(`UPDATE line_closes SET close_reason = 'kickoff'`);
    expect(() => raw.exec(`UPDATE line_closes SET close_reason = 'whenever'`)).toThrow(/CHECK/);
    expect(() => raw.exec(`UPDATE bets SET manual_result = 'half'`)).toThrow(/CHECK/);
    raw.close();
  });

  it("007 keeps the specials' opening offered odds: backfilled from a tick or max_win point at the record's instant, else unknown until the opening is fetched again", () => {
    const path = join(dir, 'v6.db');
    const db = rawAt(6, path);
    // Special 70: contestant 1's opening tick is still kept, contestant 2's only as its max_win change point,
    // contestant 3's neither (trimmed by retention). Every one has closed: LOG 2.20 at the close.
    db.exec(`
      INSERT INTO specials (special_id, event_id, special_name, updated_at) VALUES (70, 5, 'Top scorer', 1);
      INSERT INTO special_ticks VALUES (70, 1, 1000, 0, 2.5, 2.6, 100), (70, 2, 999, 0, 9.9, 9.9, 100);
      INSERT INTO max_win_points VALUES (70, 2, 1000, 5, 100, NULL, 3.0, 3.1);`);
    const record = db.prepare(`INSERT INTO true_odds_records VALUES (70, ?, ?, 'LOG', ?, ?)`);
    for (const c of [1, 2, 3]) {
      record.run(c, 'opening', 2.62, 1000);
      record.run(c, 'closing', 2.2, 5000);
    }
    db.close();
    const store = openStore({ path });
    expect(store.maintenance.schemaVersion()).toBe(LATEST_VERSION);
    const rows = () => store.history.closingLineValue({ specialId: 70, model: 'LOG' });
    // CLV = opening offered / closing true - 1: 2.50/2.20 - 1 = +13.64%, 3.00/2.20 - 1 = +36.36%; unknown: null.
    expect(rows().map((r) => r.openingOdds)).toEqual([2.5, 3.0, null]);
    expect(rows()[0]!.clv).toBeCloseTo(0.136364, 6);
    expect(rows()[1]!.clv).toBeCloseTo(0.363636, 6);
    expect(rows()[2]).toMatchObject({ clv: null });
    expect(rows()[2]!.fairMove).toBeCloseTo(2.62 / 2.2 - 1, 9);
    // The same opening record fetched again fills in its offered odds (an earlier one would too).
    store.odds.recordSpecialTicks([
      {
        event_id: 5,
        special_id: 70,
        special_name: 'Top scorer',
        contestant_id: 3,
        contestant_name: 'C3',
        handicap: 0,
        odds: 2.75,
        todds: 2.7,
        period: 0,
        max_win: 100,
        cutoff: '2026-02-01T00:00:00',
        timestamp: formatServiceTime(1000),
        true_odds_by_model: { LOG: 2.62, EM: 2.6, MPTO: 2.6, SHIN: 2.6, OR: 2.6 },
      },
    ]);
    expect(rows()[2]!.openingOdds).toBe(2.75);
    expect(rows()[2]!.clv).toBeCloseTo(2.75 / 2.2 - 1, 9);
    store.close();
  });

  it("009 keeps a version-8 file's settlements and bets; a settlement sent again with other scores keeps the one it replaces and re-settles the bet, sent again unchanged it changes nothing", () => {
    const path = join(dir, 'v8.db');
    const db = rawAt(8, path);
    // A match settled 2-3 (away won) before this version, and a bet on the draw (lost).
    db.exec(MATCH_9);
    db.exec(`
      INSERT INTO settlements (event_id, sport_id, league_id, league_name, runner_home, runner_away, starts, score_home, score_away, status, settled_at, line_count, stored_at, teams, ml_home, ml_draw, ml_away)
        VALUES (9, 1, 2, 'L', 'E', 'F', 1000, 2, 3, 'ended', 5000000, 1, 5000001, 'e
f', 'loss', 'loss', 'win');
      INSERT INTO settlement_teams (rowid, teams) VALUES (9, 'e
f');
      INSERT INTO settlement_lines VALUES (9, 90, 0, 'moneyline', NULL, 'loss', 'loss', 'win');
      INSERT INTO bets (placed_at, event_id, line_id, side, price, stake, period, market) VALUES (1, 9, 90, 'draw', 3.4, 10, 0, 'moneyline');`);
    db.close();
    const store = openStore({ path });
    expect(store.maintenance.schemaVersion()).toBe(LATEST_VERSION);
    expect(store.bets.listBets()[0]).toMatchObject({ result: 'loss', pnl: -10, resettled: null });
    const sent = (scoreHome: number, scoreAway: number, words: [string, string, string], settledAt: number) => ({
      event_id: 9,
      sport_id: 1,
      league_id: 2,
      league_name: 'L',
      runner_home: 'E',
      runner_away: 'F',
      starts: formatServiceTime(1000),
      score_home: scoreHome,
      score_away: scoreAway,
      status: 'ended',
      settled_at: formatServiceTime(settledAt),
      settlement: [
        {
          line_id: 90,
          period: 0,
          market: 'moneyline',
          line: null,
          outcome_home: words[0],
          outcome_draw: words[1],
          outcome_away: words[2],
        },
      ],
    });
    // The same result again (the inclusive cursor's replay, even with a later settled_at): no re-settlement.
    expect(store.settlements.recordSettledPage([sent(2, 3, ['loss', 'loss', 'win'], 5_000_000)], 5000)).toEqual([]);
    expect(store.settlements.recordSettledPage([sent(2, 3, ['loss', 'loss', 'win'], 6_000_000)], 6000)).toEqual([]);
    expect(store.bets.listBets()[0]).toMatchObject({ result: 'loss', resettled: null });
    // 2-3 becomes 99-99: a re-settlement; the draw bet is now won, and says from what.
    const changed = store.settlements.recordSettledPage([sent(99, 99, ['loss', 'win', 'loss'], 7_000_000)], 7000);
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatchObject({
      eventId: 9,
      revision: 1,
      runnerHome: 'E',
      runnerAway: 'F',
      from: { scoreHome: 2, scoreAway: 3, status: 'ended' },
    });
    expect(changed[0]!.to).toMatchObject({ score_home: 99, score_away: 99 });
    expect(store.settlements.settlement(9)).toMatchObject({ score_home: 99, score_away: 99 });
    const [bet] = store.bets.listBets();
    expect(bet).toMatchObject({
      result: 'win',
      pnl: 24,
      resettled: { fromResult: 'loss', fromScore: { home: 2, away: 3 }, toScore: { home: 99, away: 99 } },
    });
    // Sent again as now stored: nothing more.
    expect(store.settlements.recordSettledPage([sent(99, 99, ['loss', 'win', 'loss'], 7_000_000)], 7000)).toEqual([]);
    store.close();
    const raw = new Database(path);
    const kept = raw
      .prepare(
        `SELECT event_id, revision, score_home, score_away, status, settled_at, stored_at, lines FROM settlement_revisions`,
      )
      .all();
    expect(kept).toEqual([
      {
        event_id: 9,
        revision: 1,
        score_home: 2,
        score_away: 3,
        status: 'ended',
        settled_at: 6_000_000,
        stored_at: expect.any(Number) as number,
        lines: JSON.stringify([
          {
            line_id: 90,
            period: 0,
            market: 'moneyline',
            line: null,
            outcome_home: 'loss',
            outcome_draw: 'loss',
            outcome_away: 'win',
          },
        ]),
      },
    ]);
    expect(() => raw.exec(`INSERT INTO settlement_revisions VALUES (9, 0, 1, 1, 'ended', 1, 1, 1, '[]')`)).toThrow(
      /CHECK/,
    );
    raw.close();
  });

  it("010 keeps a version-9 file's bets, each with its first revision (as recorded); a removed bet leaves the log and comes back; the schema refuses a revision 0 or a long note", () => {
    const path = join(dir, 'v9.db');
    const db = rawAt(9, path);
    db.exec(MATCH_9);
    db.exec(`
      INSERT INTO bets (placed_at, event_id, line_id, side, price, stake, period, market) VALUES (1000, 9, 90, 'draw', 3.4, 10, 0, 'moneyline');
      INSERT INTO bets (placed_at, event_id, line_id, side, price, stake, period, market) VALUES (2000, 9, 90, 'home', 2.1, 25, 0, 'moneyline');`);
    db.close();
    const store = openStore({ path });
    expect(store.maintenance.schemaVersion()).toBe(LATEST_VERSION);
    const [home, draw] = store.bets.listBets();
    expect(draw).toMatchObject({ side: 'draw', price: 3.4, stake: 10, note: '', editedAt: null });
    expect(store.bets.betHistory(draw!.id)).toEqual([
      { revision: 1, at: 1000, change: 'recorded', price: 3.4, stake: 10, note: '' },
    ]);
    expect(store.bets.betHistory(home!.id)).toEqual([
      { revision: 1, at: 2000, change: 'recorded', price: 2.1, stake: 25, note: '' },
    ]);
    expect(store.bets.removeBet(draw!.id, 3000)).toBe(true);
    expect(store.bets.listBets().map((b) => b.id)).toEqual([home!.id]);
    expect(store.bets.restoreBet(draw!.id, 4000)).toMatchObject({ id: draw!.id, price: 3.4 });
    store.close();
    const raw = new Database(path);
    expect(raw.prepare(`SELECT id, removed_at FROM bets ORDER BY id`).all()).toEqual([
      { id: draw!.id, removed_at: null },
      { id: home!.id, removed_at: null },
    ]);
    expect(() => raw.exec(`INSERT INTO bet_revisions VALUES (1, 0, 1, 'edited', 2, 1, '')`)).toThrow(/CHECK/);
    expect(() => raw.exec(`INSERT INTO bet_revisions VALUES (1, 9, 1, 'deleted', 2, 1, '')`)).toThrow(/CHECK/);
    expect(() => raw.exec(`UPDATE bets SET note = '${'x'.repeat(501)}'`)).toThrow(/CHECK/);
    raw.close();
  });

  it("011 keeps a version-10 file's watched match, prices and bet unflagged; an id that then names another match is flagged in the file, the stored match's prices kept", () => {
    const path = join(dir, 'v10.db');
    const db = rawAt(10, path);
    db.exec(MATCH_9);
    db.exec(`
      INSERT INTO watchlist (event_id, added_at) VALUES (9, 500);
      INSERT INTO bets (placed_at, event_id, line_id, side, price, stake, period, market) VALUES (1000, 9, 90, 'home', 2.1, 10, 0, 'moneyline');`);
    db.close();
    let store = openStore({ path, clock: () => 5000 });
    expect(store.maintenance.schemaVersion()).toBe(LATEST_VERSION);
    expect(store.history.otherMatchIds()).toEqual([]);
    const [row] = store.watchlist.watchedEvents();
    expect(row).toMatchObject({ eventId: 9, runnerHome: 'E', runnerAway: 'F' });
    expect(row?.otherMatch).toBeUndefined();
    expect(row?.markets.map((m) => m.prices)).toEqual([{ home: 2.1, draw: 3.4, away: 3.0 }]);
    // The stream's snapshot of another match under id 9: flagged, and none of its prices taken.
    const snapshot = {
      event_id: 9,
      sport_id: 3,
      league_id: 30,
      league_name: 'B',
      runner_home: 'Oakton Pilots',
      runner_away: 'Redford Owls',
      starts: '2026-03-01T10:00:00',
      live_status: 1,
      score_home: 1,
      score_away: 0,
      markets: [
        {
          line_id: 90,
          period: 0,
          market: 'moneyline',
          side: null,
          line: null,
          prices: { home: 1.5, away: 2.6 },
          max_win: 100,
          updated_at: '2026-03-01T10:00:00',
        },
      ],
    };
    expect(store.odds.namesAnotherMatch(snapshot, 'stream')).toBe(true);
    store.odds.recordSnapshot(snapshot);
    store.close();
    store = openStore({ path });
    expect(store.watchlist.watchedEvents()[0]).toMatchObject({
      runnerHome: 'E',
      otherMatch: 'Oakton Pilots v Redford Owls',
      markets: [{ prices: { home: 2.1, draw: 3.4, away: 3.0 } }],
    });
    expect(store.bets.listBets()).toMatchObject([{ eventId: 9, price: 2.1 }]);
    store.close();
    const raw = new Database(path);
    expect(
      raw.prepare(`SELECT event_id, sport_id, runner_home, runner_away, source, seen_at FROM other_matches`).all(),
    ).toEqual([
      {
        event_id: 9,
        sport_id: 3,
        runner_home: 'Oakton Pilots',
        runner_away: 'Redford Owls',
        source: 'stream',
        seen_at: 5000,
      },
    ]);
    raw.close();
  });

  it("012 marks every match of a version-11 file that has a closed line stale, keeps nothing yet, and the writes that change a match's score mark it again", () => {
    const path = join(dir, 'v11.db');
    const db = rawAt(11, path);
    db.exec(`
      INSERT INTO events (event_id, sport_id, sport_name, runner_home, runner_away, source, first_seen, last_seen) VALUES (8, 29, 'Soccer', 'A', 'B', 'stream', 1, 1), (9, 29, 'Soccer', 'E', 'F', 'stream', 1, 1);
      INSERT INTO line_closes (event_id, line_id, period, market, line, opened_at, open_home, open_away, last_at, last_home, last_away, closed_at, close_reason)
        VALUES (8, 80, 0, 'moneyline', NULL, 1, 2.0, 1.85, 2, 1.9, 1.95, 3, 'kickoff'), (8, 81, 0, 'spread', -0.5, 1, 2.0, 1.85, 2, 1.9, 1.95, 3, 'kickoff'),
               (9, 90, 0, 'moneyline', NULL, 1, 2.0, 1.85, 2, 1.9, 1.95, NULL, NULL);`);
    db.close();
    const store = openStore({ path });
    expect(store.maintenance.schemaVersion()).toBe(LATEST_VERSION);
    // Match 9's line is still open: nothing of it is scored.
    expect(store.scores.scoreboardStale(10)).toEqual([{ eventId: 8, n: 1 }]);
    expect(store.scores.scoreboardStaleCount()).toEqual({ matches: 1, lines: 2 });
    expect(store.scores.keptScoreboardCounts()).toEqual({ closed: 0, settled: 0 });
    expect(store.scores.sportNames()).toEqual(new Map([[29, 'Soccer']]));
    // Kept (no settlement yet: counts, no sums), then match 9 closes: stale, and 8 is not.
    store.scores.keepScoreboardMatches([{ eventId: 8, n: 1, closed: 2, settled: 0, sums: null }]);
    expect(store.scores.keptScoreboardCounts()).toEqual({ closed: 2, settled: 0 });
    store.bets.applyLineCloseOps([{ type: 'kickoff', eventId: 9, at: 10, reason: 'kickoff', confirmed: true }]);
    expect(store.scores.scoreboardStale(10)).toEqual([{ eventId: 9, n: 1 }]);
    // A mark set again after the match was read is not cleared by keeping what was read.
    store.bets.applyLineCloseOps([{ type: 'reopen', eventId: 9, at: 10 }]);
    store.scores.keepScoreboardMatches([{ eventId: 9, n: 1, closed: 1, settled: 0, sums: null }]);
    expect(store.scores.scoreboardStale(10)).toEqual([{ eventId: 9, n: 2 }]);
    expect(store.scores.keptScoreboardCounts()).toEqual({ closed: 2, settled: 0 });
    store.close();
  });

  it('makes the schema itself refuse secret-looking setting names', () => {
    const db = rawAt(LATEST_VERSION, join(dir, 'check.db'));
    expect(() => db.prepare(`INSERT INTO settings VALUES ('API_KEY', '"x"', 1)`).run()).toThrow(/CHECK/);
    db.close();
  });

  it('refuses a file from a newer app', () => {
    const path = join(dir, 'future.db');
    const db = new Database(path);
    db.pragma(`user_version = ${LATEST_VERSION + 1}`);
    db.close();
    expect(() => openStore({ path })).toThrow(/newer/);
  });
});
