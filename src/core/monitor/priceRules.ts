// The price-threshold and drop rules as functions of their inputs: given what a line's state was and one new observation of its
// prices, the next state and the alerts that fire. Hysteresis lives here: a threshold that fired is crossed back only
// past a band around it, and a drop that fired re-arms only once the move has shrunk below the rule less the band,
// so a price flickering around a level alerts once; within a drop window of its last alert a line alerts again only
// on a further move by the rule. A line's drop rule alerts once for the line, not once per side. No I/O and no
// clock; the state handed in is the caller's and is updated in place (see sideStep). ./priceWatch.ts feeds it the
// coalesced batches.
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
  /**
   * Fair prices within the window (plus the one in effect at its start), oldest first, as two arrays of plain
   * numbers (times and prices): V8 keeps those unboxed. 7,500 sides of 120 samples took 74 MB of heap as an object
   * per sample, 19 MB as these arrays; a full window is reached after one drop window of ticking.
   */
  ats: number[];
  fairs: number[];
}

export interface ThresholdState {
  where: 'above' | 'below';
  /** Once a threshold fired, crossing back needs the band. */
  fired: boolean;
}

export interface LineState {
  sides: Partial<Record<PriceSide, SideState>>;
  /** The line's drop alert fired and its sides have not calmed since. */
  dropFired: boolean;
  /**
   * The line's last drop alert: when, and each side's fair price then. Within one drop window of it the line alerts
   * again only on a further move by the rule from those prices, so a line swinging about the rule (a volatile match,
   * a busy day's random walk) says so once per window, not at each swing past the band.
   */
  lastDrop?: { at: number; fair: Partial<Record<PriceSide, number>> };
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

/**
 * A window keeps at most one sample per 1/WINDOW_SLICES of its length (the latest in that slice), so a side's memory
 * and the work per observation are bounded however fast its prices tick: the window's start is then known to within
 * one slice (7.5 s of a 15-minute window). Without it a line ticking every second kept 900 samples a side and copied
 * them on every tick.
 */
export const WINDOW_SLICES = 120;

/**
 * A side's new state and its two moves (percent): since the open, and within the window. The side's samples are
 * updated in place (a line's state belongs to its caller, which hands back the state it was given last): at 2,000
 * updates a second, copying each window on every tick was most of the rule's cost.
 */
function sideStep(prev: SideState | undefined, fair: number, at: number, windowMs: number): { state: SideState; sinceOpen: number; inWindow: number; windowRef: number } {
  if (!prev) return { state: { openFair: fair, ats: [at], fairs: [fair] }, sinceOpen: 0, inWindow: 0, windowRef: fair };
  const start = at - windowMs;
  const slice = windowMs / WINDOW_SLICES;
  const { ats, fairs } = prev;
  const n = ats.length;
  // A sample in the same slice as the one before it replaces that one (unless that one is the only sample left).
  if (slice > 0 && n > 1 && Math.floor(ats[n - 1]! / slice) === Math.floor(at / slice)) {
    ats[n - 1] = at;
    fairs[n - 1] = fair;
  } else {
    ats.push(at);
    fairs.push(fair);
  }
  // Keep the sample in effect at the window's start and everything after it: memory bounded by the window. The first
  // kept sample is then the fair price in effect at the window's start (or the oldest known, for a young line).
  let drop = 0;
  while (drop + 1 < ats.length && ats[drop + 1]! <= start) drop++;
  if (drop > 0) {
    ats.splice(0, drop);
    fairs.splice(0, drop);
  }
  const windowRef = fairs[0]!;
  return { state: prev, sinceOpen: pct(prev.openFair, fair), inWindow: pct(windowRef, fair), windowRef };
}

/**
 * The drop rule of one line: one alert per line, however many of its sides moved (a two-way line's sides always
 * move together). It names the side that shortened most when that one moved by the rule, else the biggest mover.
 */
function dropStep(
  prev: LineState | undefined,
  fair: Partial<Record<PriceSide, number>>,
  o: PriceObservation,
  c: PriceRuleConfig,
): { sides: LineState['sides']; dropFired: boolean; lastDrop?: LineState['lastDrop']; alert: NewAlert | null } {
  const windowMs = c.dropWindowMinutes * 60_000;
  const sides: LineState['sides'] = { ...prev?.sides };
  const moves: Array<{ side: PriceSide; move: number; from: number; to: number; basis: 'open' | 'window' }> = [];
  for (const side of Object.keys(fair) as PriceSide[]) {
    const r = sideStep(prev?.sides[side], fair[side]!, o.at, windowMs);
    sides[side] = r.state;
    const open = { side, move: r.sinceOpen, from: r.state.openFair, to: fair[side]!, basis: 'open' as const };
    const win = { side, move: r.inWindow, from: r.windowRef, to: fair[side]!, basis: 'window' as const };
    moves.push(Math.abs(win.move) > Math.abs(open.move) ? win : open, ...(Math.abs(win.move) > Math.abs(open.move) ? [open] : [win]));
  }
  const wasFired = prev?.dropFired ?? false;
  const lastDrop = prev?.lastDrop;
  if (c.dropPct <= 0) return { sides, dropFired: wasFired, alert: null };
  const biggest = Math.max(0, ...moves.map((m) => Math.abs(m.move)));
  if (wasFired) return { sides, dropFired: biggest >= c.dropPct - c.hysteresisPct, alert: null };
  if (biggest < c.dropPct) return { sides, dropFired: false, alert: null };
  if (lastDrop && o.at - lastDrop.at < windowMs) {
    const further = Object.entries(fair).some(([side, f]) => {
      const then = lastDrop.fair[side as PriceSide];
      return then !== undefined && Math.abs(pct(then, f)) >= c.dropPct;
    });
    if (!further) return { sides, dropFired: false, alert: null };
  }
  const shortest = moves.reduce((a, b) => (b.move < a.move ? b : a));
  const pick = -shortest.move >= c.dropPct ? shortest : moves.reduce((a, b) => (Math.abs(b.move) > Math.abs(a.move) ? b : a));
  const basis = pick.basis === 'open' ? 'since the open' : `in ${c.dropWindowMinutes} min`;
  return {
    sides,
    dropFired: true,
    lastDrop: { at: o.at, fair: { ...fair } },
    alert: {
      kind: 'drop',
      eventId: o.eventId,
      message: `${pick.side} fair ${pick.from.toFixed(3)} → ${pick.to.toFixed(3)} (${formatPct(pick.move)} ${basis}, ${c.model}) on ${o.label}`,
      data: { lineId: o.lineId, side: pick.side, from: pick.from, to: pick.to, pct: pick.move, basis: pick.basis, model: c.model, at: o.at },
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
  const state: LineState = { sides: { ...prev?.sides }, dropFired: prev?.dropFired ?? false, thresholds: { ...prev?.thresholds }, ...(prev?.lastDrop ? { lastDrop: prev.lastDrop } : {}) };
  const alerts: NewAlert[] = [];
  if (!o.prices || pricedSides(o.prices).length === 0) return { state, alerts };
  const fair = fairPrices(o.prices, c.model);
  if (fair) {
    const r = dropStep(prev, fair, o, c);
    state.sides = r.sides;
    state.dropFired = r.dropFired;
    if (r.lastDrop) state.lastDrop = r.lastDrop;
    if (r.alert) alerts.push(r.alert);
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
