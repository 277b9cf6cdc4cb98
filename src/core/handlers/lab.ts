// The Lab view's requests: the rule lab over the open profile's recorded history (src/core/lab), the trader's current
// drop rule and de-vig model from Settings, run a slice at a time so the odds stream and every other request go on
// between slices; how far it has got; and a stop. A new run replaces one still running (its answer is a cancel).
import { AppErrorException } from '../../shared/errors';
import type { CoreHandlers } from '../../shared/ipc/contract';
import type { LabProgress } from '../../shared/ruleLab';
import { labOfFile } from '../lab/history';
import { defaultCandidates, LabCancelled, ruleOfSettings } from '../lab/run';
import { store, type CoreContext } from './context';

export function labHandlers(
  ctx: CoreContext,
  o: { nativeBinding?: string } = {},
): Pick<CoreHandlers, 'lab:run' | 'lab:progress' | 'lab:cancel'> {
  let running: AbortController | null = null;
  let progress: LabProgress = { running: false, done: 0, total: 0 };

  return {
    'lab:run': async (q) => {
      running?.abort();
      const stop = new AbortController();
      running = stop;
      const s = ctx.settings.get();
      const current = ruleOfSettings(s);
      try {
        return await labOfFile(
          store(ctx).path,
          { since: q.since ?? null, sportId: q.sportId ?? null },
          {
            rules: defaultCandidates(current),
            current,
            model: s.devigModel,
            signal: stop.signal,
            onProgress: (p) => {
              if (running === stop) progress = p;
            },
            ...o,
          },
        );
      } catch (e) {
        if (e instanceof LabCancelled)
          throw new AppErrorException({ kind: 'validation', message: 'The rule lab run was stopped.' });
        throw e;
      } finally {
        if (running === stop) {
          running = null;
          progress = { ...progress, running: false };
        }
      }
    },
    'lab:progress': () => progress,
    'lab:cancel': () => {
      const had = running !== null;
      running?.abort();
      return had;
    },
  };
}
