// The replay that skips the ticks where a rule cannot alert (replayEvent's default) gives exactly the alerts of the
// plain one that steps every rule through every tick, on the synthetic books of every kind, with matches of several
// lines, offline and partial ticks, and rules of both windows, phases and a market filter.
import { describe, expect, it } from 'vitest';
import type { LabRule } from '../../shared/ruleLab';
import { BOOK_START, book, bookEvent, type BookKind } from '../../../test/support/labBook';
import { replayEvent, type LabEvent } from './replay';
import { defaultCandidates } from './run';

const base: LabRule = { dropPct: 5, dropWindowMinutes: 15, minProbPts: 1, phase: 'both', sports: [], markets: [] };
const rules: LabRule[] = [
  ...defaultCandidates(base),
  { ...base, dropPct: 3, phase: 'prematch' },
  { ...base, dropPct: 4, dropWindowMinutes: 1, minProbPts: 0 },
  { ...base, dropPct: 2, markets: ['total'] },
];

/** A match of `lines` lines (each a book match of its own seed), some ticks offline and some lacking a side. */
function match(id: number, kind: BookKind, lines: number): LabEvent {
  const at = BOOK_START + id * 3_600_000;
  const first = bookEvent(id * 100, at, kind);
  return {
    ...first,
    eventId: id,
    lines: Array.from({ length: lines }, (_, k) => {
      const line = bookEvent(id * 100 + k, at, kind).lines[0]!;
      const ticks = line.ticks.map((t, i) =>
        (i + k) % 37 === 0
          ? { ...t, prices: null }
          : (i + k) % 41 === 0
            ? { ...t, prices: { home: t.prices!.home! } }
            : t,
      );
      return { ...line, lineId: id * 100 + k, ticks };
    }),
  };
}

describe('rule lab replay', () => {
  it('skipping the ticks where a rule cannot alert changes no alert', () => {
    const events = [
      ...(['informative', 'noise', 'reversed'] as const).flatMap((kind) => book(2, 12, () => kind, 3)),
      ...Array.from({ length: 30 }, (_, i) => match(i + 1, i % 2 ? 'noise' : 'informative', 1 + (i % 5))),
    ];
    let alerts = 0;
    for (const ev of events) {
      const fast = replayEvent(ev, rules, 'EM');
      expect(fast).toEqual(replayEvent(ev, rules, 'EM', { plain: true }));
      alerts += fast.flat().length;
    }
    // The books raise plenty of alerts to compare.
    expect(alerts).toBeGreaterThan(1000);
  });
});
