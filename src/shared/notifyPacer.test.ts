import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../test/support/manualClock';
import { createNotifyPacer, NOTIFY_INTERVAL_MS } from './notifyPacer';

type N = { kind: 'price' | 'max_win' | 'settlement'; id: number };

function setup() {
  const clock = createManualClock(1_000_000);
  const shown: Array<{ id: number; more: number; at: number }> = [];
  const pacer = createNotifyPacer<N>({
    timers: clock,
    group: (n) => (n.kind === 'settlement' ? null : n.kind),
    show: (n, more) => shown.push({ id: n.id, more, at: clock.now() }),
  });
  return { clock, shown, pacer };
}

describe('notification pacer', () => {
  it('a burst of a hundred price alerts is one notification at once and one summing up the rest at the interval end', async () => {
    const { clock, shown, pacer } = setup();
    for (let i = 1; i <= 100; i++) {
      pacer.notify({ kind: 'price', id: i });
      await clock.advance(10);
    }
    expect(shown).toEqual([{ id: 1, more: 0, at: 1_000_000 }]);
    await clock.advance(NOTIFY_INTERVAL_MS);
    // The latest is named, standing for the 98 others held back with it.
    expect(shown).toEqual([
      { id: 1, more: 0, at: 1_000_000 },
      { id: 100, more: 98, at: 1_000_000 + NOTIFY_INTERVAL_MS },
    ]);
    // Quiet for an interval: the next alert shows at once again.
    await clock.advance(NOTIFY_INTERVAL_MS);
    pacer.notify({ kind: 'price', id: 101 });
    expect(shown.at(-1)).toEqual({ id: 101, more: 0, at: clock.now() });
  });

  it('settlements always show at once, and each group keeps its own pace', async () => {
    const { clock, shown, pacer } = setup();
    pacer.notify({ kind: 'price', id: 1 });
    pacer.notify({ kind: 'price', id: 2 });
    pacer.notify({ kind: 'max_win', id: 3 });
    pacer.notify({ kind: 'settlement', id: 4 });
    pacer.notify({ kind: 'settlement', id: 5 });
    expect(shown.map((s) => s.id)).toEqual([1, 3, 4, 5]);
    await clock.advance(NOTIFY_INTERVAL_MS);
    expect(shown.map((s) => [s.id, s.more])).toEqual([
      [1, 0],
      [3, 0],
      [4, 0],
      [5, 0],
      [2, 0],
    ]);
  });

  it('clear drops what is held back and its timer', async () => {
    const { clock, shown, pacer } = setup();
    pacer.notify({ kind: 'price', id: 1 });
    pacer.notify({ kind: 'price', id: 2 });
    pacer.clear();
    expect(clock.pendingTimers()).toBe(0);
    await clock.advance(NOTIFY_INTERVAL_MS * 2);
    expect(shown.map((s) => s.id)).toEqual([1]);
  });
});
