// Coherent line prices (issue 34, class 8): every spread, totals and team-total line of an event is priced from one
// distribution of the final score, so a ladder of lines is priced in order (Over 2.5 shorter than Over 2.75, shorter
// than Over 3.5; Home -0.25 shorter than Home -0.5) and a quarter line sits strictly between its neighbours. The
// distribution follows the match: the score so far plus what the rest of the match should bring (goals and runs as
// Poisson, basketball points as a normal, sets played out set by set). Pure maths: the world (world.ts) owns the
// state and the dice.

/** A distribution over whole numbers: p[k] is the probability of lo + k. */
export interface IntDist {
  lo: number;
  p: number[];
}

/** The outcomes of one match, as lines are settled on them. */
export interface ScoreDists {
  home: IntDist;
  away: IntDist;
  /** home + away */
  total: IntDist;
  /** home - away */
  diff: IntDist;
}

const point = (v: number): IntDist => ({ lo: v, p: [1] });

/** Poisson(mean) shifted by `at`, cut where the tail is negligible. */
export function poissonFrom(at: number, mean: number): IntDist {
  if (!(mean > 1e-9)) return point(at);
  const p: number[] = [];
  let term = Math.exp(-mean);
  let sum = 0;
  for (let k = 0; k < 400 && (k <= mean || term > 1e-9); k++) {
    p.push(term);
    sum += term;
    term = (term * mean) / (k + 1);
  }
  return { lo: at, p: p.map((x) => x / sum) };
}

/**
 * A normal of this mean and variance on whole numbers (each k takes the mass of [k - 0.5, k + 0.5)), from `at`; no
 * value below `floor` (a score is never negative; a difference may be).
 */
export function normalFrom(at: number, mean: number, variance: number, floor = 0): IntDist {
  if (!(variance > 1e-6)) return point(at + Math.max(floor, Math.round(mean)));
  const sd = Math.sqrt(variance);
  const lo = Math.max(floor, Math.floor(mean - 6 * sd));
  const hi = Math.ceil(mean + 6 * sd);
  const cdf = (x: number) => 0.5 * (1 + erf((x - mean) / (sd * Math.SQRT2)));
  const p = new Array<number>(hi - lo + 1);
  let sum = 0;
  let below = 0; // everything under lo goes to lo
  for (let k = lo; k <= hi; k++) {
    const upTo = cdf(k + 0.5);
    const x = upTo - below;
    p[k - lo] = x;
    sum += x;
    below = upTo;
  }
  for (let k = 0; k < p.length; k++) p[k]! /= sum;
  return { lo: at + lo, p };
}

/** Abramowitz-Stegun 7.1.26 (error below 1.5e-7): plenty for prices rounded to two decimals. */
function erf(x: number): number {
  const s = Math.sign(x);
  const t = 1 / (1 + 0.3275911 * Math.abs(x));
  const y =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return s * y;
}

/** The distribution of a + sign * b, for independent a and b (plain loops: the simulator prices every tick with it). */
export function combine(a: IntDist, b: IntDist, sign: 1 | -1): IntDist {
  const la = a.p.length;
  const lb = b.p.length;
  const lo = sign === 1 ? a.lo + b.lo : a.lo - (b.lo + lb - 1);
  const p = new Array<number>(la + lb - 1).fill(0);
  for (let i = 0; i < la; i++) {
    const pa = a.p[i]!;
    if (pa < 1e-12) continue;
    if (sign === 1) for (let j = 0; j < lb; j++) p[i + j]! += pa * b.p[j]!;
    else for (let j = 0; j < lb; j++) p[i + lb - 1 - j]! += pa * b.p[j]!;
  }
  return { lo, p };
}

/** Independent home and away scores. */
export function fromSides(home: IntDist, away: IntDist): ScoreDists {
  return { home, away, total: combine(home, away, 1), diff: combine(home, away, -1) };
}

/**
 * Independent normal scores (basketball's points): their total and difference are normals too, taken as such rather
 * than convolved (two hundred-point supports would cost 40,000 products a tick).
 */
export function fromNormalSides(
  at: { home: number; away: number },
  mean: { home: number; away: number },
  variance: { home: number; away: number },
): ScoreDists {
  const v = variance.home + variance.away;
  return {
    home: normalFrom(at.home, mean.home, variance.home),
    away: normalFrom(at.away, mean.away, variance.away),
    total: normalFrom(at.home + at.away, mean.home + mean.away, v),
    diff: normalFrom(at.home - at.away, mean.home - mean.away, v, -Infinity),
  };
}

/**
 * Sets still to play, one at a time, until one side has `need`: the joint distribution of the final set counts.
 * `pSet` is the home side's chance of each set.
 */
