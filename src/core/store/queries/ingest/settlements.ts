// The ingest's settlements: a page of them stored with the settled cursor in one transaction, each as last sent (its
// lines replaced, not merged), and the result a re-settlement replaced kept as the match's next revision.
import type Database from 'better-sqlite3';
import { parseServiceTime, type SettledEvent, type SettlementLine } from '../../../../shared/api';
import type { SettlementDbRow } from '../rows';
import { foldText } from '../sqlFunctions';
import { eventParams, type EventWrites } from './events';

/** A stored settlement the service sent again with another result: what it was and what it is now. */
export interface Resettlement {
  eventId: number;
  /** The match's number of replaced results, this one included (1 for the first re-settlement). */
  revision: number;
  runnerHome: string;
  runnerAway: string;
  from: { scoreHome: number; scoreAway: number; status: string };
  /** The settlement as now stored (the service's record). */
  to: SettledEvent;
}

type StoredLine = Pick<
  SettlementLine,
  'line_id' | 'period' | 'market' | 'line' | 'outcome_home' | 'outcome_draw' | 'outcome_away'
>;

/** A line as the store keeps it (its columns, in their order). */
const storedLine = (l: StoredLine): StoredLine => ({
  line_id: l.line_id,
  period: l.period,
  market: l.market,
  line: l.line,
  outcome_home: l.outcome_home,
  outcome_draw: l.outcome_draw,
  outcome_away: l.outcome_away,
});

/** A settlement's lines in one order, as the store keeps them: one per line id, the last sent winning. */
function linesByIdOf(lines: readonly StoredLine[]): StoredLine[] {
  const byId = new Map<number, StoredLine>();
  for (const l of lines) byId.set(l.line_id, storedLine(l));
  return [...byId.values()].sort((a, b) => a.line_id - b.line_id);
}

interface StoredSettlement {
  score_home: number;
  score_away: number;
  status: string;
  settled_at: number;
  stored_at: number;
}

type SettlementParams = SettlementDbRow & { stored_at: number; teams: string };

type RevisionParams = StoredSettlement & { event_id: number; revision: number; replaced_at: number; lines: string };

export interface SettlementWrites {
  /** Stores a page of settlements and moves the cursor (inside the caller's transaction); returns the re-settlements. */
  page(events: readonly SettledEvent[], newCursor: number): Resettlement[];
  cursor(): number | null;
}

