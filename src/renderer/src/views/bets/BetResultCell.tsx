// A bet's result in its row of the bet log: in words, re-settled from what to what, undone when set by hand, or the
// trader's five results to choose from when the app cannot settle it.
import type { BetView, HandResult } from '../../../../shared/domain';
import { BET_RESULTS, resultWords } from '../../../../shared/trading';

const scoreText = (s: { home: number; away: number } | null) => (s ? `${s.home}–${s.away}` : '?');

/**
 * A bet whose match the service settled again with another result: marked, with the change from what to what
 * ("re-settled: lost → won, 2–3 → 99–99"); the result beside it is the current one.
 */
function Resettled({ bet }: { bet: BetView }) {
  const r = bet.resettled;
  if (!r) return null;
  const from = r.fromResult === null ? 'open' : resultWords(r.fromResult);
  const to = bet.result === null ? 'open' : resultWords(bet.result);
  const change = `${from} → ${to}, ${scoreText(r.fromScore)} → ${scoreText(r.toScore)}`;
  return (
    <>
      {' '}
      <span
        className="badge warn"
        data-testid="bet-resettled"
        title={`The match was settled again with another result: ${change}`}
      >
        re-settled
      </span>{' '}
      <span className="muted small-text" data-testid="bet-resettled-from">
        {change}
      </span>
    </>
  );
}

/** A bet's result in words; a bet the app cannot settle says why and offers the trader the five results. */
export function BetResultCell({ bet, onSettle }: { bet: BetView; onSettle(result: HandResult | null): void }) {
  if (bet.result !== null) {
    return (
      <span title={bet.resultBy === 'score' ? 'a quarter line, settled from the final score' : undefined}>
        {resultWords(bet.result)}
        <Resettled bet={bet} />
        {bet.resultBy === 'hand' && (
          <>
            {' '}
            <span className="muted">(by hand)</span>{' '}
            <button className="link" onClick={() => onSettle(null)} data-testid="bet-unsettle">
              undo
            </button>
          </>
        )}
      </span>
    );
  }
  if (!bet.settleByHand) {
    return (
      <span>
        <span className="muted">open</span>
        <Resettled bet={bet} />
      </span>
    );
  }
  return (
    <span className="settle-by-hand">
      <span className="warn-text" title={bet.settleByHand} data-testid="bet-settle-by-hand">
        settle by hand
      </span>{' '}
      <select
        aria-label="Settle by hand"
        defaultValue=""
        onChange={(e) => e.target.value && onSettle(e.target.value as HandResult)}
        data-testid="bet-settle-select"
      >
        <option value="">…</option>
        {BET_RESULTS.map((r) => (
          <option key={r} value={r}>
            {resultWords(r)}
          </option>
        ))}
      </select>
      <span className="muted small-text reason"> {bet.settleByHand}</span>
      <Resettled bet={bet} />
    </span>
  );
}
