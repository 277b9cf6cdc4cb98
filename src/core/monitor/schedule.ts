// The monitor's timers: one-off waits (`later`), loops whose interval is read from the settings each round (`every`),
// all on the injected clock, all stopped together, and none of them running a task once the monitor stopped. A
// changed interval takes effect at once (`retime`): each loop's wait under way is measured again from its start.
import { errorMessage } from '../../shared/errors';
import { Emitter } from '../../shared/event';
import type { Clock, TimerHandle } from '../clock';

export interface Schedule {
  /** Runs `fn` once in `ms`, unless the monitor stopped first; the answer cancels it. */
  later(fn: () => void, ms: number): () => void;
  /** Runs `task` every `seconds()` (at least 1 s) after the last run ended, the first time one interval from now. */
  every(seconds: () => number, task: () => Promise<unknown>): void;
  /** The intervals changed: waits under way take the new ones now (a task under way sets its own next wait). */
  retime(): void;
  /** Cancels every timer; nothing runs afterwards. */
  stop(): void;
}

export function createSchedule(o: {
  clock: Clock;
  /** Whether the monitor runs: a timer that falls due after it stopped runs nothing. */
  running(): boolean;
  /** Where a loop's failed task goes; the loop goes on. */
  taskFailed(message: string): void;
}): Schedule {
  const { clock } = o;
  const timers = new Set<TimerHandle>();
  /** The loops' waits listen here, so a changed interval takes effect at once, not after the old wait. */
  const retimed = new Emitter<[]>({ name: 'the monitor schedule' });

  function later(fn: () => void, ms: number): () => void {
    const handle = clock.setTimeout(() => {
      timers.delete(handle);
      if (o.running()) fn();
    }, ms);
    timers.add(handle);
    return () => {
      clock.clearTimeout(handle);
      timers.delete(handle);
    };
  }

  function every(seconds: () => number, task: () => Promise<unknown>): void {
    let since = clock.now();
    let cancel: (() => void) | null = null;
    const wait = () => {
      const ms = Math.max(0, since + Math.max(1, seconds()) * 1000 - clock.now());
      cancel = later(() => {
        cancel = null;
        run();
      }, ms);
    };
    const run = () => {
      void task()
        .catch((e: unknown) => o.taskFailed(errorMessage(e)))
        .finally(() => {
          since = clock.now();
          if (o.running()) wait();
        });
    };
    retimed.event(() => {
      if (cancel === null || !o.running()) return;
      cancel();
      wait();
    });
    wait();
  }

  return {
    later,
    every,
    retime: () => retimed.fire(),
    stop() {
      for (const t of timers) clock.clearTimeout(t);
      timers.clear();
    },
  };
}
