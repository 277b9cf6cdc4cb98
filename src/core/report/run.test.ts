// A scoring run over a real store: read and scored a chunk at a time with the event loop turning between chunks (the
// database free for other readers meanwhile), the same figures whatever the chunk size (a match split across two
// chunks is still one match), the filters, lines still waiting for their settlement, and the Models view's handler
// reporting progress and joining a run already under way.
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
  writeSyntheticHistory(store, syntheticLines({ model: 'OR', matches: MATCHES, seed: 3, sports: 3 }), { firstKickOff: FIRST, sports: { 1: 'Soccer', 2: 'Tennis' } });
  // A watched match that has kicked off (its moneyline closed) but not settled yet.
  store.applyLineCloseOps([
    { type: 'price', eventId: 99, at: FIRST - 60_000, market: { line_id: 990, period: 0, market: 'moneyline', side: null, line: null, prices: { home: 1.8, away: 2.1 }, max_win: 500, updated_at: formatServiceTime(FIRST - 60_000) } },
    { type: 'kickoff', eventId: 99, at: FIRST, reason: 'kickoff', confirmed: true },
  ]);
});
afterAll(() => store.close());

const withoutTime = <T extends { computedMs: number }>(b: T) => ({ ...b, computedMs: 0 });

describe('a scoring run', () => {
  it('reads and scores a chunk at a time, the event loop turning (and the database free) between chunks, with its progress', async () => {
    const progress: ScoreProgress[] = [];
    let turns = 0;
    const board = await scoreModels(store, {}, {
      chunkLines: 1_000,
      onProgress: (p) => progress.push(p),
      yieldTurn: async () => {
        turns++;
        // Another request between two chunks reads the same connection.
        expect(store.watchIds()).toEqual([]);
        await new Promise<void>((r) => setImmediate(r));
      },
    });
    expect(board.all.lines + board.excluded.unpriced).toBe(2 * MATCHES);
    expect(turns).toBe(3);
    expect(progress).toEqual([
      { running: true, done: 0, total: 3_000 },
      { running: true, done: 1_000, total: 3_000 },
      { running: true, done: 2_000, total: 3_000 },
      { running: true, done: 3_000, total: 3_000 },
      { running: false, done: 3_000, total: 3_000 },
    ]);
    expect(board.awaitingSettlement).toBe(1);
  });

  it('gives the same figures whatever the chunk size: a match split across two chunks is one match', async () => {
    const whole = await scoreModels(store, {}, { chunkLines: 1_000_000 });
    // 999 lines a chunk: the chunks end between a match's moneyline and its spread.
    const split = await scoreModels(store, {}, { chunkLines: 999 });
    expect(withoutTime(split)).toEqual(withoutTime(whole));
    expect(whole.all.matches).toBe(MATCHES);
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
    const h = modelsHandlers(ctx, { chunkLines: 1_000, yieldTurn: () => gate });
    const first = h['models:score']({});
    const second = h['models:score']({});
    expect(second).toBe(first);
    // Held after its first chunk.
    await new Promise((r) => setImmediate(r));
    expect(h['models:progress']()).toEqual({ running: true, done: 1_000, total: 3_000 });
    // Another question starts its own run.
    expect(h['models:score']({ sportId: 1 })).not.toBe(first);
    release();
    const board = await first;
    expect(board.all.lines + board.excluded.unpriced).toBe(3_000);
  });
});
