// Bets: the trader's own bet log, kept in this profile's history and nowhere else. Each bet with its side in words,
// closing price (flagged when stale), CLV under the chosen model (all five on hover), result (half results of quarter
// lines; a bet the app cannot settle says why and the trader settles it here) and P/L in the trader's unit; filters
// and totals (count, average CLV, stake, P/L, ROI) over what is shown; CSV through the core's one writer. Keys: 1/2/3
// all/open/settled, arrows (PgUp/PgDn, Home/End) move, Enter opens the bet's event at its line (Esc comes back), X
// exports, E edits the selected bet's price (in the trader's odds format), stake and note, with its history of changes;
// Del removes it at once and offers Undo (Z), as the watchlist does. The Report tab (4; ./BetsReport.tsx) is the ledger
// in pictures.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { DEVIG_MODELS, type DevigModel } from '../../../shared/api';
import type { BetQuery, BetRevision, BetTotals, BetView, HandResult } from '../../../shared/domain';
import type { AppError } from '../../../shared/errors';
import { api } from '../api';
import { KeyHint } from '../components/KeyHint';
import { BET_RESULTS, formatMoney, marketName, resultWords } from '../../../shared/trading';
import { EDGE_PCT_DECIMALS, formatOdds, formatPercent, toneOf, type OddsFormat } from '../../../shared/formats';
import { priceInWords } from '../../../shared/oddsInput';
import { FarAskQuestion, PriceBox, PriceReadBack, useFarAsk, usePriceBox } from '../components/PriceBox';
import { fmtDateTime, useOdds, useOddsFormat, useTimeZone } from '../format';
import { useListKeys } from '../keys';
import { useStore } from '../store';
import { marketKey } from '../store/watchlist';
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
  const format = useOddsFormat();
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
  /** The bet whose edit form is open. */
  const [editing, setEditing] = useState<number | null>(null);
  const query = useCallback(
    (): BetQuery => ({ ...(status === 'all' ? {} : { status }), ...(market ? { market } : {}) }),
    [status, market],
  );

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

  // Removed at once, no question: the toast offers Undo (Z / Ctrl+Z) for a few seconds, which brings it back whole.
  const removeWithUndo = async (b: BetView) => {
    const r = await api.invoke('bets:remove', b.id);
    if (!r.ok) return toast(r.error.message, 'error');
    const i = bets.findIndex((x) => x.id === b.id);
    setCursor('bets', (bets[i + 1] ?? bets[i - 1])?.id ?? null);
    if (editing === b.id) setEditing(null);
    await load();
    const what = `${b.sideWords} at ${fmtOdds(b.price)}, ${b.label.replace(/ · .*$/, '')}`;
    useStore.getState().offerUndo(`Removed the bet: ${what}`, `Undo: bring back the bet ${what}`, async () => {
      const back = await api.invoke('bets:restore', b.id);
      if (!back.ok) return toast(`Could not bring the bet back: ${back.error.message}`, 'error');
      setCursor('bets', b.id);
      await load();
      toast(`Bet back: ${what}`);
    });
  };
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
      if (k === '4') return (setTab('report'), true);
      if (k === '1' || k === '2' || k === '3') {
        setTab('log');
        setStatus(STATUSES[Number(k) - 1]!);
        setCursor('bets', null);
        return true;
      }
      if (tab !== 'log') return false;
      if (k === 'x') return (void exportCsv(), true);
      if (k === 'e' && bets[selected]) return (setEditing(bets[selected].id), true);
      if ((k === 'delete' || k === 'backspace') && bets[selected]) return (void removeWithUndo(bets[selected]), true);
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
            <button
              key={s}
              aria-pressed={tab === 'log' && status === s}
              data-testid={`bets-status-${s}`}
              onClick={() => (setTab('log'), setStatus(s))}
            >
              {STATUS_WORD[s]} <KeyHint k={String(i + 1)} />
            </button>
          ))}
          <button aria-pressed={tab === 'report'} data-testid="bets-tab-report" onClick={() => setTab('report')}>
            Report <KeyHint k="4" />
          </button>
        </div>
        {tab === 'log' && (
          <>
            <select
              value={market}
              onChange={(e) => setMarket(e.target.value)}
              aria-label="Market"
              data-testid="bets-market"
            >
              {MARKETS.map((m) => (
                <option key={m} value={m}>
                  {m ? marketName(m) : 'Every market'}
                </option>
              ))}
            </select>
            <button onClick={() => void exportCsv()} data-testid="bets-export">
              Export CSV{' '}
              <kbd className="key" title="key X">
                X
              </kbd>
            </button>
            <button
              onClick={() => bets[selected] && setEditing(bets[selected].id)}
              disabled={!bets[selected]}
              data-testid="bets-edit"
              title="Edit the selected bet's price, stake or note"
            >
              Edit{' '}
              <kbd className="key" title="key E">
                E
              </kbd>
            </button>
            <button
              onClick={() => bets[selected] && void removeWithUndo(bets[selected])}
              disabled={!bets[selected]}
              data-testid="bets-remove"
              title="Remove the selected bet (Undo brings it back)"
            >
              Remove{' '}
              <kbd className="key" title="key Del">
                Del
              </kbd>
            </button>
          </>
        )}
      </header>
      {tab === 'report' && <BetsReport />}
      {tab === 'log' && (
        <>
          <p className="muted small-text">
            Keys: <kbd className="key">1</kbd> all, <kbd className="key">2</kbd> open, <kbd className="key">3</kbd>{' '}
            settled, ↑↓ move, Enter opens the bet's line, <kbd className="key">E</kbd> edits,{' '}
            <kbd className="key">X</kbd> exports, Del removes (Z undoes). Recorded from the event detail (R). Kept in
            this profile's history on this machine only; CLV is against the line's no-vig close ({data?.model ?? '…'}).
          </p>
          {error && (
            <p className="calm-message" role="alert">
              {error.message}
            </p>
          )}
          {t && (
            <dl className="totals" data-testid="bets-totals">
              <div>
                <dt>Bets</dt>
                <dd data-testid="bets-count">{t.count}</dd>
              </div>
              <div>
                <dt>Average CLV</dt>
                <dd className={tone(t.averageClv)} data-testid="bets-avg-clv">
                  {fmtClv(t.averageClv)}
                </dd>
              </div>
              <div>
                <dt>Stake</dt>
                <dd data-testid="bets-stake">{money(t.stake)}</dd>
              </div>
              <div>
                <dt>P/L</dt>
                <dd className={tone(t.pnl)} data-testid="bets-pnl">
                  {money(t.pnl, true)}
                </dd>
              </div>
              <div>
                <dt>ROI</dt>
                <dd className={tone(t.roi)} data-testid="bets-roi">
                  {fmtClv(t.roi)}
                </dd>
              </div>
            </dl>
          )}
          {editing !== null && bets.some((b) => b.id === editing) && (
            <BetEditForm
              key={editing}
              bet={bets.find((b) => b.id === editing)!}
              format={format}
              unit={unit}
              onDone={(saved) => {
                setEditing(null);
                if (saved) {
                  toast(
                    `Bet changed: ${priceInWords(saved.sideWords, saved.price, format)} for ${formatMoney(saved.stake, unit)}`,
                  );
                  void load();
                }
              }}
            />
          )}
          {data && data.bets.length === 0 && (
            <p className="calm-message">
              No bets here yet. Open an event (Enter on the watchlist) and press R to record one.
            </p>
          )}
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
                    <td data-testid="bet-side" title={b.note ? `${b.label}\nNote: ${b.note}` : b.label}>
                      {b.sideWords}
                      {b.market !== 'moneyline' &&
                      b.market !== 'spread' &&
                      b.market !== 'totals' &&
                      b.market !== 'team_total'
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
                    <td
                      className={`num${b.closeStale ? ' stale' : ''}`}
                      title={b.closeNote ?? undefined}
                      data-testid="bet-close"
                    >
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
                      className={`num ${tone(b.clvByModel?.[data.model])}`}
                      title={
                        b.clvByModel
                          ? DEVIG_MODELS.map((m) => `${m} ${fmtClv(b.clvByModel![m])}`).join('  ')
                          : (b.closeNote ?? 'the line has not closed yet')
                      }
                      data-testid="bet-clv"
                    >
                      {b.clvByModel && b.clvByModel[data.model] === null ? 'n/a' : fmtClv(b.clvByModel?.[data.model])}
                    </td>
                    <td data-testid="bet-result">
                      <BetResultCell
                        bet={b}
                        onSettle={(result) =>
                          void api
                            .invoke('bets:settle', b.id, result)
                            .then((r) => (r.ok ? load() : toast(r.error.message, 'error')))
                        }
                      />
                    </td>
                    <td className={`num ${tone(b.pnl)}`} data-testid="bet-pnl">
                      {money(b.pnl, true)}
                    </td>
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
function BetResultCell({ bet, onSettle }: { bet: BetView; onSettle(result: HandResult | null): void }) {
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

const CHANGE_WORDS: Record<BetRevision['change'], string> = {
  recorded: 'Recorded',
  edited: 'Edited',
  removed: 'Removed',
  restored: 'Brought back',
};

/** What a revision changed from the one before it, in words: "price 2.000 → 2.100, stake 50.00 → 20.00". */
function changeWords(r: BetRevision, before: BetRevision | undefined, format: OddsFormat, unit: string): string {
  if (!before)
    return `${formatOdds(r.price, format)} for ${formatMoney(r.stake, unit)}${r.note ? `, note "${r.note}"` : ''}`;
  const parts: string[] = [];
  if (r.price !== before.price)
    parts.push(`price ${formatOdds(before.price, format)} → ${formatOdds(r.price, format)}`);
  if (r.stake !== before.stake) parts.push(`stake ${formatMoney(before.stake, unit)} → ${formatMoney(r.stake, unit)}`);
  if (r.note !== before.note) parts.push(r.note ? `note "${r.note}"` : 'note cleared');
  return parts.join(', ');
}

/**
 * A bet's price (in the trader's odds format, read back in words), stake and note, changed in place: Enter saves,
 * Esc leaves it as it was. A typed price far from the line's live one (when the event is watched and the side priced)
 * asks once, as recording does. Under it, every change the bet has had (bets:history), oldest first.
 */
function BetEditForm({
  bet,
  format,
  unit,
  onDone,
}: {
  bet: BetView;
  format: OddsFormat;
  unit: string;
  onDone(saved: BetView | null): void;
}) {
  const zone = useTimeZone();
  const box = usePriceBox(format);
  const live = useStore((s) => s.markets[marketKey(bet.eventId, bet.lineId)]?.prices?.[bet.side] ?? null);
  const [stake, setStake] = useState(String(bet.stake));
  const [note, setNote] = useState(bet.note ?? '');
  const [problem, setProblem] = useState<{ field: 'price' | 'stake' | null; text: string } | null>(null);
  const [history, setHistory] = useState<BetRevision[]>([]);
  const priceInput = useRef<HTMLInputElement>(null);
  const ask = useFarAsk(box, live, priceInput);
  const { fill } = box;
  useLayoutEffect(() => {
    fill(bet.price);
    priceInput.current?.focus();
  }, [fill, bet.price]);
  useEffect(() => {
    void api.invoke('bets:history', bet.id).then((r) => r.ok && setHistory(r.value));
  }, [bet.id, bet.editedAt]);
  const typed = box.value;
  const save = async () => {
    if (!typed.ok) return setProblem({ field: 'price', text: typed.message });
    const st = Number(stake);
    if (stake.trim() === '' || !(st > 0))
      return setProblem({ field: 'stake', text: 'The stake must be a number above 0.' });
    if (ask.holds(typed.decimal)) return;
    const r = await api.invoke('bets:update', bet.id, { price: typed.decimal, stake: st, note: note.trim() });
    if (!r.ok) return setProblem({ field: null, text: `The bet was not changed: ${r.error.message}` });
    onDone(r.value);
  };
  return (
    <form
      className="bet-edit"
      data-testid="bet-edit"
      aria-label={`Edit the bet ${bet.sideWords}`}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
      // Esc on the question goes back to the price; otherwise it leaves the bet as it was.
      onKeyDown={(e) => ask.escape(e, () => onDone(null))}
    >
      <strong>{bet.label}</strong>
      <PriceBox
        box={box}
        format={format}
        invalid={problem?.field === 'price' || (box.edited && !typed.ok)}
        testId="bet-edit-price"
        inputRef={priceInput}
        onType={() => (setProblem(null), ask.drop())}
      />
      <input
        aria-label="Stake"
        inputMode="decimal"
        size={7}
        value={stake}
        onChange={(e) => (setStake(e.target.value), setProblem(null))}
        aria-invalid={problem?.field === 'stake' || undefined}
        data-testid="bet-edit-stake"
      />
      <input
        aria-label="Note"
        placeholder="note"
        maxLength={500}
        size={24}
        value={note}
        onChange={(e) => setNote(e.target.value)}
        data-testid="bet-edit-note"
      />
      <button type="submit" data-testid="bet-edit-save">
        Save (Enter)
      </button>
      <button type="button" onClick={() => onDone(null)} data-testid="bet-edit-cancel">
        Cancel (Esc)
      </button>
      <PriceReadBack what={bet.sideWords} box={box} format={format} testId="bet-edit-readback" />
      {ask.asking && typed.ok && live !== null && (
        <FarAskQuestion live={live} shown={typed.shown} format={format} testId="bet-edit" onChange={ask.back} />
      )}
      {problem && (
        <span className="form-error" role="alert" data-testid="bet-edit-error">
          {problem.text}
        </span>
      )}
      {history.length > 0 && (
        <ol className="bet-history muted small-text" data-testid="bet-history">
          {history.map((r, i) => (
            <li key={r.revision}>
              {CHANGE_WORDS[r.change]} {fmtDateTime(r.at, zone)}
              {r.change === 'recorded' || r.change === 'edited'
                ? `: ${changeWords(r, history[i - 1], format, unit)}`
                : ''}
            </li>
          ))}
        </ol>
      )}
    </form>
  );
}
