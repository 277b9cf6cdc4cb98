// The rule lab's replay (docs/trading.md, "Scoring a drop rule"): one recorded match, its lines' prices in time
// order, run through the live drop rule for each candidate rule: the per-line rule (../monitor/priceRules.ts,
// stepLine), the trader's scope (../monitor/priceWatch.ts, dropInScope) and the episodes a trader reads
// (../monitor/dropEpisodes.ts): the same code that raises drop alerts live, not a copy. An alert is an episode's
// opening: its top line and side, at that line's price then. Pure: the history comes in as values
// (./history.ts reads it from the store) and the alerts go out with what they would have given (./score.ts sums).
import type { DevigModel } from '../../shared/api';
import type { NewAlert, PriceSide } from '../../shared/domain';
import type { LabRule } from '../../shared/ruleLab';
import {
  betPnl,
  clvPct,
  DEFAULT_DROP_MIN_PROB_PTS,
  fairFallPct,
  fairPrices,
  isDrop,
  lineKey,
  marketKind,
  pricedSides,
  sameLine,
  settleSide,
} from '../../shared/trading';
import { createDropEpisodes, EPISODE_RULES, type EpisodeData } from '../monitor/dropEpisodes';
import {
  dropAlertData,
  stepLine,
  type LineState,
  type PriceObservation,
  type PriceRuleConfig,
  sideStep,
  type SideState,
} from '../monitor/priceRules';
import { dropInScope } from '../monitor/priceWatch';
import type { LabEventRow, LabLineRow, LabTickRow } from '../store/queries/lab';

/** The history the replay reads, as the store gives it (../store/queries/lab.ts says what each field is). */
export type LabTick = LabTickRow;
export type LabLine = LabLineRow;
export type LabEvent = LabEventRow;

/** What following one alert would have given. */
export interface LabAlert {
  eventId: number;
  at: number;
  lineId: number;
  side: PriceSide;
  /** The side's price when the alert opened (null: the line had no price for it). */
  price: number | null;
  byBar: boolean;
  /**
   * CLV (%) against the fair close under the model: a placed pre-match alert on a line whose close is the same line,
   * on a side the service did not void.
   */
  clv: number | null;
  /** P/L per 100 staked at the alert's price: a placed alert on a line that settled (a void is not counted). */
  pnl: number | null;
}

type Fair = Partial<Record<PriceSide, number>> | null;

/**
 * Each line's fair prices tick by tick, as stepLine would de-vig them (fairPrices with the sides seen so far), once
 * for every rule; and the most a side's fair price ever fell from its highest earlier value (%): no rule of a larger
 * drop can fire on the line.
 */
function fairsOf(ev: LabEvent, model: DevigModel): { fairs: Fair[][]; falls: number[] } {
  const fairs: Fair[][] = [];
  const falls = ev.lines.map((l) => {
    const seen: PriceSide[] = [];
    const high: Partial<Record<PriceSide, number>> = {};
    const line: Fair[] = [];
    fairs.push(line);
    let most = 0;
    for (const t of l.ticks) {
      const priced = pricedSides(t.prices);
      const fair = priced.length ? fairPrices(t.prices, model, seen) : null;
      line.push(fair);
      for (const s of priced) if (!seen.includes(s)) seen.push(s);
      if (!fair) continue;
      for (const side of Object.keys(fair) as PriceSide[]) {
        const v = fair[side]!;
        const h = high[side];
        if (h === undefined || v > h) high[side] = v;
        else most = Math.max(most, fairFallPct(h, v));
      }
    }
    return most;
  });
  return { fairs, falls };
}

/**
 * The match with each line split by its value, as the live rule keeps a line's state (priceWatch, by lineKey: line id
 * AND line value): a handicap moved under the same id (-0.5 to -0.25) is another line, never a drop from the old
 * value's price; a value the line moves back to goes on from its own state. A line that kept its value is as it was.
 */
function byLineValue(ev: LabEvent): LabEvent {
  if (ev.lines.every((l) => l.ticks.every((t) => sameValue(t.line, l.ticks[0]!.line)))) return ev;
  const lines: LabLine[] = [];
  for (const l of ev.lines) {
    const parts = new Map<string, LabTick[]>();
    for (const t of l.ticks) {
      const key = lineKey(l.lineId, t.line);
      const ticks = parts.get(key);
      if (ticks) ticks.push(t);
      else parts.set(key, [t]);
    }
    for (const ticks of parts.values()) lines.push(parts.size === 1 ? l : { ...l, ticks });
  }
  return { ...ev, lines };
}

