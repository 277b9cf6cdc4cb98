// Handlers of the Settings data section: how big the history file is and what takes the room, and "compact now".
import type { CompactProgress, StoreUsage } from '../../shared/domain';
import type { CompactNowResult, CoreHandlers } from '../../shared/ipc/contract';

export interface CompactableStore {
  usage(): StoreUsage;
  compactStep(opts?: { maxRows?: number; budgetMs?: number }): CompactProgress;
}

export interface StoreHandlerOptions {
  /** Per step; the odds path runs between steps (default 10 ms). */
  stepBudgetMs?: number;
  /** A "compact now" stops after this long even with work left (default 30 s); it reports done: false. */
  maxMs?: number;
  /** Lets the event loop run between steps (default setImmediate); tests may pass their own. */
  yieldTurn?: () => Promise<void>;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export function storeHandlers(
  store: CompactableStore,
  options: StoreHandlerOptions = {},
): Pick<CoreHandlers, 'store:usage' | 'store:compact'> {
  const budgetMs = options.stepBudgetMs ?? 10;
  const maxMs = options.maxMs ?? 30_000;
  const yieldTurn = options.yieldTurn ?? nextTurn;
  let running: Promise<CompactNowResult> | null = null;

  async function compactNow(): Promise<CompactNowResult> {
    const started = performance.now();
    const result: CompactNowResult = {
      done: false,
      ticksCompacted: 0,
      ticksDropped: 0,
      steps: 0,
      longestStepMs: 0,
      ms: 0,
    };
    while (performance.now() - started < maxMs) {
      const step = store.compactStep({ budgetMs });
      result.steps++;
      result.ticksCompacted += step.ticksCompacted;
      result.ticksDropped += step.ticksDropped;
      result.longestStepMs = Math.max(result.longestStepMs, step.ms);
      if (step.done) {
        result.done = true;
        break;
      }
      await yieldTurn();
    }
    result.ms = performance.now() - started;
    return result;
  }

  return {
    'store:usage': () => store.usage(),
    // A second click while one runs joins it rather than starting a rival loop.
    'store:compact': () => (running ??= compactNow().finally(() => (running = null))),
  };
}
