// The filtered, paged settlements list (offline review and its totals). Owns the WHERE clause so the page and
// its count can never disagree, and picks its shape so the indexes of migration 002 serve the common filters.
import type Database from 'better-sqlite3';
import type { SettlementPage, SettlementQuery } from '../../../shared/domain';
import { settlementFromRow, type SettlementDbRow } from './rows';
import { foldText } from './sqlFunctions';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 500;
const SIDES = { home: 'outcome_home', draw: 'outcome_draw', away: 'outcome_away' } as const;
const ML_COLUMNS = { home: 'ml_home', draw: 'ml_draw', away: 'ml_away' } as const;
const RESULTS = new Set(['win', 'loss', 'push']);
/** The trigram index answers substrings of three characters or more. */
const TRIGRAM = 3;

const COLUMNS = `event_id, sport_id, league_id, league_name, runner_home, runner_away, starts, score_home, score_away,
  status, settled_at, line_count, ml_home, ml_draw, ml_away`;

function whereOf(q: SettlementQuery): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (q.sportId !== undefined) {
    parts.push('sport_id = ?');
    params.push(q.sportId);
  }
  if (q.leagueId !== undefined) {
    parts.push('league_id = ?');
    params.push(q.leagueId);
  }
  if (q.from !== undefined) {
    parts.push('settled_at >= ?');
    params.push(q.from);
  }
  if (q.to !== undefined) {
    parts.push('settled_at < ?');
    params.push(q.to);
  }
  const team = q.team?.trim();
  if (team) {
    const folded = foldText(team);
    // Inside a sport or league the covering index already holds the folded names, and instr() over it beats
    // materialising the trigram matches (a short term matches a third of all rows). Across everything, the
    // trigram index avoids the full scan.
    const narrowed = q.sportId !== undefined || q.leagueId !== undefined;
    if (!narrowed && [...folded].length >= TRIGRAM) {
      parts.push('event_id IN (SELECT rowid FROM settlement_teams WHERE settlement_teams MATCH ?)');
      params.push(`"${folded.replaceAll('"', '""')}"`);
    } else {
      parts.push('instr(teams, ?) > 0');
      params.push(folded);
    }
  }
  const o = q.outcome;
  if (o) {
    // Column names come from fixed maps, never from the caller's text.
    const side = SIDES[o.side];
    if (!side || !RESULTS.has(o.result)) throw new Error(`bad outcome filter ${JSON.stringify(o)}`);
    if (o.scope === 'moneyline') {
      parts.push(`${ML_COLUMNS[o.side]} = ?`);
      params.push(o.result);
    } else {
      const market = o.market ? ' AND l.market = ?' : '';
      parts.push(`EXISTS (SELECT 1 FROM settlement_lines l WHERE l.event_id = s.event_id AND l.${side} = ?${market})`);
      params.push(o.result);
      if (o.market) params.push(o.market);
    }
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}

/** `prepare`, once per distinct SQL text. */
function preparedOnce<R>(
  prepare: (sql: string) => Database.Statement<unknown[], R>,
): (sql: string) => Database.Statement<unknown[], R> {
  const cache = new Map<string, Database.Statement<unknown[], R>>();
  return (sql) => {
    let s = cache.get(sql);
    if (!s) cache.set(sql, (s = prepare(sql)));
    return s;
  };
}

export function createSettlementsQuery(db: Database.Database): (q: SettlementQuery) => SettlementPage {
  // The filter set is small and repeats, so statements are prepared once per distinct SQL text.
  const page = preparedOnce((sql) => db.prepare<unknown[], SettlementDbRow>(sql));
  const count = preparedOnce((sql) => db.prepare<unknown[], number>(sql).pluck());

  return (q) => {
    const limit = Math.min(Math.max(Math.trunc(q.limit ?? DEFAULT_LIMIT), 1), MAX_LIMIT);
    const where = whereOf(q);
    let pageWhere = where.sql;
    const pageParams = [...where.params];
    if (q.after) {
      // Written as a range on settled_at first: the OR form made SQLite merge two index scans and sort every
      // matching row (22 ms over a sport); this one walks the index backwards from the cursor and stops at the page.
      const keyset = 'settled_at <= ? AND (settled_at < ? OR event_id < ?)';
      pageWhere = pageWhere ? `${pageWhere} AND ${keyset}` : `WHERE ${keyset}`;
      pageParams.push(q.after.settledAt, q.after.settledAt, q.after.eventId);
    }
    const rows = page(
      `SELECT ${COLUMNS} FROM settlements s ${pageWhere} ORDER BY settled_at DESC, event_id DESC LIMIT ?`,
    ).all(...pageParams, limit + 1);
    const more = rows.length > limit;
    if (more) rows.pop();
    const last = rows[rows.length - 1];
    const total = q.withoutTotal
      ? null
      : count(`SELECT count(*) FROM settlements s ${where.sql}`).get(...where.params)!;
    return {
      rows: rows.map(settlementFromRow),
      total,
      next: more && last ? { settledAt: last.settled_at, eventId: last.event_id } : null,
    };
  };
}
