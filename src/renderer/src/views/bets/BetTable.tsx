// The bet log's table: a row per bet with its side in words, price (marked when edited), stake, close (flagged when
// stale), CLV under the trader's model (all five on hover), result and P/L.
import type { Ref } from 'react';
import { DEVIG_MODELS, type DevigModel } from '../../../../shared/api';
import type { BetView, HandResult } from '../../../../shared/domain';
import { marketName } from '../../../../shared/trading';
import { fmtDateTime, useOdds, useTimeZone } from '../../format';
import { BetResultCell } from './BetResultCell';
import { fmtEdge, tone, type Money } from './figures';

/** What a row does when clicked, double-clicked or settled by hand. */
export interface BetRowActions {
  select(bet: BetView): void;
  open(bet: BetView): void;
  settle(bet: BetView, result: HandResult | null): void;
}

export function BetTable({
  bets,
  model,
  selected,
  money,
  actions,
  tableRef,
}: {
  bets: BetView[];
  model: DevigModel;
  /** The index of the selected bet, -1 for none. */
  selected: number;
  money: Money;
  actions: BetRowActions;
  tableRef: Ref<HTMLTableElement>;
}) {
  const fmtOdds = useOdds();
  const zone = useTimeZone();
  return (
    <table className="grid" data-testid="bets-table" ref={tableRef}>
      <thead>
        <tr>
          <th>Placed</th>
          <th>Event</th>
          <th>Bet</th>
          <th className="num">Price</th>
          <th className="num">Stake</th>
          <th className="num">Close</th>
          <th className="num">CLV</th>
          <th>Result</th>
          <th className="num">P/L</th>
        </tr>
      </thead>
      <tbody>
        {bets.map((b, i) => (
          <BetRow
            key={b.id}
            bet={b}
            model={model}
            selected={i === selected}
            money={money}
            fmtOdds={fmtOdds}
            zone={zone}
            actions={actions}
          />
        ))}
      </tbody>
    </table>
  );
}

function BetRow({
  bet: b,
  model,
  selected,
  money,
  fmtOdds,
  zone,
  actions,
}: {
  bet: BetView;
  model: DevigModel;
  selected: boolean;
  money: Money;
  fmtOdds: (price: number | null | undefined) => string;
  zone: string;
  actions: BetRowActions;
}) {
  return (
    <tr
      className={selected ? 'selected-row cursor' : undefined}
      aria-selected={selected}
      data-testid={`bet-row-${b.id}`}
      onClick={() => actions.select(b)}
      onDoubleClick={() => actions.open(b)}
    >
      <td>{fmtDateTime(b.placedAt, zone)}</td>
      <td>{b.label.replace(/ · .*$/, '')}</td>
      <td data-testid="bet-side" title={b.note ? `${b.label}\nNote: ${b.note}` : b.label}>
        {b.sideWords}
        {b.market !== 'moneyline' && b.market !== 'spread' && b.market !== 'totals' && b.market !== 'team_total'
          ? ` (${marketName(b.market)})`
          : ''}
        {b.note && (
          <span className="muted small-text bet-note" data-testid="bet-note">
            {b.note}
          </span>
        )}
      </td>
      <td
        className="num"
        data-testid="bet-price"
        title={b.editedAt ? `edited ${fmtDateTime(b.editedAt, zone)}` : undefined}
      >
        {fmtOdds(b.price)}
        {b.editedAt ? (
          <span className="muted" data-testid="bet-edited">
            {' '}
            ✎
          </span>
        ) : null}
      </td>
      <td className="num">{money(b.stake)}</td>
      <td className={`num${b.closeStale ? ' stale' : ''}`} title={b.closeNote ?? undefined} data-testid="bet-close">
        {fmtOdds(b.closingPrice)}
        {b.closeStale && (
          <span className="badge warn" data-testid="bet-close-stale">
            {' '}
            stale
          </span>
        )}
        {b.closingPrice === null && b.closeNote && (
          <span className="muted" data-testid="bet-close-note">
            {' '}
            ⚠
          </span>
        )}
      </td>
      <td
        className={`num ${tone(b.clvByModel?.[model])}`}
        title={
          b.clvByModel
            ? DEVIG_MODELS.map((m) => `${m} ${fmtEdge(b.clvByModel![m])}`).join('  ')
            : (b.closeNote ?? 'the line has not closed yet')
        }
        data-testid="bet-clv"
      >
        {b.clvByModel && b.clvByModel[model] === null ? 'n/a' : fmtEdge(b.clvByModel?.[model])}
      </td>
      <td data-testid="bet-result">
        <BetResultCell bet={b} onSettle={(result) => actions.settle(b, result)} />
      </td>
      <td className={`num ${tone(b.pnl)}`} data-testid="bet-pnl">
        {money(b.pnl, true)}
      </td>
    </tr>
  );
}
