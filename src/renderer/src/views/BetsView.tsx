// Bets: the trader's own bet log, kept in this profile's history and nowhere else. Each bet with its side in words,
// closing price (flagged when stale), CLV under the chosen model (all five on hover), result (half results of quarter
// lines; a bet the app cannot settle says why and the trader settles it here) and P/L in the trader's unit; filters
// and totals (count, average CLV, stake, P/L, ROI) over what is shown; CSV through the core's one writer. Keys: 1/2/3
// all/open/settled, arrows (PgUp/PgDn, Home/End) move, Enter opens the bet's event at its line (Esc comes back), X
// exports, E edits the selected bet's price (in the trader's odds format), stake and note, with its history of changes;
// Del removes it at once and offers Undo (Z), as the watchlist does. The Report tab (4; ./BetsReport.tsx) is the ledger
// in pictures.
// The pieces are in ./bets/: the toolbar, the table, a bet's result cell and its edit form.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DevigModel } from '../../../shared/api';
import type { BetQuery, BetTotals, BetView } from '../../../shared/domain';
import type { AppError } from '../../../shared/errors';
import { host } from '../host';
import { formatMoney } from '../../../shared/trading';
import { priceInWords } from '../../../shared/oddsInput';
import { exportName, useOdds, useOddsFormat } from '../format';
import { useListKeys } from '../keys';
import { useStore } from '../store';
import { BetsReport } from './BetsReport';
import { BetEditForm } from './bets/BetEditForm';
import { BetTable, type BetRowActions } from './bets/BetTable';
import { fmtEdge, tone, StakeTotals, Total, useMoney, type Money } from './bets/figures';
import { BET_STATUSES, BetsToolbar, type BetStatus, type BetsTab } from './bets/BetsToolbar';
import { saveCsv } from './bets/saveFile';

type BetLog = { bets: BetView[]; totals: BetTotals; model: DevigModel };

/** The bets the filters show, with their totals and the model of their CLV; asked again when a filter changes. */
function useBetLog(status: BetStatus, market: string) {
  const toast = useStore((s) => s.toast);
  const [data, setData] = useState<BetLog | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const query = useCallback(
    (): BetQuery => ({ ...(status === 'all' ? {} : { status }), ...(market ? { market } : {}) }),
    [status, market],
  );
  const load = useCallback(async () => {
    const r = await host.invoke('bets:list', query());
    if (r.ok) {
      setData(r.value);
      setError(null);
    } else setError(r.error);
  }, [query]);
  useEffect(() => {
    void load();
  }, [load]);
  const exportCsv = useCallback(async () => {
    const r = await host.invoke('bets:exportCsv', query());
    if (r.ok) saveCsv(r.value, exportName('bets'));
    else toast(`Export failed: ${r.error.message}`, 'error');
  }, [query, toast]);
  return { data, error, load, exportCsv };
}

/** The view's own keys: 1/2/3 all/open/settled, 4 the report; on the log, the list's walk, X, E and Del. */
function useBetKeys(keys: {
  tab: BetsTab;
  bets: BetView[];
  selected: number;
  setTab(tab: BetsTab): void;
  setStatus(status: BetStatus): void;
  exportCsv(): void;
  edit(bet: BetView): void;
  remove(bet: BetView): void;
}) {
  const { tab, bets, selected } = keys;
  const setCursor = useStore((s) => s.setListCursor);
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
      if (k === '4') return (keys.setTab('report'), true);
      if (k === '1' || k === '2' || k === '3') {
        keys.setTab('log');
        keys.setStatus(BET_STATUSES[Number(k) - 1]!);
        setCursor('bets', null);
        return true;
      }
      if (tab !== 'log') return false;
      if (k === 'x') return (keys.exportCsv(), true);
      if (k === 'e' && bets[selected]) return (keys.edit(bets[selected]), true);
      if ((k === 'delete' || k === 'backspace') && bets[selected]) return (keys.remove(bets[selected]), true);
      return false;
    },
  });
}

