// The quota's shares, as pure rules: settlement discovery (the walk and its repairs) and the watched streams are
// never held back here; everything else spends from a share of the hour so it can never starve them. Background
// work (other matches' period results, specials rounds) spends only what is left above a reserve; specials and the
// trader's look-ups each have a ceiling of their own for the hour.
import type { Purpose } from '../shared/requests';

export interface BudgetView {
  /** The hourly limit in force (the service's headers, else the trader's setting). */
  limit: number;
  /** Requests still available in the window. */
  remaining: number;
  /** Requests sent this hour, by purpose. */
  hourByPurpose: Record<Purpose, number>;
}

/** Kept free of background work: what the walk and the streams may need on a bad hour. */
export const RESERVE_SHARE = 0.3;
/** At most this share of an hour goes to specials rounds. */
export const SPECIALS_SHARE = 0.5;
/** At most this share of an hour goes to the trader's own look-ups (fixtures, coverage, outrights, ...). */
export const UI_SHARE = 0.2;

/** Requests background work may still spend now: what is left above the reserve. */
export function spareAboveReserve(b: BudgetView, reserveShare = RESERVE_SHARE): number {
  return b.remaining - Math.ceil(b.limit * reserveShare);
}

/** Requests a specials round may spend now: within its own share of the hour and above the reserve. */
export function specialsAllowance(b: BudgetView): number {
  return Math.min(spareAboveReserve(b), Math.floor(b.limit * SPECIALS_SHARE) - b.hourByPurpose.specials);
}

/** Whether one more look-up for the trader fits its share of the hour (and leaves the reserve alone). */
export function lookupAllowed(b: BudgetView): boolean {
  return b.hourByPurpose.ui < Math.floor(b.limit * UI_SHARE) && spareAboveReserve(b) > 0;
}