const sameValue = (a: number | null, b: number | null) => lineKey(0, a) === lineKey(0, b);

/** The event's ticks in time order (line order within a time): [line index, tick index] pairs. */
function timeline(ev: LabEvent): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  ev.lines.forEach((l, li) => l.ticks.forEach((_, ti) => out.push([li, ti])));
  out.sort((a, b) => ev.lines[a[0]]!.ticks[a[1]]!.at - ev.lines[b[0]]!.ticks[b[1]]!.at || a[0] - b[0]);
  return out;
}

/**
 * Replays one match through each rule: the alerts each would have raised, with what following them gave. `plain`
 * steps every rule through every tick; the default skips the ticks where a rule provably cannot alert (see
 * replayGroup) and gives exactly the same alerts (./replay.test.ts compares the two).
 */
export function replayEvent(
  recorded: LabEvent,
  rules: readonly LabRule[],
  model: DevigModel,
  o: { plain?: boolean } = {},
): LabAlert[][] {
  const ev = byLineValue(recorded);
  const { fairs, falls } = fairsOf(ev, model);
  const order = timeline(ev);
  const current: Array<LabTick | undefined> = ev.lines.map(() => undefined);
  const runs = rules.map((rule) => new RuleRun(ev, rule, model, falls, current));
  if (o.plain) for (const run of runs) replayPlain(run, order, fairs);
  else {
    // Rules of one window share their lines' window samples (below): one group per window.
    const groups = new Map<number, RuleRun[]>();
    for (const run of runs) {
      if (!run.active.some(Boolean)) continue;
      const w = run.config.dropWindowMinutes;
      groups.set(w, [...(groups.get(w) ?? []), run]);
    }
    for (const group of groups.values()) replayGroup(group, order, fairs);
  }
  return runs.map((r) => r.alerts);
}

/** One rule's replay of a match: its config and scope, the episodes it opens, and the alerts they are. */
class RuleRun {
  readonly config: PriceRuleConfig;
  readonly scope: { phase: LabRule['phase']; sports: readonly number[] };
  /** A line whose fair price never fell by the rule from any earlier price can raise nothing: it is not stepped. */
  readonly active: boolean[];
  readonly episodes = createDropEpisodes(EPISODE_RULES);
  readonly alerts: LabAlert[] = [];
  /** The episodes' nextAt(): it changes only when they are added to or taken from. */
  private due: number | null = null;

  constructor(
    readonly ev: LabEvent,
    rule: LabRule,
    readonly model: DevigModel,
    falls: readonly number[],
    /** Each line's latest tick (every rule's: the match's ticks so far). */
    readonly current: Array<LabTick | undefined>,
  ) {
    this.active = ev.lines.map(
      (l, i) =>
        falls[i]! >= rule.dropPct - 1e-9 && (rule.markets.length === 0 || rule.markets.includes(marketKind(l.market))),
    );
    this.config = {
      dropPct: rule.dropPct,
      minProbPts: rule.minProbPts,
      dropWindowMinutes: rule.dropWindowMinutes,
      hysteresisPct: 0,
      model,
      thresholds: [],
    };
    this.scope = { phase: rule.phase, sports: rule.sports };
  }

  /** The per-line rule's alerts of one tick into the episodes (those in the rule's scope). */
  add(li: number, tick: LabTick, alerts: readonly NewAlert[]): void {
    const ev = this.ev;
    const live = ev.liveFrom !== null && tick.at >= ev.liveFrom;
    for (const a of alerts) {
      if (a.kind !== 'drop' || !dropInScope(this.scope, { sportId: ev.sportId, live })) continue;
      const { side, from, to, pct, basis } = dropAlertData(a);
      // The episodes know the line by its index here: a line id can stand for several lines (one per value).
      const drop = { lineId: li, line: tick.line, side, from, to, pct, basis };
      this.episodes.add(ev.eventId, '', { ...drop, words: '', model: this.model, message: '' }, tick.at);
      this.due = this.episodes.nextAt();
    }
  }

  /** As live: the batch of one moment is judged whole, then the episodes opened in it are given out. */
  take(at: number): void {
    // take() has nothing to give before nextAt() (it would only make an empty answer): most batches.
    if (this.due === null || this.due > at) return;
    const ev = this.ev;
    for (const ep of this.episodes.take(at).opened) {
      const d = ep.alert.data as unknown as EpisodeData;
      const li = d.lineId;
      this.alerts.push(scoreAlert(ev, ev.lines[li]!, this.current[li]!, d.side, at, this.model));
    }
    this.due = this.episodes.nextAt();
  }
}

