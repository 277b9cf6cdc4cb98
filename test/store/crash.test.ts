// Must show 1: a child ingesting settlements (cursor advancing in the same transaction) and ticks is SIGKILLed at
// random moments; after every kill the file is intact, the cursor never points past a settlement that is not
// stored, no settlement is stored twice and every stored settlement has all its lines.
// And the store's checkpointer (issue 26): a child committing ticks while its checkpointer thread folds the log into
// the database is SIGKILLed at random moments, mid-checkpoint too; every commit it reported is still there.
// And the store's writer thread: a child handing tick messages to it is SIGKILLed at random moments; every message
// the writer reported committed is there, each whole, in the order handed over, with no gap.
import Database from 'better-sqlite3';
import { buildSync } from 'esbuild';
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { bundleChild, runChild } from '../support/crashChild';
import { seededTest } from '../support/seed';
import { soak, soakLine } from '../support/soak';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settledAtSeconds, settledEvent } from './gen';

// A few kills by default, 50 under `npm run test:soak`; the kill moments come from a seeded generator.
const KILLS = soak(8, 50);
let child: string;
let checkpointChild: string;

let dir = '';
let cleanup = () => undefined as void;
let checkpointDir = '';
let checkpointCleanup = () => undefined as void;
let writerChild: string;
let writerDir = '';
let writerCleanup = () => undefined as void;
beforeAll(() => {
  ({ file: child, dir, cleanup } = bundleChild(join(__dirname, 'crash-child.ts'), 'crash'));
  // The checkpointer's thread goes beside the child, as scripts/build-cli.mjs puts it beside the CLI bundle.
  ({
    file: checkpointChild,
    dir: checkpointDir,
    cleanup: checkpointCleanup,
  } = bundleChild(join(__dirname, 'checkpoint-child.ts'), 'checkpoint-crash'));
  bundleThreads(checkpointDir);
  // The writer's child, with the store's threads beside it.
  ({
    file: writerChild,
    dir: writerDir,
    cleanup: writerCleanup,
  } = bundleChild(join(__dirname, 'writer-child.ts'), 'writer-crash'));
  bundleThreads(writerDir);
});

/** The store's threads (checkpointer, writer) beside a bundled child, as scripts/build-cli.mjs puts them beside the CLI. */
function bundleThreads(dir: string): void {
  for (const thread of ['checkpointWorker', 'writerWorker']) {
    const entry = join(__dirname, `../../src/core/store/threads/${thread}.ts`);
    buildSync({
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: join(dir, `${thread}.js`),
      external: ['better-sqlite3'],
      logLevel: 'silent',
    });
  }
}

afterAll(() => {
  cleanup();
  checkpointCleanup();
  writerCleanup();
});

async function runAndKill(db: string, delayMs: number): Promise<void> {
  await runChild(child, [db], delayMs);
}

