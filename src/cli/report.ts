// `report models`: the model scoreboard of a recorded database, offline (docs/trading.md, "Scoring the models"):
// which of the five de-vig models this book's closing prices call best. JSON: the scoreboard as one object, the
// figures the Models view shows. CSV: one table, a row per group and model (all lines, each sport, each market) and
// a row per reliability bin, through the app's one CSV writer; the plain sentence goes to stderr.
import { existsSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { writeText } from '../core/export/csv';
import { scoreModels } from '../core/report/run';
import { openStore } from '../core/store';
import { csvRow } from '../shared/csv';
import type { ModelScoreboard, ScoreGroup } from '../shared/scoreboard';

export interface ReportOptions {
  db: string;
  format: 'json' | 'csv';
  since: number | null;
  sport: number | null;
}

export const SCOREBOARD_CSV_COLUMNS = [
  'section',
  'group',
  'label',
  'model',
  'lines',
  'matches',
  'weight',
  'log_loss',
  'log_loss_low',
  'log_loss_high',
  'brier',
  'brier_low',
  'brier_high',
  'bin_from',
  'bin_to',
  'sides',
  'mean_predicted',
  'observed',
  'observed_low',
  'observed_high',
] as const;

type CsvRecord = Partial<Record<(typeof SCOREBOARD_CSV_COLUMNS)[number], unknown>>;

/** The scoreboard as CSV rows: score rows of every group, then the reliability bins of every model. */
export function* scoreboardCsv(board: ModelScoreboard): Generator<string> {
  yield csvRow(SCOREBOARD_CSV_COLUMNS);
  const row = (r: CsvRecord) => csvRow(SCOREBOARD_CSV_COLUMNS.map((c) => r[c] ?? null));
  const groups: Array<[string, ScoreGroup]> = [
    ['all', board.all],
    ...board.bySport.map((g): [string, ScoreGroup] => ['sport', g]),
    ...board.byMarket.map((g): [string, ScoreGroup] => ['market', g]),
  ];
  for (const [section, g] of groups) {
    for (const m of g.models) {
      yield row({
        section,
        group: g.key,
        label: g.label,
        model: m.model,
        lines: g.lines,
        matches: g.matches,
        weight: g.weight,
        log_loss: m.logLoss.mean,
        log_loss_low: m.logLoss.low,
        log_loss_high: m.logLoss.high,
        brier: m.brier.mean,
        brier_low: m.brier.low,
        brier_high: m.brier.high,
      });
    }
  }
  for (const r of board.reliability) {
    for (const b of r.bins) {
      yield row({
        section: 'reliability',
        group: 'all',
        label: 'All lines',
        model: r.model,
        weight: b.weight,
        bin_from: b.from,
        bin_to: b.to,
        sides: b.count,
        mean_predicted: b.meanPredicted,
        observed: b.observed,
        observed_low: b.low,
        observed_high: b.high,
      });
    }
  }
}

export async function runReport(
  options: ReportOptions,
  sink: Writable = process.stdout,
  err: (text: string) => void = (t) => void process.stderr.write(t),
): Promise<number> {
  if (noDatabase(options.db, err)) return 2;
  const store = openStore({ path: options.db });
  try {
    const board = await scoreModels(store, { since: options.since, sportId: options.sport });
    return await printReport(options.format, board, scoreboardCsv, sink, err);
  } catch (e) {
    return reportFailed(e, err);
  } finally {
    store.close();
  }
}

/** Says so when the file is not there (every `report` exits 2 then). */
export function noDatabase(db: string, err: (text: string) => void): boolean {
  if (existsSync(db)) return false;
  err(`report: no database at ${db}\n`);
  return true;
}

/** A report as one JSON object, or as CSV rows with its sentence on stderr (every `report`'s output). */
export async function printReport<T extends { sentence: string }>(
  format: 'json' | 'csv',
  value: T,
  csv: (value: T) => Iterable<string>,
  sink: Writable,
  err: (text: string) => void,
): Promise<number> {
  try {
    if (format === 'json') await writeText(sink, [JSON.stringify(value, null, 2) + '\n']);
    else {
      await writeText(sink, csv(value));
      err(`${value.sentence}\n`);
    }
    return 0;
  } catch (e) {
    return reportFailed(e, err);
  }
}

/** A report that could not be made or written: the reason on stderr; a closed pipe (`| head`) is no failure. */
export function reportFailed(e: unknown, err: (text: string) => void): number {
  const code = (e as NodeJS.ErrnoException).code;
  if (code !== 'EPIPE') err(`report: ${code ? `could not write the output: ${code}` : (e as Error).message}\n`);
  return code === 'EPIPE' ? 0 : 1;
}
