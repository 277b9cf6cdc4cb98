// The Bets view's toolbar: the status filter (1/2/3) and the Report tab (4); on the log, the market filter and the
// buttons that export (X), edit (E) and remove (Del) the selected bet.
import { marketName } from '../../../../shared/trading';
import { KeyHint } from '../../components/KeyHint';

export type BetStatus = 'all' | 'open' | 'settled';
export const BET_STATUSES: BetStatus[] = ['all', 'open', 'settled'];
export type BetsTab = 'log' | 'report';
const MARKETS = ['', 'moneyline', 'spread', 'totals', 'team_total'];
const STATUS_WORD: Record<BetStatus, string> = { all: 'All', open: 'Open', settled: 'Settled' };

export function BetsToolbar({
  tab,
  status,
  market,
  hasSelection,
  onStatus,
  onReport,
  onMarket,
  onExport,
  onEdit,
  onRemove,
}: {
  tab: BetsTab;
  status: BetStatus;
  market: string;
  /** A bet is selected: Edit and Remove apply to it. */
  hasSelection: boolean;
  onStatus(status: BetStatus): void;
  onReport(): void;
  onMarket(market: string): void;
  onExport(): void;
  onEdit(): void;
  onRemove(): void;
}) {
  return (
    <>
      <div className="segmented" role="group" aria-label="Status">
        {BET_STATUSES.map((s, i) => (
          <button
            key={s}
            aria-pressed={tab === 'log' && status === s}
            data-testid={`bets-status-${s}`}
            onClick={() => onStatus(s)}
          >
            {STATUS_WORD[s]} <KeyHint k={String(i + 1)} />
          </button>
        ))}
        <button aria-pressed={tab === 'report'} data-testid="bets-tab-report" onClick={onReport}>
          Report <KeyHint k="4" />
        </button>
      </div>
      {tab === 'log' && (
        <>
          <select
            value={market}
            onChange={(e) => onMarket(e.target.value)}
            aria-label="Market"
            data-testid="bets-market"
          >
            {MARKETS.map((m) => (
              <option key={m} value={m}>
                {m ? marketName(m) : 'Every market'}
              </option>
            ))}
          </select>
          <KeyedButton onClick={onExport} testId="bets-export" label="Export CSV" k="X" />
          <KeyedButton
            onClick={onEdit}
            disabled={!hasSelection}
            testId="bets-edit"
            title="Edit the selected bet's price, stake or note"
            label="Edit"
            k="E"
          />
          <KeyedButton
            onClick={onRemove}
            disabled={!hasSelection}
            testId="bets-remove"
            title="Remove the selected bet (Undo brings it back)"
            label="Remove"
            k="Del"
          />
        </>
      )}
    </>
  );
}

/** A button with its key beside its label: "Edit [E]". */
function KeyedButton({
  onClick,
  disabled,
  testId,
  title,
  label,
  k,
}: {
  onClick(): void;
  disabled?: boolean;
  testId: string;
  title?: string;
  label: string;
  k: string;
}) {
  return (
    <button onClick={onClick} disabled={disabled} data-testid={testId} title={title}>
      {label}{' '}
      <kbd className="key" title={`key ${k}`}>
        {k}
      </kbd>
    </button>
  );
}
