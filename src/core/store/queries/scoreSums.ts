// The store's part of the model scoreboard: every line closed before kick-off (line_closes) joined to how it settled
// (settlement_lines, settlements) and the team of a team total (market_lines), read in chunks in the order of their
// matches, so the scorer (src/core/report) can keep per-match sums and the host can breathe between chunks. Counts
// are SQL aggregates. The filters: the match's sport, and its kick-off at or after `since`.
import type Database from 'better-sqlite3';
import type { SettledClose } from '../../../shared/scoreboard';

export interface ScoreboardFilter {
  since?: number | null;
  sportId?: number | null;
}

/** One settled line with its close, with its line's id (the keyset of the chunks). */
export type ScoreboardRow = SettledClose & { lineId: number };

export interface ScoreboardReads {
  /** Closed lines in scope, and of them those whose match has settled (the lines a scoring run reads). */
  scoreboardCounts(f?: ScoreboardFilter): { closed: number; settled: number };
  /**
   * Visits the settled closed lines after (eventId, lineId), in that order, at most `limit`; returns how many. The
   * row handed to `visit` is one object refilled for every line: read it, do not keep it.
   */
  scoreboardChunk(
    f: ScoreboardFilter,
    after: { eventId: number; lineId: number } | null,
    limit: number,
    visit: (row: Readonly<ScoreboardRow>) => void,
  ): number;
  /** Sport names as stored (from /api/sports and the events' headers). */
  sportNames(): Map<number, string>;

  // ---- the sums kept per match (migration 012): what a scoring run reads instead of every line ----

  /** Matches marked stale (a close, a settlement or a settled line written since their sums were kept), in id order. */
  scoreboardStale(limit: number): StaleMatch[];
  /** How many matches are stale, and their closed lines (the work a refresh has before it). */
  scoreboardStaleCount(): { matches: number; lines: number };
  /** Visits one match's settled closed lines, in line order (the row is refilled: do not keep it); its counts. */
  scoreboardMatchLines(
    eventId: number,
    visit: (row: Readonly<ScoreboardRow>) => void,
  ): { closed: number; settled: number };
  /** Keeps matches' fresh sums, each clearing its stale mark unless it was marked again since it was read. */
  keepScoreboardMatches(matches: readonly KeptMatch[]): void;
  /** Visits the kept sums of the settled matches in scope, in match order (null: nothing of the match scored). */
  scoreboardMatches(f: ScoreboardFilter, visit: (eventId: number, sportId: number, sums: Uint8Array) => void): void;
  /** Closed lines in scope and of them those settled, from the kept counts. */
  keptScoreboardCounts(f?: ScoreboardFilter): { closed: number; settled: number };
}

export interface StaleMatch {
  eventId: number;
  /** Its mark count when read. */
  n: number;
}

export interface KeptMatch extends StaleMatch {
  closed: number;
  settled: number;
  sums: Uint8Array | null;
}

interface ScopeParams {
  sport: number | null;
  since: number | null;
}

interface LineCounts {
  closed: number;
  settled: number;
}

/** What a count over no lines reads (an aggregate always returns its one row: this is for the type). */
const NO_LINES: LineCounts = { closed: 0, settled: 0 };

/** A row's fields in the order the line queries select them. */
const ROW_FIELDS = [
  'eventId',
  'lineId',
  'sportId',
  'period',
  'market',
  'line',
  'closeLine',
  'closeHome',
  'closeDraw',
  'closeAway',
  'closeOver',
  'closeUnder',
  'outcomeHome',
  'outcomeDraw',
  'outcomeAway',
  'status',
  'scoreHome',
  'scoreAway',
  'team',
] as const satisfies readonly (keyof ScoreboardRow)[];

