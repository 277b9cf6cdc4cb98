// The rule lab's scores (docs/trading.md, "Scoring a drop rule"): per rule and part of the history, the alerts'
// sums per match (CLV, beat-the-close, P/L), and from them the means with 95% intervals clustered by match, with the
// model scoreboard's statistics (../report/scoreboard.ts, clusteredInterval), and the paired difference from the
// current rule. The choice is made on the earlier part alone. Pure.
import type { DevigModel } from '../../shared/api';
import {
  labPct,
  labRuleKey,
  labRuleWords,
  type LabPart,
  type LabRule,
  type LabRuleScore,
  type RuleLabResult,
} from '../../shared/ruleLab';
import type { ScoreInterval } from '../../shared/scoreboard';
import { clusteredInterval } from '../report/scoreboard';
import type { LabAlert } from './replay';

const DAY_MS = 86_400_000;
// Per match: CLV sum, CLV alerts, beats, P/L sum, settled alerts.
const CLV = 0;
const CLV_N = 1;
const BEAT = 2;
const PNL = 3;
const PNL_N = 4;
const WIDTH = 5;

class RuleSums {
  alerts = 0;
  byBars = 0;
  readonly matches = new Map<number, Float64Array>();

  add(a: LabAlert): void {
    this.alerts++;
    if (a.byBar) this.byBars++;
    if (a.clv === null && a.pnl === null) return;
    let m = this.matches.get(a.eventId);
    if (!m) this.matches.set(a.eventId, (m = new Float64Array(WIDTH)));
    if (a.clv !== null) {
      m[CLV]! += a.clv;
      m[CLV_N]!++;
      if (a.clv > 0) m[BEAT]!++;
    }
    if (a.pnl !== null) {
      m[PNL]! += a.pnl;
      m[PNL_N]!++;
    }
  }

  total(at: number): number {
    let s = 0;
    for (const m of this.matches.values()) s += m[at]!;
    return s;
  }

  /** The mean of sums `a` over weights `b`, with its interval over the matches that weigh. */
  interval(a: number, b: number): ScoreInterval {
    const w = this.total(b);
    if (w === 0) return { mean: null, low: null, high: null };
    const mean = this.total(a) / w;
    let sq = 0;
    let g = 0;
    for (const m of this.matches.values()) {
      if (m[b] === 0) continue;
      g++;
      sq += ((m[a]! - mean * m[b]!) / w) ** 2;
    }
    return clusteredInterval(mean, sq, g);
  }
}

/** Mean CLV of `x` minus that of `y`, paired by match (each match's influence on both means). */
function pairedClv(x: RuleSums, y: RuleSums): ScoreInterval {
  const wx = x.total(CLV_N);
  const wy = y.total(CLV_N);
  if (wx === 0 || wy === 0) return { mean: null, low: null, high: null };
  const mx = x.total(CLV) / wx;
  const my = y.total(CLV) / wy;
  const none = new Float64Array(WIDTH);
  let sq = 0;
  let g = 0;
  for (const id of new Set([...x.matches.keys(), ...y.matches.keys()])) {
    const a = x.matches.get(id) ?? none;
    const b = y.matches.get(id) ?? none;
    if (a[CLV_N] === 0 && b[CLV_N] === 0) continue;
    g++;
    sq += ((a[CLV]! - mx * a[CLV_N]!) / wx - (b[CLV]! - my * b[CLV_N]!) / wy) ** 2;
  }
  return clusteredInterval(mx - my, sq, g);
}

/** One part of the history being summed: every rule's alerts on the matches of the part. */
export class PartSums {
  readonly rules: RuleSums[];
  events = 0;
  constructor(
    count: number,
    readonly from: number,
    readonly to: number,
  ) {
    this.rules = Array.from({ length: count }, () => new RuleSums());
  }

  addEvent(alerts: readonly LabAlert[][]): void {
    this.events++;
    alerts.forEach((list, i) => list.forEach((a) => this.rules[i]!.add(a)));
  }

