import { describe, expect, it } from 'vitest';
import { DEVIG_MODELS } from './api';
import {
  devig,
  devigMarginProportional,
  devigMultiplicative,
  devigOddsRatio,
  devigPower,
  devigShin,
  fairOddsByModel,
} from './devig';

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const THREE_WAY = [2.6, 2.4, 4.3];
const WIDE = [3.1, 4.5, 6.0, 8.0, 11.0, 15.0, 21.0, 34.0];

describe('published values', () => {
  it('Shin on 2.6 / 2.4 / 4.3 gives 0.37299 / 0.40478 / 0.22223 with z = 0.016943', () => {
    const r = devigShin(THREE_WAY);
    expect(r.z).toBeCloseTo(0.016943, 6);
    expect(r.probabilities[0]).toBeCloseTo(0.37299, 5);
    expect(r.probabilities[1]).toBeCloseTo(0.40478, 5);
    expect(r.probabilities[2]).toBeCloseTo(0.22223, 5);
  });

  it('EM normalises the implied probabilities', () => {
    const r = devigMultiplicative([1.8, 2.1]);
    const booksum = 1 / 1.8 + 1 / 2.1;
    expect(r.probabilities[0]).toBeCloseTo(1 / 1.8 / booksum, 12);
    expect(r.fairOdds[0]).toBeCloseTo(1.8 * booksum, 12);
  });

  it('MPTO is Buchdahl: fair odds n*o / (n - M*o)', () => {
    const r = devigMarginProportional(THREE_WAY);
    const n = 3;
    const margin = sum(THREE_WAY.map((o) => 1 / o)) - 1;
    THREE_WAY.forEach((o, i) => expect(r.fairOdds[i]).toBeCloseTo((n * o) / (n - margin * o), 10));
  });

  it('LOG solves an exponent k with sum(r_i^k) = 1, above 1 for an overround book', () => {
    const r = devigPower(THREE_WAY);
    expect(r.k).toBeGreaterThan(1);
    THREE_WAY.forEach((o, i) => expect(r.probabilities[i]).toBeCloseTo((1 / o) ** r.k, 9));
  });

  it('OR solves an odds ratio c with p = r / (c + r - c r), above 1 for an overround book', () => {
    const r = devigOddsRatio(THREE_WAY);
    expect(r.c).toBeGreaterThan(1);
    THREE_WAY.forEach((o, i) => {
      const x = 1 / o;
      expect(r.probabilities[i]).toBeCloseTo(x / (r.c + x - r.c * x), 9);
    });
  });

  it('long shots give up more margin under LOG, SHIN and OR than under EM', () => {
    const longShot = (m: (typeof DEVIG_MODELS)[number]) => devig(THREE_WAY, m).probabilities[2] ?? 0;
    for (const m of ['LOG', 'SHIN', 'OR'] as const) expect(longShot(m)).toBeLessThan(longShot('EM'));
  });
});

describe.each(DEVIG_MODELS)('invariants of %s', (model) => {
  it.each([
    ['2-way', [1.85, 2.05]],
    ['3-way', THREE_WAY],
    ['8-way', WIDE],
  ])('%s: probabilities sum to 1, are in (0, 1), keep the order, fair odds exceed the offered ones', (_, odds) => {
    const r = devig(odds, model);
    expect(sum(r.probabilities)).toBeCloseTo(1, 9);
    for (const p of r.probabilities) expect(p).toBeGreaterThan(0);
    for (let i = 1; i < odds.length; i++) {
      // shorter offered odds must stay the likelier outcome
      const shorter = (odds[i - 1] ?? 0) < (odds[i] ?? 0);
      expect((r.probabilities[i - 1] ?? 0) > (r.probabilities[i] ?? 0)).toBe(shorter);
    }
    r.fairOdds.forEach((f, i) => {
      expect(f).toBeCloseTo(1 / (r.probabilities[i] ?? 1), 9);
      expect(f).toBeGreaterThan(odds[i] ?? Infinity);
    });
  });

  it('a symmetric 2-way market is 0.5 / 0.5', () => {
    const r = devig([1.91, 1.91], model);
    expect(r.probabilities[0]).toBeCloseTo(0.5, 12);
    expect(r.probabilities[1]).toBeCloseTo(0.5, 12);
  });

  it('a market without margin is returned unchanged', () => {
    const r = devig([2, 4, 4], model);
    expect(r.probabilities[0]).toBeCloseTo(0.5, 9);
    expect(r.probabilities[1]).toBeCloseTo(0.25, 9);
  });
});

describe('input checks and the all-model view', () => {
  it('rejects fewer than 2 outcomes and odds of 1 or less', () => {
    expect(() => devig([2], 'EM')).toThrow(RangeError);
    expect(() => devig([1, 2], 'SHIN')).toThrow(RangeError);
    expect(() => devig([Number.NaN, 2], 'OR')).toThrow(RangeError);
  });

  it('fairOddsByModel gives each model its own answer', () => {
    const all = fairOddsByModel(THREE_WAY);
    expect(Object.keys(all)).toEqual([...DEVIG_MODELS]);
    for (const m of DEVIG_MODELS) expect(all[m]).toEqual(devig(THREE_WAY, m).fairOdds);
    expect(new Set(DEVIG_MODELS.map((m) => all[m][2]?.toFixed(6))).size).toBe(5);
  });

  it('MPTO floors a long shot it would price below zero, and the market still sums to 1', () => {
    const odds = [1.05, 1.05, 1000];
    const r = devigMarginProportional(odds);
    expect(sum(r.probabilities)).toBeCloseTo(1, 9);
    expect(r.probabilities[2]).toBeGreaterThan(0);
  });
});
