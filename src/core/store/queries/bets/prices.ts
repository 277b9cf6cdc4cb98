// A price record's columns as the bet log's tables keep them: one per side, with a prefix (open_home, last_draw, ...).
import type { Prices } from '../../../../shared/api';

export const SIDES = ['home', 'draw', 'away', 'over', 'under'] as const;
export type Cols<P extends string> = { [S in (typeof SIDES)[number] as `${P}_${S}`]: number | null };

/** The prices of a row's `prefix` columns; null when it has none. */
export function prices<P extends string>(r: Cols<P>, prefix: P): Prices | null {
  const out: Prices = {};
  for (const s of SIDES) {
    const v = (r as Record<string, number | null>)[`${prefix}_${s}`];
    if (v !== null && v !== undefined) out[s] = v;
  }
  return Object.keys(out).length ? out : null;
}

/** Prices as a row's `prefix` columns (null for a side without one). */
export function priceCols<P extends string>(p: Prices, prefix: P): Cols<P> {
  const out: Record<string, number | null> = {};
  for (const s of SIDES) out[`${prefix}_${s}`] = p[s] ?? null;
  return out as Cols<P>;
}