export function setsToPlay(home: number, away: number, need: number, pSet: number): ScoreDists {
  const finals = new Map<string, { h: number; a: number; p: number }>();
  const walk = (h: number, a: number, p: number) => {
    if (h >= need || a >= need) {
      const key = `${h}:${a}`;
      const f = finals.get(key);
      if (f) f.p += p;
      else finals.set(key, { h, a, p });
      return;
    }
    walk(h + 1, a, p * pSet);
    walk(h, a + 1, p * (1 - pSet));
  };
  walk(home, away, 1);
  const dist = (f: (x: { h: number; a: number }) => number): IntDist => {
    const all = [...finals.values()];
    const lo = Math.min(...all.map(f));
    const p = new Array<number>(Math.max(...all.map(f)) - lo + 1).fill(0);
    for (const x of all) p[f(x) - lo] = (p[f(x) - lo] ?? 0) + x.p;
    return { lo, p };
  };
  return {
    home: dist((x) => x.h),
    away: dist((x) => x.a),
    total: dist((x) => x.h + x.a),
    diff: dist((x) => x.h - x.a),
  };
}

/** A match that cannot end level (overtime, extra innings): a level difference goes one way or the other. */
export function noDraw(d: ScoreDists, pHome: number): ScoreDists {
  const i = -d.diff.lo;
  const level = d.diff.p[i];
  if (level === undefined || level === 0) return d;
  const p = [0, ...d.diff.p, 0];
  p[i + 1] = 0;
  p[i + 2] = (p[i + 2] ?? 0) + level * pHome;
  p[i] = (p[i] ?? 0) + level * (1 - pHome);
  return { ...d, diff: { lo: d.diff.lo - 1, p } };
}

/** P(value < x), P(value = x) and P(value > x) on `d`, in one pass that stops at x. */
function split(d: IntDist, x: number): { below: number; at: number; above: number } {
  let below = 0;
  let at = 0;
  let total = 0;
  const k0 = x - d.lo;
  for (let k = 0; k < d.p.length; k++) {
    const p = d.p[k]!;
    total += p;
    if (k < k0) below += p;
    else if (k === k0) at += p;
  }
  return { below, at, above: Math.max(0, total - below - at) };
}

/**
 * The fair chances of the two sides of a line on `d`: "up" wins above the line (over; home on the difference with
 * the line negated), "down" below it. A whole line can push, a quarter line is half the stake on each neighbouring
 * line; the chances are those that make a bet fair (stake back on a push), and they add up to 1. Null when nothing
 * can win either way (a certain push).
 */
export function lineChances(d: IntDist, line: number): { up: number; down: number } | null {
  const quarter = Math.abs((line * 4) % 2) === 1;
  const halves = quarter ? [line - 0.25, line + 0.25] : [line, line];
  let win = 0;
  let push = 0;
  let loss = 0;
  for (const x of halves) {
    const s = split(d, x);
    win += s.above;
    push += s.at;
    loss += s.below;
  }
  const stake = 2 - push;
  if (!(stake > 1e-9)) return null;
  return { up: win / stake, down: loss / stake };
}

/** A line's chance on either side below this, or above one minus it, is as good as decided: the line is not offered. */
export const DECIDED = 0.06;

/** One line of a ladder, in the order of the thing it counts: up is over (or home), down under (or away). */
export interface Rung {
  /** The line on the counted quantity: the total, or minus the home handicap on the difference. */
  at: number;
  up: number;
  down: number;
}

/**
 * Keeps a ladder's prices in order after rounding to two decimals: up prices strictly rise and down prices strictly
 * fall as `at` rises. A tie (two lines whose chances differ by less than a price tick) moves the higher line by one
 * tick; a line that cannot then stay above 1.01 is left out (returned as null).
 */
export function orderLadder(rungs: ReadonlyArray<Rung | null>): Array<Rung | null> {
  const order = rungs
    .map((r, i) => ({ r, i }))
    .filter((x): x is { r: Rung; i: number } => x.r !== null)
    .sort((a, b) => a.r.at - b.r.at);
  const out: Array<Rung | null> = rungs.map((r) => (r ? { ...r } : null));
  let prev: Rung | null = null;
  for (const { i } of order) {
    const cur = out[i];
    if (!cur) continue;
    if (prev) {
      if (cur.up <= prev.up) cur.up = Math.round((prev.up + 0.01) * 100) / 100;
      if (cur.down >= prev.down) cur.down = Math.round((prev.down - 0.01) * 100) / 100;
      if (cur.down < 1.01) {
        out[i] = null;
        continue;
      }
    }
    prev = cur;
  }
  return out;
}

/** The match result's chances on a difference distribution: home ahead, level, away ahead. */
export function resultChances(diff: IntDist): { home: number; draw: number; away: number } {
  const s = split(diff, 0);
  return { home: s.above, draw: s.at, away: s.below };
}
