// The report's table: P/L, ROI, CLV, the beat-the-close rate and expected value for all bets, then by sport, league,
// market, side, odds band and model.
import { LEDGER_DIMENSION_NAMES, oddsBandLabel, type LedgerGroup, type LedgerReport } from '../../../../shared/ledger';
import { formatPercent } from '../../../../shared/formats';
import { useOddsFormat } from '../../format';
import { count, fmtEdge, tone, type Money } from './figures';

/** The beat-the-close rate with its counts: "55.0% (11 of 20)". */
export const beat = (g: LedgerGroup) =>
  g.beatRate === null ? '—' : `${formatPercent(g.beatRate)} (${count(g.beatClose)} of ${count(g.clvBets)})`;

export function Breakdowns({ report, money }: { report: LedgerReport; money: Money }) {
  const format = useOddsFormat();
  const row = (dimension: string, g: LedgerGroup, label: string) => {
    const id = `report-row-${dimension}-${g.key}`;
    return (
      <tr key={id} data-testid={id}>
        <td>{label}</td>
        <td className="num" data-testid={`${id}-bets`}>
          {count(g.bets)}
        </td>
        <td className="num">{count(g.settled)}</td>
        <td className="num">{money(g.stake)}</td>
        <td className={`num ${tone(g.pnl)}`} data-testid={`${id}-pnl`}>
          {money(g.pnl, true)}
        </td>
        <td className={`num ${tone(g.roi)}`} data-testid={`${id}-roi`}>
          {fmtEdge(g.roi)}
        </td>
        <td className="num">{count(g.clvBets)}</td>
        <td className={`num ${tone(g.averageClv)}`} data-testid={`${id}-clv`}>
          {fmtEdge(g.averageClv)}
        </td>
        <td className="num" data-testid={`${id}-beat`}>
          {beat(g)}
        </td>
        <td className={`num ${tone(g.ev)}`}>{money(g.ev, true)}</td>
      </tr>
    );
  };
  return (
    <table className="grid" data-testid="report-breakdowns" style={{ marginTop: 8 }}>
      <thead>
        <tr>
          <th />
          <th className="num">Bets</th>
          <th className="num">Settled</th>
          <th className="num">Stake</th>
          <th className="num">P/L</th>
          <th className="num">ROI</th>
          <th className="num" title="Bets whose CLV counts">
            CLV bets
          </th>
          <th className="num">Average CLV</th>
          <th className="num">Beat the close</th>
          <th
            className="num"
            title="Σ stake × (1 − push share) × CLV over the bets whose CLV counts and whose push share is known"
          >
            Expected value
          </th>
        </tr>
      </thead>
      <tbody>
        {row('all', report.total, 'All bets')}
        {report.breakdowns.map((d) => [
          <tr key={`head-${d.dimension}`}>
            <th colSpan={10} style={{ textAlign: 'left', paddingTop: 10 }}>
              By {LEDGER_DIMENSION_NAMES[d.dimension].toLowerCase()}
              {d.dimension === 'model' && (
                <span className="muted small-text"> (P/L does not depend on the model; CLV is under each)</span>
              )}
              {d.dimension === 'oddsBand' && <span className="muted small-text"> (the price taken)</span>}
            </th>
          </tr>,
          ...d.groups.map((g) =>
            row(
              d.dimension,
              g,
              d.dimension === 'oddsBand' && g.band
                ? oddsBandLabel(g.band, format)
                : d.dimension === 'model' && g.key === report.model
                  ? `${g.label} (yours)`
                  : g.label,
            ),
          ),
        ])}
      </tbody>
    </table>
  );
}
