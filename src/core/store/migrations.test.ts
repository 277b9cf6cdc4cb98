import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '.';
import { LATEST_VERSION, MIGRATIONS, migrate, schemaVersion } from './migrations';
import { registerSqlFunctions } from './sqlFunctions';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'store-mig-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function rawAt(version: number, path: string): Database.Database {
  const db = new Database(path);
  registerSqlFunctions(db);
  migrate(db, version);
  return db;
}

describe('migrations', () => {
  it('are numbered 1..N without gaps', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    expect(LATEST_VERSION).toBeGreaterThanOrEqual(2);
  });

  it('build the latest schema from an empty file', () => {
    const store = openStore({ path: join(dir, 'empty.db') });
    expect(store.schemaVersion()).toBe(LATEST_VERSION);
    store.setSetting('theme', 'dark');
    expect(store.getSetting('theme')).toBe('dark');
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
    expect(store.schemaVersion()).toBe(LATEST_VERSION);
    expect(store.settledCursor()).toBe(99);
    expect(store.watchIds()).toEqual([7]);
    expect(store.settlement(7)?.settlement).toHaveLength(2);
    const byTeam = store.querySettlements({ team: 'ØSTERS' });
    expect(byTeam.rows.map((r) => r.eventId)).toEqual([7]);
    expect(store.querySettlements({ team: 'MALMÖ', sportId: 1 }).total).toBe(1);
    const homeWins = store.querySettlements({ outcome: { side: 'home', result: 'win', scope: 'moneyline' } });
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
      expect(store.schemaVersion()).toBe(LATEST_VERSION);
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
    expect(store.schemaVersion()).toBe(LATEST_VERSION);
    const before = store.oddsHistory(5, 1);
    expect(before).toHaveLength(120);
    expect(store.compactStep().ticksCompacted).toBe(120);
    const after = store.oddsHistory(5, 1);
    // Two one-minute bars (open and close each) and the kept max_win ticks (baseline and the change at 60 s);
    // prices exactly as stored, even those thousandths cannot hold.
    expect(after.map((p) => [p.at, p.prices?.home, p.maxWin])).toEqual([
      [0, 2, null], [0, 2, 500], [59_999, 2.059, 500], [60_000, 2.06, 500], [60_000, 2.06, 750], [119_999, 2 + 119 / 1000, 750],
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
    expect(store.schemaVersion()).toBe(LATEST_VERSION);
    expect(store.watchIds()).toEqual([7]);
    const bet = store.addBet({ eventId: 7, lineId: 70, side: 'home', price: 2.1, stake: 10 }, 5);
    expect(bet).toMatchObject({ label: 'A v B · moneyline (p0)', closingPrice: null, clvByModel: null, result: null, pnl: null });
    store.close();
    const raw = new Database(path);
    const insert = raw.prepare(`INSERT INTO bets (placed_at, event_id, line_id, side, price, stake, period, market) VALUES (1, 7, 70, ?, ?, ?, 0, 'moneyline')`);
    expect(() => insert.run('home', 1, 10)).toThrow(/CHECK/);
    expect(() => insert.run('home', 2, 0)).toThrow(/CHECK/);
    expect(() => insert.run('left', 2, 5)).toThrow(/CHECK/);
    raw.close();
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
