// The bet log's arithmetic, pure: fair (no-vig) prices of a line's sides under a model, closing-line value, a
// bet's result from the settlement line, its P/L, and the Bets view's totals. Shared so the core, the CLI and the
// renderer compute every figure the same way.
import type { DevigModel, Outcome, Prices, SettlementLine } from './api';
import { DEVIG_MODELS, SETTLEMENT_OVER_UNDER_MAPPING } from './api';
import type { BetTotals, PriceSide } from './domain';
import { devig } from './devig';

const ORDER: readonly PriceSide[] = ['home', 'draw', 'away', 'over', 'under'];

/** The priced sides of a line, in a fixed order; a side with a price that is no decimal price is left out. */
export function pricedSides(prices: Prices | null | undefined): PriceSide[] {
  if (!prices) return [];
  return ORDER.filter((s) => {
    const p = prices[s];
    return typeof p === 'number' && Number.isFinite(p) && p > 1;
  });
}

/**
 * Fair prices of every priced side under `model`. A two-way line (over/under, home/away) or a three-way moneyline
 * is one market; a line with fewer than two priced sides has no fair price (null).
 */
export function fairPrices(prices: Prices | null | undefined, model: DevigModel): Partial<Record<PriceSide, number>> | null {
  const sides = pricedSides(prices);
  // Over/under and home/away never mix in one market; a line that carries both is not one we can de-vig.
  const ou = sides.filter((s) => s === 'over' || s === 'under');
  const hda = sides.filter((s) => s !== 'over' && s !== 'under');
  const group = ou.length >= 2 && hda.length === 0 ? ou : hda.length >= 2 && ou.length === 0 ? hda : null;
  if (!group) return null;
  const fair = devig(group.map((s) => prices![s]!), model).fairOdds;
  const out: Partial<Record<PriceSide, number>> = {};
  group.forEach((s, i) => (out[s] = fair[i]!));
  return out;
}

/** CLV in percent: how much better the price taken is than the fair closing price (+ = beat the close). */
export function clvPct(price: number, fairClose: number): number {
  return (price / fairClose - 1) * 100;
}

export function clvByModel(price: number, side: PriceSide, closing: Prices): Record<DevigModel, number> | null {
  const out = {} as Record<DevigModel, number>;
  for (const m of DEVIG_MODELS) {
    const fair = fairPrices(closing, m)?.[side];
    if (fair === undefined) return null;
    out[m] = clvPct(price, fair);
  }
  return out;
}

/** The settlement line's outcome for a side (totals: over in outcome_home, under in outcome_away). */
export function betResult(side: PriceSide, line: Pick<SettlementLine, 'outcome_home' | 'outcome_draw' | 'outcome_away'>): Outcome {
  if (side === 'over' || side === 'under') return line[SETTLEMENT_OVER_UNDER_MAPPING[side]];
  return line[`outcome_${side}`];
}

/** P/L of a settled bet: a win pays stake x (price - 1), a loss costs the stake, a push returns it. */
export function betPnl(result: Outcome, price: number, stake: number): number {
  if (result === 'win') return round2(stake * (price - 1));
  if (result === 'loss') return -stake;
  return 0;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export function betTotals(
  bets: ReadonlyArray<{ stake: number; pnl: number | null; clvByModel: Record<DevigModel, number> | null }>,
  model: DevigModel,
): BetTotals {
  let stake = 0;
  let pnl = 0;
  let settledStake = 0;
  let clvSum = 0;
  let clvCount = 0;
  for (const b of bets) {
    stake += b.stake;
    if (b.pnl !== null) {
      pnl += b.pnl;
      settledStake += b.stake;
    }
    if (b.clvByModel) {
      clvSum += b.clvByModel[model];
      clvCount++;
    }
  }
  return {
    count: bets.length,
    stake: round2(stake),
    averageClv: clvCount ? clvSum / clvCount : null,
    pnl: round2(pnl),
    settledStake: round2(settledStake),
    roi: settledStake > 0 ? (pnl / settledStake) * 100 : null,
  };
}
