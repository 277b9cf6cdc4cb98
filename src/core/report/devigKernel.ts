// The five de-vig models of src/shared/devig.ts, fast enough to score a hundred thousand closes in a blink: the same
// definitions (LOG, EM, MPTO, SHIN, OR), solved by safeguarded Newton steps on scalars instead of 200 bisections on
// arrays, and writing into a caller's buffer instead of allocating per market. devig.ts stays the definition; this
// kernel is pinned to it by devigKernel.test.ts (every model, two- and three-way markets, under- and overrounds).
// Why it exists: devig.ts takes about 4 s for 100,000 markets under the five models; this takes well under 100 ms.
import { DEVIG_MODELS } from '../../shared/api';

/** Models in DEVIG_MODELS order: LOG, EM, MPTO, SHIN, OR. */
export const MODEL_COUNT = DEVIG_MODELS.length;
/** A market has at most this many sides (home, draw, away). */
export const MAX_SIDES = 3;

const LOG = 0;
const EM = 1;
const MPTO = 2;
const SHIN = 3;
const OR = 4;

const TOLERANCE = 1e-15;
const MAX_ITERATIONS = 100;

// Scratch for the solvers: the implied probabilities of the market being solved, their logs, its size and booksum.
const r = new Float64Array(MAX_SIDES);
const lr = new Float64Array(MAX_SIDES);
let n = 0;
let booksum = 0;
/** The derivative the last call of a solver's function left behind. */
let slope = 0;

/**
 * The root of a decreasing function on [lo, hi], from x0: a Newton step where it stays inside the bracket, a halving
 * where it would not. Converges in a handful of steps for these smooth sums.
 */
function solveDecreasing(f: (x: number) => number, x0: number, lo: number, hi: number): number {
  let x = x0;
  for (let i = 0; i < MAX_ITERATIONS; i++) {
    const fx = f(x);
    if (Math.abs(fx) < TOLERANCE) return x;
    if (fx > 0) lo = x;
    else hi = x;
    let next = slope < 0 ? x - fx / slope : NaN;
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (Math.abs(next - x) <= 1e-15 * (1 + Math.abs(x))) return next;
    x = next;
  }
  return x;
}

/** LOG (power): Σ r_i^k − 1, decreasing in k. */
function powerSum(k: number): number {
  let s = 0;
  let d = 0;
  for (let i = 0; i < n; i++) {
    const p = Math.exp(k * lr[i]!);
    s += p;
    d += p * lr[i]!;
  }
  slope = d;
  return s - 1;
}

/** SHIN: Σ Shin's p_i(z) − 1, decreasing in the insider share z. */
function shinSum(z: number): number {
  let s = 0;
  let d = 0;
  const v = 2 * (1 - z);
  for (let i = 0; i < n; i++) {
    const c = (4 * r[i]! * r[i]!) / booksum;
    const q = Math.sqrt(z * z + c * (1 - z));
    const u = q - z;
    s += u / v;
    const du = (2 * z - c) / (2 * q) - 1;
    d += (du * v + 2 * u) / (v * v);
  }
  slope = d;
  return s - 1;
}

const shinP = (ri: number, z: number) => (Math.sqrt(z * z + (4 * (1 - z) * ri * ri) / booksum) - z) / (2 * (1 - z));

/** OR (odds ratio), in x = ln c: Σ r_i / (c + r_i − c r_i) − 1, decreasing in x. */
function oddsRatioSum(x: number): number {
  const c = Math.exp(x);
  let s = 0;
  let d = 0;
  for (let i = 0; i < n; i++) {
    const den = c * (1 - r[i]!) + r[i]!;
    s += r[i]! / den;
    d -= (r[i]! * (1 - r[i]!) * c) / (den * den);
  }
  slope = d;
  return s - 1;
}

/** Scales out[at .. at+n) to sum to 1, as devig.ts does after each solve. */
function normalise(out: Float64Array, at: number): void {
  let s = 0;
  for (let i = 0; i < n; i++) s += out[at + i]!;
  for (let i = 0; i < n; i++) out[at + i] = out[at + i]! / s;
}

/**
 * Fair probabilities of a market's `sides` (2 or 3) decimal prices (each > 1) under the five models, written into
 * out[model * MAX_SIDES + side]. False when the market has no fair price under every model: a price at or below 1, or
 * MPTO taking the same share of the overround from every side and a longshot priced below that share (fairPrices' n/a).
 */
export function fairProbabilities(odds: ArrayLike<number>, sides: number, out: Float64Array): boolean {
  n = sides;
  booksum = 0;
  for (let i = 0; i < n; i++) {
    if (!(odds[i]! > 1)) return false;
    r[i] = 1 / odds[i]!;
    lr[i] = Math.log(r[i]!);
    booksum += r[i]!;
  }
  const margin = booksum - 1;
  for (let i = 0; i < n; i++) {
    const p = r[i]! - margin / n;
    if (!(p > 0)) return false;
    out[MPTO * MAX_SIDES + i] = p;
    out[EM * MAX_SIDES + i] = r[i]! / booksum;
  }

  const k = solveDecreasing(powerSum, 1, 1e-6, 100);
  for (let i = 0; i < n; i++) out[LOG * MAX_SIDES + i] = Math.exp(k * lr[i]!);
  normalise(out, LOG * MAX_SIDES);

  if (booksum <= 1) {
    // No overround, no insiders to explain: Shin's method is plain normalisation (z = 0), as in devig.ts.
    for (let i = 0; i < n; i++) out[SHIN * MAX_SIDES + i] = out[EM * MAX_SIDES + i]!;
  } else if (n === 2) {
    // Two sides: Shin's probabilities are the additive split, MPTO's (a known identity: z solves to it), so no solve.
    for (let i = 0; i < n; i++) out[SHIN * MAX_SIDES + i] = out[MPTO * MAX_SIDES + i]!;
  } else {
    const z = solveDecreasing(shinSum, 0, 0, 0.999);
    for (let i = 0; i < n; i++) out[SHIN * MAX_SIDES + i] = shinP(r[i]!, z);
    normalise(out, SHIN * MAX_SIDES);
  }

  const x = solveDecreasing(oddsRatioSum, 0, -20, 20);
  const c = Math.exp(x);
  for (let i = 0; i < n; i++) out[OR * MAX_SIDES + i] = r[i]! / (c + r[i]! - c * r[i]!);
  normalise(out, OR * MAX_SIDES);
  return true;
}