/** The observation of a line's tick, with the fair prices de-vigged once for every rule. */
const observation = (ev: LabEvent, line: LabLine, tick: LabTick, fair: Fair): PriceObservation => ({
  eventId: ev.eventId,
  lineId: line.lineId,
  label: '',
  at: tick.at,
  prices: tick.prices,
  market: line.market,
  fair,
});

/** Whether the tick after `k` is at another moment (a batch ends at `k`). */
const batchEnds = (ev: LabEvent, order: ReadonlyArray<[number, number]>, k: number, at: number) => {
  const next = order[k + 1];
  return !next || ev.lines[next[0]]!.ticks[next[1]]!.at !== at;
};

/** Every tick of the match through the rule's stepLine. */
function replayPlain(run: RuleRun, order: ReadonlyArray<[number, number]>, fairs: ReadonlyArray<readonly Fair[]>) {
  const ev = run.ev;
  const states: Array<LineState | undefined> = ev.lines.map(() => undefined);
  for (let k = 0; k < order.length; k++) {
    const [li, ti] = order[k]!;
    const line = ev.lines[li]!;
    const tick = line.ticks[ti]!;
    run.current[li] = tick;
    if (run.active[li]) {
      const r = stepLine(states[li], observation(ev, line, tick, fairs[li]![ti]!), run.config);
      states[li] = r.state;
      run.add(li, tick, r.alerts);
    }
    if (batchEnds(ev, order, k, tick.at)) run.take(tick.at);
  }
}

/**
 * The rules of one window, stepped only where they can alert. A line's state under stepLine is its sides (each
 * side's open and window samples: sideStep's, which read only the fair prices, their times and the window), the sides
 * it has seen (which, with the fair prices given, change nothing it gives out) and its last drop alert (the rule's
 * own, changed only when it alerts). So the sides are stepped once per line for every rule (sideStep, as stepLine
 * steps them: on a tick with fair prices) and each rule keeps its last drop. A rule's stepLine alerts on a tick only
 * if a side's fair price `to` is a drop (isDrop) from a reference: the last drop's fair price for the side (else its
 * open), or the window's first sample after the step, which is one of the samples before the step or `to` itself (no
 * drop from itself). isDrop grows with its `from` and needs a fall of the rule's size, so when `to` is no drop from
 * the highest of those, the rule cannot alert and the tick is skipped for it; else stepLine runs on a copy of the
 * shared sides with the rule's last drop, and decides. The rules that have not alerted on the line share the bound
 * (the open and the window): none of them is looked at while no side fell by the smallest rule from it.
 */
function replayGroup(runs: RuleRun[], order: ReadonlyArray<[number, number]>, fairs: ReadonlyArray<readonly Fair[]>) {
  const ev = runs[0]!.ev;
  const windowMs = runs[0]!.config.dropWindowMinutes * 60_000;
  const shared: Array<LineState['sides'] | undefined> = ev.lines.map(() => undefined);
  const lastDrops = runs.map(() => ev.lines.map((): LineState['lastDrop'] => undefined));
  /** Per line, the rules that alerted on it (they have a last drop of their own). */
  const armed = ev.lines.map((): number[] => []);
  const anyActive = ev.lines.map((_, li) => runs.some((r) => r.active[li]));
  const rules = runs.map((r) => ({
    dropPct: r.config.dropPct,
    minProbPts: r.config.minProbPts ?? DEFAULT_DROP_MIN_PROB_PTS,
  }));
  const smallest = Math.min(...rules.map((r) => r.dropPct));
  const high: Partial<Record<PriceSide, number>> = {};
  const step = (i: number, li: number, tick: LabTick, fair: Fair) => {
    const run = runs[i]!;
    const pre = shared[li];
    const had = lastDrops[i]![li];
    const r = stepLine(pre && copyOf(pre, had), observation(ev, ev.lines[li]!, tick, fair), run.config);
    lastDrops[i]![li] = r.state.lastDrop;
    if (!had && r.state.lastDrop) armed[li]!.push(i);
    run.add(li, tick, r.alerts);
  };
  for (let k = 0; k < order.length; k++) {
    const [li, ti] = order[k]!;
    const line = ev.lines[li]!;
    const tick = line.ticks[ti]!;
    const fair = fairs[li]![ti]!;
    runs[0]!.current[li] = tick;
    if (fair && tick.prices && anyActive[li]) {
      const pre = shared[li];
      // The largest fall of a side from its open or its window's highest sample (Infinity: a side is new).
      let fall = pre ? -Infinity : Infinity;
      if (pre)
        for (const key in fair) {
          const side = key as PriceSide;
          const h = (high[side] = windowHigh(pre[side]));
          fall =
            h === undefined ? Infinity : Math.max(fall, fairFallPct(Math.max(h, pre[side]!.openFair), fair[side]!));
        }
      // The rules that alerted on the line first (a rule armed below has stepped this tick).
      for (const i of armed[li]!)
        if (canAlert(pre!, lastDrops[i]![li], fair, high, rules[i]!, tick.at, windowMs)) step(i, li, tick, fair);
      if (fall >= smallest - 1e-9)
        for (let i = 0; i < runs.length; i++) {
          if (!runs[i]!.active[li] || lastDrops[i]![li] || fall < rules[i]!.dropPct - 1e-9) continue;
          if (!pre || canAlert(pre, undefined, fair, high, rules[i]!, tick.at, windowMs)) step(i, li, tick, fair);
        }
      const sides = (shared[li] ??= {});
      for (const key in fair) {
        const side = key as PriceSide;
        sides[side] = sideStep(sides[side], fair[side]!, tick.at, windowMs).state;
      }
    }
    if (batchEnds(ev, order, k, tick.at)) for (const run of runs) run.take(tick.at);
  }
}

