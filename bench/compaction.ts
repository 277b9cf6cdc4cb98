// Compaction benchmark: what a raw odds tick costs on disk, and how fast the file grows per hour at 2,000 updates/s
// over 200 events (40 lines each) once compaction keeps up, from a simulated day on the manual clock.
// The day runs at 1/SCALE of the lines at the same per-line rate (one tick per line every 4 s): a file's growth
// is bars and change points per line, so it scales with the line count, and the figure is scaled back up.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/core/store';
import { createManualClock } from '../test/support/manualClock';
import { createTickLoad } from '../test/store/ticks';

export interface CompactionBenchFigures {
  disk_bytes_per_tick: number;
  disk_mb_per_hour_2k: number;
  compaction_step_p99_ms: number;
  compaction_step_max_ms: number;
  compaction_ticks_per_s: number;
  usage_ms_per_gb: number;
}

const HOUR = 3_600_000;
const EVENTS = 200;
const LINES_PER_EVENT = 40;
const RATE = 2_000;
const SCALE = 40;
const DAY_HOURS = 24;
/** Growth is measured over the second half of the day, when the raw window is full and compaction keeps up. */
const STEADY_FROM_HOUR = 12;
const BATCH_MS = 60_000;
const RAW_SAMPLE_S = 150;

const mb = (b: number) => b / 1e6;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;

export async function runCompactionBench(log: (line: string) => void = console.log): Promise<CompactionBenchFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'oddsdesk-compact-'));
  try {
    // Raw ticks alone at full load: 150 s at 2,000 updates/s over 8,000 lines, written every 250 ms as the monitor does.
    const t0 = Date.UTC(2026, 0, 1);
    const full = createTickLoad({ events: EVENTS, linesPerEvent: LINES_PER_EVENT, updatesPerSecond: RATE });
    const rawPath = join(dir, 'raw.db');
    const raw = openStore({ path: rawPath, clock: () => t0 });
    let rawTicks = 0;
    for (let at = t0; at < t0 + RAW_SAMPLE_S * 1000; at += 250) {
      const b = full.next(at, 250);
      raw.odds.recordTickBatches(b);
      rawTicks += b.length;
    }
    raw.close();
    const bytesPerTick = statSync(rawPath).size / rawTicks;
    log(
      `raw odds ticks: ${rawTicks} ticks, ${mb(statSync(rawPath).size).toFixed(1)} MB, ${bytesPerTick.toFixed(1)} bytes/tick (${mb(bytesPerTick * RATE * 3600).toFixed(0)} MB/h at ${RATE}/s)`,
    );

    // usage() reads every page (dbstat): its cost per GB of file.
    const probe = openStore({ path: rawPath });
    const t = performance.now();
    probe.maintenance.usage();
    const usageMsPerGb = ((performance.now() - t) / statSync(rawPath).size) * 1e9;
    probe.close();

    const clock = createManualClock(t0);
    const path = join(dir, 'day.db');
    const store = openStore({ path, clock: () => clock.now(), rawTickHours: 1 });
    const load = createTickLoad({
      events: EVENTS / SCALE,
      linesPerEvent: LINES_PER_EVENT,
      updatesPerSecond: RATE / SCALE,
    });
    const stepMs: number[] = [];
    let compacted = 0;
    let compactMs = 0;
    let steadyBytes = 0;
    const sizeNow = () => store.maintenance.usage().fileBytes;
    for (let at = t0; at < t0 + DAY_HOURS * HOUR; at += BATCH_MS) {
      // A minute of ticks per transaction (the monitor writes every 250 ms; at 1/40 of the load that is 12 ticks a
      // transaction, and this disk's commit cost, not the store, would set the run time).
      store.odds.recordTickBatches(load.next(at, BATCH_MS));
      await clock.advance(BATCH_MS);
      // The schedule the app uses: a step with the default budget, again while there is more.
      for (;;) {
        const step = store.maintenance.compactStep();
        stepMs.push(step.ms);
        compactMs += step.ms;
        compacted += step.ticksCompacted;
        if (step.done) break;
      }
      if (clock.now() === t0 + STEADY_FROM_HOUR * HOUR) steadyBytes = sizeNow();
    }
    const endBytes = sizeNow();
    store.close();
    const perHourScaled = (endBytes - steadyBytes) / (DAY_HOURS - STEADY_FROM_HOUR);
    const perHour2k = perHourScaled * SCALE;
    stepMs.sort((a, b) => a - b);
    const ticksPerS = compacted / (compactMs / 1000);
    log(
      `simulated day at 1/${SCALE} of the lines: file ${mb(endBytes).toFixed(1)} MB; growth ${mb(perHourScaled).toFixed(2)} MB/h from hour ${STEADY_FROM_HOUR}, x${SCALE} = ${mb(perHour2k).toFixed(1)} MB/h at ${RATE}/s over ${EVENTS} events (goal <= 28)`,
    );
    log(
      `compaction: ${stepMs.length} steps, p50 ${percentile(stepMs, 0.5).toFixed(1)} ms, p99 ${percentile(stepMs, 0.99).toFixed(1)} ms, max ${(stepMs[stepMs.length - 1] ?? 0).toFixed(1)} ms; ${Math.round(ticksPerS)} ticks/s while running (needs ${RATE}/s at full load)`,
    );
    log(`usage(): ${usageMsPerGb.toFixed(0)} ms per GB of file`);
    return {
      disk_bytes_per_tick: Number(bytesPerTick.toFixed(1)),
      disk_mb_per_hour_2k: Number(mb(perHour2k).toFixed(2)),
      compaction_step_p99_ms: Number(percentile(stepMs, 0.99).toFixed(2)),
      compaction_step_max_ms: Number((stepMs[stepMs.length - 1] ?? 0).toFixed(2)),
      compaction_ticks_per_s: Math.round(ticksPerS),
      usage_ms_per_gb: Math.round(usageMsPerGb),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
