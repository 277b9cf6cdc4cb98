// The quota's shares, as pure rules. They are enforced in ONE place: the request governor's admission
// (src/core/api/governor/quotaLedger.ts) asks `headroom` before it sends anything, and refuses a request whose
// purpose has used its share; callers that would rather skip a round quietly ask the governor's `headroom(purpose)`
// first. Nothing else applies these rules.
//
// Settlement discovery (the settled walk and its repairs) and the watched streams' opens are never held back by a
// share: only the budget itself and the service's pauses hold them. Every other purpose spends only what is left
// above a reserve of the hour, kept for discovery and the streams on a bad hour; specials and the trader's
// look-ups each also have a ceiling of their own for the hour.
import type { Purpose } from '../shared/requests';

export interface BudgetView {
  /** The hourly limit in force (the service's headers, else the trader's setting). */
  limit: number;
  /** Requests still available in the window. */
  remaining: number;
  /** Requests sent this hour, by purpose. */
  hourByPurpose: Record<Purpose, number>;
}

/** Kept free of everything but the walk, its repairs and the streams: what they may need on a bad hour. */
export const RESERVE_SHARE = 0.3;
/** At most this share of an hour goes to specials (and outrights). */
export const SPECIALS_SHARE = 0.5;
/** At most this share of an hour goes to the trader's own look-ups (fixtures, coverage, outrights, results, ...). */
export const UI_SHARE = 0.2;

export interface ShareRule {
  /** Spends only what is left above the reserve. */
  aboveReserve: boolean;
  /** At most this share of the hour's limit; null when the purpose has no ceiling of its own. */
  ceiling: number | null;
}

/** Each purpose's share of the hour; null where no share ever holds the purpose back. */
export const SHARES: Readonly<Record<Purpose, ShareRule | null>> = {
  settled: null,
  repair: null,
  stream: null,
  // Period results (watched matches' and others'), and the core's own look-ups (the period list, the first run's
  // live fixtures, anything sent without a purpose of its own).
  results: { aboveReserve: true, ceiling: null },
  lookup: { aboveReserve: true, ceiling: null },
  specials: { aboveReserve: true, ceiling: SPECIALS_SHARE },
  ui: { aboveReserve: true, ceiling: UI_SHARE },
};

/** Requests of the hour kept back from every purpose with a share. */
export function reserveOf(limit: number): number {
  return Math.ceil(limit * RESERVE_SHARE);
}

/** The most requests `purpose` may send in an hour of `limit`; null when it has no ceiling of its own. */
export function ceilingOf(purpose: Purpose, limit: number): number | null {
  const share = SHARES[purpose]?.ceiling;
  return share == null ? null : Math.floor(limit * share);
}

/** What is left above the reserve (negative once the reserve is being spent by the walk and the streams). */
export function spareAboveReserve(b: BudgetView): number {
  return b.remaining - reserveOf(b.limit);
}

/** Which bound of a share stops a purpose: its own ceiling, or the reserve. */
export type ShareBound = 'ceiling' | 'reserve';

/**
 * Requests `purpose` may still send now within its share: the lesser of what its ceiling leaves and what is left
 * above the reserve, never below 0. Infinity for a purpose no share holds back.
 */
export function headroom(purpose: Purpose, b: BudgetView): number {
  const rule = SHARES[purpose];
  if (!rule) return Infinity;
  let room = Infinity;
  const ceiling = ceilingOf(purpose, b.limit);
  if (ceiling !== null) room = Math.min(room, ceiling - b.hourByPurpose[purpose]);
  if (rule.aboveReserve) room = Math.min(room, spareAboveReserve(b));
  return Math.max(0, room);
}

/** Why one more request of `purpose` does not fit its share now (the ceiling first), or null when it fits. */
export function shareBound(purpose: Purpose, b: BudgetView): ShareBound | null {
  const rule = SHARES[purpose];
  if (!rule) return null;
  const ceiling = ceilingOf(purpose, b.limit);
  if (ceiling !== null && b.hourByPurpose[purpose] >= ceiling) return 'ceiling';
  if (rule.aboveReserve && spareAboveReserve(b) <= 0) return 'reserve';
  return null;
}
