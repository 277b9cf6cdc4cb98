// The book on its own, with worked messages: no socket, no clock. A snapshot builds the odds, an odds message replaces
// lines and adds new ones at the end, a score moves the score, a replayed id is counted and not applied, an unknown
// event name is counted and ignored, bad data is a problem, and `end` is applied and asks for the stream to end. The
// book handed in never changes, and nothing emitted is the book's own.
import { describe, expect, it } from 'vitest';
import { header, market } from '../../../test/support/streamFixtures';
import { applyMessage, emptyBook, type Book, type BookStep, type StreamMessage } from './book';

const TS = '2026-11-22T12:30:00';
const msg = (id: number | '', event: string, data: unknown): StreamMessage => ({
  event,
  data: typeof data === 'string' ? data : JSON.stringify(data),
  id: String(id),
});

/** Applies messages in turn at instants 1000, 1001, ...; returns every step. */
function run(messages: StreamMessage[], book: Book = emptyBook(7)): BookStep[] {
  const steps: BookStep[] = [];
  messages.forEach((m, i) => {
    const step = applyMessage(book, m, 1000 + i);
    steps.push(step);
    book = step.book;
  });
  return steps;
}
const last = (steps: BookStep[]) => steps[steps.length - 1]!;
const prices = (b: Book) => b.odds?.markets.map((m) => [m.line_id, m.prices?.home ?? null]);

describe('the stream book', () => {
  it('builds the odds from a snapshot, then changes lines by id and adds new lines at the end', () => {
    const steps = run([
      msg(1, 'snapshot', { ...header, markets: [market(1, 1.9), market(2, 1.8)] }),
      msg(2, 'odds', { event_id: 7, ts: TS, markets: [market(2, 1.75), market(3, 2.4)] }),
      msg(3, 'odds', { event_id: 7, ts: TS, markets: [market(1, null)] }),
    ]);
    expect(prices(steps[0]!.book)).toEqual([
      [1, 1.9],
      [2, 1.8],
    ]);
    expect(prices(last(steps).book)).toEqual([
      [1, null],
      [2, 1.75],
      [3, 2.4],
    ]);
    expect(last(steps).book.lastEventId).toBe(3);
    expect(last(steps).book.lineIndex.get(3)).toBe(2);
    expect(steps[0]!.effects.map((e) => e.type)).toEqual(['applied', 'snapshot']);
    expect(steps[1]!.effects).toEqual([
      { type: 'applied', id: 2, event: 'odds' },
      { type: 'markets', markets: [market(2, 1.75), market(3, 2.4)] },
    ]);
    expect(last(steps).book.stats).toEqual({ applied: 3, duplicates: 0, unknownEvents: 0, badRecords: 0 });
  });

  it('leaves the book it was given as it was, and emits copies', () => {
    const [first] = run([msg(1, 'snapshot', { ...header, markets: [market(1, 1.9)] })]);
    const before = JSON.stringify(first!.book);
    const step = applyMessage(
      first!.book,
      msg(2, 'odds', { event_id: 7, ts: TS, markets: [market(1, 2.2), market(4, 3)] }),
      5,
    );
    expect(JSON.stringify(first!.book)).toBe(before);
    expect(first!.book.lineIndex.has(4)).toBe(false);
    const emitted = step.effects.find((e) => e.type === 'markets');
    if (emitted?.type !== 'markets') throw new Error('no markets emitted');
    emitted.markets[0]!.max_win = 0;
    expect(step.book.odds?.markets[0]?.max_win).toBe(500);
    const snap = first!.effects.find((e) => e.type === 'snapshot');
    if (snap?.type !== 'snapshot') throw new Error('no snapshot emitted');
    snap.odds.markets[0]!.prices!.home = 99;
    expect(first!.book.odds?.markets[0]?.prices?.home).toBe(1.9);
  });

  it('counts a replayed id as a duplicate and applies it not again; a snapshot is applied whatever its id', () => {
    const steps = run([
      msg(5, 'snapshot', { ...header, markets: [market(1, 1.9)] }),
      msg(6, 'odds', { event_id: 7, ts: TS, markets: [market(1, 2.0)] }),
      msg(6, 'odds', { event_id: 7, ts: TS, markets: [market(1, 2.5)] }),
      msg(4, 'score', { event_id: 7, ts: TS, live_status: 1, score_home: 1, score_away: 0 }),
      msg(3, 'snapshot', { ...header, markets: [market(1, 1.7)] }),
    ]);
    expect(steps[2]!.effects).toEqual([]);
    expect(steps[3]!.effects).toEqual([]);
    expect(prices(steps[3]!.book)).toEqual([[1, 2.0]]);
    expect(prices(last(steps).book)).toEqual([[1, 1.7]]);
    expect(last(steps).book.lastEventId).toBe(3);
    expect(last(steps).book.stats).toMatchObject({ applied: 3, duplicates: 2 });
    expect(last(steps).book.lastEventAt).toBe(1004);
  });

  it('moves the score on a score message', () => {
    const steps = run([
      msg(1, 'snapshot', { ...header, markets: [market(1, 1.9)] }),
      msg(2, 'score', { event_id: 7, ts: TS, live_status: 1, score_home: 2, score_away: 1 }),
    ]);
    expect(last(steps).book.odds).toMatchObject({ live_status: 1, score_home: 2, score_away: 1 });
    expect(last(steps).effects.map((e) => e.type)).toEqual(['applied', 'score']);
  });

  it('counts unknown events, and reports data it cannot read, an update before any snapshot and a bad market', () => {
    const steps = run([
      msg(1, 'heartbeat', {}),
      msg(2, 'odds', { event_id: 7, ts: TS, markets: [market(1, 2)] }),
      msg(3, 'snapshot', 'not json'),
      msg(4, 'snapshot', { ...header, markets: [market(1, 1.9), { line_id: 'x' }] }),
      msg('', 'odds', { nothing: true }),
    ]);
    const problems = steps.flatMap((s) => s.effects.filter((e) => e.type === 'problem'));
    expect(problems.map((p) => p.type === 'problem' && p.problem.path)).toEqual([
      'odds',
      'snapshot',
      expect.stringMatching(/^snapshot\./),
      'odds',
    ]);
    expect(problems[0]).toMatchObject({
      problem: {
        kind: 'bad_payload',
        message: expect.stringMatching(/^Live odds stream of event 7: an update arrived/),
      },
    });
    expect(prices(last(steps).book)).toEqual([[1, 1.9]]);
    expect(last(steps).book.stats).toEqual({ applied: 1, duplicates: 0, unknownEvents: 1, badRecords: 4 });
  });

  it('applies an end and asks for the stream to end, with "removed" when the end cannot be read', () => {
    const [ended] = run([msg(9, 'end', { event_id: 7, reason: 'settled' })]);
    expect(ended!.effects).toEqual([
      { type: 'applied', id: 9, event: 'end' },
      { type: 'end', end: { event_id: 7, reason: 'settled' } },
    ]);
    const [unreadable] = run([msg('', 'end', { reason: 42 })]);
    expect(unreadable!.effects[1]).toEqual({ type: 'end', end: { event_id: 7, reason: 'removed' } });
  });
});
