// The rule lab's replay (docs/trading.md, "Scoring a drop rule"): one recorded match, its lines' prices in time
// order, run through the live drop rule for each candidate rule: the per-line rule (../monitor/priceRules.ts,
// stepLine), the trader's scope (../monitor/priceWatch.ts, dropInScope) and the episodes a trader reads
// (../monitor/dropEpisodes.ts): the same code that raises drop alerts live, not a copy. An alert is an episode's
// opening: its top line and side, at that line's price then. Pure: the history comes in as values
// (./history.ts reads it from the store) and the alerts go out with what they would have given (./score.ts sums).
import type { DevigModel } from '../../shared/api';
import type { PriceSide } from '../../shared/domain';
import type { LabRule } from '../../shared/ruleLab';
import {
  betPnl,
  clvPct,
  fairFallPct,
  fairPrices,
  marketKind,
  pricedSides,
  sameLine,
  settleSide,
} from '../../shared/trading';
import { createDropEpisodes, EPISODE_RULES, type EpisodeData } from '../monitor/dropEpisodes';
import { stepLine, type LineState, type PriceRuleConfig } from '../monitor/priceRules';
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
  /** CLV (%) against the fair close under the model: a placed pre-match alert on a line whose close is the same line. */
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

/** The event's ticks in time order (line order within a time): [line index, tick index] pairs. */
function timeline(ev: LabEvent): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  ev.lines.forEach((l, li) => l.ticks.forEach((_, ti) => out.push([li, ti])));
  out.sort((a, b) => ev.lines[a[0]]!.ticks[a[1]]!.at - ev.lines[b[0]]!.ticks[b[1]]!.at || a[0] - b[0]);
  return out;
}

/** Replays one match through each rule: the alerts each would have raised, with what following them gave. */
export function replayEvent(ev: LabEvent, rules: readonly LabRule[], model: DevigModel): LabAlert[][] {
  const { fairs, falls } = fairsOf(ev, model);
  const order = timeline(ev);
  return rules.map((rule) => replayRule(ev, rule, model, order, fairs, falls));
}

function replayRule(
  ev: LabEvent,
  rule: LabRule,
  model: DevigModel,
  order: ReadonlyArray<[number, number]>,
  fairs: ReadonlyArray<readonly Fair[]>,
  falls: readonly number[],
): LabAlert[] {
  // A line whose fair price never fell by the rule from any earlier price can raise nothing: its state is not kept.
  const active = ev.lines.map(
    (l, i) =>
      falls[i]! >= rule.dropPct - 1e-9 && (rule.markets.length === 0 || rule.markets.includes(marketKind(l.market))),
  );
  if (!active.some(Boolean)) return [];
  const config: PriceRuleConfig = {
    dropPct: rule.dropPct,
    minProbPts: rule.minProbPts,
    dropWindowMinutes: rule.dropWindowMinutes,
    hysteresisPct: 0,
    model,
    thresholds: [],
  };
  const scope = { phase: rule.phase, sports: rule.sports };
  const states: Array<LineState | undefined> = ev.lines.map(() => undefined);
  const current: Array<LabTick | undefined> = ev.lines.map(() => undefined);
  const episodes = createDropEpisodes(EPISODE_RULES);
  const alerts: LabAlert[] = [];
  const take = (at: number) => {
    for (const ep of episodes.take(at).opened) {
      const d = ep.alert.data as unknown as EpisodeData;
      const li = ev.lines.findIndex((l) => l.lineId === d.lineId);
      alerts.push(scoreAlert(ev, ev.lines[li]!, current[li]!, d.side, at, model));
    }
  };
  for (let k = 0; k < order.length; k++) {
    const [li, ti] = order[k]!;
    const line = ev.lines[li]!;
    const tick = line.ticks[ti]!;
    current[li] = tick;
    if (active[li]) {
      const r = stepLine(
        states[li],
        {
          eventId: ev.eventId,
          lineId: line.lineId,
          label: '',
          at: tick.at,
          prices: tick.prices,
          market: line.market,
          fair: fairs[li]![ti]!,
        },
        config,
      );
      states[li] = r.state;
      const live = ev.liveFrom !== null && tick.at >= ev.liveFrom;
      for (const a of r.alerts) {
        if (a.kind !== 'drop' || !dropInScope(scope, { sportId: ev.sportId, live })) continue;
        const d = a.data as {
          side: PriceSide;
          from: number;
          to: number;
          pct: number;
          basis: 'open' | 'window' | 'alert';
        };
        episodes.add(
          ev.eventId,
          '',
          {
            lineId: line.lineId,
            line: tick.line,
            side: d.side,
            words: '',
            from: d.from,
            to: d.to,
            pct: d.pct,
            basis: d.basis,
            model,
            message: '',
          },
          tick.at,
        );
      }
    }
    // As live: the batch of one moment is judged whole, then the episodes opened in it are given out.
    const next = order[k + 1];
    if (!next || ev.lines[next[0]]!.ticks[next[1]]!.at !== tick.at) take(tick.at);
  }
  return alerts;
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
  const c = line.close;
  if (c && at < c.at && sameLine(c.line, tick.line, line.market)) {
    const fair = fairPrices(c.prices, model)?.[side];
    if (fair !== undefined) alert.clv = clvPct(price, fair);
  }
  const s = line.settled;
  if (s && ev.status !== null && sameLine(s.line, tick.line, line.market)) {
    const r = settleSide(s, side, ev.score, line.team, ev.status);
    if (r.kind === 'settled' && r.result !== 'void') alert.pnl = betPnl(r.result, price, 100);
  }
  return alert;
}
