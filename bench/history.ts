// Six-month history benchmark (`npm run bench -- history`, `--months N` for a shorter one while developing): what the
// app does on the file a busy desk has after six months of recording. The file (bench/historyFile.ts: its header has
// the reckoning of its size, printed too) is built through the store's own write path and cached under the OS temp
// dir by generator version and length, so a second run reuses it; each run works on a copy of it.
//
// The copy is first brought to the app's schema as the first start after an update does (history_upgrade_ms: the
// migrations and the model scoreboard's sums of every match, src/core/report/keep.ts). Then on it, through the whole
// browser-mode path (the CLI bundle's `web` host against the simulator, the renderer in
// Chromium):
//   history_first_screen_ms       the host's spawn to the watchlist's 60 rows painted in Chromium
//   history_settlements_page_ms   the Settlements view's first page (settlements:query, 200 rows, newest first, total)
//   history_day_filter_ms         the same view filtered to one day in the middle of the history
//   history_report_ms             the Bets view's Report over the whole range (bets:report)
//   history_models_ms             the Models view's scoreboard over the whole history (models:score)
//   history_export_ms             the Settlements download of the day filter (settlements:exportCsv, 1,500 rows)
// each view timed from the request leaving a bridge client (the page's way in) to its answer arriving, the median of
// three (all three printed; the first is a cold one). Then the host is stopped and a migration that rebuilds the
// biggest table (test/support/rebuildMigration.ts: line_bars, the bars) runs on the file in a child process:
// SIGKILLed half way through its copy, the file is checked (integrity_check, the old version, every row, no half-built
// table), then started again and timed to the end (history_migration_ms) with its progress reports, and checked again
// (integrity_check, the new version, every row in the rebuilt table).
import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { startSimulator } from '../src/sim';
import { cli, startWebHost, type WebHost } from '../test/e2e/helpers';
import { openBridgeSocket } from '../test/support/bridgeSocket';
import { buildBundles } from '../test/support/bundles';
import { bundleChild, runChildUntil } from '../test/support/crashChild';
import { REBUILD_VERSION, rebuildShape, type RebuildShape } from '../test/support/rebuildMigration';
import { keepScoreSumsNow } from '../src/core/report/keep';
import { LATEST_VERSION, openStore } from '../src/core/store';
import { HISTORY_END, historyFile, reckoning, WATCHED_PER_DAY } from './historyFile';

export type Figures = Record<string, number>;

const KEY = 'bench-history-enterprise';
const DAY = 86_400_000;
const VIEW_RUNS = 3;
const FIRST_SCREEN_GOAL_MS = 2_000;
const VIEW_GOAL_MS = 300;
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

const round = (x: number, digits = 0) => Number(x.toFixed(digits));
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** `--months N` from the command line, else 6. */
function monthsOf(argv: readonly string[]): number {
  const i = argv.indexOf('--months');
  const v = i >= 0 ? Number(argv[i + 1]) : 6;
  if (!(Number.isFinite(v) && v > 0)) throw new Error(`--months needs a number, got ${argv[i + 1]}`);
  return v;
}

/** A bridge client as the page is one: invoke(channel, ...args) resolves with the answer and its round trip (ms). */
async function bridgeClient(
  url: string,
): Promise<{ invoke(channel: string, ...args: unknown[]): Promise<{ ms: number; value: unknown }>; close(): void }> {
  const ws = await openBridgeSocket(url);
  let next = 0;
  const pending = new Map<number, (r: { ok: boolean; value?: unknown; error?: unknown }) => void>();
  ws.on('message', (data: Buffer) => {
    const m = JSON.parse(data.toString()) as {
      type: string;
      id?: number;
      result?: { ok: boolean; value?: unknown; error?: unknown };
    };
    if (m.type === 'result' && m.id !== undefined) pending.get(m.id)?.(m.result!);
  });
  return {
    async invoke(channel, ...args) {
      const id = next++;
      const started = performance.now();
      const result = await new Promise<{ ok: boolean; value?: unknown; error?: unknown }>((resolve) => {
        pending.set(id, resolve);
        ws.send(JSON.stringify({ type: 'invoke', id, channel, args }));
      });
      const ms = performance.now() - started;
      pending.delete(id);
      if (!result.ok) throw new Error(`${channel} failed: ${JSON.stringify(result.error)}`);
      return { ms, value: result.value };
    },
    close: () => ws.close(),
  };
}

