// The store's timed housekeeping while the monitor runs: retention of tick history and the planner's statistics a
// minute in and then daily, and compaction of tick history past the full-detail window in small steps (10 ms each)
// with the odds path running between them, quickly while there is a backlog, every half minute once it has caught up.
// A failed round is reported and the next one is still planned.
import { errorMessage } from '../../shared/errors';
import type { Store } from '../store';
import type { Schedule } from './schedule';

const MAINTAIN_FIRST_MS = 60_000;
const MAINTAIN_EVERY_MS = 86_400_000;
const COMPACT_FIRST_MS = 30_000;
const COMPACT_CAUGHT_UP_MS = 30_000;
const COMPACT_BACKLOG_MS = 100;
const COMPACT_STEP_BUDGET_MS = 10;

export function startMaintenance(o: {
  store: Pick<Store, 'maintenance'>;
  schedule: Pick<Schedule, 'later'>;
  failed(message: string): void;
}): void {
  const { store, schedule } = o;
  const maintain = () => {
    try {
      store.maintenance.maintain();
    } catch (e) {
      o.failed(`Store maintenance failed: ${errorMessage(e)}`);
    }
    schedule.later(maintain, MAINTAIN_EVERY_MS);
  };
  schedule.later(maintain, MAINTAIN_FIRST_MS);
  const compact = () => {
    let done = true;
    try {
      done = store.maintenance.compactStep({ budgetMs: COMPACT_STEP_BUDGET_MS }).done;
    } catch (e) {
      o.failed(`Tick compaction failed: ${errorMessage(e)}`);
    }
    schedule.later(compact, done ? COMPACT_CAUGHT_UP_MS : COMPACT_BACKLOG_MS);
  };
  schedule.later(compact, COMPACT_FIRST_MS);
}
