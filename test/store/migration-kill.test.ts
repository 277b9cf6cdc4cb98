// Must show (issue 37): a migration that rebuilds a table, SIGKILLed in the middle of the rebuild, then started again:
// the file is sound (integrity_check) and migrated. The child (./migrate-child.ts) opens a file whose line_bars holds
// enough rows for the copy to take a while, with the table rebuild (test/support/rebuildMigration.ts) after the app's
// migrations, and is killed as soon as it reports being 40 % through the copy. The file must then be exactly as it
// was (the old schema version, the old table with every row, no half-built table beside it); opened again, the
// migration runs to the end and every row is in the rebuilt table. bench/history.ts does the same on a six-month file.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATEST_VERSION, openStore } from '../../src/core/store';
import { bundleChild, runChildUntil } from '../support/crashChild';
import { REBUILD_VERSION, rebuildLineBars, rebuildShape, shapeOf } from '../support/rebuildMigration';

/** Rows in line_bars: with a few hundred bytes each, enough for the copy to run about a second on a busy machine. */
const ROWS = 60_000;
const SLICE = 1_000;

let child = '';
let cleanup = () => undefined as void;
let dir = '';
beforeAll(() => {
  ({ file: child, cleanup } = bundleChild(join(__dirname, 'migrate-child.ts'), 'migrate-kill'));
  dir = mkdtempSync(join(tmpdir(), 'migrate-kill-'));
});
afterAll(() => {
  cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** A file at the app's latest version with ROWS bar blocks (deterministic contents). */
function seed(path: string): void {
  openStore({ path, checkpoints: 'sqlite' }).close();
  const db = new Database(path);
  const insert = db.prepare('INSERT INTO line_bars (event_id, line_id, hour, ticks, bars) VALUES (?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (let i = 0; i < ROWS; i++) {
      const blob = Buffer.alloc(200 + (i % 300), i % 251);
      insert.run(1 + Math.floor(i / 4000), i % 40, 490_000 + (Math.floor(i / 40) % 100), 1 + (i % 90), blob);
    }
  })();
  db.close();
}

const shape = (path: string) => shapeOf(rebuildShape(path));

describe('a table-rebuilding migration killed in the middle', () => {
  it('leaves the file as it was, and completes when the app starts again: sound and migrated', async () => {
    const path = join(dir, 'history.db');
    seed(path);
    const before = shape(path);
    expect(before).toMatchObject({
      version: LATEST_VERSION,
      rebuilt: false,
      halfBuilt: false,
      integrity: 'ok',
      rows: ROWS,
    });

    const lines: string[] = [];
    const outcome = await runChildUntil(
      child,
      [path, String(SLICE)],
      (line) => {
        const m = /^progress (\d+) (\d+)$/.exec(line);
        return m !== null && Number(m[1]) >= 0.4 * Number(m[2]);
      },
      lines,
    );
    // Killed mid-copy: the last report it made was short of the end.
    expect(outcome).toBe('killed');
    const reported = lines.filter((l) => l.startsWith('progress ')).map((l) => Number(l.split(' ')[1]));
    expect(reported.length).toBeGreaterThan(2);
    expect(Math.max(...reported)).toBeLessThan(ROWS);

    // As it was: the old version, the old table with every row, nothing half-built beside it.
    expect(shape(path)).toEqual(before);

    // Started again (as the app would): the migration runs to the end.
    const again = await runChildUntil(child, [path, String(SLICE)], () => false, lines);
    expect(again).toBe('done');
    expect(lines[lines.length - 1]).toBe(`done ${REBUILD_VERSION}`);
    expect(shape(path)).toEqual({ ...before, version: REBUILD_VERSION, rebuilt: true });

    // And the store reads it as usual at the new version.
    const store = openStore({ path, checkpoints: 'sqlite', extraMigrations: [rebuildLineBars()] });
    expect(store.maintenance.schemaVersion()).toBe(REBUILD_VERSION);
    store.close();
  }, 60_000);
});
