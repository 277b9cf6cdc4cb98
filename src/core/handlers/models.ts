// The Models view's requests: the model scoreboard of the open profile's history (src/core/report), scored a chunk
// at a time so the odds stream and every other request go on between chunks, and how far the run has got. Nothing
// here talks to the service.
import type { CoreHandlers } from '../../shared/ipc/contract';
import type { ModelScoreboard, ScoreProgress } from '../../shared/scoreboard';
import { scoreModels, type ScoreRunOptions } from '../report/run';
import type { Store } from '../store';
import { store, type CoreContext } from './context';

export function modelsHandlers(
  ctx: CoreContext,
  options: Omit<ScoreRunOptions, 'onProgress'> = {},
): Pick<CoreHandlers, 'models:score' | 'models:progress'> {
  let running: { key: string; store: Store; board: Promise<ModelScoreboard> | null } | null = null;
  let progress: ScoreProgress = { running: false, done: 0, total: 0 };

  return {
    'models:score': (q) => {
      const s = store(ctx);
      const key = `${q.since ?? ''}|${q.sportId ?? ''}`;
      // The same question while it is being answered (a second window, a double click) joins the run.
      if (running?.board && running.key === key && running.store === s) return running.board;
      const run = { key, store: s, board: null as Promise<ModelScoreboard> | null };
      running = run;
      run.board = scoreModels(s, q, {
        ...options,
        // Only the latest run speaks for the progress.
        onProgress: (p) => {
          if (running === run) progress = p;
        },
      }).finally(() => {
        if (running === run) running = null;
      });
      return run.board;
    },
    'models:progress': () => progress,
  };
}
