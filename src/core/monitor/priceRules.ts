// The price-threshold and drop rules as functions of their inputs: given what a line's state was and one new observation of its
// prices, the next state and the alerts that fire. A drop (docs/trading.md) is a side's fair price SHORTENING by the
// rule (relative fall of the fair price) with the fair probability rising by at least a minimum, since the open or
// within the window; a drift is never a drop. After a drop alert the line's reference is the price it alerted at: it
// alerts again when it moves by the rule again from there (a steam move is never silent), and within the window no
// earlier price than the alert counts. A market that has had a side (a draw) and lacks it now has no fair price until
// the side is back: it neither moves nor alerts. A threshold that fired is crossed back only past a band around it.
// A line's drop rule alerts once for the line, not once per side. No I/O and no clock; the state handed in is the
// caller's and is updated in place (see sideStep). ./priceWatch.ts feeds it the coalesced batches.
import type { DevigModel, Prices } from '../../shared/api';
import type { NewAlert, PriceSide, PriceThreshold } from '../../shared/domain';
import {
  DEFAULT_DROP_MIN_PROB_PTS,
  fairFallPct,
  fairPrices,
  isDrop,
  pricedSides,
  sideWords,
} from '../../shared/trading';
import { formatPct } from './alertRules';

/** A drop alert's data, as dropStep writes it: what the episodes (./priceWatch.ts) and the rule lab read back. */
export interface DropAlertData {
  lineId: number;
  side: PriceSide;
  from: number;
  to: number;
  /** The fall, negative (-7.3 for a 7.3% drop). */
  pct: number;
  basis: 'open' | 'window' | 'alert';
  model: DevigModel;
  at: number;
}

/** The data of a drop alert (kind 'drop') from stepLine. */
export const dropAlertData = (alert: NewAlert): DropAlertData => alert.data as DropAlertData;

export interface PriceRuleConfig {
  /** A side's fair price shortening at least this many percent (since the open, or within the window) alerts. 0 = off. */
  dropPct: number;
  /** ... with its fair probability rising at least this many percentage points (default 1): a longshot's tick is no drop. */
  minProbPts?: number;
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
  /** Every side the line has been priced on: a market lacking one of them now is partial and has no fair price. */
  seen: PriceSide[];
  /**
   * The line's last drop alert: when, and each side's fair price then. It replaces the open as the reference, and
   * within one window of it no earlier price counts, so the same move never alerts twice and a further steam of the
   * rule's size always does.
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
  /** The line's market, value and team (a team total's), to name a side in words; without them the side's word alone. */
  market?: string;
  line?: number | null;
  team?: 'home' | 'away' | null;
  /**
   * The fair prices fairPrices(prices, model, seen) gives, when the caller has them already: the rule lab
   * (src/core/lab) replays each recorded tick through many rules and de-vigs it once.
   */
  fair?: Partial<Record<PriceSide, number>> | null;
}

export const thresholdKey = (t: Pick<PriceThreshold, 'side' | 'price'>) => `${t.side}@${t.price}`;

/**
 * A window keeps at most one sample per 1/WINDOW_SLICES of its length (the latest in that slice), so a side's memory
 * and the work per observation are bounded however fast its prices tick: the window's start is then known to within
 * one slice (7.5 s of a 15-minute window). Without it a line ticking every second kept 900 samples a side and copied
 * them on every tick.
 */
export const WINDOW_SLICES = 120;

/**
 * A side's new state and the fair price in effect at the window's start. The side's samples are
 * updated in place (a line's state belongs to its caller, which hands back the state it was given last): at 2,000
 * updates a second, copying each window on every tick was most of the rule's cost. (The rule lab, src/core/lab,
 * steps a line's sides once for all its rules of one window.)
 */
export function sideStep(
  prev: SideState | undefined,
  fair: number,
  at: number,
  windowMs: number,
): { state: SideState; windowRef: number } {
  if (!prev) return { state: { openFair: fair, ats: [at], fairs: [fair] }, windowRef: fair };
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
  return { state: prev, windowRef };
}

/**
 * The drop rule of one line: one alert per line, however many of its sides shortened (it names the side that fell
 * most). References per side: the open (or, once the line alerted, the fair price it alerted at) and the fair price
 * in effect at the window's start (unless that was before the last alert).
 */
