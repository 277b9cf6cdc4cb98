// A settled event explained: each line in words with its result per side (a full-match quarter line settled from the
// score: half won / half lost), and the period results, labelled as the service names its periods (tennis games by
// the spec's rule). Shared by the Settlements view and the event detail. The words are the trading module's.
import { useMemo } from 'react';
import type { SettlementDetail } from '../../../shared/ipc/contract';
import { labelPeriod, periodNames, sportHasDraws } from '../../../shared/periods';
import {
  lineWords,
  marketSides,
  settledLineText,
  settlementStatusNote,
  settleSide,
  sideWords,
} from '../../../shared/trading';
import { Outcome } from './Outcome';
import { PeriodResults } from './PeriodResults';

export function SettledLines({ detail }: { detail: SettlementDetail }) {
  const names = useMemo(() => periodNames(detail.periodNames), [detail.periodNames]);
  // Results exist only for sports played in sets: an unnamed sport with results is labelled as one.
  const sport = detail.sportName ?? detail.periodResults.length > 0;
  const s = detail.settlement;
  const score = { home: s.score_home, away: s.score_away };
  const status = settlementStatusNote(s.status);
  const lines = [...s.settlement].sort(
    (a, b) => a.period - b.period || a.market.localeCompare(b.market) || (a.line ?? 0) - (b.line ?? 0),
  );
  return (
    <div className="settled-lines">
      {status && (
        <p className="calm-message" data-testid="settlement-status">
          Status: {status}. The lines below are settled as the service says: a side it pushes is void.
        </p>
      )}
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
            const team = detail.teams?.[l.line_id] ?? null;
            return (
              <tr key={l.line_id} data-testid={`settled-line-${l.line_id}`}>
                <td>{lineWords(l.market, l.line, { team })}</td>
                <td>{labelPeriod(sport, l.period, names)}</td>
                <td>
                  <span className="sides">
                    {/* No draw result for a sport played to a winner: its "draw loses" is no result a trader reads. */}
                    {marketSides(l.market)
                      .filter(
                        (side) =>
                          side !== 'draw' ||
                          sportHasDraws(detail.sportName) ||
                          l.outcome_draw.trim().toLowerCase() !== 'loss',
                      )
                      .map((side) => {
                        const r = settleSide(l, side, score, team, s.status);
                        const words = sideWords(l.market, l.line, side, { team });
                        return (
                          <span className="side" key={side}>
                            {words}{' '}
                            <Outcome
                              value={r.kind === 'settled' ? r.result : null}
                              reason={r.kind === 'by_hand' ? r.reason : undefined}
                              label={words}
                            />
                          </span>
                        );
                      })}
                  </span>
                  <span className="muted line-words" data-testid={`settled-words-${l.line_id}`}>
                    {settledLineText(l, { sport, names, score, team, status: s.status })}
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
