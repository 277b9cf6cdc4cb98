// The price-threshold and drop rules as pure functions: given what a line's state was and one new observation of its
// prices, the next state and the alerts that fire. Hysteresis lives here: a threshold that fired is crossed back only
// past a band around it, and a drop that fired re-arms only once the move has shrunk below the rule less the band,
// so a price flickering around a level alerts once. No I/O; ./priceWatch.ts feeds it the coalesced batches.
import type { DevigModel, Prices } from '../../shared/api';
import { fairPrices, pricedSides } from '../../shared/bets';
import type { NewAlert, PriceSide, PriceThreshold } from '../../shared/domain';
import { formatPct } from './alertRules';

export interface PriceRuleConfig {
  /** A side's fair price moving at least this many percent (since the open, or within the window) alerts. 0 = off. */
  dropPct: number;
  dropWindowMinutes: number;
  /** The band, in percent of the price, a rule must be crossed back by before it can fire again. */
  hysteresisPct: number;
  model: DevigModel;
  /** This line's thresholds. */
  thresholds: readonly PriceThreshold[];
}

export interface SideState {
  /** The first fair price seen: the open. */
  openFair: number;
  /** Fair prices within the window (plus the one in effect at its start), oldest first. */
  samples: Array<{ at: number; fair: number }>;
  dropFired: boolean;
}

export interface ThresholdState {
  where: 'above' | 'below';
  /** Once a threshold fired, crossing back needs the band. */
  fired: boolean;
}

export interface LineState {
  sides: Partial<Record<PriceSide, SideState>>;
  /** Keyed `${side}@${price}`. */
  thresholds: Record<string, ThresholdState>;
}

export interface PriceObservation {
  eventId: number;
  lineId: number;
  label: string;
  at: number;
  prices: Prices | null;
}

export const thresholdKey = (t: Pick<PriceThreshold, 'side' | 'price'>) => `${t.side}@${t.price}`;

const pct = (from: number, to: number) => ((to - from) / from) * 100;

/** The fair price in effect at `at` (the last sample at or before it), else the oldest sample. */
function fairAsOf(samples: SideState['samples'], at: number): number | undefined {
  let found: number | undefined = samples[0]?.fair;
  for (const s of samples) {
    if (s.at > at) break;
    found = s.fair;
  }
  return found;
}

function dropStep(
  prev: SideState | undefined,
  fair: number,
  o: PriceObservation,
  side: PriceSide,
  c: PriceRuleConfig,
): { state: SideState; alert: NewAlert | null } {
  const windowMs = c.dropWindowMinutes * 60_000;
  if (!prev) return { state: { openFair: fair, samples: [{ at: o.at, fair }], dropFired: false }, alert: null };
  const start = o.at - windowMs;
  const samples = [...prev.samples, { at: o.at, fair }];
  // Keep the sample in effect at the window's start and everything after it: memory bounded by the window.
  let firstKept = 0;
  while (firstKept + 1 < samples.length && samples[firstKept + 1]!.at <= start) firstKept++;
  const kept = samples.slice(firstKept);
  const sinceOpen = pct(prev.openFair, fair);
  const windowRef = fairAsOf(kept, start) ?? fair;
  const inWindow = pct(windowRef, fair);
  const biggest = Math.abs(inWindow) > Math.abs(sinceOpen) ? { move: inWindow, basis: 'window' as const } : { move: sinceOpen, basis: 'open' as const };
  const state: SideState = { openFair: prev.openFair, samples: kept, dropFired: prev.dropFired };
  if (c.dropPct <= 0) return { state, alert: null };
  if (prev.dropFired) {
    if (Math.abs(sinceOpen) < c.dropPct - c.hysteresisPct && Math.abs(inWindow) < c.dropPct - c.hysteresisPct) state.dropFired = false;
    return { state, alert: null };
  }
  if (Math.abs(biggest.move) < c.dropPct) return { state, alert: null };
  state.dropFired = true;
  const from = biggest.basis === 'open' ? prev.openFair : windowRef;
  const basis = biggest.basis === 'open' ? 'since the open' : `in ${c.dropWindowMinutes} min`;
  return {
    state,
    alert: {
      kind: 'drop',
      eventId: o.eventId,
      message: `${side} fair ${from.toFixed(3)} → ${fair.toFixed(3)} (${formatPct(biggest.move)} ${basis}, ${c.model}) on ${o.label}`,
      data: { lineId: o.lineId, side, from, to: fair, pct: biggest.move, basis: biggest.basis, model: c.model, at: o.at },
    },
  };
}

function thresholdStep(prev: ThresholdState | undefined, price: number, t: PriceThreshold, o: PriceObservation, c: PriceRuleConfig): { state: ThresholdState | undefined; alert: NewAlert | null } {
  if (!prev) {
    // The first sight only says which side of X the price is on; exactly at X waits for a move.
    if (price === t.price) return { state: undefined, alert: null };
    return { state: { where: price > t.price ? 'above' : 'below', fired: false }, alert: null };
  }
  const band = prev.fired ? c.hysteresisPct / 100 : 0;
  const crossedDown = prev.where === 'above' && price <= t.price * (1 - band);
  const crossedUp = prev.where === 'below' && price >= t.price * (1 + band);
  if (!crossedDown && !crossedUp) return { state: prev, alert: null };
  const direction = crossedDown ? 'down' : 'up';
  return {
    state: { where: crossedDown ? 'below' : 'above', fired: true },
    alert: {
      kind: 'price',
      eventId: o.eventId,
      message: `${t.side} price ${price} crossed ${t.price} ${direction === 'down' ? '↓' : '↑'} on ${o.label}`,
      data: { lineId: o.lineId, side: t.side, threshold: t.price, price, direction, at: o.at },
    },
  };
}

/** One observation of a line: its next state and the alerts that fire. An offline line (null prices) changes nothing. */
export function stepLine(prev: LineState | undefined, o: PriceObservation, c: PriceRuleConfig): { state: LineState; alerts: NewAlert[] } {
  const state: LineState = { sides: { ...prev?.sides }, thresholds: { ...prev?.thresholds } };
  const alerts: NewAlert[] = [];
  if (!o.prices || pricedSides(o.prices).length === 0) return { state, alerts };
  const fair = fairPrices(o.prices, c.model);
  if (fair) {
    for (const side of Object.keys(fair) as PriceSide[]) {
      const r = dropStep(prev?.sides[side], fair[side]!, o, side, c);
      state.sides[side] = r.state;
      if (r.alert) alerts.push(r.alert);
    }
  }
  for (const t of c.thresholds) {
    if (t.lineId !== o.lineId) continue;
    const price = o.prices[t.side];
    if (typeof price !== 'number') continue;
    const key = thresholdKey(t);
    const r = thresholdStep(prev?.thresholds[key], price, t, o, c);
    if (r.state) state.thresholds[key] = r.state;
    if (r.alert) alerts.push(r.alert);
  }
  return { state, alerts };
}
