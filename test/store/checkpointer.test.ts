// The store's checkpointer (src/core/store/threads/checkpointer.ts): automatic checkpoints are off on the store's connection
// and a thread with its own connection folds the WAL into the database, so the -wal file stays bounded under writes,
// every committed write stays readable, a closed store leaves nothing behind, and a checkpointer that cannot run
// hands checkpoints back to SQLite. (Its SIGKILL case is in crash.test.ts, with the other crash tests.)
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JOURNAL_SIZE_LIMIT, openStore, type Store } from '../../src/core/store';
import { checkpointWorkerEntry, startCheckpointer } from '../../src/core/store/threads/checkpointer';
import { createTickLoad, tickCount } from './ticks';

const dir = mkdtempSync(join(tmpdir(), 'oddsdesk-checkpointer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
const freshPath = () => join(dir, `store-${++files}.db`);
const walBytes = (path: string) => (existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits (as long as the test's timeout allows) until `done` holds. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await sleep(10);
}

const T0 = Date.UTC(2026, 0, 1);

/**
 * 10,000 odds ticks over 200 events of 40 lines (the bench's spread, so commits touch pages all over the file) in
 * ten rounds of ten transactions. `between` runs after each round.
 */
async function writeTicks(store: Pick<Store, 'path' | 'odds'>, between: () => Promise<void>): Promise<number[]> {
  const load = createTickLoad({ events: 200, linesPerEvent: 40, updatesPerSecond: 4_000 });
  const sizes: number[] = [];
  let at = T0;
  for (let round = 0; round < 10; round++) {
    for (let tx = 0; tx < 10; tx++, at += 25) {
      const batches = load.next(at, 25);
      expect(batches).toHaveLength(100);
      store.odds.recordTickBatches(batches);
      sizes.push(walBytes(store.path));
    }
    await between();
  }
  return sizes;
}

describe('the store checkpointer', () => {
  it('keeps the -wal file bounded under 10,000 tick writes, where the same writes without checkpoints grow it past the limit', async () => {
    // Without checkpoints: the log only grows.
    const offPath = freshPath();
    const off = openStore({ path: offPath, clock: () => T0, checkpoints: 'off' });
    const offSizes = await writeTicks(off, async () => undefined);
    off.close();
    const unchecked = Math.max(...offSizes);
    expect(unchecked).toBeGreaterThan(JOURNAL_SIZE_LIMIT);

    // With the checkpointer: after each round it folds the log in and, once the writes pause, empties the file.
    const path = freshPath();
    const store = openStore({ path, clock: () => T0, checkpointer: { everyMs: 20 } });
    expect(store.maintenance.walCheckpoints()).toBe('thread');
    const sizes = await writeTicks(store, () => until(() => walBytes(path) === 0));
    expect(Math.max(...sizes)).toBeLessThan(JOURNAL_SIZE_LIMIT);
    expect(Math.max(...sizes)).toBeLessThan(unchecked / 4);
    // Nothing went missing on the way: the store reads every tick, and so does another connection.
    expect(tickCount(path)).toBe(10_000);
    expect(store.history.latestMarkets(1000).length).toBeGreaterThan(0);
    store.close();
  }, 120_000);

  it('reads every committed write while the checkpointer folds the log in', async () => {
    const path = freshPath();
    const store = openStore({ path, clock: () => T0, checkpointer: { everyMs: 5 } });
    const load = createTickLoad({ events: 20, linesPerEvent: 10, updatesPerSecond: 1_000, seed: 9 });
    const latest = new Map<number, number>();
    for (let tx = 0; tx < 200; tx++) {
      const batches = load.next(T0 + tx * 100, 100);
      store.odds.recordTickBatches(batches);
      for (const b of batches) for (const m of b.markets) latest.set(m.line_id, b.at);
      // Between commits the thread checkpoints; each read after a commit must see it, from the log or the file.
      if (tx % 20 === 19) {
        await sleep(10);
        const seen = new Map<number, number>();
        for (let e = 1000; e < 1020; e++) for (const m of store.history.latestMarkets(e)) seen.set(m.lineId, m.seenAt);
        expect(seen).toEqual(latest);
      }
    }
    expect(tickCount(path)).toBe(200 * 100);
    store.close();
  }, 60_000);

  it('stops on close: no -wal or -shm is left, and no other connection holds the file', async () => {
    const path = freshPath();
    const store = openStore({ path, clock: () => T0, checkpointer: { everyMs: 5 } });
    store.odds.recordTickBatches(
      createTickLoad({ events: 5, linesPerEvent: 5, updatesPerSecond: 1_000 }).next(T0, 1_000),
    );
    await until(() => walBytes(path) === 0); // the checkpointer ran (its idle truncation)
    store.odds.recordTickBatches(
      createTickLoad({ events: 5, linesPerEvent: 5, updatesPerSecond: 1_000, seed: 2 }).next(T0, 1_000),
    );
    store.close();
    expect(existsSync(`${path}-wal`)).toBe(false);
    expect(existsSync(`${path}-shm`)).toBe(false);
    // Leaving WAL mode needs the only connection: the checkpointer's is closed too.
    const db = new Database(path);
    expect(db.pragma('journal_mode = DELETE', { simple: true })).toBe('delete');
    expect(db.prepare('SELECT count(*) FROM odds_ticks').pluck().get()).toBe(2_000);
    db.close();
  }, 60_000);

  it('finds its thread beside the CLI bundle (built by the global set-up), as beside the sources', () => {
    const cli = join(__dirname, '../../out/cli');
    expect(checkpointWorkerEntry(cli)).toBe(join(cli, 'checkpointWorker.js'));
    expect(checkpointWorkerEntry(join(__dirname, '../../src/core/store/threads'))).toMatch(/checkpointWorker\.ts$/);
  });

  it("loads the store's native binding in its thread (Electron's build under Electron)", async () => {
    const path = freshPath();
    openStore({ path, checkpoints: 'off' }).close();
    const binding = join(__dirname, '../../node_modules/better-sqlite3/build/Release/better_sqlite3.node');
    const failures: Error[] = [];
    const good = startCheckpointer({
      path,
      nativeBinding: binding,
      everyMs: 5,
      journalSizeLimit: JOURNAL_SIZE_LIMIT,
      onFailure: (e) => failures.push(e),
    });
    await until(() => good.done() > 0);
    good.close();
    const bad = startCheckpointer({
      path,
      nativeBinding: join(dir, 'no-such-binding.node'),
      everyMs: 5,
      journalSizeLimit: JOURNAL_SIZE_LIMIT,
      onFailure: (e) => failures.push(e),
    });
    await until(() => failures.length > 0);
    bad.close();
    expect(failures).toHaveLength(1);
    expect(failures[0]!.message).toMatch(/no-such-binding\.node/);
  }, 60_000);

  it('has no checkpointer for a store in memory', () => {
    const memory = openStore({ path: ':memory:' });
    expect(memory.maintenance.walCheckpoints()).toBe('none');
    memory.close();
    const file = openStore({ path: freshPath() });
    expect(file.maintenance.walCheckpoints()).toBe('thread');
    file.close();
  });

  it('hands checkpoints back to SQLite when its thread cannot run, and the log stays bounded', async () => {
    // A thread entry that is missing, and one that fails as it starts.
    const missing = openStore({ path: freshPath(), checkpointer: { entry: join(dir, 'no-such-worker.js') } });
    expect(missing.maintenance.walCheckpoints()).toBe('sqlite');
    missing.close();
    const broken = join(dir, 'broken-worker.mjs');
    writeFileSync(broken, "throw new Error('this checkpointer is broken');\n");
    const path = freshPath();
    const store = openStore({ path, clock: () => T0, checkpointer: { entry: broken } });
    await until(() => store.maintenance.walCheckpoints() === 'sqlite');
    const sizes = await writeTicks(store, async () => undefined);
    // SQLite checkpoints every 1,000 pages (4 MB) on the committing connection: the file never gets near the limit.
    expect(Math.max(...sizes)).toBeLessThan(JOURNAL_SIZE_LIMIT);
    expect(tickCount(path)).toBe(10_000);
    store.close();
    expect(existsSync(`${path}-wal`)).toBe(false);
  }, 60_000);
});
