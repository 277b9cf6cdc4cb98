// How the bet log and its report write their figures: edges (CLV, ROI) as signed percentages with two decimals,
// coloured by the sign of what is shown; money in the trader's unit; counts with thousands separators.
import type { ReactNode } from 'react';
import { EDGE_PCT_DECIMALS, formatPercent, toneOf } from '../../../../shared/formats';
import { formatMoney } from '../../../../shared/trading';
import { useStore } from '../../store';

/** CLV or ROI: "+2.35%". */
export const fmtEdge = (x: number | null | undefined) => formatPercent(x, { sign: true, decimals: EDGE_PCT_DECIMALS });
// CLV, ROI and P/L all have two decimals as shown: the colour follows the sign of what is shown.
export const tone = (x: number | null | undefined) => toneOf(x, EDGE_PCT_DECIMALS);
export const count = (n: number) => n.toLocaleString('en-US');

/** An amount in the trader's unit, "—" for none; `sign` writes "+" before a gain. */
export type Money = (n: number | null, sign?: boolean) => string;

export function useMoney(): Money {
  const unit = useStore((s) => s.settings?.moneyUnit ?? '');
  return (n, sign = false) => (n === null ? '—' : formatMoney(n, unit, { sign }));
}

/** One figure of a totals list (`<dl className="totals">`): its term and its value. */
export function Total({
  term,
  testId,
  className,
  children,
}: {
  term: ReactNode;
  testId: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div>
      <dt>{term}</dt>
      <dd className={className} data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** Stake, P/L and ROI, the figures the bet log and its report both total (test ids `${prefix}-stake`, ...). */
export function StakeTotals({
  prefix,
  stake,
  pnl,
  roi,
  money,
}: {
  prefix: string;
  stake: number;
  pnl: number | null;
  roi: number | null;
  money: Money;
}) {
  return (
    <>
      <Total term="Stake" testId={`${prefix}-stake`}>
        {money(stake)}
      </Total>
      <Total term="P/L" testId={`${prefix}-pnl`} className={tone(pnl)}>
        {money(pnl, true)}
      </Total>
      <Total term="ROI" testId={`${prefix}-roi`} className={tone(roi)}>
        {fmtEdge(roi)}
      </Total>
    </>
  );
}
