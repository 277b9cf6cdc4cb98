// A scoring run over a real store: the matches whose sums are stale scored and kept a slice at a time with the event
// loop turning between slices (the database free for other readers meanwhile), the same figures whatever the slice
// size, the filters, lines still waiting for their settlement, and the Models view's handler reporting progress and
// joining a run already under way.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticLines, writeSyntheticHistory } from '../../../test/support/syntheticLines';
import { formatServiceTime } from '../../shared/api';
import type { ScoreProgress } from '../../shared/scoreboard';
import type { CoreContext } from '../handlers/context';
import { modelsHandlers } from '../handlers/models';
import { openStore, type Store } from '../store';
import { scoreModels } from './run';

const MATCHES = 1_500; // 3,000 lines: a moneyline and a spread a match
const FIRST = Date.UTC(2026, 0, 1, 12);
let store: Store;

beforeAll(() => {
  store = openStore({ path: path.join(mkdtempSync(path.join(tmpdir(), 'oddsdesk-score-run-')), 'h.db') });
  writeSyntheticHistory(store, syntheticLines({ model: 'OR', matches: MATCHES, seed: 3, sports: 3 }), {
    firstKickOff: FIRST,
    sports: { 1: 'Soccer', 2: 'Tennis' },
  });
  // A watched match that has kicked off (its moneyline closed) but not settled yet.
  store.bets.applyLineCloseOps([
    {
      type: 'price',
      eventId: 99,
      at: FIRST - 60_000,
      market: {
        line_id: 990,
        period: 0,
        market: 'moneyline',
        side: null,
        line: null,
        prices: { home: 1.8, away: 2.1 },
        max_win: 500,
        updated_at: formatServiceTime(FIRST - 60_000),
      },
    },
    { type: 'kickoff', eventId: 99, at: FIRST, reason: 'kickoff', confirmed: true },
  ]);
});
afterAll(() => store.close());

const withoutTime = <T extends { computedMs: number }>(b: T) => ({ ...b, computedMs: 0 });

describe('a scoring run', () => {
  it('scores and keeps the stale matches a slice at a time, the event loop turning (and the database free) between slices, with its progress in lines', async () => {
    const progress: ScoreProgress[] = [];
    let turns = 0;
    const board = await scoreModels(
      store,
      {},
      {
        // 500 matches a slice: 1,000 lines (every match has two).
        sliceMatches: 500,
        onProgress: (p) => progress.push(p),
        yieldTurn: async () => {
          turns++;
          // Another request between two chunks reads the same connection.
          expect(store.watchlist.watchIds()).toEqual([]);
          await new Promise<void>((r) => setImmediate(r));
        },
      },
    );
    expect(board.all.lines + board.excluded.unpriced).toBe(2 * MATCHES);
    expect(turns).toBe(4);
    // The unsettled match's close (match 99, the first in id order) is among the stale lines.
    expect(progress).toEqual([
      { running: true, done: 0, total: 0 },
      { running: true, done: 0, total: 3_001 },
      { running: true, done: 999, total: 3_001 },
      { running: true, done: 1_999, total: 3_001 },
      { running: true, done: 2_999, total: 3_001 },
      { running: true, done: 3_001, total: 3_001 },
      { running: false, done: 3_001, total: 3_001 },
    ]);
    expect(board.awaitingSettlement).toBe(1);
  });

  it('gives the same figures whatever the slice size, and from the kept sums as when they were scored', async () => {
    const kept = await scoreModels(store, {});
    const again = openStore({ path: path.join(mkdtempSync(path.join(tmpdir(), 'oddsdesk-score-run-')), 'h.db') });
    writeSyntheticHistory(again, syntheticLines({ model: 'OR', matches: MATCHES, seed: 3, sports: 3 }), {
      firstKickOff: FIRST,
      sports: { 1: 'Soccer', 2: 'Tennis' },
    });
    const sliced = await scoreModels(again, {}, { sliceMatches: 7 });
    again.close();
    // (The other file has no match waiting for its settlement.)
    expect(withoutTime(sliced)).toEqual({ ...withoutTime(kept), awaitingSettlement: 0 });
    expect(kept.all.matches).toBe(MATCHES);
  });

  it('filters by sport and by kick-off, in the query', async () => {
    const all = await scoreModels(store, {});
    const tennis = await scoreModels(store, { sportId: 2 });
    expect(tennis.all.lines).toBe(all.bySport.find((g) => g.key === '2')!.lines);
    expect(tennis.bySport.map((g) => g.label)).toEqual(['Tennis']);
    // Match m kicks off m minutes after the first: from minute 1,000 on, 500 matches are left.
    const late = await scoreModels(store, { since: FIRST + 1_000 * 60_000 });
    expect(late.all.matches).toBe(500);
    expect(late.filter).toEqual({ since: FIRST + 1_000 * 60_000, sportId: null });
  });
});

describe("the Models view's handler", () => {
  // The core context around the real store: the handler reads the open profile's store from the session.
  const ctx = { session: { current: () => ({ store }) } } as unknown as CoreContext;

  it('joins a run already under way for the same question, and says how far it has got', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // Stale matches again (the same history written again: the triggers mark every match).
    expect(store.scores.scoreboardStaleCount().matches).toBe(0);
    writeSyntheticHistory(store, syntheticLines({ model: 'OR', matches: MATCHES, seed: 3, sports: 3 }), {
      firstKickOff: FIRST,
    });
    expect(store.scores.scoreboardStaleCount().matches).toBe(MATCHES);
    const h = modelsHandlers(ctx, { sliceMatches: 500, yieldTurn: () => gate });
    const first = h['models:score']({});
    const second = h['models:score']({});
    expect(second).toBe(first);
    // Held after its first slice.
    await new Promise((r) => setImmediate(r));
    expect(h['models:progress']()).toEqual({ running: true, done: 1_000, total: 3_000 });
    // Another question starts its own run.
    expect(h['models:score']({ sportId: 1 })).not.toBe(first);
    release();
    const board = await first;
    expect(board.all.lines + board.excluded.unpriced).toBe(3_000);
  });
});
