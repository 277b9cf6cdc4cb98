// Bets: the trader's own bet log, kept in this profile's history and nowhere else. Each bet with its side in words,
// closing price (flagged when stale), CLV under the chosen model (all five on hover), result (half results of quarter
// lines; a bet the app cannot settle says why and the trader settles it here) and P/L in the trader's unit; filters
// and totals (count, average CLV, stake, P/L, ROI) over what is shown; CSV through the core's one writer. Keys: 1/2/3
// all/open/settled, arrows (PgUp/PgDn, Home/End) move, Enter opens the bet's event at its line (Esc comes back), X
// exports, Del removes the selected bet. The Report tab (4; ./BetsReport.tsx) is the ledger in pictures.
import { useCallback, useEffect, useRef, useState } from 'react';
import { DEVIG_MODELS, type DevigModel } from '../../../shared/api';
import type { BetQuery, BetTotals, BetView } from '../../../shared/domain';
import type { AppError } from '../../../shared/errors';
import { api } from '../api';
import { KeyHint } from '../components/KeyHint';
import { BET_RESULTS, formatMoney, marketName, resultWords } from '../../../shared/trading';
import { EDGE_PCT_DECIMALS, formatPercent, toneOf } from '../../../shared/formats';
import { fmtDateTime, useOdds, useTimeZone } from '../format';
import { useListKeys } from '../keys';
import { useStore } from '../store';
import { BetsReport } from './BetsReport';

type Status = 'all' | 'open' | 'settled';
const STATUSES: Status[] = ['all', 'open', 'settled'];
const fmtClv = (x: number | null | undefined) => formatPercent(x, { sign: true, decimals: EDGE_PCT_DECIMALS });
// CLV, ROI and P/L all have two decimals as shown: the colour follows the sign of what is shown.
const tone = (x: number | null | undefined) => toneOf(x, EDGE_PCT_DECIMALS);
const MARKETS = ['', 'moneyline', 'spread', 'totals', 'team_total'];
const STATUS_WORD: Record<Status, string> = { all: 'All', open: 'Open', settled: 'Settled' };

