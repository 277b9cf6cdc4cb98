// Must show 1 (crash part): a child ingesting ticks and compacting them in tiny steps is SIGKILLed at random
// moments; after every kill the file is intact, every tick the child committed is either raw or counted in exactly
// one bar (none lost, none counted twice), and every max_win change of a compacted tick is kept, exactly once.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { bundleChild, runChild } from '../support/crashChild';
import { seededTest } from '../support/seed';
import { soak, soakLine } from '../support/soak';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBars } from '../../src/core/store/queries/bars';
import { BATCH, BATCH_MS, CRASH_LOAD, T0 } from './compactLoad';
import { createTickLoad } from './ticks';

// A few kills by default, 30 under `npm run test:soak`; the kill moments come from a seeded generator.
const KILLS = soak(8, 30);
let child: string;

let dir = '';
let cleanup = () => undefined as void;
beforeAll(() => {
  ({ file: child, dir, cleanup } = bundleChild(join(__dirname, 'compact-child.ts'), 'compact-crash'));
});

afterAll(() => cleanup());

async function runAndKill(db: string, delayMs: number): Promise<void> {
  await runChild(child, [db], delayMs);
}

/** Checks the file; returns how many ticks are compacted (in bars). */
function check(path: string): { batches: number; compacted: number; points: number } {
  const db = new Database(path, { readonly: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const newest = db.prepare('SELECT max(at) FROM odds_ticks').pluck().get() as number | null;
    if (newest === null) return { batches: 0, compacted: 0, points: 0 };
    // Batches are atomic and the newest ones stay raw: the newest raw tick names the last committed batch.
    const batches = Math.floor((newest - T0) / BATCH_MS) + 1;
    const raw = db.prepare('SELECT count(*) FROM odds_ticks').pluck().get() as number;
    const blocks = db.prepare('SELECT ticks, bars FROM line_bars').all() as { ticks: number; bars: Buffer }[];
    let compacted = 0;
    for (const b of blocks) {
      const inBars = decodeBars(b.bars).reduce((n, bar) => n + bar.ticks, 0);
      expect(inBars).toBe(b.ticks);
      compacted += inBars;
    }
    expect(raw + compacted).toBe(batches * BATCH);

    // Replay the load: every max_win change is a kept point (written as its tick arrived, kept through compaction),
    // exactly once, and there is no other.
    const stored = new Map(
      (
        db.prepare('SELECT line_id, at, max_win FROM line_max_win_points').all() as {
          line_id: number;
          at: number;
          max_win: number;
        }[]
      ).map((r) => [`${r.line_id}@${r.at}`, r.max_win]),
    );
    const load = createTickLoad(CRASH_LOAD);
    const last = new Map<number, number>();
    let expected = 0;
    for (let i = 0; i < batches; i++) {
      for (const b of load.next(T0 + i * BATCH_MS, BATCH_MS)) {
        const m = b.markets[0]!;
        const changed = last.get(m.line_id) !== m.max_win;
        last.set(m.line_id, m.max_win);
        const key = `${m.line_id}@${b.at}`;
        if (!changed) continue;
        expected++;
        expect(stored.get(key)).toBe(m.max_win);
      }
    }
    expect(stored.size).toBe(expected);
    return { batches, compacted, points: expected };
  } finally {
    db.close();
  }
}

describe('compaction crash safety', () => {
  it(`loses and double-counts no tick across ${KILLS} SIGKILLs mid-compaction`, async () => {
    const { prng } = seededTest('compaction crash', soakLine(`${KILLS} SIGKILLs (full: 30)`));
    const path = join(dir, 'history.db');
    let last = { batches: 0, compacted: 0, points: 0 };
    let moved = 0;
    for (let k = 0; k < KILLS; k++) {
      await runAndKill(path, prng.int(60, 299));
      const next = check(path);
      expect(next.batches).toBeGreaterThanOrEqual(last.batches);
      if (next.compacted > last.compacted) moved++;
      last = next;
    }
    // Compaction really ran between many kills, so kills landed amid its transactions (a share of the kills, so the
    // same bar at any size).
    expect(moved).toBeGreaterThan(KILLS / 3);
    expect(last.compacted).toBeGreaterThan(0);
    expect(last.points).toBeGreaterThan(0);
  }, 180_000);
});