const SHAPE_KEYS = [
  'version',
  'rebuilt',
  'halfBuilt',
  'integrity',
  'rows',
  'ticks',
  'bytes',
] as const satisfies readonly (keyof RebuildShape)[];
const sameShape = (a: RebuildShape, b: RebuildShape) => SHAPE_KEYS.every((k) => a[k] === b[k]);

/** Each goal with its figure and whether this run met it. */
function goalLines(f: Figures): string[] {
  const lines: string[] = [];
  const check = (name: string, ok: (v: number) => boolean, goal: string) => {
    const v = f[name];
    lines.push(
      v === undefined
        ? `${name}: not measured in this run (${goal})`
        : `${ok(v) ? 'met    ' : 'MISSED '} ${name} = ${v} (${goal})`,
    );
  };
  check('history_first_screen_ms', (v) => v <= FIRST_SCREEN_GOAL_MS, `goal <= ${FIRST_SCREEN_GOAL_MS}`);
  for (const k of [
    'history_settlements_page_ms',
    'history_day_filter_ms',
    'history_report_ms',
    'history_models_ms',
    'history_export_ms',
  ])
    check(k, (v) => v <= VIEW_GOAL_MS, `goal <= ${VIEW_GOAL_MS}`);
  check(
    'history_migration_killed_sound',
    (v) => v === 1,
    'goal 1: killed half way, the file was as it was; started again, migrated; integrity_check ok both times',
  );
  return lines;
}

/** Opens a history file as the app does on its first start after an update, and closes it. */
function upgradeFile(file: string): { ms: number; from: number; kept: number } {
  const raw = new Database(file, { readonly: true });
  const from = raw.pragma('user_version', { simple: true }) as number;
  raw.close();
  const t = performance.now();
  const store = openStore({ path: file, checkpoints: 'sqlite' });
  const kept = keepScoreSumsNow(store);
  store.close();
  return { ms: performance.now() - t, from, kept };
}