function download(csv: string) {
  const blob = new Blob([csv], { type: 'text/csv;charset=utf-8' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `oddsdesk-bets-${new Date().toISOString().slice(0, 10)}.csv`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

export function BetsView() {
  const toast = useStore((s) => s.toast);
  const unit = useStore((s) => s.settings?.moneyUnit ?? '');
  const fmtOdds = useOdds();
  const zone = useTimeZone();
  const money = (n: number | null, sign = false) => (n === null ? '—' : formatMoney(n, unit, { sign }));
  const [tab, setTab] = useState<'log' | 'report'>('log');
  const [status, setStatus] = useState<Status>('all');
  const [market, setMarket] = useState('');
  const [data, setData] = useState<{ bets: BetView[]; totals: BetTotals; model: DevigModel } | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const cursor = useStore((s) => s.listCursor.bets);
  const setCursor = useStore((s) => s.setListCursor);
  const table = useRef<HTMLTableElement>(null);
  const query = useCallback((): BetQuery => ({ ...(status === 'all' ? {} : { status }), ...(market ? { market } : {}) }), [status, market]);

  const load = useCallback(async () => {
    const r = await api.invoke('bets:list', query());
    if (r.ok) {
      setData(r.value);
      setError(null);
    } else setError(r.error);
  }, [query]);
  useEffect(() => {
    void load();
  }, [load]);

  const exportCsv = useCallback(async () => {
    const r = await api.invoke('bets:exportCsv', query());
    if (r.ok) download(r.value);
    else toast(`Export failed: ${r.error.message}`, 'error');
  }, [query, toast]);

  const bets = data?.bets ?? [];
  const selected = cursor === null ? -1 : bets.findIndex((b) => b.id === cursor);
  useListKeys('bets', {
    count: tab === 'log' ? bets.length : 0,
    index: selected,
    select: (i) => setCursor('bets', bets[i]!.id),
    open: (i) => {
      const b = bets[i]!;
      useStore.getState().openEvent(b.eventId, { lineId: b.lineId, from: 'bets' });
    },
    other: (e) => {
      const k = e.key.toLowerCase();
      if (k === '4') return setTab('report'), true;
      if (k === '1' || k === '2' || k === '3') {
        setTab('log');
        setStatus(STATUSES[Number(k) - 1]!);
        setCursor('bets', null);
        return true;
      }
      if (tab !== 'log') return false;
      if (k === 'x') return void exportCsv(), true;
      if ((k === 'delete' || k === 'backspace') && bets[selected]) {
        const id = bets[selected].id;
        void api.invoke('bets:remove', id).then((r) => (r.ok ? load() : toast(r.error.message, 'error')));
        return true;
      }
      return false;
    },
  });
  useEffect(() => {
    if (selected >= 0) table.current?.querySelector(`[aria-selected="true"]`)?.scrollIntoView({ block: 'nearest' });
  }, [selected]);

  const t = data?.totals;
  return (
    <section className="view" aria-labelledby="bets-title">
      <header className="view-header">
        <h1 id="bets-title">Bets</h1>
        <div className="segmented" role="group" aria-label="Status">
          {STATUSES.map((s, i) => (
            <button key={s} aria-pressed={tab === 'log' && status === s} data-testid={`bets-status-${s}`} onClick={() => (setTab('log'), setStatus(s))}>
              {STATUS_WORD[s]} <KeyHint k={String(i + 1)} />
            </button>
          ))}
          <button aria-pressed={tab === 'report'} data-testid="bets-tab-report" onClick={() => setTab('report')}>
            Report <KeyHint k="4" />
          </button>
        </div>
        {tab === 'log' && (
          <>
            <select value={market} onChange={(e) => setMarket(e.target.value)} aria-label="Market" data-testid="bets-market">
              {MARKETS.map((m) => (
                <option key={m} value={m}>
                  {m ? marketName(m) : 'Every market'}
                </option>
              ))}
            </select>
            <button onClick={() => void exportCsv()} data-testid="bets-export">
              Export CSV <kbd className="key" title="key X">X</kbd>
            </button>
          </>
        )}
      </header>
      {tab === 'report' && <BetsReport />}
      {tab === 'log' && (
        <>
          <p className="muted small-text">Keys: <kbd className="key">1</kbd> all, <kbd className="key">2</kbd> open, <kbd className="key">3</kbd> settled, ↑↓ move, Enter opens the bet's line, <kbd className="key">X</kbd> exports, Del removes. Recorded from the event detail (R). Kept in this profile's history on this machine only; CLV is against the line's no-vig close ({data?.model ?? '…'}).</p>
          {error && (
            <p className="calm-message" role="alert">
              {error.message}
            </p>
          )}
          {t && (
            <dl className="totals" data-testid="bets-totals">
              <div><dt>Bets</dt><dd data-testid="bets-count">{t.count}</dd></div>
              <div><dt>Average CLV</dt><dd className={tone(t.averageClv)} data-testid="bets-avg-clv">{fmtClv(t.averageClv)}</dd></div>
              <div><dt>Stake</dt><dd data-testid="bets-stake">{money(t.stake)}</dd></div>
              <div><dt>P/L</dt><dd className={tone(t.pnl)} data-testid="bets-pnl">{money(t.pnl, true)}</dd></div>
              <div><dt>ROI</dt><dd className={tone(t.roi)} data-testid="bets-roi">{fmtClv(t.roi)}</dd></div>
            </dl>
          )}
          {data && data.bets.length === 0 && <p className="calm-message">No bets here yet. Open an event (Enter on the watchlist) and press R to record one.</p>}
          {data && data.bets.length > 0 && (
            <table className="grid" data-testid="bets-table" ref={table}>
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
                {data.bets.map((b, i) => (
                  <tr
                    key={b.id}
                    className={i === selected ? 'selected-row cursor' : undefined}
                    aria-selected={i === selected}
                    data-testid={`bet-row-${b.id}`}
                    onClick={() => setCursor('bets', b.id)}
                    onDoubleClick={() => useStore.getState().openEvent(b.eventId, { lineId: b.lineId, from: 'bets' })}
                  >
                    <td>{fmtDateTime(b.placedAt, zone)}</td>
                    <td>{b.label.replace(/ · .*$/, '')}</td>
                    <td data-testid="bet-side" title={b.label}>
                      {b.sideWords}
                      {b.market !== 'moneyline' && b.market !== 'spread' && b.market !== 'totals' && b.market !== 'team_total' ? ` (${marketName(b.market)})` : ''}
                    </td>
                    <td className="num" data-testid="bet-price">{fmtOdds(b.price)}</td>
                    <td className="num">{money(b.stake)}</td>
                    <td className={`num${b.closeStale ? ' stale' : ''}`} title={b.closeNote ?? undefined} data-testid="bet-close">
                      {fmtOdds(b.closingPrice)}
                      {b.closeStale && <span className="badge warn" data-testid="bet-close-stale"> stale</span>}
                      {b.closingPrice === null && b.closeNote && <span className="muted" data-testid="bet-close-note"> ⚠</span>}
                    </td>
                    <td className={`num ${tone(b.clvByModel?.[data.model])}`} title={b.clvByModel ? DEVIG_MODELS.map((m) => `${m} ${fmtClv(b.clvByModel![m])}`).join('  ') : (b.closeNote ?? 'the line has not closed yet')} data-testid="bet-clv">
                      {b.clvByModel && b.clvByModel[data.model] === null ? 'n/a' : fmtClv(b.clvByModel?.[data.model])}
                    </td>
                    <td data-testid="bet-result">
                      <BetResultCell bet={b} onSettle={(result) => void api.invoke('bets:settle', b.id, result).then((r) => (r.ok ? load() : toast(r.error.message, 'error')))} />
                    </td>
                    <td className={`num ${tone(b.pnl)}`} data-testid="bet-pnl">{money(b.pnl, true)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}

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
      <span className="badge warn" data-testid="bet-resettled" title={`The match was settled again with another result: ${change}`}>
        re-settled
      </span>{' '}
      <span className="muted small-text" data-testid="bet-resettled-from">
        {change}
      </span>
    </>
  );
}

/** A bet's result in words; a bet the app cannot settle says why and offers the trader the five results. */
function BetResultCell({ bet, onSettle }: { bet: BetView; onSettle(result: BetView['result']): void }) {
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
      <select aria-label="Settle by hand" defaultValue="" onChange={(e) => e.target.value && onSettle(e.target.value as BetView['result'])} data-testid="bet-settle-select">
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

