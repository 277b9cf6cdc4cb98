// Issue 11, must-show 2: the alert of a watched settlement is written in the same transaction as its page. A child
// following settlements is SIGKILLed at random moments, again and again, and restarted on the same file; at the end
// every watched settlement has exactly one alert and no other settlement has one.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleChild, runChild } from '../support/crashChild';
import { seededTest } from '../support/seed';
import { soak, soakLine } from '../support/soak';
import { scriptedService, settled, type Scripted } from './scriptedSettled';

// A few kills by default, 12 under `npm run test:soak`; the kill moments come from a seeded generator.
const KILLS = soak(5, 12);
const TOTAL = 120;
let dir: string;
let child: string;
let service: Scripted;

let cleanup = () => undefined as void;
beforeAll(async () => {
  ({ file: child, dir, cleanup } = bundleChild(join(__dirname, 'alert-crash-child.ts'), 'alert-crash'));
  // Two settlements a second, so pages of 7 end inside a second and the inclusive cursor repeats records.
  service = await scriptedService(Array.from({ length: TOTAL }, (_, i) => settled(1000 + i, Math.floor(i / 2))));
  service.delayMs = 3;
});

afterAll(async () => {
  await service.close();
  cleanup();
});

const run = (db: string, killAfterMs: number | null) => runChild(child, [db, service.url, String(TOTAL)], killAfterMs);

describe('settlement alerts across crashes', () => {
  it('alerts every watched settlement exactly once after repeated SIGKILLs between commits', async () => {
    const { prng } = seededTest('alert crash', soakLine(`${KILLS} SIGKILLs (full: 12)`));
    const db = join(dir, 'history.db');
    let killed = 0;
    for (let i = 0; i < KILLS; i++) {
      // Spread the kills over the walk: early ones land in the first pages, later ones deeper in. The spread is that
      // of the full 12 kills at any size (kill i of KILLS reaches as deep as kill i * 12 / KILLS of 12 would).
      const reach = Math.ceil(((i + 1) * 12) / KILLS);
      if ((await run(db, 20 + Math.floor(prng.next() * 25 * reach))) === 'killed') killed++;
    }
    expect(await run(db, null)).toBe('done');
    expect(killed).toBeGreaterThan(KILLS / 2);
    const sql = new Database(db, { readonly: true });
    try {
      expect(sql.pragma('integrity_check', { simple: true })).toBe('ok');
      const settledIds = sql.prepare('SELECT event_id FROM settlements ORDER BY event_id').pluck().all() as number[];
      expect(settledIds).toHaveLength(TOTAL);
      const alerts = sql
        .prepare("SELECT event_id, count(*) AS n FROM alert_log WHERE kind = 'settled' GROUP BY event_id")
        .all() as Array<{ event_id: number; n: number }>;
      const watched = settledIds.filter((id) => id % 2 === 0);
      expect(alerts.map((a) => a.event_id).sort((a, b) => a - b)).toEqual(watched);
      expect(alerts.filter((a) => a.n !== 1)).toEqual([]);
    } finally {
      sql.close();
    }
  }, 120_000);
});
