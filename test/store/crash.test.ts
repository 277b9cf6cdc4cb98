// Must show 1: a child ingesting settlements (cursor advancing in the same transaction) and ticks is SIGKILLed at
// random moments; after every kill the file is intact, the cursor never points past a settlement that is not
// stored, no settlement is stored twice and every stored settlement has all its lines.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { bundleChild, runChild } from '../support/crashChild';
import { seededTest } from '../support/seed';
import { soak, soakLine } from '../support/soak';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settledAtSeconds, settledEvent } from './gen';

// A few kills by default, 50 under `npm run test:soak`; the kill moments come from a seeded generator.
const KILLS = soak(8, 50);
let child: string;

let dir = '';
let cleanup = () => undefined as void;
beforeAll(() => {
  ({ file: child, dir, cleanup } = bundleChild(join(__dirname, 'crash-child.ts'), 'crash'));
});

afterAll(() => cleanup());

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
