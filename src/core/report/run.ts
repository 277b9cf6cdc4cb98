// One scoring run of the model scoreboard over a store: the store's rows, a chunk at a time, through the scorer. The
// host's event loop runs between chunks (2,000 lines, about 20 ms of CPU on a busy 2-core machine), so the odds
// stream and every other request never wait long behind a large history, and the run reports its progress as it goes.
import type { ModelScoreboard, ScoreProgress } from '../../shared/scoreboard';
import type { ScoreboardFilter, Store } from '../store';
import { createScorer, type SettledClose } from './scoreboard';

export type ScoreboardStore = Pick<Store, 'scoreboardCounts' | 'scoreboardChunk' | 'sportNames'>;

export interface ScoreRunOptions {
  /** Lines read and scored between two turns of the event loop (default 2,000). */
  chunkLines?: number;
  /** Lets the event loop run between chunks (default setImmediate). */
  yieldTurn?: () => Promise<void>;
  onProgress?: (p: ScoreProgress) => void;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function scoreModels(store: ScoreboardStore, filter: ScoreboardFilter, o: ScoreRunOptions = {}): Promise<ModelScoreboard> {
  const started = performance.now();
  const chunkLines = o.chunkLines ?? 2_000;
  const yieldTurn = o.yieldTurn ?? nextTurn;
  const counts = store.scoreboardCounts(filter);
  const scorer = createScorer();
  let done = 0;
  o.onProgress?.({ running: true, done, total: counts.settled });
  let after: { eventId: number; lineId: number } | null = null;
  let lastEvent = 0;
  let lastLine = 0;
  const visit = (row: Readonly<SettledClose & { lineId: number }>) => {
    scorer.add(row);
    lastEvent = row.eventId;
    lastLine = row.lineId;
  };
  for (;;) {
    const n = store.scoreboardChunk(filter, after, chunkLines, visit);
    done += n;
    if (n < chunkLines) break;
    after = { eventId: lastEvent, lineId: lastLine };
    o.onProgress?.({ running: true, done, total: Math.max(done, counts.settled) });
    await yieldTurn();
  }
  const names = store.sportNames();
  const board = scorer.finish({
    filter: { since: filter.since ?? null, sportId: filter.sportId ?? null },
    sportName: (id) => names.get(id) ?? null,
    awaitingSettlement: counts.closed - counts.settled,
    computedMs: Math.round(performance.now() - started),
  });
  o.onProgress?.({ running: false, done, total: done });
  return board;
}
