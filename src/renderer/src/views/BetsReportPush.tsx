// The ledger report's expected value on lines that can push (docs/trading.md, "The ledger report"; issue 35, class
// 3): under the chart, where each counted bet's push share came from, so the expected-value line is never read as
// stake x CLV where part of the stake comes back. Kept apart from BetsReport.tsx's axes and counts.
import type { LedgerReport } from '../../../shared/ledger';

const count = (n: number) => n.toLocaleString('en-US');
const bets = (n: number) => `${count(n)} ${n === 1 ? 'bet' : 'bets'}`;

export function PushShareNote({ report }: { report: LedgerReport }) {
  const p = report.pushSources;
  if (p.draw === 0 && p.unknown === 0) {
    return (
      <p className="muted small-text" data-testid="report-push-share" data-draw={0} data-unknown={0}>
        Push share: none of these lines can push, so expected value is stake × CLV.
      </p>
    );
  }
  return (
    <p className="muted small-text" data-testid="report-push-share" data-draw={p.draw} data-unknown={p.unknown}>
      Push share{' '}
      {p.draw > 0 && (
        <span data-testid="report-push-share-draw">
          from the match&apos;s closing three-way moneyline (its fair draw, {report.model}) for {bets(p.draw)} on draw
          no bet and the ±0.25 lines next to it
          {p.unknown > 0 ? '; ' : '.'}
        </span>
      )}
      {p.unknown > 0 && (
        <span className="warn-text" data-testid="report-push-share-unknown">
          not known for {bets(p.unknown)} on lines that can push (no close of the match gives it): left out of the
          expected value, whose stake × CLV would only be an upper bound.
        </span>
      )}
    </p>
  );
}
