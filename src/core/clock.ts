// Time as the core sees it: "now" and timers, injected by the host so tests can move time by hand.
// The real clock wraps Date and the Node timers; the manual clock runs timers only when a test advances it.

export type TimerHandle = unknown;

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, Math.max(0, ms)),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Resolves after `ms` on `clock`; rejects with the signal's reason when aborted first. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clock.clearTimeout(handle);
      reject(signal?.reason);
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface ManualClock extends Clock {
  /** Moves time forward, firing due timers in order and letting promise chains settle between them. */
  advance(ms: number): Promise<void>;
  pendingTimers(): number;
}

async function settle(): Promise<void> {
  // Several turns: a fired timer often resolves a promise whose continuation schedules the next timer.
  for (let i = 0; i < 10; i++) await new Promise<void>((r) => setImmediate(r));
}

export function createManualClock(start = 0): ManualClock {
  let now = start;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    setTimeout(fn, ms) {
      const id = ++seq;
      timers.set(id, { at: now + Math.max(0, ms), fn });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    pendingTimers: () => timers.size,
    async advance(ms) {
      const end = now + ms;
      await settle();
      for (;;) {
        let nextId = -1;
        let nextAt = Infinity;
        for (const [id, t] of timers) {
          if (t.at < nextAt || (t.at === nextAt && id < nextId)) {
            nextAt = t.at;
            nextId = id;
          }
        }
        if (nextId < 0 || nextAt > end) break;
        const t = timers.get(nextId)!;
        timers.delete(nextId);
        now = Math.max(now, t.at);
        t.fn();
        await settle();
      }
      now = end;
      await settle();
    },
  };
}
