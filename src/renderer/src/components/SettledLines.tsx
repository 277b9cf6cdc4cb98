// A settled event explained: each line in words with its W/L/P per side, and the period results, labelled as the
// service names its periods (tennis games by the spec's rule). Shared by the Settlements view and the event detail.
import { useMemo } from 'react';
import type { SettlementDetail } from '../../../shared/ipc/contract';
import { labelPeriod, marketLabel, periodNames, settledLineWords, sideNames } from '../../../shared/periods';
import { Outcome } from './Outcome';
import { PeriodResults } from './PeriodResults';

export function SettledLines({ detail }: { detail: SettlementDetail }) {
  const names = useMemo(() => periodNames(detail.periodNames), [detail.periodNames]);
  // Results exist only for sports played in sets: an unnamed sport with results is labelled as one.
  const sport = detail.sportName ?? detail.periodResults.length > 0;
  const s = detail.settlement;
  const lines = [...s.settlement].sort((a, b) => a.period - b.period || a.market.localeCompare(b.market) || (a.line ?? 0) - (b.line ?? 0));
  return (
    <div className="settled-lines">
      <table className="grid" data-testid="settled-lines">
        <thead>
          <tr>
            <th>Line</th>
            <th>Period</th>
            <th>Result</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((l) => {
            const sides = sideNames(l.market);
            return (
              <tr key={l.line_id} data-testid={`settled-line-${l.line_id}`}>
                <td>{marketLabel(l.market, l.line)}</td>
                <td>{labelPeriod(sport, l.period, names)}</td>
                <td>
                  <span className="sides">
                    <span className="side">
                      {sides.home} <Outcome value={l.outcome_home} label={sides.home} />
                    </span>
                    {sides.draw !== null && (
                      <span className="side">
                        {sides.draw} <Outcome value={l.outcome_draw} label={sides.draw} />
                      </span>
                    )}
                    <span className="side">
                      {sides.away} <Outcome value={l.outcome_away} label={sides.away} />
                    </span>
                  </span>
                  <span className="muted line-words" data-testid={`settled-words-${l.line_id}`}>
                    {settledLineWords(l, sport, names)}
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <h4>Period results</h4>
      {detail.periodResults.length === 0 ? (
        <p className="calm-message" data-testid="period-results-none">
          No period results: the service publishes them for sports played in sets, sometimes after the settlement.
        </p>
      ) : (
        <PeriodResults results={detail.periodResults} testId="settlement-period-results" />
      )}
    </div>
  );
}