export async function runHistoryBench(
  log: (line: string) => void = console.log,
  argv: readonly string[] = process.argv.slice(2),
): Promise<Figures> {
  const months = monthsOf(argv);
  log(
    `machine: ${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (1, 5, 15 min) before the run`,
  );
  log('the history (bench/historyFile.ts has the reckoning):');
  const h = historyFile(months, (line) => log(line));
  for (const line of reckoning(h.plan)) log(`  ${line}`);
  log(
    h.cached
      ? `  cached: ${h.path} (generator version and length in the name; delete it to build again)`
      : `  built in ${h.buildS.toFixed(0)} s: ${h.path} (cached for the next run)`,
  );
  {
    const db = new Database(h.path, { readonly: true });
    const count = (t: string) => db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number;
    log(
      `  file ${(h.bytes / 1e9).toFixed(2)} GB: ${count('line_bars')} bar blocks (line-hours), ${count('line_max_win_points')} max_win change points, ${count('settlements')} settlements, ${count('settlement_lines')} settlement lines, ${count('line_closes')} closes, ${count('bets')} bets, ${count('events')} events`,
    );
    db.close();
  }

  const dir = mkdtempSync(join(tmpdir(), 'oddsdesk-bench-history-run-'));
  const path = join(dir, 'history.db');
  const figures: Figures = { history_bytes: h.bytes };
  let host: WebHost | undefined;
  let browser: Browser | undefined;
  const sim = await startSimulator({
    port: 0,
    seed: 7,
    clock: 'real',
    speed: 1,
    events: 40,
    keys: [{ key: KEY, plan: 'enterprise' }],
  });
  const child = bundleChild(join(import.meta.dirname, '../test/store/migrate-child.ts'), 'bench-migrate');
  try {
    let t = performance.now();
    copyFileSync(h.path, path);
    log(`copied the file to work on in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    // The cached file is at the schema its generator wrote: brought to the app's, as the first start after an update
    // does it (the migrations, then the model scoreboard's sums of every match: src/core/core.ts), and timed apart, so
    // the first screen below is an ordinary day's start.
    const upgraded = upgradeFile(path);
    figures['history_upgrade_ms'] = round(upgraded.ms);
    log(
      `brought to schema ${LATEST_VERSION} (from ${upgraded.from}) in ${round(upgraded.ms)} ms: the model scoreboard's sums of ${upgraded.kept} matches kept`,
    );
    await buildBundles({ web: true });

    // ---- first screen: the host's spawn to the watchlist's rows painted; first on a one-day file, the yardstick ----
    browser = await chromium.launch({
      executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    });
    const launched = browser;
    const firstScreen = async (db: string): Promise<{ ms: number; urlMs: number; rows: number; host: WebHost }> => {
      const page = await launched.newPage({ viewport: { width: 1920, height: 1080 } });
      const started = performance.now();
      const opened = await startWebHost(cli('web', '--port', '0', '--base-url', sim.url, '--db', db), {
        ODDSDESK_API_KEY: KEY,
      });
      host = opened;
      const urlMs = performance.now() - started;
      await page.goto(opened.url);
      await page
        .getByTestId('watch-count')
        .filter({ hasText: `${WATCHED_PER_DAY} events` })
        .waitFor({ timeout: 120_000 });
      await page.locator('[data-testid^="watch-row-"]').first().waitFor();
      // The rows are in the DOM: the frame that paints them.
      await page.evaluate('new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))');
      const ms = performance.now() - started;
      const rows = await page.locator('[data-testid^="watch-row-"]').count();
      await page.close();
      return { ms, urlMs, rows, host: opened };
    };
    const day = historyFile(1 / 30.4, () => undefined);
    const dayPath = join(dir, 'one-day.db');
    copyFileSync(day.path, dayPath);
    upgradeFile(dayPath);
    const yard = await firstScreen(dayPath);
    await yard.host.stop();
    host = undefined;
    const first = await firstScreen(path);
    figures['history_first_screen_ms'] = round(first.ms);
    figures['history_first_screen_one_day_ms'] = round(yard.ms);
    log(
      `first screen: ${round(first.ms)} ms from the host's spawn to ${first.rows} watchlist rows painted (the host printed its URL after ${round(first.urlMs)} ms); the same on a one-day file (${(day.bytes / 1e6).toFixed(0)} MB, the same watchlist): ${round(yard.ms)} ms (URL after ${round(yard.urlMs)} ms)`,
    );

    // ---- the views, through a bridge client as the page makes its requests ----
    const bridge = await bridgeClient(first.host.url);
    const mid = HISTORY_END - Math.round(h.plan.days / 2) * DAY;
    const dayFilter = { from: mid, to: mid + DAY };
    const views: Array<[string, string, unknown[], (v: unknown) => string]> = [
      [
        'history_settlements_page_ms',
        'settlements:query',
        [{ limit: 200 }],
        (v) => {
          const p = v as { rows: unknown[]; total: number | null };
          return `${p.rows.length} rows of ${p.total}`;
        },
      ],
      [
        'history_day_filter_ms',
        'settlements:query',
        [{ ...dayFilter, limit: 200 }],
        (v) => {
          const p = v as { rows: unknown[]; total: number | null };
          return `${p.rows.length} rows of ${p.total} on ${new Date(mid).toISOString().slice(0, 10)}`;
        },
      ],
      [
        'history_report_ms',
        'bets:report',
        [{}],
        (v) =>
          `${(v as { total: { bets: number; settled: number } }).total.bets} bets, ${(v as { total: { settled: number } }).total.settled} settled`,
      ],
      ['history_models_ms', 'models:score', [{}], (v) => `${(v as { all: { lines: number } }).all.lines} lines scored`],
      [
        'history_export_ms',
        'settlements:exportCsv',
        [dayFilter],
        (v) => `${(v as string).split('\n').length - 2} rows, ${((v as string).length / 1024).toFixed(0)} KB`,
      ],
    ];
    for (const [key, channel, args, what] of views) {
      const times: number[] = [];
      let said = '';
      for (let i = 0; i < VIEW_RUNS; i++) {
        const r = await bridge.invoke(channel, ...args);
        times.push(r.ms);
        said = what(r.value);
      }
      figures[key] = round(median(times));
      log(
        `${channel} ${JSON.stringify(args[0])}: ${times.map((x) => round(x)).join(', ')} ms (median ${figures[key]}); ${said}`,
      );
    }
    bridge.close();
    await browser.close();
    browser = undefined;
    await first.host.stop();
    host = undefined;

    // ---- a migration that rebuilds line_bars: killed half way, then started again ----
    const before = rebuildShape(path);
    log(
      `before the migration: version ${before.version}, ${before.rows} bar blocks, integrity_check ${before.integrity} (${round(before.checkMs)} ms)`,
    );
    const killedLines: string[] = [];
    t = performance.now();
    const killed = await runChildUntil(
      child.file,
      [path],
      (line) => {
        const m = /^progress (\d+) (\d+)$/.exec(line);
        return m !== null && Number(m[1]) >= 0.5 * Number(m[2]);
      },
      killedLines,
    );
    const killedAt = killedLines.filter((l) => l.startsWith('progress ')).pop() ?? '';
    log(
      `migration started and SIGKILLed after ${round(performance.now() - t)} ms (${killed}), its last report "${killedAt}"`,
    );
    const afterKill = rebuildShape(path);
    const asItWas = killed === 'killed' && sameShape(afterKill, before);
    log(
      `after the kill: version ${afterKill.version}, rebuilt ${afterKill.rebuilt}, half-built table ${afterKill.halfBuilt}, ${afterKill.rows} bar blocks, integrity_check ${afterKill.integrity} (${round(afterKill.checkMs)} ms): ${asItWas ? 'as it was' : 'NOT as it was'}`,
    );

    const lines: string[] = [];
    const stamps: number[] = [];
    t = performance.now();
    const done = await runChildUntil(
      child.file,
      [path],
      (line) => {
        if (line.startsWith('progress ')) stamps.push(performance.now() - t);
        return false;
      },
      lines,
    );
    const migrationMs = performance.now() - t;
    const after = rebuildShape(path);
    const migrated =
      done === 'done' &&
      after.version === REBUILD_VERSION &&
      after.rebuilt &&
      !after.halfBuilt &&
      after.integrity === 'ok' &&
      after.rows === before.rows &&
      after.ticks === before.ticks &&
      after.bytes === before.bytes;
    const gaps = stamps.slice(1).map((s, i) => s - stamps[i]!);
    const pcts = lines
      .filter((l) => l.startsWith('progress '))
      .map((l) => {
        const [, d, n] = l.split(' ');
        return Math.floor((100 * Number(d)) / Math.max(1, Number(n)));
      });
    log(
      `started again: migrated to version ${after.version} in ${round(migrationMs)} ms (${done}); ${stamps.length} progress reports, the first at ${round(stamps[0] ?? NaN)} ms, at most ${round(Math.max(0, ...gaps))} ms apart (reports at ${[
        0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100,
      ]
        .map((d) => pcts.find((x) => x >= d))
        .filter((x) => x !== undefined)
        .join(
          ', ',
        )} % among them); rebuilt ${after.rebuilt}, ${after.rows} bar blocks, integrity_check ${after.integrity} (${round(after.checkMs)} ms): ${migrated ? 'sound and migrated' : 'NOT migrated'}`,
    );
    log(
      `(the app's own schema is version ${LATEST_VERSION}; the rebuild is the bench's version ${REBUILD_VERSION}, test/support/rebuildMigration.ts)`,
    );
    figures['history_migration_ms'] = round(migrationMs);
    figures['history_migration_killed_sound'] = asItWas && migrated ? 1 : 0;
    figures['history_migration_progress_gap_max_ms'] = round(Math.max(0, ...gaps));
    log(`file after the run: ${(statSync(path).size / 1e9).toFixed(2)} GB`);
  } finally {
    await browser?.close().catch(() => undefined);
    await host?.stop();
    await sim.close();
    child.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
  log('summary (every figure, as written to bench/results.json):');
  for (const [k, v] of Object.entries(figures)) log(`  ${k} = ${v}`);
  log('goals (issue 37):');
  for (const line of goalLines(figures)) log(`  ${line}`);
  return figures;
}