/** The highest of a side's window samples (undefined: the side is new). */
function windowHigh(s: SideState | undefined): number | undefined {
  if (!s) return undefined;
  let h = -Infinity;
  for (const f of s.fairs) if (f > h) h = f;
  return h;
}

/** Whether a rule could alert on a tick of fair prices `fair` (see replayGroup): false only when it provably cannot. */
function canAlert(
  pre: LineState['sides'],
  lastDrop: LineState['lastDrop'],
  fair: Partial<Record<PriceSide, number>>,
  high: Partial<Record<PriceSide, number>>,
  rule: { dropPct: number; minProbPts: number },
  at: number,
  windowMs: number,
): boolean {
  // As dropStep: within a window of the last drop, no window reference.
  const windowCounts = !lastDrop || at - windowMs >= lastDrop.at;
  for (const k in fair) {
    const side = k as PriceSide;
    const s = pre[side];
    if (!s) return true;
    const from = windowCounts
      ? Math.max(lastDrop?.fair[side] ?? s.openFair, high[side]!)
      : (lastDrop!.fair[side] ?? s.openFair);
    if (isDrop(from, fair[side]!, rule)) return true;
  }
  return false;
}

/** A rule's line state: a copy of the shared sides (stepLine updates their samples in place) and its last drop. */
function copyOf(shared: LineState['sides'], lastDrop: LineState['lastDrop']): LineState {
  const sides: LineState['sides'] = {};
  for (const key in shared) {
    const x = shared[key as PriceSide]!;
    sides[key as PriceSide] = { openFair: x.openFair, ats: x.ats.slice(), fairs: x.fairs.slice() };
  }
  return { sides, seen: [], thresholds: {}, ...(lastDrop ? { lastDrop } : {}) };
}

function scoreAlert(
  ev: LabEvent,
  line: LabLine,
  tick: LabTick,
  side: PriceSide,
  at: number,
  model: DevigModel,
): LabAlert {
  const price = tick.prices?.[side] ?? null;
  const alert: LabAlert = {
    eventId: ev.eventId,
    at,
    lineId: line.lineId,
    side,
    price,
    byBar: tick.byBar,
    clv: null,
    pnl: null,
  };
  if (tick.byBar || price === null) return alert;
  const s = line.settled;
  const r =
    s && ev.status !== null && sameLine(s.line, tick.line, line.market)
      ? settleSide(s, side, ev.score, line.team, ev.status)
      : null;
  // A side the service voided (a match not ended) was never at stake: scored neither as beating the close nor for P/L.
  if (r?.kind === 'settled' && r.result === 'void') return alert;
  const c = line.close;
  if (c && at < c.at && sameLine(c.line, tick.line, line.market)) {
    const fair = fairPrices(c.prices, model)?.[side];
    if (fair !== undefined) alert.clv = clvPct(price, fair);
  }
  if (r?.kind === 'settled') alert.pnl = betPnl(r.result, price, 100);
  return alert;
}
