// Model scoreboard benchmark: the scoreboard over 100,000 settled lines with stored closes (50,000 matches, each a
// three-way moneyline and a two-way spread, in four sports), in a temporary database written as the app writes
// them. model_scoreboard_ms_100k is one whole run as the Models view and `cli report models` make it (counts, every
// chunk read and scored, the event loop turned between chunks, the breakdowns and bins): the median of five runs.
// model_scoreboard_chunk_max_ms is the longest the host's event loop waits behind one chunk. On a shared machine the
// wall time is mostly other people's work: model_scoreboard_cpu_ms_100k is the run's own CPU time (median), and the
// load average is printed beside it.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { scoreModels } from '../src/core/report/run';
import { openStore } from '../src/core/store';
import { syntheticLines, writeSyntheticHistory } from '../test/support/syntheticLines';
import { timedTurns } from './turns';

export interface ScoreboardBenchFigures {
  model_scoreboard_ms_100k: number;
  model_scoreboard_chunk_max_ms: number;
  model_scoreboard_cpu_ms_100k: number;
}

const MATCHES = 50_000;
const RUNS = 5;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function runScoreboardBench(log: (line: string) => void = console.log): Promise<ScoreboardBenchFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'oddsdesk-scoreboard-'));
  try {
    const path = join(dir, 'history.db');
    const store = openStore({ path });
    const t0 = performance.now();
    writeSyntheticHistory(store, syntheticLines({ model: 'SHIN', matches: MATCHES, seed: 1, sports: 4 }), {
      sports: { 1: 'Soccer', 2: 'Tennis', 3: 'Basketball', 4: 'Ice Hockey' },
    });
    log(`wrote ${MATCHES * 2} settled lines with their closes in ${Math.round(performance.now() - t0)} ms`);
    store.close();

    const runs: number[] = [];
    const cpu: number[] = [];
    const turns = timedTurns();
    for (let i = 0; i < RUNS; i++) {
      // A fresh connection each run, as a CLI run has; the file is in the OS cache after the first.
      const s = openStore({ path });
      turns.start();
      const started = performance.now();
      const cpu0 = process.cpuUsage();
      const board = await scoreModels(s, {}, { yieldTurn: turns.yieldTurn });
      turns.longest();
      const ms = performance.now() - started;
      const used = process.cpuUsage(cpu0);
      runs.push(ms);
      cpu.push((used.user + used.system) / 1000);
      s.close();
      if (board.all.lines !== MATCHES * 2 - board.excluded.unpriced) throw new Error(`scored ${board.all.lines} lines`);
      log(
        `run ${i + 1}: ${Math.round(ms)} ms (${Math.round(cpu[i]!)} ms of CPU, load average ${loadavg()[0]!.toFixed(1)}) over ${board.all.lines} lines (${board.excluded.unpriced} closes without a fair price under every model); ${board.sentence.split('. ')[0]}`,
      );
    }
    const figures = {
      model_scoreboard_ms_100k: Math.round(median(runs)),
      model_scoreboard_chunk_max_ms: Math.round(turns.longest()),
      model_scoreboard_cpu_ms_100k: Math.round(median(cpu)),
    };
    log(
      `model_scoreboard_ms_100k ${figures.model_scoreboard_ms_100k} (median of ${RUNS}; CPU ${figures.model_scoreboard_cpu_ms_100k} ms), longest chunk ${figures.model_scoreboard_chunk_max_ms} ms`,
    );
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
