// The model scoreboard's sums kept per match (migration 012, ./keep.ts): the Models view's figures from the kept sums
// are exactly those of scoring every line (the computation before the sums were kept), on a history with pushes,
// voids, moved lines, unpriced closes, quarter lines and a team total, under every filter; and a settlement, a
// re-settlement or a close arriving after the sums were kept changes the figures as it would have before.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { syntheticLines, writeSyntheticHistory } from '../../../test/support/syntheticLines';
import { formatServiceTime, type SettledEvent } from '../../shared/api';
import type { ModelScoreboard } from '../../shared/scoreboard';
import { openStore, type ScoreboardFilter, type Store } from '../store';
import { keepScoreSumsNow } from './keep';
import { scoreModels } from './run';
import { createScorer, type SettledClose } from './scoreboard';

const FIRST = Date.UTC(2026, 0, 1, 12);
const MATCHES = 300;
let store: Store;

/** The figures as they were made before the sums were kept: every settled closed line read and scored, in match order. */
function everyLine(s: Pick<Store, 'scores'>, filter: ScoreboardFilter): ModelScoreboard {
  const scorer = createScorer();
  let after: { eventId: number; lineId: number } | null = null;
  for (;;) {
    let last: { eventId: number; lineId: number } | null = after;
    const n = s.scores.scoreboardChunk(filter, after, 97, (row) => {
      scorer.add(row);
      last = { eventId: row.eventId, lineId: row.lineId };
    });
    if (n < 97) break;
    after = last;
  }
  const counts = s.scores.scoreboardCounts(filter);
  const names = s.scores.sportNames();
  return scorer.finish({
    filter: { since: filter.since ?? null, sportId: filter.sportId ?? null },
    sportName: (id) => names.get(id) ?? null,
    awaitingSettlement: counts.closed - counts.settled,
  });
}

const fromKept = async (s: Pick<Store, 'scores'>, filter: ScoreboardFilter) => ({
  ...(await scoreModels(s, filter)),
  computedMs: 0,
});

/** A two-way line of the worked examples (src/core/report/scoreboard.test.ts): pushes, voids, moves, quarters. */
function line(
  eventId: number,
  market: string,
  lineValue: number | null,
  scoreHome: number,
  scoreAway: number,
  extra: Partial<SettledClose> = {},
): SettledClose {
  const margin = scoreHome - scoreAway + (lineValue ?? 0);
  return {
    eventId,
    sportId: 29,
    period: 0,
    market,
    line: lineValue,
    closeLine: lineValue,
    closeHome: 1.95,
    closeDraw: null,
    closeAway: 1.9,
    closeOver: null,
    closeUnder: null,
    outcomeHome: margin > 0 ? 'win' : margin < 0 ? 'loss' : 'push',
    outcomeDraw: 'loss',
    outcomeAway: margin > 0 ? 'loss' : margin < 0 ? 'win' : 'push',
    status: 'ended',
    scoreHome,
    scoreAway,
    team: null,
    ...extra,
  };
}

const ODD_LINES: SettledClose[] = [
  // Home -0.25 at 1-1: half pushed, half lost (weight 0.5); home -0.75 at 3-1: both halves won.
  line(1, 'spread', -0.25, 1, 1),
  line(1, 'spread', -0.75, 1, 1),
  line(2, 'spread', -0.75, 3, 1),
  // A push; an abandoned match (void); a word the app does not know (void); a moved line; a first-half quarter line.
  line(3, 'spread', -1, 2, 1),
  line(4, 'spread', -0.5, 0, 0, { status: 'abandoned', outcomeHome: 'push', outcomeAway: 'push' }),
  line(5, 'spread', -0.5, 1, 0, { outcomeHome: 'void', outcomeAway: 'void' }),
  line(6, 'spread', -0.5, 1, 0, { closeLine: -1.5 }),
  line(7, 'spread', -0.25, 1, 0, { period: 1 }),
  // An unpriced close, a two-way close of a draw (no priced side won), a market the scoreboard does not score.
  line(8, 'moneyline', null, 1, 0, { closeHome: 1.02, closeDraw: 12, closeAway: 150 }),
  line(9, 'moneyline', null, 1, 1, {
    closeHome: 2.5,
    closeAway: 2.8,
    outcomeHome: 'loss',
    outcomeAway: 'loss',
    outcomeDraw: 'win',
  }),
  line(9, 'corners', 0.5, 1, 1),
  // A team total's quarter line: its sides settle from the home team's score (3 against 2.75: over wins half, the
  // half on 3 pushes), so only with its team known (the market line's side).
  line(10, 'team_total', 2.75, 3, 0, {
    team: 'home',
    closeHome: null,
    closeAway: null,
    closeOver: 1.9,
    closeUnder: 1.95,
    outcomeHome: 'win',
    outcomeAway: 'loss',
  }),
];

