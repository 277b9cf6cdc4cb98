// De-vig math: turns a bookmaker's decimal odds for one market (2 or more outcomes) into fair probabilities and
// fair ("true") odds under the five models the service publishes (LOG, EM, MPTO, SHIN, OR). Pure; used by the
// simulator to compute true_odds_by_model and by the client to check or recompute them.
import type { DevigModel } from './api/spec';

export interface DevigResult {
  probabilities: number[];
  fairOdds: number[];
}

const TOLERANCE = 1e-12;
const MAX_ITERATIONS = 200;

function implied(odds: readonly number[]): number[] {
  if (odds.length < 2) throw new RangeError('a market needs at least 2 outcomes');
  return odds.map((o) => {
    if (!(Number.isFinite(o) && o > 1)) throw new RangeError(`decimal odds must be finite and > 1, got ${o}`);
    return 1 / o;
  });
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/**
 * Finds x in [lo, hi] with f(x) = 0 for a function that is monotone on the interval. Bisection rather than Newton:
 * the models' sums are smooth but their derivatives blow up near the ends, and 200 halvings is cheap.
 */
function solveMonotone(f: (x: number) => number, lo: number, hi: number): number {
  let fLo = f(lo);
  for (let i = 0; i < MAX_ITERATIONS; i++) {
    const mid = (lo + hi) / 2;
    const fMid = f(mid);
    if (Math.abs(fMid) < TOLERANCE || hi - lo < TOLERANCE) return mid;
    if (Math.sign(fMid) === Math.sign(fLo)) {
      lo = mid;
      fLo = fMid;
    } else {
      hi = mid;
    }
  }
  return (lo + hi) / 2;
}

function result(probabilities: number[]): DevigResult {
  return { probabilities, fairOdds: probabilities.map((p) => 1 / p) };
}

/** EM, the multiplicative method: implied probabilities scaled so they sum to 1. */
export function devigMultiplicative(odds: readonly number[]): DevigResult {
  const r = implied(odds);
  const s = sum(r);
  return result(r.map((x) => x / s));
}

/** LOG, the power method: p_i = r_i^k with k such that the p_i sum to 1. */
export function devigPower(odds: readonly number[]): DevigResult & { k: number } {
  const r = implied(odds);
  // sum(r^k) falls as k grows (every r < 1), so the root is bracketed by a tiny and a large exponent.
  const k = solveMonotone((k) => sum(r.map((x) => x ** k)) - 1, 1e-6, 100);
  const p = r.map((x) => x ** k);
  const s = sum(p);
  return { ...result(p.map((x) => x / s)), k };
}

/**
 * MPTO, margin proportional to odds (Buchdahl): fair odds o_i * n / (n - M * o_i), with M = sum(1/o) - 1.
 * Taking the reciprocal, p_i = 1/o_i - M/n: each outcome gives up the same share of the overround. A long shot in a
 * wide market can come out non-positive; it is floored at a tiny probability and the market renormalised, because a
 * fair price must stay a price.
 */
export function devigMarginProportional(odds: readonly number[]): DevigResult {
  const r = implied(odds);
  const n = r.length;
  const margin = sum(r) - 1;
  const p = r.map((x) => x - margin / n);
  if (p.every((x) => x > 0)) return result(p);
  const floored = p.map((x) => Math.max(x, 1e-6));
  const s = sum(floored);
  return result(floored.map((x) => x / s));
}

/** Shin's probability of outcome i for insider share z, given implied probability r_i and booksum s. */
function shinProbability(ri: number, s: number, z: number): number {
  return (Math.sqrt(z * z + (4 * (1 - z) * ri * ri) / s) - z) / (2 * (1 - z));
}

/**
 * SHIN: solves the share z of insider money so that Shin's probabilities sum to 1. A market without overround has
 * no insiders to explain (z would be negative), so it falls back to plain normalisation with z = 0.
 */
export function devigShin(odds: readonly number[]): DevigResult & { z: number } {
  const r = implied(odds);
  const s = sum(r);
  if (s <= 1) return { ...devigMultiplicative(odds), z: 0 };
  const z = solveMonotone((z) => sum(r.map((x) => shinProbability(x, s, z))) - 1, 0, 0.999);
  const p = r.map((x) => shinProbability(x, s, z));
  const ps = sum(p);
  return { ...result(p.map((x) => x / ps)), z };
}

/** OR, the odds-ratio method: p_i = r_i / (c + r_i - c * r_i), with the odds ratio c such that the p_i sum to 1. */
export function devigOddsRatio(odds: readonly number[]): DevigResult & { c: number } {
  const r = implied(odds);
  const pOf = (c: number) => r.map((x) => x / (c + x - c * x));
  // Solve in log space: c spans orders of magnitude between an underround and a heavy overround.
  const logC = solveMonotone((lc) => sum(pOf(Math.exp(lc))) - 1, -20, 20);
  const c = Math.exp(logC);
  const p = pOf(c);
  const s = sum(p);
  return { ...result(p.map((x) => x / s)), c };
}

const MODELS: Record<DevigModel, (odds: readonly number[]) => DevigResult> = {
  LOG: devigPower,
  EM: devigMultiplicative,
  MPTO: devigMarginProportional,
  SHIN: devigShin,
  OR: devigOddsRatio,
};

export function devig(odds: readonly number[], model: DevigModel): DevigResult {
  const { probabilities, fairOdds } = MODELS[model](odds);
  return { probabilities, fairOdds };
}

/** Fair odds of every outcome under every model, in the order of DEVIG_MODELS' keys. */
export function fairOddsByModel(odds: readonly number[]): Record<DevigModel, number[]> {
  return {
    LOG: devig(odds, 'LOG').fairOdds,
    EM: devig(odds, 'EM').fairOdds,
    MPTO: devig(odds, 'MPTO').fairOdds,
    SHIN: devig(odds, 'SHIN').fairOdds,
    OR: devig(odds, 'OR').fairOdds,
  };
}

/**
 * MPTO takes the same share of the overround from every runner: a long shot whose implied chance is below that share
 * comes out at a chance of zero or less, which is the model failing for that market (R's `implied` flags such a
 * market "problematic"), not a price. True when every runner keeps a positive chance.
 */
export function mptoCanPrice(odds: readonly number[]): boolean {
  const r = odds.map((o) => 1 / o);
  const margin = sum(r) - 1;
  return r.every((x) => x - margin / r.length > 0);
}

/**
 * How far a fair price may stand from the offered one: taking the margin out shortens a runner's chance, but a model
 * that takes nine tenths of it (a fair price more than ten times the offered one) has given that runner most of the
 * market's margin: it has failed for it, as MPTO does on a long shot in a wide field (a service that floors MPTO's
 * negative chance at a millionth shows a million-to-one "true" price).
 */
export const FAIR_STRETCH_LIMIT = 10;

/**
 * Why a fair ("true") price cannot be shown for a runner offered at `offered`, in words for a tooltip; null when it is
 * credible. The one rule for every fair price the app shows, whichever model or service computed it.
 */
export function fairPriceProblem(offered: number | null | undefined, fair: number | null | undefined): string | null {
  if (fair === null || fair === undefined || !Number.isFinite(fair) || !(fair > 1))
    return 'No fair price: the de-vig model gives this runner no chance (it cannot price it)';
  if (typeof offered === 'number' && offered > 1 && fair > offered * FAIR_STRETCH_LIMIT)
    return `No credible fair price: the de-vig model's price is more than ${FAIR_STRETCH_LIMIT} times the offered one (MPTO takes an equal share of the margin from every runner, and a long shot in a wide field has less than its share)`;
  return null;
}
