// Checkpoint benchmark: where the store's WAL checkpoints run, and what each place costs the event loop that commits.
// The host's tick load (2,000 odds ticks a second over 200 events of 40 lines, one transaction every 250 ms, as the
// monitor writes them) goes through the store into a file for CHECKPOINT_S seconds per way of checkpointing, with the
// loop's delay sampled every 10 ms (perf_hooks.monitorEventLoopDelay) and each commit timed:
//   sqlite  SQLite's automatic checkpoint on the committing connection (the store before issue 26);
//   inline  automatic checkpoints off and a second connection on the same thread, PASSIVE every 2 s and TRUNCATE
//           when idle: the checkpointer's design without its thread;
//   thread  the store's checkpointer (src/core/store/threads/checkpointer.ts): the same on a worker thread;
//   writer  the checkpointer's thread and the store's writer thread (src/core/store/threads/writer.ts), as the hosts run it:
//           the ticks are handed over (the "commit" timed is the hand-over) and committed on the writer's thread.
// Only this process runs the load (no simulator, no Chromium), so the figures move with the disk and the machine's
// load far less than the tick-to-screen bench's. BENCH_CHECKPOINT_S=N sets the seconds per way (default 30).
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openStore, type Store } from '../src/core/store';
import { createTickLoad } from '../test/store/ticks';

const SECONDS = Number(process.env['BENCH_CHECKPOINT_S'] ?? 30);
const RATE = 2_000;
const WRITE_MS = 250;
const INLINE_EVERY_MS = 2_000;

type Way = 'sqlite' | 'inline' | 'thread' | 'writer';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
const round = (x: number, digits = 2) => Number(x.toFixed(digits));

/** The same-thread checkpointer: the worker's loop, run from a timer on this thread. */
function inlineCheckpointer(path: string): { stop(): void; checkpointMs: number[] } {
  const db = new Database(path);
  db.pragma('busy_timeout = 0');
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  let seen = dataVersion.get();
  let empty = false;
  const checkpointMs: number[] = [];
  const timer = setInterval(() => {
    const t = performance.now();
    const version = dataVersion.get();
    if (version !== seen) {
      seen = version;
      empty = false;
      for (let pass = 0; pass < 8; pass++) {
        const r = db.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number; checkpointed: number }>;
        if (r[0]!.log === r[0]!.checkpointed) break;
      }
    } else if (!empty) {
      const r = db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
      empty = r[0]!.busy === 0;
    }
    checkpointMs.push(performance.now() - t);
  }, INLINE_EVERY_MS);
  return {
    checkpointMs,
    stop() {
      clearInterval(timer);
      db.close();
    },
  };
}

async function measure(way: Way, dir: string, log: (line: string) => void): Promise<Record<string, number>> {
  const path = join(dir, `${way}.db`);
  const store: Store = openStore({
    path,
    checkpoints: way === 'thread' || way === 'writer' ? 'thread' : way === 'sqlite' ? 'sqlite' : 'off',
    writer: way === 'writer' ? 'thread' : 'inline',
  });
  const inline = way === 'inline' ? inlineCheckpointer(path) : null;
  const load = createTickLoad({ events: 200, linesPerEvent: 40, updatesPerSecond: RATE });
  const walBytes = () => (existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0);
  const commits: number[] = [];
  let walMax = 0;
  const h = monitorEventLoopDelay({ resolution: 10 });
  const loadFrom = loadavg()[0]!;
  h.enable();
  const started = Date.now();
  for (let next = started; next < started + SECONDS * 1000; next += WRITE_MS) {
    await sleep(Math.max(0, next - Date.now()));
    const batches = load.next(next, WRITE_MS);
    const t = performance.now();
    store.writer.recordTickBatches(batches);
    commits.push(performance.now() - t);
    walMax = Math.max(walMax, walBytes());
  }
  h.disable();
  const loadTo = loadavg()[0]!;
  inline?.stop();
  store.close();
  commits.sort((a, b) => a - b);
  // The histogram holds whole timer intervals: the delay is what is past the 10 ms.
  const ms = (ns: number) => Math.max(0, ns / 1e6 - 10);
  const figures = {
    loop_delay_p99_ms: round(ms(h.percentile(99))),
    loop_delay_max_ms: round(ms(h.max)),
    commit_p99_ms: round(percentile(commits, 0.99)),
    commit_max_ms: round(commits[commits.length - 1] ?? NaN),
    wal_max_mb: round(walMax / 1e6, 1),
  };
  const checkpoints = inline ? [...inline.checkpointMs].sort((a, b) => a - b) : [];
  log(
    `${way}: event-loop delay p50 ${ms(h.percentile(50)).toFixed(1)} ms, p99 ${figures.loop_delay_p99_ms} ms, max ${figures.loop_delay_max_ms} ms; ` +
      `commit of ${RATE / (1000 / WRITE_MS)} ticks p50 ${percentile(commits, 0.5).toFixed(1)} ms, p99 ${figures.commit_p99_ms} ms, max ${figures.commit_max_ms} ms; ` +
      `-wal at most ${figures.wal_max_mb} MB, ${existsSync(`${path}-wal`) ? 'left after close' : 'gone after close'}` +
      (inline
        ? `; same-thread checkpoints p50 ${percentile(checkpoints, 0.5).toFixed(1)} ms, max ${(checkpoints[checkpoints.length - 1] ?? NaN).toFixed(1)} ms`
        : '') +
      `; load average ${loadFrom.toFixed(2)} -> ${loadTo.toFixed(2)}`,
  );
  return Object.fromEntries(Object.entries(figures).map(([k, v]) => [`checkpoint_${way}_${k}`, v]));
}

export async function runCheckpointBench(log: (line: string) => void = console.log): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'oddsdesk-checkpoint-'));
  try {
    log(
      `${RATE} ticks/s through the store for ${SECONDS} s per way of checkpointing, a transaction every ${WRITE_MS} ms`,
    );
    const figures: Record<string, number> = {};
    for (const way of ['sqlite', 'inline', 'thread', 'writer'] as const)
      Object.assign(figures, await measure(way, dir, log));
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
