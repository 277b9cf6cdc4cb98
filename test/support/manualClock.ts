// The manual clock for tests: time moves only when a test advances it, so a simulated day runs in seconds and never
// depends on the machine's speed. Test code only; production code gets a Clock from its host.
import type { Clock } from '../../src/core/clock';

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

/**
 * Moves the manual clock in small steps, letting real sockets deliver between them (a few ms of I/O, not of
 * simulated time), until `probe` holds; fails after a bounded number of steps (5 simulated seconds) and, on a
 * machine too loaded for the I/O to have landed by then, a bounded real grace during which the clock stands still.
 */
export async function advanceUntil(
  clock: ManualClock,
  probe: () => boolean,
  what: string,
  graceMs = 10_000,
): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (probe()) return;
    await clock.advance(10);
    await new Promise((r) => setTimeout(r, 5));
  }
  // The simulated time is spent; only real I/O can still make the probe hold. Poll it, never moving the clock.
  const end = Date.now() + graceMs;
  while (Date.now() < end) {
    if (probe()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}