const FILTERS: ScoreboardFilter[] = [
  {},
  { sportId: 2 },
  { sportId: 29 },
  { since: FIRST + 100 * 60_000 },
  { sportId: 1, since: FIRST + 250 * 60_000 },
];

function settledEvent(
  eventId: number,
  lines: Array<{ line_id: number; market: string; line: number | null; words: [string, string, string] }>,
  score: [number, number],
  kickOff: number,
): SettledEvent {
  return {
    event_id: eventId,
    sport_id: 1,
    league_id: 1,
    league_name: 'Synthetic League',
    runner_home: `Home ${eventId}`,
    runner_away: `Away ${eventId}`,
    starts: formatServiceTime(kickOff),
    score_home: score[0],
    score_away: score[1],
    status: 'ended',
    settled_at: formatServiceTime(kickOff + 7_200_000),
    settlement: lines.map((l) => ({
      line_id: l.line_id,
      period: 0,
      market: l.market,
      line: l.line,
      outcome_home: l.words[0],
      outcome_draw: l.words[1],
      outcome_away: l.words[2],
    })),
  };
}

beforeEach(() => {
  store = openStore({ path: path.join(mkdtempSync(path.join(tmpdir(), 'oddsdesk-keep-')), 'h.db') });
  writeSyntheticHistory(
    store,
    [...ODD_LINES, ...syntheticLines({ model: 'SHIN', matches: MATCHES, seed: 11, sports: 3 })],
    { firstKickOff: FIRST, sports: { 1: 'Soccer', 2: 'Tennis', 29: 'Soccer' } },
  );
  // The team total's team, as the stream's market line says it (line id: its match's id × 10 + its place).
  store.odds.recordTicks(
    10,
    [
      {
        line_id: 100,
        period: 0,
        market: 'team_total',
        side: 'home',
        line: 2.75,
        prices: { over: 1.9, under: 1.95 },
        max_win: 500,
        updated_at: formatServiceTime(FIRST),
      },
    ],
    FIRST,
  );
});
afterEach(() => store.close());

