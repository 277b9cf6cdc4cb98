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

/** A normal of this mean and variance on whole numbers (each k takes the mass of [k - 0.5, k + 0.5)), from `at`. */
export function normalFrom(at: number, mean: number, variance: number): IntDist {
  if (!(variance > 1e-6)) return point(at + Math.max(0, Math.round(mean)));
  const sd = Math.sqrt(variance);
  const lo = Math.max(0, Math.floor(mean - 6 * sd));
  const hi = Math.ceil(mean + 6 * sd);
  const cdf = (x: number) => 0.5 * (1 + erf((x - mean) / (sd * Math.SQRT2)));
  const p: number[] = [];
  for (let k = lo; k <= hi; k++) p.push(cdf(k + 0.5) - (k === lo ? 0 : cdf(k - 0.5)));
  const sum = p.reduce((a, b) => a + b, 0);
  return { lo: at + lo, p: p.map((x) => x / sum) };
}

/** Abramowitz-Stegun 7.1.26 (error below 1.5e-7): plenty for prices rounded to two decimals. */
function erf(x: number): number {
  const s = Math.sign(x);
  const t = 1 / (1 + 0.3275911 * Math.abs(x));
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return s * y;
}

/** The distribution of a + sign * b, for independent a and b. */
export function combine(a: IntDist, b: IntDist, sign: 1 | -1): IntDist {
  const lo = sign === 1 ? a.lo + b.lo : a.lo - (b.lo + b.p.length - 1);
  const p = new Array<number>(a.p.length + b.p.length - 1).fill(0);
  a.p.forEach((pa, i) => {
    if (pa < 1e-12) return;
    b.p.forEach((pb, j) => {
      const k = sign === 1 ? i + j : i + (b.p.length - 1 - j);
      p[k] = (p[k] ?? 0) + pa * pb;
    });
  });
  return { lo, p };
}

/** Independent home and away scores. */
export function fromSides(home: IntDist, away: IntDist): ScoreDists {
  return { home, away, total: combine(home, away, 1), diff: combine(home, away, -1) };
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
  return { home: dist((x) => x.h), away: dist((x) => x.a), total: dist((x) => x.h + x.a), diff: dist((x) => x.h - x.a) };
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

function mass(d: IntDist, test: (v: number) => boolean): number {
  let s = 0;
  d.p.forEach((x, k) => {
    if (test(d.lo + k)) s += x;
  });
  return s;
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
    win += mass(d, (v) => v > x);
    push += mass(d, (v) => v === x);
    loss += mass(d, (v) => v < x);
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
  const order = rungs.map((r, i) => ({ r, i })).filter((x): x is { r: Rung; i: number } => x.r !== null).sort((a, b) => a.r.at - b.r.at);
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
