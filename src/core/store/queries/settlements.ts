// The reads of settlements and period results: the filtered page (./settlementsQuery.ts), one match's settlement
// and results, which matches are already settled, and the exports of both, walked in chunks.
import type Database from 'better-sqlite3';
import { formatServiceTime, type SettledEvent } from '../../../shared/api';
import type { ExportFilter, PeriodResultView, SettlementPage, SettlementQuery } from '../../../shared/domain';
import { isSetSport, labelPeriod, periodNames, type PeriodNames } from '../../../shared/periods';
import { createSettlementsQuery } from './settlementsQuery';
import { EXPORT_CHUNK, FAR_PAST, settlementLineFromRow, type SettlementDbRow, type SettlementLineRow } from './rows';

export interface SettlementReads {
  /** Which of these event ids already have a stored settlement. */
  knownSettlements(eventIds: readonly number[]): Set<number>;
  querySettlements(q: SettlementQuery): SettlementPage;
  settlement(eventId: number): SettledEvent | null;
  results(eventId: number): PeriodResultView[];
  exportSettlements(f?: ExportFilter): IterableIterator<SettledEvent>;
  exportResults(f?: ExportFilter): IterableIterator<PeriodResultView>;
}

interface ResultDbRow {
  event_id: number;
  period: number;
  status: number;
  score_home: number | null;
  score_away: number | null;
  sets_home: number | null;
  sets_away: number | null;
  settlement_id: number;
  cancellation_reason: string | null;
  timestamp: number | null;
  sport_id: number | null;
  sport_name: string | null;
}

/** `asTheServiceSays`: the export's label of period 0 is the service's own (see labelPeriod). */
function resultView(r: ResultDbRow, inSets: boolean, names: PeriodNames, asTheServiceSays = false): PeriodResultView {
  return {
    eventId: r.event_id,
    period: r.period,
    periodLabel: labelPeriod(r.sport_name ?? inSets, r.period, names, { asTheServiceSays }),
    status: r.status,
    scoreHome: r.score_home,
    scoreAway: r.score_away,
    setsHome: r.sets_home,
    setsAway: r.sets_away,
    settlementId: r.settlement_id,
    cancellationReason: r.cancellation_reason,
    timestamp: r.timestamp,
    sportId: r.sport_id,
  };
}

// Per-period results are only published for sports played in sets, so an event of unknown sport is one.
const guessSets = (r: ResultDbRow) => r.sport_name === null || isSetSport(r.sport_name);

export function createSettlementReads(db: Database.Database): SettlementReads {
  const settlementExists = db.prepare<[number], number>(`SELECT 1 FROM settlements WHERE event_id = ?`).pluck();
  const settlementRow = db.prepare<[number], SettlementDbRow>(`SELECT * FROM settlements WHERE event_id = ?`);
  const settlementLines = db.prepare<[number], SettlementLineRow>(
    `SELECT * FROM settlement_lines WHERE event_id = ? ORDER BY line_id`,
  );
  const resultSelect = `
    SELECT r.*, e.sport_id, coalesce(e.sport_name, sp.name) AS sport_name
    FROM period_results r
    LEFT JOIN events e ON e.event_id = r.event_id
    LEFT JOIN sports sp ON sp.sport_id = e.sport_id`;
  const resultsOf = db.prepare<[number], ResultDbRow>(`${resultSelect} WHERE r.event_id = ? ORDER BY r.period`);
  const periods = db.prepare<[], { period: number; description: string }>(
    `SELECT period, description FROM periods ORDER BY period`,
  );
  const exportSettlementsChunk = db.prepare<{ at: number; id: number; sport: number | null }, SettlementDbRow>(`
    SELECT * FROM settlements
    WHERE (settled_at > @at OR (settled_at = @at AND event_id > @id)) AND (@sport IS NULL OR sport_id = @sport)
    ORDER BY settled_at, event_id LIMIT ${EXPORT_CHUNK}`);
  const exportResultsChunk = db.prepare<
    { id: number; period: number; since: number | null; sport: number | null },
    ResultDbRow
  >(`
    ${resultSelect}
    WHERE (r.event_id > @id OR (r.event_id = @id AND r.period > @period))
      AND (@since IS NULL OR r.timestamp >= @since) AND (@sport IS NULL OR e.sport_id = @sport)
    ORDER BY r.event_id, r.period LIMIT ${EXPORT_CHUNK}`);

  function toSettledEvent(r: SettlementDbRow): SettledEvent {
    return {
      event_id: r.event_id,
      sport_id: r.sport_id,
      league_id: r.league_id,
      league_name: r.league_name,
      runner_home: r.runner_home,
      runner_away: r.runner_away,
      starts: formatServiceTime(r.starts),
      score_home: r.score_home,
      score_away: r.score_away,
      status: r.status,
      settled_at: formatServiceTime(r.settled_at),
      settlement: settlementLines.all(r.event_id).map(settlementLineFromRow),
    };
  }

  /** The service's descriptions as last stored: the same labels online and offline. */
  const storedNames = (): PeriodNames => periodNames(periods.all());

  return {
    knownSettlements(eventIds) {
      return new Set(eventIds.filter((id) => settlementExists.get(id) !== undefined));
    },

    querySettlements: createSettlementsQuery(db),

    settlement(eventId) {
      const r = settlementRow.get(eventId);
      return r ? toSettledEvent(r) : null;
    },

    results(eventId) {
      const rows = resultsOf.all(eventId);
      const inSets = rows.some((r) => r.sets_home !== null || r.period >= 6) || rows.every(guessSets);
      const names = storedNames();
      return rows.map((r) => resultView(r, inSets, names));
    },

    *exportSettlements(f = {}) {
      let at = (f.since ?? FAR_PAST) - 1;
      let id = Number.MAX_SAFE_INTEGER;
      for (;;) {
        const chunk = exportSettlementsChunk.all({ at, id, sport: f.sportId ?? null });
        const last = chunk[chunk.length - 1];
        if (!last) return;
        const events = chunk.map(toSettledEvent);
        yield* events;
        at = last.settled_at;
        id = last.event_id;
      }
    },

    *exportResults(f = {}) {
      let id = -Number.MAX_SAFE_INTEGER;
      let period = -1;
      const names = storedNames();
      for (;;) {
        const chunk = exportResultsChunk.all({ id, period, since: f.since ?? null, sport: f.sportId ?? null });
        const last = chunk[chunk.length - 1];
        if (!last) return;
        yield* chunk.map((r) => resultView(r, guessSets(r), names, true));
        id = last.event_id;
        period = last.period;
      }
    },
  };
}