describe("the scoreboard's kept sums", () => {
  it('give exactly the figures of scoring every line, under every filter, kept or scored just now', async () => {
    expect(store.scores.scoreboardStaleCount().matches).toBe(MATCHES + 10);
    for (const f of FILTERS) expect(await fromKept(store, f)).toEqual(everyLine(store, f));
    // Every match kept: the next runs read a row per match, and still agree.
    expect(store.scores.scoreboardStaleCount()).toEqual({ matches: 0, lines: 0 });
    for (const f of FILTERS) expect(await fromKept(store, f)).toEqual(everyLine(store, f));
    const all = await fromKept(store, {});
    expect(all.excluded).toMatchObject({ push: 1, void: 2, unreadable: 1, lineMoved: 1, noWinner: 1 });
    expect(all.excluded.unpriced).toBeGreaterThanOrEqual(1);
    // Match 1's -0.25 at 1-1, and the team total: 3 goals against over 2.75 (the half on 3 pushes).
    expect(all.halfPushes).toBe(2);
    expect(all.byMarket.map((g) => [g.key, g.matches])).toEqual([
      ['moneyline', MATCHES],
      ['spread', MATCHES + 2],
      ['team_total', 1],
    ]);
  });

  it('follow a re-settlement that arrives after they were kept', async () => {
    const before = await fromKept(store, {});
    // Match 2 re-settled: home -0.75 at 3-1 becomes 1-1 (both halves lose: away won, where home had).
    const resettled = settledEvent(
      2,
      [{ line_id: 20, market: 'spread', line: -0.75, words: ['loss', 'loss', 'win'] }],
      [1, 1],
      FIRST + 60_000,
    );
    store.transaction(() => store.settlements.recordSettledPage([{ ...resettled, sport_id: 29 }], 999));
    expect(store.scores.scoreboardStale(10).map((m) => m.eventId)).toEqual([2]);
    const after = await fromKept(store, {});
    expect(after).toEqual(everyLine(store, {}));
    expect(after.all.models[0]!.logLoss.mean).not.toBe(before.all.models[0]!.logLoss.mean);
    expect(after.all.lines).toBe(before.all.lines);
  });

  it('follow a close that arrives before its settlement, and one that arrives after', async () => {
    const kickOff = FIRST + 1_000 * 60_000;
    const market = (lineId: number, prices: { home: number; away: number }) => ({
      line_id: lineId,
      period: 0,
      market: 'moneyline',
      side: null,
      line: null,
      prices,
      max_win: 500,
      updated_at: formatServiceTime(kickOff - 60_000),
    });
    const before = await fromKept(store, {});
    // Match 5001 closes (watched at kick-off); its settlement comes later.
    store.bets.applyLineCloseOps([
      { type: 'price', eventId: 5001, at: kickOff - 60_000, market: market(50010, { home: 1.8, away: 2.1 }) },
      { type: 'kickoff', eventId: 5001, at: kickOff, reason: 'kickoff', confirmed: true },
    ]);
    const waiting = await fromKept(store, {});
    expect(waiting.awaitingSettlement).toBe(before.awaitingSettlement + 1);
    expect(waiting.all.lines).toBe(before.all.lines);
    store.transaction(() =>
      store.settlements.recordSettledPage(
        [
          settledEvent(
            5001,
            [{ line_id: 50010, market: 'moneyline', line: null, words: ['win', 'loss', 'loss'] }],
            [2, 0],
            kickOff,
          ),
        ],
        1_000,
      ),
    );
    const settled = await fromKept(store, {});
    expect(settled).toEqual(everyLine(store, {}));
    expect(settled.awaitingSettlement).toBe(before.awaitingSettlement);
    expect(settled.all.lines).toBe(before.all.lines + 1);
    // Match 5002 settled first (the book's settlement of a match the app only closed afterwards): the close counts.
    store.transaction(() =>
      store.settlements.recordSettledPage(
        [
          settledEvent(
            5002,
            [{ line_id: 50020, market: 'moneyline', line: null, words: ['loss', 'loss', 'win'] }],
            [0, 1],
            kickOff,
          ),
        ],
        1_001,
      ),
    );
    store.bets.applyLineCloseOps([
      { type: 'price', eventId: 5002, at: kickOff - 60_000, market: market(50020, { home: 1.5, away: 2.6 }) },
      { type: 'kickoff', eventId: 5002, at: kickOff, reason: 'kickoff', confirmed: true },
    ]);
    const late = await fromKept(store, {});
    expect(late).toEqual(everyLine(store, {}));
    expect(late.all.lines).toBe(before.all.lines + 2);
  });

  it('are made when the file is opened (the upgrade from version 11 marks every match), so the first run reads kept sums', async () => {
    // As migration 012 leaves a file: every match with a close stale, nothing kept.
    const reference = everyLine(store, {});
    expect(keepScoreSumsNow(store)).toBe(MATCHES + 10);
    expect(store.scores.scoreboardStaleCount().matches).toBe(0);
    const progress: number[] = [];
    expect(await scoreModels(store, {}, { onProgress: (p) => progress.push(p.total) })).toEqual({
      ...reference,
      computedMs: expect.any(Number),
    });
    // Nothing left to score: the run read the kept sums only.
    expect(progress.every((t) => t === 0)).toBe(true);
  });
});
