// Folding a flush's closing-line ops (coalesceLineCloseOps) must change nothing a trader sees: the opens, closes,
// their times and reasons come out as if every op had been written one by one. Pinned on random runs with the
// awkward cases in them: a price lacking a side the close has (which must not move the close), a line that drops a
// side and gets it back, kick-offs and snapshot line lists in between, suspended (null) prices.
import { describe, expect, it } from 'vitest';
import type { Market } from '../../../shared/api';
import { coalesceLineCloseOps, type LineCloseOp } from './bets';
import { openStore } from '../index';

const SIDE_SETS = [['home', 'away'], ['home', 'draw', 'away'], ['home', 'draw'], ['home'], ['over', 'under']] as const;

function rng(seed: number) {
  let x = seed >>> 0;
  return () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

function market(lineId: number, prices: Market['prices']): Market {
  return {
    line_id: lineId,
    period: 0,
    market: 'moneyline',
    side: null,
    line: lineId % 2 ? null : 1.5,
    prices,
    max_win: 500,
    updated_at: '2026-11-22T12:00:00',
  };
}

function randomOps(seed: number, n: number): LineCloseOp[] {
  const r = rng(seed);
  const ops: LineCloseOp[] = [];
  let at = 1_000;
  for (let i = 0; i < n; i++) {
    at += 1 + Math.floor(r() * 100);
    const eventId = 1 + Math.floor(r() * 2);
    const x = r();
    if (x < 0.03)
      ops.push({ type: 'kickoff', eventId, at, reason: r() < 0.5 ? 'kickoff' : 'started', confirmed: r() < 0.5 });
    else if (x < 0.06) ops.push({ type: 'snapshotLines', eventId, lineIds: [1, 2, 3].filter(() => r() < 0.6), at });
    else {
      const lineId = 1 + Math.floor(r() * 3);
      let prices: Market['prices'] = null;
      if (r() > 0.05) {
        const sides = SIDE_SETS[Math.floor(r() * SIDE_SETS.length)]!;
        prices = Object.fromEntries(sides.map((s) => [s, Math.round((1.2 + r() * 4) * 1000) / 1000]));
      }
      ops.push({ type: 'price', eventId, market: market(lineId, prices), at });
    }
  }
  return ops;
}

describe('closing-line ops folded per flush', () => {
  it('leave every open, close, time and reason as writing them one by one does, on 300 random runs', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const ops = randomOps(seed, 5 + (seed % 60));
      const oneByOne = openStore({ path: ':memory:' });
      const folded = openStore({ path: ':memory:' });
      for (const op of ops) oneByOne.bets.applyLineCloseOps([op]);
      folded.bets.applyLineCloseOps(ops);
      for (const eventId of [1, 2])
        expect(folded.bets.lineCloses(eventId), `seed ${seed}`).toEqual(oneByOne.bets.lineCloses(eventId));
      oneByOne.close();
      folded.close();
    }
  });

  it('writes fewer statements when a line moves several times between flushes, and keeps a run apart when a price lacks a side', () => {
    const p = (home: number, away?: number, draw?: number) => ({
      home,
      ...(away === undefined ? {} : { away }),
      ...(draw === undefined ? {} : { draw }),
    });
    const ops: LineCloseOp[] = [
      { type: 'price', eventId: 1, market: market(1, p(2.0, 1.8)), at: 1 },
      { type: 'price', eventId: 1, market: market(1, p(2.1, 1.7)), at: 2 },
      { type: 'price', eventId: 1, market: market(1, p(2.2)), at: 3 }, // lacks away: cannot stand in for the run
      { type: 'price', eventId: 1, market: market(1, p(2.3, 1.6)), at: 4 },
      { type: 'kickoff', eventId: 1, at: 5, reason: 'kickoff', confirmed: true },
      { type: 'price', eventId: 1, market: market(1, p(2.4, 1.5)), at: 6 },
    ];
    const out = coalesceLineCloseOps(ops);
    expect(out.map((o) => (o.type === 'price' ? `${o.at}${o.open ? `<${o.open.at}` : ''}` : o.type))).toEqual([
      '2<1',
      '4<3',
      'kickoff',
      '6',
    ]);
    const s = openStore({ path: ':memory:' });
    s.bets.applyLineCloseOps(ops);
    // Opened at the first price; closed at kick-off on the last price that had both sides; nothing after kick-off.
    expect(s.bets.lineCloses(1)[0]).toMatchObject({
      openedAt: 1,
      opening: { home: 2.0, away: 1.8 },
      closing: { home: 2.3, away: 1.6 },
      closedAt: 5,
    });
    s.close();
  });
});