export function BetsView() {
  const toast = useStore((s) => s.toast);
  const unit = useStore((s) => s.settings?.moneyUnit ?? '');
  const fmtOdds = useOdds();
  const format = useOddsFormat();
  const money = useMoney();
  const [tab, setTab] = useState<BetsTab>('log');
  const [status, setStatus] = useState<BetStatus>('all');
  const [market, setMarket] = useState('');
  const { data, error, load, exportCsv } = useBetLog(status, market);
  const cursor = useStore((s) => s.listCursor.bets);
  const setCursor = useStore((s) => s.setListCursor);
  const table = useRef<HTMLTableElement>(null);
  /** The bet whose edit form is open. */
  const [editing, setEditing] = useState<number | null>(null);

  const bets = data?.bets ?? [];
  const selected = cursor === null ? -1 : bets.findIndex((b) => b.id === cursor);

  // Removed at once, no question: the toast offers Undo (Z / Ctrl+Z) for a few seconds, which brings it back whole.
  const removeWithUndo = async (b: BetView) => {
    const r = await host.invoke('bets:remove', b.id);
    if (!r.ok) return toast(r.error.message, 'error');
    const i = bets.findIndex((x) => x.id === b.id);
    setCursor('bets', (bets[i + 1] ?? bets[i - 1])?.id ?? null);
    if (editing === b.id) setEditing(null);
    await load();
    const what = `${b.sideWords} at ${fmtOdds(b.price)}, ${b.label.replace(/ · .*$/, '')}`;
    useStore.getState().offerUndo(`Removed the bet: ${what}`, `Undo: bring back the bet ${what}`, async () => {
      const back = await host.invoke('bets:restore', b.id);
      if (!back.ok) return toast(`Could not bring the bet back: ${back.error.message}`, 'error');
      setCursor('bets', b.id);
      await load();
      toast(`Bet back: ${what}`);
    });
  };
  useBetKeys({
    tab,
    bets,
    selected,
    setTab,
    setStatus,
    exportCsv: () => void exportCsv(),
    edit: (b) => setEditing(b.id),
    remove: (b) => void removeWithUndo(b),
  });
  useEffect(() => {
    if (selected >= 0) table.current?.querySelector(`[aria-selected="true"]`)?.scrollIntoView({ block: 'nearest' });
  }, [selected]);
  const rowActions: BetRowActions = {
    select: (b) => setCursor('bets', b.id),
    open: (b) => useStore.getState().openEvent(b.eventId, { lineId: b.lineId, from: 'bets' }),
    settle: (b, result) =>
      void host.invoke('bets:settle', b.id, result).then((r) => (r.ok ? load() : toast(r.error.message, 'error'))),
  };

  return (
    <section className="view" aria-labelledby="bets-title">
      <header className="view-header">
        <h1 id="bets-title">Bets</h1>
        <BetsToolbar
          tab={tab}
          status={status}
          market={market}
          hasSelection={!!bets[selected]}
          onStatus={(s) => (setTab('log'), setStatus(s))}
          onReport={() => setTab('report')}
          onMarket={setMarket}
          onExport={() => void exportCsv()}
          onEdit={() => bets[selected] && setEditing(bets[selected].id)}
          onRemove={() => bets[selected] && void removeWithUndo(bets[selected])}
        />
      </header>
      {tab === 'report' && <BetsReport />}
      {tab === 'log' && (
        <>
          <KeysNote model={data?.model} />
          {error && (
            <p className="calm-message" role="alert">
              {error.message}
            </p>
          )}
          {data?.totals && <BetTotalsList totals={data.totals} money={money} />}
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
            <BetTable
              bets={data.bets}
              model={data.model}
              selected={selected}
              money={money}
              actions={rowActions}
              tableRef={table}
            />
          )}
        </>
      )}
    </section>
  );
}

function KeysNote({ model }: { model: DevigModel | undefined }) {
  return (
    <p className="muted small-text">
      Keys: <kbd className="key">1</kbd> all, <kbd className="key">2</kbd> open, <kbd className="key">3</kbd> settled,
      ↑↓ move, Enter opens the bet's line, <kbd className="key">E</kbd> edits, <kbd className="key">X</kbd> exports, Del
      removes (Z undoes). Recorded from the event detail (R). Kept in this profile's history on this machine only; CLV
      is against the line's no-vig close ({model ?? '…'}).
    </p>
  );
}

function BetTotalsList({ totals: t, money }: { totals: BetTotals; money: Money }) {
  return (
    <dl className="totals" data-testid="bets-totals">
      <Total term="Bets" testId="bets-count">
        {t.count}
      </Total>
      <Total term="Average CLV" testId="bets-avg-clv" className={tone(t.averageClv)}>
        {fmtEdge(t.averageClv)}
      </Total>
      <StakeTotals prefix="bets" stake={t.stake} pnl={t.pnl} roi={t.roi} money={money} />
    </dl>
  );
}
