// The store's writer (src/core/store/threads/writer.ts): the stream's writes (ticks, snapshots, closing lines) on a thread of
// their own. What it promises, each shown here on a real file through a real thread: the writes land in the order
// they were handed over, exactly as inline writes would have made them; settled() is read-your-writes; a writer that
// falls behind makes the hand-over wait instead of growing without bound; a thread that crashes loses nothing and
// applies nothing twice; one that keeps crashing hands the writes to the store's own connection. (The SIGKILL case is
// in crash.test.ts, with the other crash tests.)
import Database from 'better-sqlite3';
import { buildSync } from 'esbuild';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JOURNAL_SIZE_LIMIT, openStore, type Store, type TickBatch, type WriterProblem } from '../../src/core/store';
import type { EventOdds } from '../../src/shared/api';
import { market, settledAtSeconds, settledEvent } from './gen';
import { createTickLoad, tickCount } from './ticks';

const dir = mkdtempSync(join(tmpdir(), 'oddsdesk-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshPath = () => join(dir, `store-${++files}.db`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const EVENTS = 5;
const TICKS_PER_MESSAGE = 10;

/** Message k's ticks: TICKS_PER_MESSAGE lines over EVENTS events, stamped k (so the stored order shows the applied order). */
const ticksOf = (k: number): TickBatch[] =>
  Array.from({ length: TICKS_PER_MESSAGE }, (_, j) => ({
    eventId: 1 + (j % EVENTS),
    markets: [market(10 * (j % EVENTS) + ((k + j) % 8), k)],
    at: 1_000 * k,
  }));

/**
 * A stream's worth of mixed writes: ticks every time, a snapshot every 7th, closing-line prices every 3rd, event 1's
 * kick-off at 40, a drop alert every 5th.
 */
function handAll(store: Pick<Store, 'writer'>, from: number, to: number): void {
  for (let k = from; k < to; k++) {
    store.writer.recordTickBatches(ticksOf(k));
    if (k % 7 === 0) {
      const odds = {
        event_id: 1 + (k % EVENTS),
        markets: [market(10 * (k % EVENTS), k), market(10 * (k % EVENTS) + 1, k)],
        live_status: 0,
      } as unknown as EventOdds;
      store.writer.recordSnapshot(odds, 1_000 * k + 1);
    }
    if (k % 3 === 0) {
      store.writer.applyLineCloseOps([
        { type: 'price', eventId: 1 + (k % EVENTS), market: market(10 * (k % EVENTS) + (k % 8), k), at: 1_000 * k },
      ]);
    }
    if (k === 40)
      store.writer.applyLineCloseOps([
        { type: 'kickoff', eventId: 1, at: 1_000 * k, reason: 'kickoff', confirmed: true },
      ]);
    if (k % 5 === 0)
      store.writer.appendAlerts([
        { kind: 'drop', eventId: 1 + (k % EVENTS), message: `drop ${k}`, data: { k }, at: 1_000 * k },
      ]);
  }
}

/** Runs `fn` on a store on a fresh file whose writer runs on its thread (slowed by `slowMs`), with the problems it reports. */
async function withThreadStore(
  slowMs: number,
  fn: (store: Store, problems: WriterProblem[]) => Promise<void>,
): Promise<void> {
  // Each hand-over its own message (no group commit): the tests below are about messages in flight.
  const store = openStore({ path: freshPath(), writer: { mode: 'thread', slowMs, groupMs: 0 } });
  const problems: WriterProblem[] = [];
  store.writer.onProblem((p) => problems.push(p));
  try {
    await fn(store, problems);
  } finally {
    store.close();
  }
}

/** The file holds exactly what an uninterrupted inline run of messages [0, upTo) writes. */
function expectSameAsInline(path: string, upTo: number): void {
  const reference = openStore({ path: freshPath() });
  handAll(reference, 0, upTo);
  reference.close();
  expect(dump(path)).toEqual(dump(reference.path));
}

/** What the writes made, table by table, in the order the rows were written. */
function dump(path: string): Record<string, unknown[]> {
  const db = new Database(path, { readonly: true });
  try {
    return {
      odds_ticks: db
        .prepare('SELECT event_id, line_id, at, price_home, price_away, max_win FROM odds_ticks ORDER BY rowid')
        .raw()
        .all(),
      market_lines: db
        .prepare(
          'SELECT event_id, line_id, price_home, price_away, max_win, offline, seen_at FROM market_lines ORDER BY event_id, line_id',
        )
        .raw()
        .all(),
      line_closes: db
        .prepare(
          'SELECT event_id, line_id, open_home, last_home, last_at, closed_at, close_reason FROM line_closes ORDER BY event_id, line_id',
        )
        .raw()
        .all(),
      max_win_points: db.prepare('SELECT * FROM line_max_win_points ORDER BY event_id, line_id, at').raw().all(),
      live_states: db.prepare('SELECT event_id, at, live_status FROM live_states ORDER BY event_id, at').raw().all(),
      alert_log: db.prepare('SELECT id, at, kind, event_id, message, data FROM alert_log ORDER BY id').raw().all(),
    };
  } finally {
    db.close();
  }
}

describe('the store writer', () => {
  it('applies the stream writes on its thread in the order they were handed over, exactly as inline writes do', async () => {
    const threaded = openStore({ path: freshPath(), writer: 'thread' });
    const inline = openStore({ path: freshPath() });
    try {
      expect(threaded.writer.where()).toBe('thread');
      expect(inline.writer.where()).toBe('inline');
      // Two messages (a group commit each): the second's writes find the first's max_win changes.
      handAll(threaded, 0, 30);
      await threaded.writer.settled();
      handAll(threaded, 30, 60);
      handAll(inline, 0, 60);
      // Handed over, not yet committed: the event loop did not wait for the disk.
      expect(threaded.writer.backlog()).toBeGreaterThan(0);
      expect(inline.writer.backlog()).toBe(0);
      // Read-your-writes: once settled, the store's own connection sees every one of them.
      await threaded.writer.settled();
      expect(threaded.writer.backlog()).toBe(0);
      expect(tickCount(threaded.path)).toBe(60 * TICKS_PER_MESSAGE + 9 * 2);
      const a = dump(threaded.path);
      const b = dump(inline.path);
      expect(a.odds_ticks!.length).toBeGreaterThan(600);
      expect(a.line_closes!.length).toBeGreaterThan(0);
      expect(a).toEqual(b);
      // The stored order is the handed-over order: the ticks' stamps never go back.
      const ats = a.odds_ticks!.map((r) => (r as number[])[2]!);
      expect(ats.every((at, i) => i === 0 || at >= ats[i - 1]!)).toBe(true);
      // Kick-off closed event 1's open lines, after the prices handed before it.
      const before = threaded.bets.lineCloses(1).filter((c) => c.openedAt < 40_000);
      expect(before.length).toBeGreaterThan(0);
      expect(before.map((c) => c.closedAt)).toEqual(before.map(() => 40_000));
    } finally {
      threaded.close();
      inline.close();
    }
  });

  it('gathers what is handed over within 100 ms into one message, one transaction on its thread', async () => {
    const store = openStore({ path: freshPath(), writer: 'thread' });
    try {
      handAll(store, 0, 30);
      expect(store.writer.stats().messages).toBe(0);
      // The window's timer sends them, as one message.
      while (store.writer.stats().messages === 0) await sleep(5);
      expect(store.writer.stats().messages).toBe(1);
      await store.writer.settled();
      expect(store.writer.stats().messages).toBe(1);
      expect(tickCount(store.path)).toBe(30 * TICKS_PER_MESSAGE + 5 * 2);
      // settled() does not wait for the window: it sends what is gathered at once.
      handAll(store, 30, 40);
      await store.writer.settled();
      expect(store.writer.stats().messages).toBe(2);
      expect(tickCount(store.path)).toBe(40 * TICKS_PER_MESSAGE + 6 * 2);
    } finally {
      store.close();
    }
  });

  it('commits everything handed over before the store closes', () => {
    const path = freshPath();
    const store = openStore({ path, writer: { mode: 'thread', slowMs: 5 } });
    handAll(store, 0, 30);
    expect(store.writer.backlog()).toBeGreaterThan(0);
    store.close();
    expect(tickCount(path)).toBe(30 * TICKS_PER_MESSAGE + 5 * 2);
  });

  it('makes a hand-over wait while a slow disk has the backlog full, and drops nothing', async () => {
    const store = openStore({ path: freshPath(), writer: { mode: 'thread', maxBacklog: 3, slowMs: 15, groupMs: 0 } });
    try {
      let most = 0;
      for (let k = 0; k < 30; k++) {
        store.writer.recordTickBatches(ticksOf(k));
        most = Math.max(most, store.writer.backlog());
      }
      // Never more than the bound in flight: the hand-overs waited for room instead.
      expect(most).toBeLessThanOrEqual(3);
      const stats = store.writer.stats();
      expect(stats.waits).toBeGreaterThan(0);
      expect(stats.waitedMs).toBeGreaterThan(0);
      expect(store.writer.where()).toBe('thread');
      await store.writer.settled();
      const ats = (dump(store.path).odds_ticks as number[][]).map((r) => r[2]!);
      expect(ats).toHaveLength(30 * TICKS_PER_MESSAGE);
      expect(ats.every((at, i) => i === 0 || at >= ats[i - 1]!)).toBe(true);
    } finally {
      store.close();
    }
  });

  it('survives its thread crashing mid-stream: a new thread takes over, nothing is lost and nothing is applied twice', () =>
    withThreadStore(4, async (store, problems) => {
      handAll(store, 0, 40);
      // Killed while it holds writes: some committed, some not yet.
      while (store.writer.backlog() > 30) await sleep(5);
      expect(store.writer.backlog()).toBeGreaterThan(0);
      store.writer.kill();
      // The thread's end is noticed on the event loop; what it had not done goes to the new one.
      while (store.writer.stats().restarts === 0) await sleep(5);
      expect(store.writer.stats().resent).toBeGreaterThan(0);
      handAll(store, 40, 80);
      await store.writer.settled();
      expect(store.writer.stats().restarts).toBe(1);
      expect(store.writer.where()).toBe('thread');
      expect(problems.map((p) => p.kind)).toEqual(['thread']);
      expect(problems[0]!.message).toMatch(/writer thread stopped .*started again, nothing is lost/);
      // Exactly the writes of an uninterrupted run.
      expectSameAsInline(store.path, 80);
    }));

  it("after three crashes in a minute it writes inline, on the store's own connection, still losing nothing", () =>
    withThreadStore(2, async (store, problems) => {
      for (let crash = 0; crash < 4; crash++) {
        handAll(store, crash * 20, crash * 20 + 20);
        const restarts = store.writer.stats().restarts;
        store.writer.kill();
        // The thread's end is noticed on the event loop.
        while (store.writer.stats().restarts === restarts && store.writer.where() === 'thread') await sleep(5);
      }
      expect(store.writer.stats().restarts).toBe(3);
      expect(store.writer.where()).toBe('inline');
      expect(problems.at(-1)?.message).toMatch(/writes go on inline/);
      handAll(store, 80, 100);
      // Inline: committed at once.
      expect(store.writer.backlog()).toBe(0);
      await store.writer.settled();
      expectSameAsInline(store.path, 100);
    }));

  it('whose thread cannot be started again (its entry gone under a running app) writes inline, losing nothing', async () => {
    // The thread's bundle in a folder of its own inside the repository (it loads better-sqlite3 from node_modules), as
    // out/cli carries it beside the CLI.
    mkdirSync(join(__dirname, '../../.tmp'), { recursive: true });
    const bundleDir = mkdtempSync(join(__dirname, '../../.tmp', 'writer-entry-'));
    const entry = join(bundleDir, 'writerWorker.js');
    buildSync({
      entryPoints: [join(__dirname, '../../src/core/store/threads/writerWorker.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: entry,
      external: ['better-sqlite3'],
      logLevel: 'silent',
    });
    const store = openStore({ path: freshPath(), writer: { mode: 'thread', entry, groupMs: 0, slowMs: 2 } });
    const problems: WriterProblem[] = [];
    store.writer.onProblem((p) => problems.push(p));
    try {
      handAll(store, 0, 10);
      await store.writer.settled();
      expect(store.writer.where()).toBe('thread');
      expect(problems).toEqual([]);
      handAll(store, 10, 30);
      rmSync(bundleDir, { recursive: true, force: true });
      store.writer.kill();
      while (store.writer.where() === 'thread') await sleep(5);
      expect(problems.at(-1)?.message).toMatch(/writer thread stopped .*writes go on inline/);
      handAll(store, 30, 40);
      await store.writer.settled();
      expectSameAsInline(store.path, 40);
    } finally {
      store.close();
      rmSync(bundleDir, { recursive: true, force: true });
    }
  });

  it('reports a write that fails, rolls back that write alone, and commits the rest of its message', () =>
    withThreadStore(0, async (store, problems) => {
      store.writer.recordTickBatches(ticksOf(1));
      // A market with no line id: the tick table refuses it.
      store.writer.recordTickBatches([
        { eventId: 1, markets: [{ ...market(3, 2), line_id: null as unknown as number }], at: 2_000 },
      ]);
      store.writer.recordTickBatches(ticksOf(3));
      await store.writer.settled();
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatchObject({ kind: 'write' });
      expect(problems[0]!.message).toMatch(/^Could not record odds: /);
      expect(tickCount(store.path)).toBe(2 * TICKS_PER_MESSAGE);
      expect(store.writer.where()).toBe('thread');
    }));

  it("leaves the store's own transactions working while its thread writes: a settlement page that reads before it writes", () =>
    // The settled walk reads which settlements it knows, then writes the page, in one transaction. Begun deferred, it
    // failed at once ("database is locked") whenever the writer thread committed between its read and its write. Here
    // the thread's commit is made to fall in that gap every time: a write is handed over just before each page (the
    // thread takes it up 20 ms later), and the page waits between its read and its write until a third connection
    // sees the thread's commit, or 200 ms. Deferred, the commit lands and the write fails; IMMEDIATE, the thread
    // waits for the page's lock (busy_timeout) and the page waits out its 200 ms.
    withThreadStore(20, async (store, problems) => {
      const watcher = new Database(store.path, { readonly: true });
      const ticks = () => watcher.prepare('SELECT count(*) FROM odds_ticks').pluck().get() as number;
      const pause = new Int32Array(new SharedArrayBuffer(4));
      const PAGES = 4;
      try {
        // The thread up and writing first.
        store.writer.recordTickBatches(ticksOf(PAGES));
        await store.writer.settled();
        for (let page = 0; page < PAGES; page++) {
          const before = ticks();
          store.writer.recordTickBatches(ticksOf(page));
          const events = [settledEvent(page * 2), settledEvent(page * 2 + 1)];
          store.transaction(() => {
            store.settlements.knownSettlements(events.map((e) => e.event_id));
            const until = performance.now() + 200;
            while (ticks() === before && performance.now() < until) Atomics.wait(pause, 0, 0, 2);
            store.settlements.recordSettledPage(events, settledAtSeconds(page * 2 + 1));
          });
        }
        await store.writer.settled();
        expect(problems).toEqual([]);
        expect(
          store.settlements.knownSettlements(Array.from({ length: PAGES * 2 }, (_, i) => settledEvent(i).event_id))
            .size,
        ).toBe(PAGES * 2);
        expect(ticks()).toBe((PAGES + 1) * TICKS_PER_MESSAGE);
      } finally {
        watcher.close();
      }
    }));

  it('numbers alerts as they fire and stores them under those numbers, beside the alerts the store writes itself', () =>
    withThreadStore(2, async (store, problems) => {
      const fired = store.writer.appendAlerts([
        { kind: 'drop', eventId: 1, message: 'first' },
        { kind: 'price', eventId: 2, message: 'second' },
      ]);
      // A settlement's alert, on the store's own connection (in its settlement's transaction), meanwhile.
      const settled = store.transaction(() =>
        store.alerts.appendAlert({ kind: 'settled', eventId: 3, message: 'third' }),
      );
      const later = store.writer.appendAlerts([{ kind: 'drop', eventId: 4, message: 'fourth' }]);
      expect([...fired, settled, ...later].map((a) => a.id)).toEqual([1, 2, 3, 4]);
      await store.writer.settled();
      expect(store.alerts.listAlerts().map((a) => [a.id, a.message])).toEqual([
        [4, 'fourth'],
        [3, 'third'],
        [2, 'second'],
        [1, 'first'],
      ]);

      // Another program writing the same file takes the next number: the alert is stored under a fresh one, and said.
      const other = new Database(store.path);
      other.prepare(`INSERT INTO alert_log (id, at, kind, message) VALUES (5, 0, 'other', 'from elsewhere')`).run();
      other.close();
      const [clashing] = store.writer.appendAlerts([{ kind: 'drop', eventId: 5, message: 'fifth' }]);
      expect(clashing!.id).toBe(5);
      await store.writer.settled();
      expect(problems.map((p) => p.message)).toEqual([
        'Could not record alerts: alert 5 was stored as 6: another program writes this history file',
      ]);
      expect(store.alerts.listAlerts({ limit: 2 }).map((a) => [a.id, a.message])).toEqual([
        [6, 'fifth'],
        [5, 'from elsewhere'],
      ]);
      // Nothing lost, and the next alert takes the next free number.
      expect(store.writer.appendAlerts([{ kind: 'drop', eventId: 6, message: 'sixth' }])[0]!.id).toBe(7);
    }));

  it('updates a fired alert in place by its number (a drop episode that grew), on the thread and inline alike', async () => {
    await withThreadStore(2, async (store, problems) => {
      const [episode] = store.writer.appendAlerts([
        { kind: 'drop', eventId: 1, message: 'one line', data: { count: 1 }, at: 5 },
      ]);
      const [other] = store.writer.appendAlerts([{ kind: 'price', eventId: 2, message: 'crossed' }]);
      // Handed over right after its alert (the same group message): the order holds.
      store.writer.updateAlerts([{ id: episode!.id, message: 'two lines', data: { count: 2 } }]);
      await store.writer.settled();
      store.writer.updateAlerts([{ id: episode!.id, message: 'three lines', data: { count: 3 } }]);
      await store.writer.settled();
      expect(problems).toEqual([]);
      expect(store.alerts.listAlerts().map((a) => [a.id, a.at, a.kind, a.message, a.data])).toEqual([
        [other!.id, other!.at, 'price', 'crossed', null],
        [episode!.id, 5, 'drop', 'three lines', { count: 3 }],
      ]);
    });
    const inline = openStore({ path: ':memory:' });
    try {
      const [a] = inline.writer.appendAlerts([{ kind: 'drop', eventId: 1, message: 'one line' }]);
      inline.writer.updateAlerts([{ id: a!.id, message: 'two lines', data: { count: 2 } }]);
      expect(inline.alerts.listAlerts().map((r) => [r.id, r.message, r.data])).toEqual([
        [a!.id, 'two lines', { count: 2 }],
      ]);
    } finally {
      inline.close();
    }
  });

  it('cuts the -wal file back to the limit when its own commit starts the log over, as under a steady load', async () => {
    // Under a steady stream the store is never quiet, so the checkpointer's TRUNCATE never runs: the log starts over
    // on the commit of whoever writes next after a checkpoint caught up, which is this thread, and SQLite cuts the
    // file back only on a connection that has the limit. Checkpoints off here, so the test makes the log large, then
    // folds it in from another connection, as the checkpointer would.
    const path = freshPath();
    const walBytes = () => (existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0);
    const store = openStore({ path, writer: { mode: 'thread', groupMs: 0 }, checkpoints: 'off' });
    try {
      expect(store.writer.where()).toBe('thread');
      const load = createTickLoad({ events: 200, linesPerEvent: 40, updatesPerSecond: 4_000 });
      for (let tx = 0, at = Date.UTC(2026, 0, 1); walBytes() <= 2 * JOURNAL_SIZE_LIMIT; tx++, at += 25) {
        expect(tx).toBeLessThan(2_000);
        store.writer.recordTickBatches(load.next(at, 25));
        await store.writer.settled();
      }
      const other = new Database(path);
      const [folded] = other.pragma('wal_checkpoint(PASSIVE)') as Array<{
        busy: number;
        log: number;
        checkpointed: number;
      }>;
      other.close();
      expect(folded!.log).toBe(folded!.checkpointed);
      store.writer.recordTickBatches(ticksOf(1));
      await store.writer.settled();
      expect(store.writer.where()).toBe('thread');
      expect(walBytes()).toBeLessThanOrEqual(JOURNAL_SIZE_LIMIT);
    } finally {
      store.close();
    }
  }, 60_000);

  it('writes inline in memory, whatever is asked', () => {
    const store = openStore({ path: ':memory:', writer: 'thread' });
    try {
      expect(store.writer.where()).toBe('inline');
      store.writer.recordTickBatches(ticksOf(1));
      expect(store.writer.backlog()).toBe(0);
      expect(store.history.latestMarkets(1).length).toBeGreaterThan(0);
    } finally {
      store.close();
    }
  });
});