export function createSettlementWrites(
  db: Database.Database,
  clock: () => number,
  events: Pick<EventWrites, 'describe'>,
): SettlementWrites {
  const upsertSettlement = db.prepare<SettlementParams>(`
    INSERT INTO settlements (event_id, sport_id, league_id, league_name, runner_home, runner_away, starts, score_home,
                             score_away, status, settled_at, line_count, stored_at, teams, ml_home, ml_draw, ml_away)
    VALUES (@event_id, @sport_id, @league_id, @league_name, @runner_home, @runner_away, @starts, @score_home,
            @score_away, @status, @settled_at, @line_count, @stored_at, @teams, @ml_home, @ml_draw, @ml_away)
    ON CONFLICT(event_id) DO UPDATE SET
      sport_id = excluded.sport_id, league_id = excluded.league_id, league_name = excluded.league_name,
      runner_home = excluded.runner_home, runner_away = excluded.runner_away, starts = excluded.starts,
      score_home = excluded.score_home, score_away = excluded.score_away, status = excluded.status,
      settled_at = excluded.settled_at, line_count = excluded.line_count, teams = excluded.teams,
      ml_home = excluded.ml_home, ml_draw = excluded.ml_draw, ml_away = excluded.ml_away`);
  const deleteTeams = db.prepare<[number]>(`DELETE FROM settlement_teams WHERE rowid = ?`);
  const insertTeams = db.prepare<[number, string]>(`INSERT INTO settlement_teams (rowid, teams) VALUES (?, ?)`);
  const deleteSettlementLines = db.prepare<[number]>(`DELETE FROM settlement_lines WHERE event_id = ?`);
  const insertSettlementLine = db.prepare<StoredLine & { event_id: number }>(`
    INSERT OR REPLACE INTO settlement_lines (event_id, line_id, period, market, line, outcome_home, outcome_draw,
                                             outcome_away)
    VALUES (@event_id, @line_id, @period, @market, @line, @outcome_home, @outcome_draw, @outcome_away)`);
  const storedSettlement = db.prepare<[number], StoredSettlement>(
    `SELECT score_home, score_away, status, settled_at, stored_at FROM settlements WHERE event_id = ?`,
  );
  const storedLines = db.prepare<[number], StoredLine>(`
    SELECT line_id, period, market, line, outcome_home, outcome_draw, outcome_away FROM settlement_lines
    WHERE event_id = ? ORDER BY line_id`);
  const nextRevision = db
    .prepare<[number], number>(`SELECT coalesce(max(revision), 0) + 1 FROM settlement_revisions WHERE event_id = ?`)
    .pluck();
  const insertRevision = db.prepare<RevisionParams>(`
    INSERT INTO settlement_revisions (event_id, revision, score_home, score_away, status, settled_at, stored_at,
                                      replaced_at, lines)
    VALUES (@event_id, @revision, @score_home, @score_away, @status, @settled_at, @stored_at, @replaced_at, @lines)`);
  // max(): the cursor never moves backwards, whatever order pages are replayed in.
  const advanceCursor = db.prepare<[number, number]>(`
    INSERT INTO settled_cursor (id, cursor, updated_at) VALUES (1, ?, ?)
    ON CONFLICT(id) DO UPDATE SET cursor = max(cursor, excluded.cursor), updated_at = excluded.updated_at`);
  const readCursor = db.prepare<[], number>(`SELECT cursor FROM settled_cursor WHERE id = 1`).pluck();

  /**
   * Whether `e` changes the stored result of its match (score, status, or any line's words, line or presence); if so
   * the stored one is kept as the match's next revision before it is replaced. Names and times are not a result.
   */
  function keepReplacedResult(e: SettledEvent, now: number): Resettlement | null {
    const was = storedSettlement.get(e.event_id);
    if (!was) return null;
    const wasLines = storedLines.all(e.event_id);
    const sameResult =
      was.score_home === e.score_home &&
      was.score_away === e.score_away &&
      was.status === e.status &&
      JSON.stringify(wasLines) === JSON.stringify(linesByIdOf(e.settlement));
    if (sameResult) return null;
    const revision = nextRevision.get(e.event_id)!;
    insertRevision.run({ event_id: e.event_id, revision, ...was, replaced_at: now, lines: JSON.stringify(wasLines) });
    return {
      eventId: e.event_id,
      revision,
      runnerHome: e.runner_home,
      runnerAway: e.runner_away,
      from: { scoreHome: was.score_home, scoreAway: was.score_away, status: was.status },
      to: e,
    };
  }

  /** The settlement as last sent: its row, its teams' search text, and its lines (replaced, not merged). */
  function store(e: SettledEvent, starts: number, settledAt: number, now: number): void {
    const ml = e.settlement.find((l) => l.market === 'moneyline' && l.period === 0);
    const lineIds = new Set(e.settlement.map((l) => l.line_id));
    const teams = foldText(`${e.runner_home}\n${e.runner_away}`);
    upsertSettlement.run({
      event_id: e.event_id,
      sport_id: e.sport_id,
      league_id: e.league_id,
      league_name: e.league_name,
      runner_home: e.runner_home,
      runner_away: e.runner_away,
      starts,
      score_home: e.score_home,
      score_away: e.score_away,
      status: e.status,
      settled_at: settledAt,
      line_count: lineIds.size,
      stored_at: now,
      teams,
      ml_home: ml?.outcome_home ?? null,
      ml_draw: ml?.outcome_draw ?? null,
      ml_away: ml?.outcome_away ?? null,
    });
    deleteTeams.run(e.event_id);
    insertTeams.run(e.event_id, teams);
    // Replace, not merge: a re-sent settlement (inclusive cursor, or a correction) is stored exactly as last sent;
    // a correction's earlier result is kept in settlement_revisions (keepReplacedResult).
    deleteSettlementLines.run(e.event_id);
    for (const l of e.settlement) {
      insertSettlementLine.run({ event_id: e.event_id, ...storedLine(l) });
    }
  }

  return {
    page(settled, newCursor) {
      const now = clock();
      const resettled: Resettlement[] = [];
      for (const e of settled) {
        const settledAt = parseServiceTime(e.settled_at);
        const starts = parseServiceTime(e.starts);
        if (settledAt === null || starts === null) throw new Error(`settlement ${e.event_id}: bad date-time`);
        // The settlement of another match under a stored match's id is not its result: the stored match keeps its
        // own (its bets never settle on another match's score).
        if (events.describe(eventParams({ ...e, live_status: null }, 'settlement', now))) continue;
        const changed = keepReplacedResult(e, now);
        if (changed) resettled.push(changed);
        store(e, starts, settledAt, now);
      }
      advanceCursor.run(newCursor, now);
      return resettled;
    },
    cursor: () => readCursor.get() ?? null,
  };
}
