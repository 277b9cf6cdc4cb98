// `export`: reads the recorded database offline and writes settlements, results, max_win change points or the bet
// log to stdout, as JSON lines (settlements in the service's SettledEvent shape, bets as the Bets view shows them)
// or CSV. Output goes through the app's one writer
// (core/export/csv): streamed with backpressure, formula-like names neutralised.
import { existsSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { writeBetsCsv, writeText } from '../core/export/csv';
import { openStore } from '../core/store';
import { formatServiceTime } from '../shared/api';
import { csvRow } from '../shared/csv';
import type { ExportFilter } from '../shared/domain';
import type { OddsFormat } from '../shared/formats';
import { labelPeriod, periodNames } from '../shared/periods';

export type ExportKind = 'settlements' | 'results' | 'max-win' | 'bets';

export interface ExportOptions {
  kind: ExportKind;
  db: string;
  format: 'json' | 'csv';
  since: number | null;
  sport: number | null;
  /** Bets as CSV: the extra columns' odds format (default decimal). */
  oddsFormat?: OddsFormat;
}

const SETTLEMENT_COLUMNS = [
  'event_id',
  'sport_id',
  'league_id',
  'league_name',
  'runner_home',
  'runner_away',
  'starts',
  'score_home',
  'score_away',
  'status',
  'settled_at',
  'line_id',
  'period',
  'market',
  'line',
  'outcome_home',
  'outcome_draw',
  'outcome_away',
] as const;
const RESULT_COLUMNS = [
  'event_id',
  'sport_id',
  'period',
  'period_label',
  'status',
  'score_home',
  'score_away',
  'sets_home',
  'sets_away',
  'settlement_id',
  'cancellation_reason',
  'timestamp',
] as const;
const MAX_WIN_COLUMNS = [
  'event_id',
  'sport_id',
  'special_id',
  'special_name',
  'contestant_id',
  'contestant_name',
  'line_id',
  'period',
  'period_label',
  'market',
  'line',
  'from',
  'to',
  'at',
  'odds',
  'todds',
] as const;
type MaxWinRecord = Record<(typeof MAX_WIN_COLUMNS)[number], unknown> & { ms: number };

/** Two time-ordered streams as one, oldest first (specials first on a tie). */
function* mergeByTime<T extends { ms: number }>(a: Iterator<T>, b: Iterator<T>): Generator<T> {
  let x = a.next();
  let y = b.next();
  while (!x.done || !y.done) {
    if (!x.done && (y.done || x.value.ms <= y.value.ms)) {
      yield x.value;
      x = a.next();
    } else if (!y.done) {
      yield y.value;
      y = b.next();
    }
  }
}

function* map<T, U>(items: Iterable<T>, f: (item: T) => U): Generator<U> {
  for (const item of items) yield f(item);
}

export async function runExport(options: ExportOptions, sink: Writable = process.stdout): Promise<number> {
  if (!existsSync(options.db)) {
    process.stderr.write(`export: no database at ${options.db}\n`);
    return 2;
  }
  const store = openStore({ path: options.db });
  const filter: ExportFilter = {
    ...(options.since === null ? {} : { since: options.since }),
    ...(options.sport === null ? {} : { sportId: options.sport }),
  };
  const csv = options.format === 'csv';
  /** Flat records: a JSON object per line, or a CSV header and one row each. */
  function* flat<C extends string>(columns: readonly C[], records: Iterable<Record<C, unknown>>): Generator<string> {
    if (csv) yield csvRow(columns);
    for (const record of records) {
      const cells = columns.map((c) => record[c]);
      // Only the named columns: records may carry working fields (a sort key) that are not output.
      yield csv ? csvRow(cells) : JSON.stringify(Object.fromEntries(columns.map((c, i) => [c, cells[i]]))) + '\n';
    }
  }
  function* settlements(): Generator<string> {
    if (csv) yield csvRow(SETTLEMENT_COLUMNS);
    for (const s of store.settlements.exportSettlements(filter)) {
      if (!csv) {
        yield JSON.stringify(s) + '\n';
        continue;
      }
      const { settlement, ...event } = s;
      // One row per settled line; an event without lines still gets its row.
      const lines = settlement.length ? settlement : [null];
      for (const l of lines)
        yield csvRow(
          SETTLEMENT_COLUMNS.map((c) =>
            c in event ? event[c as keyof typeof event] : (l?.[c as keyof typeof l] ?? null),
          ),
        );
    }
  }
  try {
    if (options.kind === 'bets') {
      if (options.sport !== null) process.stderr.write('export: --sport does not apply to bets; ignored\n');
      // Oldest first, like the other kinds; --since is the time the bet was recorded.
      const bets = store.bets.listBets(options.since === null ? {} : { from: options.since }).reverse();
      if (csv) await writeBetsCsv(bets, sink, options.oddsFormat);
      else
        await writeText(
          sink,
          map(bets, (b) => JSON.stringify(b) + '\n'),
        );
    } else if (options.kind === 'settlements') {
      await writeText(sink, settlements());
    } else if (options.kind === 'results') {
      await writeText(
        sink,
        flat(
          RESULT_COLUMNS,
          map(store.settlements.exportResults(filter), (r) => ({
            event_id: r.eventId,
            sport_id: r.sportId,
            period: r.period,
            period_label: r.periodLabel,
            status: r.status,
            score_home: r.scoreHome,
            score_away: r.scoreAway,
            sets_home: r.setsHome,
            sets_away: r.setsAway,
            settlement_id: r.settlementId,
            cancellation_reason: r.cancellationReason,
            timestamp: r.timestamp === null ? null : formatServiceTime(r.timestamp),
          })),
        ),
      );
    } else {
      const names = periodNames(store.history.periods());
      const sportNames = new Map(store.history.storedSports().map((s) => [s.sport_id, s.name]));
      const specials = map(store.history.exportMaxWin(filter), (p): MaxWinRecord => ({
        ms: p.at,
        event_id: p.eventId,
        sport_id: p.sportId,
        special_id: p.specialId,
        special_name: p.specialName,
        contestant_id: p.contestantId,
        contestant_name: p.contestantName,
        line_id: null,
        period: null,
        period_label: null,
        market: null,
        line: null,
        from: p.previousMaxWin,
        to: p.maxWin,
        at: formatServiceTime(p.at),
        odds: p.odds,
        todds: p.todds,
      }));
      // Market lines: every change point kept at ingest and by compaction, whatever tick retention removed.
      const lines = map(store.history.exportLineMaxWin(filter), (p): MaxWinRecord => ({
        ms: p.at,
        event_id: p.eventId,
        sport_id: p.sportId,
        special_id: null,
        special_name: null,
        contestant_id: null,
        contestant_name: null,
        line_id: p.lineId,
        period: p.period,
        period_label:
          p.period === null
            ? null
            : labelPeriod((p.sportId === null ? undefined : sportNames.get(p.sportId)) ?? false, p.period, names, {
                asTheServiceSays: true,
              }),
        market: p.market,
        line: p.line,
        from: p.previousMaxWin,
        to: p.maxWin,
        at: formatServiceTime(p.at),
        odds: null,
        todds: null,
      }));
      await writeText(sink, flat(MAX_WIN_COLUMNS, mergeByTime(specials, lines)));
    }
  } catch (e) {
    // A reader that went away (`| head`) or a full disk: say so once, without a stack.
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EPIPE') process.stderr.write(`export: could not write the output: ${code ?? (e as Error).message}\n`);
    return code === 'EPIPE' ? 0 : 1;
  } finally {
    store.close();
  }
  return 0;
}
