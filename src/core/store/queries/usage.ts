// What the history file takes on disk, per kind of history: SQLite's dbstat table counts every page of every table
// and index; without dbstat (a build without SQLITE_ENABLE_DBSTAT_VTAB) the big kinds are estimated from row counts.
import type Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import type { StorageKind, StoreUsage } from '../../../shared/domain';

/** Bytes per row with its index entries, measured on this schema (bench: disk_bytes_per_tick). */
const ESTIMATE_BYTES = { odds_ticks: 77, line_bars: 1_000, line_max_win_points: 60, special_ticks: 60 } as const;

export function storageKindOf(name: string): StorageKind {
  if (name === 'odds_ticks' || name === 'odds_ticks_by_line') return 'rawTicks';
  if (name.startsWith('line_bars')) return 'bars';
  if (name.startsWith('line_max_win_points') || name.startsWith('max_win_points')) return 'maxWinPoints';
  if (/^(special|true_odds|outright)/.test(name) || name.includes('_special') || name.includes('_outright'))
    return 'specials';
  if (/^(settlement|period_results|settled_cursor)/.test(name) || name.includes('_settlement')) return 'settlements';
  if (name.startsWith('alert_log') || name.includes('_alert_log')) return 'alerts';
  return 'other';
}

const fileSize = (path: string): number => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};

export function measureUsage(
  db: Database.Database,
  path: string,
  settings: { rawTickHours: number; retentionDays: number },
): StoreUsage {
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const pages = db.pragma('page_count', { simple: true }) as number;
  const free = (db.pragma('freelist_count', { simple: true }) as number) * pageSize;
  const bytes = new Map<StorageKind, number>();
  const add = (k: StorageKind, n: number) => bytes.set(k, (bytes.get(k) ?? 0) + n);
  let exact = true;
  try {
    // aggregate: one row per table or index, still read page by page (bench/compaction.ts: usage_ms_per_gb).
    const rows = db
      .prepare<[], { name: string; pgsize: number }>(`SELECT name, pgsize FROM dbstat WHERE aggregate = TRUE`)
      .all();
    for (const r of rows) add(storageKindOf(r.name), r.pgsize);
  } catch {
    exact = false;
    let known = 0;
    for (const [table, per] of Object.entries(ESTIMATE_BYTES)) {
      const n = (db.prepare<[], number>(`SELECT count(*) FROM ${table}`).pluck().get() ?? 0) * per;
      add(storageKindOf(table), n);
      known += n;
    }
    add('other', Math.max(0, pages * pageSize - free - known));
  }
  add('free', free);
  const order: StorageKind[] = [
    'rawTicks',
    'bars',
    'maxWinPoints',
    'specials',
    'settlements',
    'alerts',
    'other',
    'free',
  ];
  const oldest = db.prepare<[], number>(`SELECT at FROM odds_ticks ORDER BY rowid LIMIT 1`).pluck().get();
  return {
    fileBytes: pages * pageSize,
    walBytes: path === ':memory:' || path === '' ? 0 : fileSize(`${path}-wal`),
    kinds: order.map((kind) => ({ kind, bytes: bytes.get(kind) ?? 0 })),
    exact,
    rawTickHours: settings.rawTickHours,
    retentionDays: settings.retentionDays,
    oldestRawTickAt: oldest ?? null,
  };
}
