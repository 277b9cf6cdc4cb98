// Rule lab benchmark: `npm run bench -- rulelab`. 30 days of a busy desk's history, 200 watched matches a day, each
// with LINES lines priced every minute for the three hours before kick-off (one move per line, as the synthetic books
// of test/support/labBook.ts make them: informative on the earlier days, noise on the later), run through 20
// candidate rules (drop sizes 2-15% in two windows, the current rule among them) as the Lab view and `cli report
// rules` run them: the matches one at a time, the event loop turned between slices.
//   rule_lab_ms_30d         one whole run, wall time (the matches are built as they are read, in the run's time)
//   rule_lab_cpu_ms_30d     its own CPU time (on a shared machine the wall time is mostly others' work)
//   rule_lab_chunk_max_ms   the longest the host's event loop waited behind one slice of the run
// ODDSDESK_BENCH_LAB_PER_DAY=20 runs a tenth of it. The page's longest task while it runs is not measured here yet.
import { loadavg } from 'node:os';
import type { LabEvent } from '../src/core/lab/replay';
import { defaultCandidates, runRuleLab, type LabSource } from '../src/core/lab/run';
import { DEFAULT_SETTINGS } from '../src/core/settingsService';
import type { LabRule } from '../src/shared/ruleLab';
import { BOOK_START, bookEvent } from '../test/support/labBook';
import { timedTurns } from './turns';

export interface RuleLabBenchFigures {
  rule_lab_ms_30d: number;
  rule_lab_cpu_ms_30d: number;
  rule_lab_chunk_max_ms: number;
}

const DAYS = 30;
const PER_DAY = Number(process.env['ODDSDESK_BENCH_LAB_PER_DAY'] ?? 200);
const LINES = Number(process.env['ODDSDESK_BENCH_LAB_LINES'] ?? 4);
const DAY = 86_400_000;

/** One match: its lines are single-line book matches of their own seeds, at one kick-off. */
function match(day: number, i: number): LabEvent {
  const id = day * 1000 + i + 1;
  // Kick-offs spread over the day, 10:00 to about 22:00.
  const at = BOOK_START + day * DAY + 10 * 3_600_000 + Math.floor((i * 12 * 3_600_000) / PER_DAY);
  const kind = day < (DAYS * 2) / 3 ? 'informative' : 'noise';
  const lines = Array.from({ length: LINES }, (_, k) => {
    const one = bookEvent(id * 100 + k, at, kind);
    return { ...one.lines[0]!, lineId: id * 100 + k };
  });
  const first = bookEvent(id * 100, at, kind);
  return { ...first, eventId: id, lines };
}

function source(): LabSource {
  return {
    span: () => ({
      // Kick-offs: three hours after each match's first price.
      from: BOOK_START + 13 * 3_600_000,
      to: BOOK_START + (DAYS - 1) * DAY + 25 * 3_600_000,
      events: DAYS * PER_DAY,
    }),
    *events() {
      for (let d = 0; d < DAYS; d++) for (let i = 0; i < PER_DAY; i++) yield match(d, i);
    },
  };
}

export async function runRuleLabBench(log: (line: string) => void = console.log): Promise<RuleLabBenchFigures> {
  const current: LabRule = { dropPct: 5, dropWindowMinutes: 15, minProbPts: 1, phase: 'both', sports: [], markets: [] };
  const rules = defaultCandidates(current);
  const turns = timedTurns();
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  const result = await runRuleLab(source(), {
    rules,
    current,
    model: DEFAULT_SETTINGS.devigModel,
    yieldTurn: turns.yieldTurn,
  });
  const chunkMax = turns.longest();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu0);
  const figures: RuleLabBenchFigures = {
    rule_lab_ms_30d: Math.round(ms),
    rule_lab_cpu_ms_30d: Math.round((used.user + used.system) / 1000),
    rule_lab_chunk_max_ms: Math.round(chunkMax),
  };
  const alerts =
    result.earlier.rules.reduce((a, r) => a + r.alerts, 0) + result.later.rules.reduce((a, r) => a + r.alerts, 0);
  log(
    `${DAYS * PER_DAY} matches x ${LINES} lines x 181 prices, ${result.rulesTried} rules: ${alerts} alerts; ${result.sentence}`,
  );
  log(
    `rule_lab_ms_30d ${figures.rule_lab_ms_30d} (CPU ${figures.rule_lab_cpu_ms_30d} ms, load average ${loadavg()[0]!.toFixed(1)}), longest slice ${figures.rule_lab_chunk_max_ms} ms (goal: <= 5,000 ms)`,
  );
  return figures;
}
