// One run of the rule lab: the history's matches, one at a time, through every candidate rule (./replay.ts), summed
// per part (./score.ts). Chunked: the host's event loop turns between slices of a few milliseconds (the recorder,
// the bridge and the page keep moving while it runs), progress is reported in matches, and an AbortSignal stops it
// between two matches. The current rule is always among the rules (added first when the candidates lack it).
import type { DevigModel } from '../../shared/api';
import { labRuleKey, type LabProgress, type LabRule, type RuleLabResult } from '../../shared/ruleLab';
import { DEFAULT_DROP_MIN_PROB_PTS } from '../../shared/trading';
import { replayEvent, type LabEvent } from './replay';
import { labResult, PartSums } from './score';

/** Where the matches come from: the store (./history.ts) or a test's synthetic book. */
export interface LabSource {
  /** The first and last match time (matchTime) of the history in scope, and how many matches; null: no history. */
  span(): { from: number; to: number; events: number } | null;
  /** The matches (in any order: each goes to its part by its matchTime). */
  events(): Iterable<LabEvent>;
}

export interface LabRunOptions {
  rules: readonly LabRule[];
  current: LabRule;
  model: DevigModel;
  /** The share of the history's time (kick-offs) before the split (default 2/3): chosen before it, scored after. */
  splitShare?: number;
  signal?: AbortSignal;
  onProgress?: (p: LabProgress) => void;
  /** The longest slice of work between two turns of the event loop (default 8 ms). */
  sliceMs?: number;
  yieldTurn?: () => Promise<void>;
}

export class LabCancelled extends Error {
  constructor() {
    super('The rule lab run was cancelled.');
    this.name = 'LabCancelled';
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The candidates with the current rule among them (first, when they lack it), and its index. */
export function withCurrent(rules: readonly LabRule[], current: LabRule): { rules: LabRule[]; current: number } {
  const key = labRuleKey(current);
  const at = rules.findIndex((r) => labRuleKey(r) === key);
  return at >= 0 ? { rules: [...rules], current: at } : { rules: [current, ...rules], current: 0 };
}

/** A match's first price time. */
export function firstPriceAt(ev: LabEvent): number {
  let first = Infinity;
  for (const l of ev.lines) if (l.ticks.length) first = Math.min(first, l.ticks[0]!.at);
  return first;
}

/** When a match happened, for the split: its kick-off (in play, else scheduled), else its first price. */
export const matchTime = (ev: LabEvent): number => ev.liveFrom ?? firstPriceAt(ev);

export async function runRuleLab(source: LabSource, o: LabRunOptions): Promise<RuleLabResult> {
  const started = performance.now();
  const { rules, current } = withCurrent(o.rules, o.current);
  const span = source.span() ?? { from: 0, to: 0, events: 0 };
  const splitAt = Math.round(span.from + (o.splitShare ?? 2 / 3) * (span.to - span.from));
  const earlier = new PartSums(rules.length, span.from, splitAt);
  const later = new PartSums(rules.length, splitAt, span.to);
  const sliceMs = o.sliceMs ?? 8;
  const turn = o.yieldTurn ?? nextTurn;
  let done = 0;
  o.onProgress?.({ running: true, done, total: span.events });
  let sliceFrom = performance.now();
  for (const ev of source.events()) {
    if (o.signal?.aborted) throw new LabCancelled();
    const alerts = replayEvent(ev, rules, o.model);
    (matchTime(ev) < splitAt ? earlier : later).addEvent(alerts);
    done++;
    if (performance.now() - sliceFrom >= sliceMs) {
      o.onProgress?.({ running: true, done, total: span.events });
      await turn();
      if (o.signal?.aborted) throw new LabCancelled();
      sliceFrom = performance.now();
    }
  }
  o.onProgress?.({ running: false, done, total: span.events });
  return labResult({
    model: o.model,
    rules,
    current,
    splitAt,
    earlier,
    later,
    computedMs: Math.round(performance.now() - started),
  });
}

/** The trader's drop rule as Settings hold it (the minimum probability move is the live rule's default). */
export function ruleOfSettings(s: {
  dropAlertPct: number;
  dropWindowMinutes: number;
  dropAlertPhase: LabRule['phase'];
  dropAlertSports: readonly number[];
}): LabRule {
  return {
    dropPct: s.dropAlertPct,
    dropWindowMinutes: s.dropWindowMinutes,
    minProbPts: DEFAULT_DROP_MIN_PROB_PTS,
    phase: s.dropAlertPhase,
    sports: s.dropAlertSports,
    markets: [],
  };
}

/** The candidates the lab tries by default: drop sizes 2-15% in the current window, and the current rule. */
export function defaultCandidates(current: LabRule): LabRule[] {
  const sizes = [2, 3, 4, 5, 6, 7, 8, 10, 12, 15];
  const windows = [current.dropWindowMinutes, current.dropWindowMinutes === 5 ? 15 : 5];
  const out: LabRule[] = [];
  for (const w of windows) for (const d of sizes) out.push({ ...current, dropPct: d, dropWindowMinutes: w });
  return out;
}
