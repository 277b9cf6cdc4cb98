// Issue 11, must-show 2: the alert of a watched settlement is written in the same transaction as its page. A child
// following settlements is SIGKILLed at random moments, again and again, and restarted on the same file; at the end
// every watched settlement has exactly one alert and no other settlement has one.
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedService, settled, type Scripted } from './scriptedSettled';

const KILLS = 12;
const TOTAL = 120;
const root = resolve(__dirname, '../..');
let dir: string;
let child: string;
let service: Scripted;

beforeAll(async () => {
  mkdirSync(join(root, '.tmp'), { recursive: true });
  dir = mkdtempSync(join(root, '.tmp', 'alert-crash-'));
  child = join(dir, 'child.mjs');
  // Bundled once: spawning node on it costs a fraction of tsx's start-up, a dozen times over.
  buildSync({ entryPoints: [join(__dirname, 'alert-crash-child.ts')], bundle: true, platform: 'node', format: 'esm', outfile: child, external: ['better-sqlite3'], logLevel: 'silent' });
  // Two settlements a second, so pages of 7 end inside a second and the inclusive cursor repeats records.
  service = await scriptedService(Array.from({ length: TOTAL }, (_, i) => settled(1000 + i, Math.floor(i / 2))));
  service.delayMs = 3;
});

afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

function run(db: string, killAfterMs: number | null): Promise<'killed' | 'done'> {
  return new Promise((done, fail) => {
    const p = spawn(process.execPath, [child, db, service.url, String(TOTAL)], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    let out = '';
    p.stderr.on('data', (d) => (err += d));
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (killAfterMs !== null && out.startsWith('ready')) setTimeout(() => p.kill('SIGKILL'), killAfterMs);
    });
    p.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') done('killed');
      else if (code === 0 && out.includes('done')) done('done');
      else fail(new Error(`child exited ${code}: ${err}`));
    });
  });
}

describe('settlement alerts across crashes', () => {
  it('alerts every watched settlement exactly once after repeated SIGKILLs between commits', async () => {
    const db = join(dir, 'history.db');
    let killed = 0;
    for (let i = 0; i < KILLS; i++) {
      // Spread the kills over the walk: early ones land in the first pages, later ones deeper in.
      if ((await run(db, 20 + Math.floor(Math.random() * 25 * (i + 1)))) === 'killed') killed++;
    }
    expect(await run(db, null)).toBe('done');
    expect(killed).toBeGreaterThan(KILLS / 2);
    const sql = new Database(db, { readonly: true });
    try {
      expect(sql.pragma('integrity_check', { simple: true })).toBe('ok');
      const settledIds = sql.prepare('SELECT event_id FROM settlements ORDER BY event_id').pluck().all() as number[];
      expect(settledIds).toHaveLength(TOTAL);
      const alerts = sql.prepare("SELECT event_id, count(*) AS n FROM alert_log WHERE kind = 'settled' GROUP BY event_id").all() as Array<{ event_id: number; n: number }>;
      const watched = settledIds.filter((id) => id % 2 === 0);
      expect(alerts.map((a) => a.event_id).sort((a, b) => a - b)).toEqual(watched);
      expect(alerts.filter((a) => a.n !== 1)).toEqual([]);
    } finally {
      sql.close();
    }
  }, 120_000);
});
