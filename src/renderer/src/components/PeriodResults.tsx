// An event's period results as a table, sorted by period: in the settlement explained (the Settlements view and a
// settled event's detail) and in a live event's detail, which adds each period's status. A cancelled period says so
// in the status column where there is one, else in place of its sets.
import type { PeriodResultView } from '../../../shared/domain';
import { fmtScore } from '../format';

export function PeriodResults({
  results,
  testId,
  withStatus = false,
}: {
  results: readonly PeriodResultView[];
  testId: string;
  withStatus?: boolean;
}) {
  const sorted = [...results].sort((a, b) => a.period - b.period);
  const cancelled = (r: PeriodResultView) => (r.cancellationReason ? `cancelled: ${r.cancellationReason}` : null);
  return (
    <table className="grid" data-testid={testId}>
      <thead>
        <tr>
          <th>Period</th>
          <th className="num">Score</th>
          <th className="num">Sets</th>
          {withStatus && <th>Status</th>}
        </tr>
      </thead>
      <tbody>
        {sorted.map((r) => (
          <tr key={`${r.period}-${r.settlementId}`} data-testid={`period-result-${r.period}`}>
            <td>{r.periodLabel}</td>
            <td className="num">{fmtScore(r.scoreHome, r.scoreAway) || '—'}</td>
            <td className="num">{(!withStatus && cancelled(r)) || fmtScore(r.setsHome, r.setsAway) || '—'}</td>
            {withStatus && (
              <td className="muted">{cancelled(r) ?? (r.status === 1 ? 'settled' : `status ${r.status}`)}</td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