  finish(rules: readonly LabRule[], current: number): LabPart {
    const days = Math.max(1 / 24, (this.to - this.from) / DAY_MS);
    return {
      from: this.from,
      to: this.to,
      days,
      events: this.events,
      rules: this.rules.map((r, i): LabRuleScore => {
        const vs = i === current ? null : pairedClv(r, this.rules[current]!);
        return {
          key: labRuleKey(rules[i]!),
          alerts: r.alerts,
          byBars: r.byBars,
          perDay: r.alerts / days,
          matches: r.matches.size,
          clvAlerts: r.total(CLV_N),
          clv: r.interval(CLV, CLV_N),
          beatRate: r.interval(BEAT, CLV_N),
          settledAlerts: r.total(PNL_N),
          roi: r.interval(PNL, PNL_N),
          vsCurrent: vs ? { clv: vs, significant: excludesZero(vs) } : null,
        };
      }),
    };
  }
}

const excludesZero = (i: ScoreInterval) => (i.low !== null && i.low > 0) || (i.high !== null && i.high < 0);

/** The rule with the best mean CLV on a part (the first listed on a tie); null when none has a scored alert. */
export function bestRule(part: LabPart): string | null {
  let best: LabRuleScore | null = null;
  for (const r of part.rules)
    if (r.clv.mean !== null && (best === null || r.clv.mean > best.clv.mean! + 1e-12)) best = r;
  return best?.key ?? null;
}

/** A part's length in words: "12.5 days", or hours under a day. */
const span = (p: LabPart) => (p.days >= 1 ? `${p.days.toFixed(1)} days` : `${(p.days * 24).toFixed(1)} hours`);

export function labResult(o: {
  model: DevigModel;
  rules: readonly LabRule[];
  current: number;
  splitAt: number;
  earlier: PartSums;
  later: PartSums;
  computedMs: number;
}): RuleLabResult {
  const earlier = o.earlier.finish(o.rules, o.current);
  const later = o.later.finish(o.rules, o.current);
  const chosen = bestRule(earlier);
  const currentKey = labRuleKey(o.rules[o.current]!);
  const laterScore = later.rules.find((r) => r.key === chosen) ?? null;
  const holdsLater =
    chosen !== null &&
    chosen !== currentKey &&
    !!laterScore?.vsCurrent?.significant &&
    laterScore.vsCurrent.clv.mean! > 0;
  const words = (key: string) => labRuleWords(o.rules[earlier.rules.findIndex((r) => r.key === key)]!);
  const tried = `${o.rules.length} rules tried`;
  let sentence: string;
  if (chosen === null)
    sentence = `No rule raised an alert with a close on the earlier part of the history (${tried}): nothing to choose from yet.`;
  else if (chosen === currentKey)
    sentence = `Of ${tried} on the earlier ${span(earlier)}, your current rule (${words(chosen)}) had the best CLV against the close; keep it.`;
  else {
    const d = laterScore?.vsCurrent?.clv ?? null;
    const scored =
      d && d.mean !== null
        ? `On the later ${span(later)} it scored ${labPct(laterScore!.clv.mean)} CLV, ${labPct(d.mean)} against your rule (95% interval ${labPct(d.low)} to ${labPct(d.high)}): ${holdsLater ? 'significant' : 'not significant, could be luck'}.`
        : 'The later part has no alert of it and of your rule with a close to compare them on: not significant.';
    sentence = `Of ${tried} on the earlier ${span(earlier)}, ${words(chosen)} had the best CLV against the close. ${scored}`;
  }
  return {
    model: o.model,
    rules: [...o.rules],
    rulesTried: o.rules.length,
    current: currentKey,
    splitAt: o.splitAt,
    earlier,
    later,
    chosen,
    holdsLater,
    sentence,
    computedMs: o.computedMs,
  };
}
