import { describe, expect, it } from 'vitest';
import { DEVIG_MODELS } from './api';
import {
  devig,
  devigMarginProportional,
  devigMultiplicative,
  devigOddsRatio,
  devigPower,
  devigShin,
  FAIR_STRETCH_LIMIT,
  fairOddsByModel,
  fairPriceProblem,
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

describe('fairPriceProblem: when a fair price is shown as a dash, and why', () => {
  it('a fair price 12x the offered one is not credible, and says why in words', () => {
    // The walkthrough's long shot: offered at 334.95 (+33495), MPTO's floored chance gives about a million.
    expect(fairPriceProblem(334.95, 1_001_840)).toMatch(/^No credible fair price/);
    const words = fairPriceProblem(20, 240);
    expect(words).toBe(
      "No credible fair price: the de-vig model's price is more than 10 times the offered one (MPTO takes an equal share of the margin from every runner, and a long shot in a wide field has less than its share)",
    );
    expect(FAIR_STRETCH_LIMIT).toBe(10);
  });

  it('9x the offered one, exactly 10x, and an ordinary fair price are shown', () => {
    expect(fairPriceProblem(20, 180)).toBeNull();
    expect(fairPriceProblem(20, 200)).toBeNull();
    expect(fairPriceProblem(20, 200.01)).not.toBeNull();
    expect(fairPriceProblem(2.1, 2.2)).toBeNull();
    // A fair price shorter than the offered one (a favourite whose share of the margin is small) is still a price.
    expect(fairPriceProblem(1.5, 1.45)).toBeNull();
  });

  it('a fair price at or below 1, NaN, infinite or missing is no price at all', () => {
    const none = 'No fair price: the de-vig model gives this runner no chance (it cannot price it)';
    for (const fair of [1, 0.5, 0, -3, Number.NaN, Number.POSITIVE_INFINITY, null, undefined])
      expect(fairPriceProblem(8, fair), String(fair)).toBe(none);
  });

  it('without a usable offered price only the fair price itself is judged', () => {
    expect(fairPriceProblem(null, 5000)).toBeNull();
    expect(fairPriceProblem(undefined, 3)).toBeNull();
    expect(fairPriceProblem(1, 50)).toBeNull();
    expect(fairPriceProblem(null, null)).not.toBeNull();
  });

  it("MPTO on a wide field with a fat margin fails for the long shot: the rule catches the service's floored price", () => {
    const odds = [2.2, 4, 6, 9, 15, 26, 41, 67, 101, 151, 201, 334.95];
    const fair = devig(odds, 'MPTO').fairOdds;
    expect(fairPriceProblem(odds[11], fair[11])).not.toBeNull();
    // EM on the same market prices every runner credibly.
    const em = devig(odds, 'EM').fairOdds;
    odds.forEach((o, i) => expect(fairPriceProblem(o, em[i]), String(o)).toBeNull());
  });
});
