// One scoring run of the model scoreboard over a store. The store keeps every match's sums (migration 012), marked
// stale when a close or a settlement of the match arrives: the run first scores the stale matches again and keeps them
// (./keep.ts: a slice of matches at a time, the host's event loop turning between slices, the progress reported in
// lines), then folds the kept sums of the matches in scope, a row per match, in match order: the same figures as
// scoring every line in match order (./scoreboard.ts), without reading every line.
import type { ModelScoreboard, ScoreProgress } from '../../shared/scoreboard';
import type { ScoreboardFilter, Store } from '../store';
import { keepScoreSums, type KeptSumsStore } from './keep';
import { createScorer, unpackSums } from './scoreboard';

export type ScoreboardStore = KeptSumsStore & Pick<Store, 'scores'>;

export interface ScoreRunOptions {
  /** Stale matches scored and kept between two turns of the event loop (default 200, about 8,000 lines). */
  sliceMatches?: number;
  /** Lets the event loop run between slices (default setImmediate). */
  yieldTurn?: () => Promise<void>;
  onProgress?: (p: ScoreProgress) => void;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function scoreModels(
  store: ScoreboardStore,
  filter: ScoreboardFilter,
  o: ScoreRunOptions = {},
): Promise<ModelScoreboard> {
  const started = performance.now();
  let last: ScoreProgress = { running: true, done: 0, total: 0 };
  const report = (p: ScoreProgress) => o.onProgress?.((last = p));
  report(last);
  await keepScoreSums(store, {
    ...(o.sliceMatches ? { sliceMatches: o.sliceMatches } : {}),
    between: o.yieldTurn ?? nextTurn,
    onProgress: (done, total) => report({ running: true, done, total }),
  });
  const counts = store.scores.keptScoreboardCounts(filter);
  const scorer = createScorer();
  store.scores.scoreboardMatches(filter, (_eventId, sportId, bytes) => scorer.addMatch(sportId, unpackSums(bytes)));
  const names = store.scores.sportNames();
  const board = scorer.finish({
    filter: { since: filter.since ?? null, sportId: filter.sportId ?? null },
    sportName: (id) => names.get(id) ?? null,
    awaitingSettlement: counts.closed - counts.settled,
    computedMs: Math.round(performance.now() - started),
  });
  report({ running: false, done: last.total, total: last.total });
  return board;
}
