// The reads of specials and outrights: an event's specials with their contestants' latest prices and CLV, the
// contestants' tick and max_win histories, the opening and closing true-odds records, the outrights as last fetched,
// and the max_win export.
import type Database from 'better-sqlite3';
import type { DevigModel, OutrightMarket } from '../../../shared/api';
import type {
  ClvQuery,
  ClvRow,
  ExportFilter,
  MaxWinExportRow,
  MaxWinPoint,
  SpecialHistoryPoint,
  SpecialView,
} from '../../../shared/domain';
import {
  contestantFromRow,
  EXPORT_CHUNK,
  FAR_PAST,
  maxWinFromRow,
  type ContestantColumns,
  type HistoryRange,
  type MaxWinDbRow,
} from './rows';

export interface SpecialReads {
  specialsOf(eventId: number): SpecialView[];
  maxWinPointsOf(eventId: number): MaxWinPoint[];
  specialHistory(specialId: number, contestantId: number, range?: HistoryRange): SpecialHistoryPoint[];
  maxWinHistory(specialId: number, contestantId: number): MaxWinPoint[];
  closingLineValue(q?: ClvQuery): ClvRow[];
  /** Outright markets as last fetched, newest first (the offline outrights view). */
  storedOutrights(q?: { sportId?: number; minContestants?: number }): OutrightMarket[];
  exportMaxWin(f?: ExportFilter): IterableIterator<MaxWinExportRow>;
}

interface SpecialDbRow {
  event_id: number | null;
  special_id: number;
  special_name: string | null;
  bet_type: string | null;
  category: string | null;
  units: string | null;
  period: number | null;
  cutoff: string | null;
}

interface ContestantDbRow {
  contestant_id: number;
  contestant_name: string | null;
  last_max_win: number | null;
  handicap: number | null;
  odds: number | null;
  todds: number | null;
  tick_at: number | null;
}

interface ClvDbRow extends ContestantColumns {
  model: DevigModel;
  opening_odds: number | null;
  opening: number;
  opened_at: number;
  closing_odds: number | null;
  closing: number | null;
  closed_at: number | null;
}

interface OutrightDbRow {
  event_id: number;
  special_id: number;
  special_name: string;
  cutoff: string | null;
  sport_id: number | null;
  sport_name: string | null;
  league_id: number | null;
  league_name: string | null;
  home: string | null;
  away: string | null;
  starts: string | null;
  live_status: number | null;
}

type MaxWinExportDbRow = MaxWinDbRow & { sport_id: number | null };

/**
 * The true odds under every model of a contestant's latest tick, when that tick is its opening or closing record
 * (only those carry true_odds_by_model): the closing record once there is one, else the opening. Null when a later
 * tick came, whose fair price the service gave under one model only (its todds).
 */
function latestTrueOdds(rows: readonly ClvRow[], tickAt: number | null): Partial<Record<DevigModel, number>> | null {
  const out: Partial<Record<DevigModel, number>> = {};
  let any = false;
  for (const r of rows) {
    const closed = r.closingTrueOdds !== null && r.closedAt !== null;
    const at = closed ? r.closedAt! : r.openedAt;
    if (tickAt !== null && tickAt > at) continue;
    out[r.model] = closed ? r.closingTrueOdds! : r.openingTrueOdds;
    any = true;
  }
  return any ? out : null;
}

function clvFromRow(r: ClvDbRow): ClvRow {
  const { opening_odds: openingOdds, opening, closing } = r;
  return {
    ...contestantFromRow(r),
    model: r.model,
    openingOdds,
    openingTrueOdds: opening,
    openedAt: r.opened_at,
    closingOdds: closing === null ? null : r.closing_odds,
    closingTrueOdds: closing,
    closedAt: r.closed_at,
    // What one could have bet at the open against the fair close; the fair price's own move is kept beside it.
    clv: closing && openingOdds ? openingOdds / closing - 1 : null,
    fairMove: closing ? opening / closing - 1 : null,
  };
}

function outrightFromRow(r: OutrightDbRow, contestants: OutrightMarket['contestants']): OutrightMarket {
  return {
    event_id: r.event_id,
    special_id: r.special_id,
    special_name: r.special_name,
    cutoff: r.cutoff ?? '',
    sport_id: r.sport_id ?? 0,
    sport_name: r.sport_name ?? '',
    league_id: r.league_id ?? 0,
    league_name: r.league_name ?? '',
    home: r.home ?? '',
    away: r.away ?? '',
    starts: r.starts ?? '',
    live_status: r.live_status ?? 0,
    contestants,
  };
}