function check(path: string, previousCursor: number): number {
  const db = new Database(path, { readonly: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const cursor = db.prepare('SELECT cursor FROM settled_cursor WHERE id = 1').pluck().get() as number | undefined;
    if (cursor === undefined) return previousCursor;
    expect(cursor).toBeGreaterThanOrEqual(previousCursor);
    const stored = new Set(db.prepare('SELECT event_id FROM settlements').pluck().all() as number[]);
    expect(db.prepare('SELECT count(*) FROM settlements').pluck().get()).toBe(stored.size);
    // Every generated settlement strictly before the cursor's second must be stored (the page that moved the
    // cursor ended at that second; later events of the same second come again on the next page).
    for (let i = 0; settledAtSeconds(i) < cursor; i++) expect(stored.has(settledEvent(i).event_id)).toBe(true);
    const incomplete = db
      .prepare(
        `SELECT count(*) FROM settlements s
         WHERE line_count != (SELECT count(*) FROM settlement_lines l WHERE l.event_id = s.event_id)`,
      )
      .pluck()
      .get();
    expect(incomplete).toBe(0);
    const linesPerEvent = db.prepare('SELECT event_id, line_count FROM settlements').all() as {
      event_id: number;
      line_count: number;
    }[];
    for (const r of linesPerEvent) expect(r.line_count).toBe(5 + ((r.event_id - 1_000_000) % 7));
    return cursor;
  } finally {
    db.close();
  }
}

describe('crash safety', () => {
  it(`survives ${KILLS} SIGKILLs mid-ingest`, async () => {
    const { prng } = seededTest('store crash', soakLine(`${KILLS} SIGKILLs (full: 50)`));
    const path = join(dir, 'history.db');
    let cursor = -Infinity;
    let moved = 0;
    for (let k = 0; k < KILLS; k++) {
      await runAndKill(path, prng.int(5, 124));
      const next = check(path, cursor);
      if (next > cursor) moved++;
      cursor = next;
    }
    // The walk really progressed across restarts, so kills landed amid real writes (a share of the kills, so the
    // same bar at any size).
    expect(moved).toBeGreaterThan(KILLS / 2);
  }, 120_000);
});

/**
 * Runs a reporting child (the checkpoint child, the writer child) on `db` and SIGKILLs it `killAfterMs` after it is
 * ready; resolves with what it said it runs on (where its store checkpoints, where its writes go), the ticks per
 * commit, and the last commit it reported.
 */
function runReportingChild(
  file: string,
  db: string,
  killAfterMs: number,
): Promise<{ where: string; perTx: number; committed: number }> {
  return new Promise((done, fail) => {
    const p = spawn(process.execPath, [file, db], { stdio: ['ignore', 'pipe', 'pipe'] });
    let partial = '';
    let err = '';
    let where = '';
    let perTx = 0;
    let committed = 0;
    p.stderr.on('data', (d) => (err += d));
    p.stdout.on('data', (d: Buffer) => {
      const lines = (partial + d.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const ready = /^ready (\w+) (\d+)$/.exec(line);
        const commit = /^committed (\d+)$/.exec(line);
        if (commit) committed = Number(commit[1]);
        else if (ready && !where) {
          where = ready[1]!;
          perTx = Number(ready[2]);
          setTimeout(() => p.kill('SIGKILL'), killAfterMs);
        }
      }
    });
    // 'close', not 'exit': every line the child wrote before the kill has been read by then.
    p.on('close', (code, signal) => {
      if (signal !== 'SIGKILL') return fail(new Error(`child exited ${code ?? signal}: ${err}`));
      done({ where, perTx, committed });
    });
  });
}

describe('crash safety with the checkpointer', () => {
  it(`loses no reported commit over ${KILLS} SIGKILLs while the checkpointer runs`, async () => {
    const { prng } = seededTest('checkpointer crash', soakLine(`${KILLS} SIGKILLs (full: 50)`));
    const path = join(checkpointDir, 'history.db');
    let stored = 0;
    let grew = 0;
    let fileBytes = 0;
    for (let k = 0; k < KILLS; k++) {
      const run = await runReportingChild(checkpointChild, path, prng.int(20, 400));
      expect(run.where).toBe('thread');
      // The database file itself (not the log) grew: the checkpointer copied pages into it while the child ran.
      const bytes = statSync(path).size;
      if (bytes > fileBytes) grew++;
      fileBytes = bytes;
      const db = new Database(path);
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        const ticks = db.prepare('SELECT count(*) FROM odds_ticks').pluck().get() as number;
        // Every reported commit is there, whole transactions only, and at most the one commit not yet reported.
        expect(run.perTx).toBeGreaterThan(0);
        expect(ticks % run.perTx).toBe(0);
        const added = (ticks - stored) / run.perTx;
        expect(added).toBeGreaterThanOrEqual(run.committed);
        expect(added).toBeLessThanOrEqual(run.committed + 1);
        stored = ticks;
      } finally {
        db.close();
      }
    }
    expect(grew).toBeGreaterThan(0);
  }, 120_000);
});

describe('crash safety with the writer thread', () => {
  it(`keeps every message the writer reported committed, whole, in order, over ${KILLS} SIGKILLs`, async () => {
    const { prng } = seededTest('writer crash', soakLine(`${KILLS} SIGKILLs (full: 50)`));
    let reported = 0;
    for (let k = 0; k < KILLS; k++) {
      // A file per run: each open of the store numbers its messages from 1.
      const path = join(writerDir, `history-${k}.db`);
      const run = await runReportingChild(writerChild, path, prng.int(20, 400));
      expect(run.where).toBe('thread');
      const db = new Database(path, { readonly: true });
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        // Message k's ticks are stamped k: what is stored is messages 1..n, each whole, with no gap.
        const perMessage = db
          .prepare('SELECT at, count(*) AS n FROM odds_ticks GROUP BY at ORDER BY at')
          .raw()
          .all() as Array<[number, number]>;
        expect(perMessage.map(([at]) => at)).toEqual(perMessage.map((_, i) => i + 1));
        expect(perMessage.every(([, n]) => n === run.perTx)).toBe(true);
        // Everything it was told was committed is there (and at most the backlog more).
        expect(perMessage.length).toBeGreaterThanOrEqual(run.committed);
        expect(perMessage.length).toBeLessThanOrEqual(run.committed + 8 + 4);
        // Stored in the order handed over.
        const ats = db.prepare('SELECT at FROM odds_ticks ORDER BY rowid').pluck().all() as number[];
        expect(ats.every((at, i) => i === 0 || at >= ats[i - 1]!)).toBe(true);
        reported += run.committed;
      } finally {
        db.close();
      }
    }
    // The kills landed amid real writes.
    expect(reported).toBeGreaterThan(0);
  }, 120_000);
});