export function createScoreboardReads(db: Database.Database): ScoreboardReads {
  // line_closes drives the scan: it holds only watched matches' lines, while settlement_lines holds every settled
  // match of the book. Its primary key (event_id, line_id) gives the order and the keyset.
  const scope = `c.closed_at IS NOT NULL
      AND (@sport IS NULL OR coalesce(st.sport_id, e.sport_id) = @sport)
      AND (@since IS NULL OR coalesce(st.starts, e.starts) >= @since)`;
  const counts = db.prepare<ScopeParams, LineCounts>(`
    SELECT count(*) AS closed, count(sl.event_id) AS settled
    FROM line_closes c
    LEFT JOIN settlements st ON st.event_id = c.event_id
    LEFT JOIN settlement_lines sl ON sl.event_id = c.event_id AND sl.line_id = c.line_id
    LEFT JOIN events e ON e.event_id = c.event_id
    WHERE ${scope}`);
  // Read as arrays (a row object per line costs as much again as the query), into one row object refilled per line.
  // Only settled lines are read, so the settlement decides sport and kick-off. The team of a team total matters only
  // for a quarter line (its sides settle from the team's score), so market_lines is looked up for those alone.
  const chunkSql = `
    SELECT c.event_id, c.line_id, st.sport_id, sl.period, sl.market, sl.line, c.line,
      c.last_home, c.last_draw, c.last_away, c.last_over, c.last_under,
      sl.outcome_home, sl.outcome_draw, sl.outcome_away, st.status, st.score_home, st.score_away,
      CASE WHEN abs(sl.line * 4 - round(sl.line * 4)) < 1e-9 AND abs(cast(round(sl.line * 4) AS INTEGER)) % 2 = 1
        THEN (SELECT ml.side FROM market_lines ml WHERE ml.event_id = c.event_id AND ml.line_id = c.line_id) END
    FROM line_closes c
    JOIN settlement_lines sl ON sl.event_id = c.event_id AND sl.line_id = c.line_id
    JOIN settlements st ON st.event_id = c.event_id
    WHERE (c.event_id, c.line_id) > (@event, @line) AND c.closed_at IS NOT NULL
      AND (@sport IS NULL OR st.sport_id = @sport) AND (@since IS NULL OR st.starts >= @since)
    ORDER BY c.event_id, c.line_id
    LIMIT @limit`;
  const chunk = db.prepare<ScopeParams & { event: number; line: number; limit: number }, unknown[]>(chunkSql).raw();
  // The events' own names, one per sport id, skipping along the index (migration 012) from one sport id to the next:
  // a few lookups instead of reading every event.
  const sports = db.prepare<[], { id: number; name: string }>(`
    WITH RECURSIVE ids(id) AS (
      SELECT min(sport_id) FROM events
      UNION ALL
      SELECT (SELECT min(sport_id) FROM events WHERE sport_id > ids.id) FROM ids WHERE ids.id IS NOT NULL
    )
    SELECT sport_id AS id, name FROM sports
    UNION ALL SELECT id, (SELECT min(sport_name) FROM events WHERE sport_id = ids.id) AS name FROM ids WHERE id IS NOT NULL AND name IS NOT NULL`);
  const params = (f: ScoreboardFilter): ScopeParams => ({ sport: f.sportId ?? null, since: f.since ?? null });

  const stale = db
    .prepare<[number], [number, number]>(`SELECT event_id, n FROM model_score_stale ORDER BY event_id LIMIT ?`)
    .raw();
  const staleCount = db.prepare<[], { matches: number; lines: number }>(`
    SELECT (SELECT count(*) FROM model_score_stale) AS matches,
      (SELECT count(*) FROM model_score_stale s CROSS JOIN line_closes c ON c.event_id = s.event_id WHERE c.closed_at IS NOT NULL) AS lines`);
  const matchLines = db
    .prepare<ScopeParams & { event: number }, unknown[]>(
      chunkSql.replace('(c.event_id, c.line_id) > (@event, @line)', 'c.event_id = @event').replace('LIMIT @limit', ''),
    )
    .raw();
  const matchCounts = db.prepare<[number], LineCounts>(`
    SELECT count(*) AS closed, count(sl.event_id) AS settled FROM line_closes c
    LEFT JOIN settlement_lines sl ON sl.event_id = c.event_id AND sl.line_id = c.line_id
    WHERE c.event_id = ? AND c.closed_at IS NOT NULL`);
  const keep = db.prepare(`
    INSERT INTO model_score_matches (event_id, closed, settled, sums) SELECT @event, @closed, @settled, @sums
    WHERE EXISTS (SELECT 1 FROM model_score_stale WHERE event_id = @event AND n = @n)
    ON CONFLICT(event_id) DO UPDATE SET closed = excluded.closed, settled = excluded.settled, sums = excluded.sums`);
  const drop = db.prepare(`
    DELETE FROM model_score_matches WHERE event_id = @event AND EXISTS (SELECT 1 FROM model_score_stale WHERE event_id = @event AND n = @n)`);
  const unmark = db.prepare(`DELETE FROM model_score_stale WHERE event_id = @event AND n = @n`);
  const keepAll = db.transaction((matches: readonly KeptMatch[]) => {
    for (const m of matches) {
      const p = { event: m.eventId, n: m.n, closed: m.closed, settled: m.settled, sums: m.sums };
      if (m.closed === 0) drop.run(p);
      else keep.run(p);
      unmark.run(p);
    }
  });
  // Only settled matches have sums: the settlement decides sport and kick-off, as for the lines. (CROSS JOIN: the kept
  // rows drive the scan, in their key's order; the planner would rather walk every settlement's index.)
  const kept = db
    .prepare<ScopeParams, [number, number, Uint8Array]>(
      `
    SELECT m.event_id, st.sport_id, m.sums FROM model_score_matches m CROSS JOIN settlements st ON st.event_id = m.event_id
    WHERE m.sums IS NOT NULL AND (@sport IS NULL OR st.sport_id = @sport) AND (@since IS NULL OR st.starts >= @since)
    ORDER BY m.event_id`,
    )
    .raw();
  const keptCounts = db.prepare<ScopeParams, LineCounts>(`
    SELECT coalesce(sum(m.closed), 0) AS closed, coalesce(sum(m.settled), 0) AS settled
    FROM model_score_matches m
    LEFT JOIN settlements st ON st.event_id = m.event_id
    LEFT JOIN events e ON e.event_id = m.event_id
    WHERE (@sport IS NULL OR coalesce(st.sport_id, e.sport_id) = @sport)
      AND (@since IS NULL OR coalesce(st.starts, e.starts) >= @since)`);
  const fill = (row: ScoreboardRow, r: unknown[]) => {
    const into = row as unknown as Record<string, unknown>;
    for (let i = 0; i < ROW_FIELDS.length; i++) into[ROW_FIELDS[i]!] = r[i];
    return row;
  };

  return {
    scoreboardCounts: (f = {}) => counts.get(params(f)) ?? NO_LINES,
    scoreboardChunk(f, after, limit, visit) {
      const rows = chunk.all({
        ...params(f),
        event: after?.eventId ?? -Number.MAX_SAFE_INTEGER,
        line: after?.lineId ?? -Number.MAX_SAFE_INTEGER,
        limit,
      });
      const row = {} as ScoreboardRow;
      for (const r of rows) {
        fill(row, r);
        visit(row);
      }
      return rows.length;
    },
    sportNames() {
      const names = new Map<number, string>();
      // The service's own list first; an event's header only fills a sport the list does not have.
      for (const r of sports.all()) if (!names.has(r.id)) names.set(r.id, r.name);
      return names;
    },

    scoreboardStale: (limit) => stale.all(limit).map(([eventId, n]) => ({ eventId, n })),
    scoreboardStaleCount: () => staleCount.get() ?? { matches: 0, lines: 0 },
    scoreboardMatchLines(eventId, visit) {
      const row = {} as ScoreboardRow;
      for (const r of matchLines.all({ event: eventId, sport: null, since: null })) visit(fill(row, r));
      return matchCounts.get(eventId) ?? NO_LINES;
    },
    keepScoreboardMatches: (matches) => keepAll.immediate(matches),
    scoreboardMatches(f, visit) {
      for (const r of kept.iterate(params(f))) visit(r[0], r[1], r[2]);
    },
    keptScoreboardCounts: (f = {}) => keptCounts.get(params(f)) ?? NO_LINES,
  };
}