function prepareSpecialQueries(db: Database.Database) {
  const maxWinSelect = `
    SELECT p.event_id, p.special_id, sp.special_name, p.contestant_id, c.contestant_name, p.at, p.max_win,
           p.previous_max_win, p.odds, p.todds, sp.sport_id
    FROM max_win_points p
    LEFT JOIN specials sp ON sp.special_id = p.special_id
    LEFT JOIN special_contestants c ON c.special_id = p.special_id AND c.contestant_id = p.contestant_id`;
  return {
    specialsOfEvent: db.prepare<[number], SpecialDbRow>(
      `SELECT * FROM specials WHERE event_id = ? ORDER BY special_id`,
    ),
    contestantsOf: db.prepare<[number], ContestantDbRow>(`
    SELECT c.contestant_id, c.contestant_name, c.last_max_win, t.handicap, t.odds, t.todds, t.at AS tick_at
    FROM special_contestants c
    LEFT JOIN special_ticks t ON t.rowid = (
      SELECT rowid FROM special_ticks WHERE special_id = c.special_id AND contestant_id = c.contestant_id
      ORDER BY at DESC LIMIT 1)
    WHERE c.special_id = ? ORDER BY c.contestant_id`),
    specialHistory: db.prepare<[number, number, number, number], SpecialHistoryPoint>(`
    SELECT at, handicap, odds, todds, max_win AS maxWin FROM special_ticks
    WHERE special_id = ? AND contestant_id = ? AND at >= ? AND at <= ? ORDER BY at`),
    maxWinOfEvent: db.prepare<[number], MaxWinDbRow>(
      `${maxWinSelect} WHERE p.event_id = ? ORDER BY p.at, p.special_id, p.contestant_id`,
    ),
    maxWinHistory: db.prepare<[number, number], MaxWinDbRow>(
      `${maxWinSelect} WHERE p.special_id = ? AND p.contestant_id = ? ORDER BY p.at`,
    ),
    clv: db.prepare<{ event_id: number | null; special_id: number | null; model: DevigModel | null }, ClvDbRow>(`
    SELECT sp.event_id, o.special_id, sp.special_name, o.contestant_id, c.contestant_name, o.model,
           o.odds AS opening_odds, o.true_odds AS opening, o.at AS opened_at,
           cl.odds AS closing_odds, cl.true_odds AS closing, cl.at AS closed_at
    FROM true_odds_records o
    LEFT JOIN true_odds_records cl ON cl.special_id = o.special_id AND cl.contestant_id = o.contestant_id
         AND cl.model = o.model AND cl.kind = 'closing'
    LEFT JOIN specials sp ON sp.special_id = o.special_id
    LEFT JOIN special_contestants c ON c.special_id = o.special_id AND c.contestant_id = o.contestant_id
    WHERE o.kind = 'opening'
      AND (@event_id IS NULL OR sp.event_id = @event_id)
      AND (@special_id IS NULL OR o.special_id = @special_id)
      AND (@model IS NULL OR o.model = @model)
    ORDER BY o.special_id, o.contestant_id, o.model`),
    outrights: db.prepare<{ sport: number | null; min: number }, OutrightDbRow>(`
    SELECT * FROM outright_markets WHERE (@sport IS NULL OR sport_id = @sport)
      AND (SELECT count(*) FROM outright_contestants c WHERE c.special_id = outright_markets.special_id) >= @min
    ORDER BY updated_at DESC, special_id`),
    outrightContestants: db.prepare<[number], OutrightMarket['contestants'][number]>(
      `SELECT name, handicap, odds, todds FROM outright_contestants WHERE special_id = ? ORDER BY odds, name`,
    ),
    exportMaxWinChunk: db.prepare<
      { at: number; special: number; contestant: number; sport: number | null },
      MaxWinExportDbRow
    >(`
    ${maxWinSelect}
    WHERE (p.at > @at OR (p.at = @at AND (p.special_id > @special OR (p.special_id = @special AND p.contestant_id > @contestant))))
      AND (@sport IS NULL OR sp.sport_id = @sport)
    ORDER BY p.at, p.special_id, p.contestant_id LIMIT ${EXPORT_CHUNK}`),
  };
}

export function createSpecialReads(db: Database.Database): SpecialReads {
  const q = prepareSpecialQueries(db);

  function closingLineValue(c: ClvQuery = {}): ClvRow[] {
    const params = { event_id: c.eventId ?? null, special_id: c.specialId ?? null, model: c.model ?? null };
    return q.clv.all(params).map(clvFromRow);
  }

  return {
    specialsOf(eventId) {
      return q.specialsOfEvent.all(eventId).map((s) => {
        const specialId = s.special_id;
        const clvRows = closingLineValue({ specialId });
        const contestants = q.contestantsOf.all(specialId).map((c) => {
          const clv = clvRows.filter((r) => r.contestantId === c.contestant_id);
          return {
            contestantId: c.contestant_id,
            contestantName: c.contestant_name ?? '',
            handicap: c.handicap,
            odds: c.odds,
            todds: c.todds,
            trueOddsByModel: latestTrueOdds(clv, c.tick_at),
            maxWin: c.last_max_win,
            clv,
          };
        });
        return {
          eventId: s.event_id,
          specialId,
          specialName: s.special_name ?? '',
          betType: s.bet_type ?? '',
          category: s.category ?? '',
          units: s.units ?? '',
          period: s.period ?? 0,
          cutoff: s.cutoff ?? '',
          contestants,
        };
      });
    },

    maxWinPointsOf: (eventId) => q.maxWinOfEvent.all(eventId).map(maxWinFromRow),

    specialHistory(specialId, contestantId, range = {}) {
      return q.specialHistory.all(specialId, contestantId, range.from ?? FAR_PAST, range.to ?? -FAR_PAST);
    },

    maxWinHistory: (specialId, contestantId) => q.maxWinHistory.all(specialId, contestantId).map(maxWinFromRow),

    closingLineValue,

    storedOutrights(o = {}) {
      const rows = q.outrights.all({ sport: o.sportId ?? null, min: o.minContestants ?? 0 });
      return rows.map((r) => outrightFromRow(r, q.outrightContestants.all(r.special_id)));
    },

    *exportMaxWin(f = {}) {
      let at = (f.since ?? FAR_PAST) - 1;
      let special = Number.MAX_SAFE_INTEGER;
      let contestant = Number.MAX_SAFE_INTEGER;
      for (;;) {
        const chunk = q.exportMaxWinChunk.all({ at, special, contestant, sport: f.sportId ?? null });
        const last = chunk[chunk.length - 1];
        if (!last) return;
        yield* chunk.map((r) => ({ ...maxWinFromRow(r), sportId: r.sport_id }));
        at = last.at;
        special = last.special_id;
        contestant = last.contestant_id;
      }
    },
  };
}