function dropStep(
  prev: LineState | undefined,
  fair: Partial<Record<PriceSide, number>>,
  o: PriceObservation,
  c: PriceRuleConfig,
): { sides: LineState['sides']; lastDrop?: LineState['lastDrop']; alert: NewAlert | null } {
  const windowMs = c.dropWindowMinutes * 60_000;
  const sides: LineState['sides'] = { ...prev?.sides };
  const lastDrop = prev?.lastDrop;
  const rule = { dropPct: c.dropPct, minProbPts: c.minProbPts ?? DEFAULT_DROP_MIN_PROB_PTS };
  let pick: { side: PriceSide; fall: number; from: number; to: number; basis: 'open' | 'window' | 'alert' } | null =
    null;
  for (const k in fair) {
    const side = k as PriceSide;
    const to = fair[side]!;
    const r = sideStep(prev?.sides[side], to, o.at, windowMs);
    sides[side] = r.state;
    // The references, in order: the last drop's fair price (else the open), then the window's start (not before the
    // last drop). The first of the largest falls is picked.
    const anchor = lastDrop?.fair[side];
    for (let ref = 0; ref < 2; ref++) {
      if (ref === 1 && lastDrop && o.at - windowMs < lastDrop.at) break;
      const from = ref === 1 ? r.windowRef : anchor !== undefined ? anchor : r.state.openFair;
      if (!isDrop(from, to, rule)) continue;
      const fall = fairFallPct(from, to);
      const basis = ref === 1 ? 'window' : anchor !== undefined ? 'alert' : 'open';
      if (!pick || fall > pick.fall) pick = { side, fall, from, to, basis };
    }
  }
  // isDrop is false for a rule of 0 (off), so no pick then either.
  if (!pick) return { sides, alert: null };
  const basis =
    pick.basis === 'open'
      ? 'since the open'
      : pick.basis === 'alert'
        ? 'since the last drop alert'
        : `in ${c.dropWindowMinutes} min`;
  const side = o.market ? sideWords(o.market, o.line ?? null, pick.side, { team: o.team ?? null }) : pick.side;
  return {
    sides,
    lastDrop: { at: o.at, fair: { ...fair } },
    alert: {
      kind: 'drop',
      eventId: o.eventId,
      message: `${side} fair ${pick.from.toFixed(3)} → ${pick.to.toFixed(3)} (${formatPct(-pick.fall)} ${basis}, ${c.model}) on ${o.label}`,
      data: {
        lineId: o.lineId,
        side: pick.side,
        from: pick.from,
        to: pick.to,
        pct: -pick.fall,
        basis: pick.basis,
        model: c.model,
        at: o.at,
      } satisfies DropAlertData,
    },
  };
}

function thresholdStep(
  prev: ThresholdState | undefined,
  price: number,
  t: PriceThreshold,
  o: PriceObservation,
  c: PriceRuleConfig,
): { state: ThresholdState | undefined; alert: NewAlert | null } {
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
      message: `${o.market ? sideWords(o.market, o.line ?? null, t.side, { team: o.team ?? null }) : t.side} price ${price} crossed ${t.price} ${direction === 'down' ? '↓' : '↑'} on ${o.label}`,
      data: { lineId: o.lineId, side: t.side, threshold: t.price, price, direction, at: o.at },
    },
  };
}

/**
 * One observation of a line: its next state and the alerts that fire. An offline line (null prices) changes nothing;
 * a partial one (lacking a side it has had) has no fair price, so the drop rule waits for the side to come back.
 */
export function stepLine(
  prev: LineState | undefined,
  o: PriceObservation,
  c: PriceRuleConfig,
): { state: LineState; alerts: NewAlert[] } {
  const alerts: NewAlert[] = [];
  const priced = pricedSides(o.prices);
  const seen = prev?.seen ?? [];
  const fair =
    !o.prices || priced.length === 0 ? null : o.fair !== undefined ? o.fair : fairPrices(o.prices, c.model, seen);
  // The drop rule's step makes the line's new sides (the old ones' container is not copied twice).
  const drop = fair ? dropStep(prev, fair, o, c) : null;
  const state: LineState = {
    sides: drop ? drop.sides : { ...prev?.sides },
    seen,
    thresholds: { ...prev?.thresholds },
    ...(prev?.lastDrop ? { lastDrop: prev.lastDrop } : {}),
  };
  if (!o.prices || priced.length === 0) return { state, alerts };
  let grown: PriceSide[] | null = null;
  for (const side of priced) if (!seen.includes(side)) (grown ??= []).push(side);
  if (grown) state.seen = [...seen, ...grown];
  if (drop) {
    if (drop.lastDrop) state.lastDrop = drop.lastDrop;
    if (drop.alert) alerts.push(drop.alert);
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
