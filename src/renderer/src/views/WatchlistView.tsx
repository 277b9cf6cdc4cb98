// Watchlist: the live grid of watched events (virtualised; React renders a row's structure: its lines, header,
// columns, selection and state; its prices, ages, scores and max stakes are written by cells that listen to their
// own market or event: gridCells.tsx, components/PriceCell.tsx), its toolbar (search, live filter, period, add by
// id) and the fixtures picker. The trader shapes the grid: which columns, in which order, sorted by which (the column
// menu and the headers; kept per profile by the core); without a choice of columns, the default set that fits the
// grid's width. The event column stays put when the grid scrolls sideways.
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  Fragment,
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type CSSProperties,
  type RefObject,
} from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { DevigModel } from '../../../shared/api';
import {
  arrowOf,
  countOf,
  formatOdds,
  movePctIn,
  formatPercent,
  toneOf,
  type OddsFormat,
} from '../../../shared/formats';
import type { GridColumn, GridSortKey } from '../../../shared/gridLayout';
import { labelPeriod } from '../../../shared/periods';
import { sideName } from '../../../shared/trading';
import { usePeriodNames } from '../hooks';
import { FormattedPriceCell } from '../components/PriceCell';
import { useSnoozedUntil } from '../components/Snooze';
import { Time } from '../components/Time';
import { eventName, useOddsFormat } from '../format';
import { useStore } from '../store';
import { marketBus } from '../store/marketBus';
import {
  gridLayoutOf,
  hasMainPrice,
  mainLines,
  moveOf,
  NO_PRICE_WORDS,
  noPriceReasonOf,
  selectVisibleWatchIds,
  type MainLines,
  type NoPriceReason,
} from '../store/selectors';
import { endedOf, marketKey, streamOf } from '../store/watchlist';
import { AgeCell, FairCell, fmtAge, LineCell, MaxWinCell, ScoreCell } from './gridCells';
import { FixturePicker } from './FixturePicker';
import {
  autoColumns,
  COLUMN_CELLS,
  COLUMN_NAMES,
  gridTemplate,
  menuOrder,
  moveColumn,
  priceRuns,
  toggleColumn,
  type ContentWidths,
} from './gridColumns';
import { GridSizer } from './GridSizer';

const ROW_HEIGHT = 30;
const NONE: GridColumn[] = [];
const NO_LINES: MainLines = { ml: null, spread: null, total: null };

export { fmtAge };

/**
 * Test-only: a page that sets `window.__rowRenders = {}` before it loads has each row's renders counted there, by
 * event id (test/e2e/grid-renders.spec.ts). Read once; nothing is counted otherwise.
 */
const rowRenders = (globalThis as { __rowRenders?: Record<number, number> }).__rowRenders;

/** What of a row's main lines the price ticks decide: which lines are main (the most balanced), and whether any is priced. */
interface RowLines extends MainLines {
  /** A main line is held. */
  held: boolean;
  /** A main line shows a price (held and not offline). */
  priced: boolean;
}
const sameRowLines = (a: RowLines, b: RowLines) =>
  a.ml === b.ml && a.spread === b.spread && a.total === b.total && a.held === b.held && a.priced === b.priced;

/**
 * The row's main lines, read again only when its own event's markets change (marketBus), not on every store update:
 * the row renders when the answer differs (another line became the most balanced, the last price went offline).
 */
function useRowLines(eventId: number, period: number): RowLines {
  const last = useRef<RowLines | null>(null);
  const subscribe = useCallback((listener: () => void) => marketBus.onEvent(eventId, listener), [eventId]);
  return useSyncExternalStore(subscribe, () => {
    const s = useStore.getState();
    const lines = mainLines(s, eventId, period);
    const held = [lines.ml, lines.spread, lines.total].some(
      (id) => id !== null && s.markets[marketKey(eventId, id)] !== undefined,
    );
    const next: RowLines = { ...lines, held, priced: held && hasMainPrice(s, eventId, lines) };
    if (last.current && sameRowLines(last.current, next)) return last.current;
    return (last.current = next);
  });
}

/** A header cell: click (or Enter) sorts by it, again reverses; the choice is kept for the profile. */
function SortHeader({
  k,
  label,
  title,
  className,
}: {
  k: GridSortKey;
  label: string;
  title?: string;
  className?: string;
}) {
  const sort = useStore(useShallow((s) => gridLayoutOf(s).sort));
  const sortBy = useStore((s) => s.sortGridBy);
  const toast = useStore((s) => s.toast);
  const active = sort.key === k;
  return (
    <button
      role="columnheader"
      className={`th sortable ${className ?? ''}${active ? ' active' : ''}`}
      onClick={() => void sortBy(k).then((e) => e && toast(`The sort was not kept: ${e.message}`, 'error'))}
      aria-sort={active ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'}
      data-testid={`sort-${k}`}
      title={`${title ?? label}. Click to sort${active ? ' the other way' : ''}.`}
    >
      {label}
      {active ? (sort.dir === 1 ? ' ↑' : ' ↓') : ''}
    </button>
  );
}

/** The moneyline side whose fair price moved most in 15 minutes: "1 ▼ 4.2%" (▼ shortened, ▲ drifted; in implied-% mode the probability's move). */
const MoveCell = memo(function MoveCell({
  eventId,
  period,
  format,
}: {
  eventId: number;
  period: number;
  format: OddsFormat;
}) {
  // The event's movers are replaced every 15 s (loadGridMoves): the cell renders then, not on a price tick.
  const rows = useStore((s) => s.gridMoves[eventId]);
  const move = useMemo(() => {
    const r = moveOf(rows, period);
    // In implied-% mode the probability's move, which rises as the price shortens.
    return r ? { side: r.side, raw: r.move15!, pct: movePctIn(format, r.move15)!, fair: r.fair } : null;
  }, [rows, period, format]);
  if (!move)
    return (
      <span
        className="cell num move muted"
        data-testid={`move-${eventId}`}
        title="No 15-minute move of the moneyline yet"
      >
        —
      </span>
    );
  const label = move.side === 'home' ? '1' : move.side === 'draw' ? 'X' : '2';
  const from = move.fair / (1 + move.raw / 100);
  const tone = toneOf(move.pct);
  // A move that rounds to nothing names no side.
  if (tone === '') {
    return (
      <span
        className="cell num move muted"
        data-testid={`move-${eventId}`}
        title="No move of the moneyline's fair prices in the last 15 minutes"
      >
        {formatPercent(0)}
      </span>
    );
  }
  return (
    <span
      className={`cell num move ${tone}`}
      data-testid={`move-${eventId}`}
      title={`${sideName(move.side)}'s fair price ${formatOdds(from, format)} → ${formatOdds(move.fair, format)} in the last 15 minutes (${format === 'implied' ? 'probability ' : ''}${formatPercent(move.pct, { sign: true })})`}
    >
      {label} {arrowOf(move.pct)}
      {formatPercent(Math.abs(move.pct))}
    </span>
  );
});

/** In place of the price columns of a row that has none to show: why, in a few words, with the detail on hover. */
function NoPriceCell({ eventId, reason, span }: { eventId: number; reason: NoPriceReason; span: number }) {
  const words = NO_PRICE_WORDS[reason];
  return (
    <span
      className="cell muted"
      style={{ gridColumn: `span ${span}` }}
      title={words.detail}
      data-testid={`no-price-${eventId}`}
      data-reason={reason}
    >
      {words.text}
    </span>
  );
}

interface RowProps {
  eventId: number;
  top: number;
  columns: readonly GridColumn[];
  period: number;
  format: OddsFormat;
  model: DevigModel;
}

/** What a row shows of its event and its feed, as one selector reads it from the store (a few fields). */
function useRowFacts(eventId: number, rowLines: RowLines) {
  return useStore(
    useShallow((s) => {
      const ev = s.watchEvents[eventId];
      const stream = streamOf(s, eventId)?.state;
      return {
        home: ev?.runnerHome,
        away: ev?.runnerAway,
        league: ev?.leagueName,
        starts: ev?.starts,
        live: ev?.liveStatus === 1 && !ev.otherMatch,
        settled: ev?.settled ?? false,
        // The service now names another match with this id: flagged, and nothing of it is shown (eventIdentity.ts).
        otherMatch: ev?.otherMatch ?? null,
        // The stream's end: pushed with the odds, or (after a reload) as the stream's state.
        ended: endedOf(s, eventId),
        // Live prices only while the feed is: a row whose stream is not live (or whose service or host is
        // unreachable) is dimmed as stale.
        feedLive: s.hostConnected && s.status?.connection !== 'offline' && stream === 'live',
        // A stream over its hourly cap rests and retries by itself: said quietly on the row, not as an alarm.
        streamFailing: stream === 'failing',
        // A row without a price says why (ended, offline, the stream, or what the stream says of the markets).
        reason: noPriceReasonOf(s, eventId, rowLines, rowLines.priced),
        selected: s.selectedEventId === eventId,
        muted: s.settings?.mutedEvents.includes(eventId) ?? false,
      };
    }),
  );
}
type RowFacts = ReturnType<typeof useRowFacts>;

/**
 * A live alert on the event flashes its row for a moment (not while it is snoozed: the store decides). Written to the
 * row by a listener, as the prices are: alerts come many a second in a burst, and the row's shape stays. Returns the
 * row's ref and the flash as it was at this render (for the row's first paint).
 */
function useAlertFlash(eventId: number) {
  const rowEl = useRef<HTMLDivElement>(null);
  const flashAtRender = useStore.getState().alertFlash[eventId] ?? 0;
  useLayoutEffect(() => {
    const el = rowEl.current!;
    let shown = -1;
    const show = (flash: number) => {
      if (flash === shown) return;
      shown = flash;
      el.classList.toggle('alert-flash', flash > 0);
      if (flash) el.dataset['alertFlash'] = String(flash);
      else delete el.dataset['alertFlash'];
    };
    show(useStore.getState().alertFlash[eventId] ?? 0);
    return useStore.subscribe((s) => show(s.alertFlash[eventId] ?? 0));
  });
  return { rowEl, flashAtRender };
}

/** The row's event cell: home over away, and its flags (another match on the id, muted, snoozed, a failing stream). */
function EventCell({ eventId, e, snoozed }: { eventId: number; e: RowFacts; snoozed: boolean }) {
  const { muted, streamFailing, reason } = e;
  return (
    <span
      className="cell ev"
      title={`${eventName(e.home, e.away, eventId)}${e.league ? ` · ${e.league}` : ''} · event id ${eventId}`}
    >
      {/* Home over away: two short lines fit where one long one was cut. The " v " reads when copied. */}
      <span className="teams">
        {e.home || e.away ? (
          <>
            <span className="home" data-fit>
              {e.home ?? '?'}
            </span>
            <span className="sep"> v </span>
            <span className="away" data-fit>
              {e.away ?? '?'}
            </span>
          </>
        ) : (
          <span className="home" data-fit>
            {eventName(null, null, eventId)}
          </span>
        )}
      </span>
      {(muted || snoozed || e.otherMatch !== null || (streamFailing && reason !== 'failing')) && (
        <span className="flags">
          {e.otherMatch !== null && (
            <span
              className="other-match"
              data-testid={`other-match-${eventId}`}
              title="The service now uses this id for another match; this row keeps the one you watched"
            >
              id now names {e.otherMatch}
            </span>
          )}
          {muted && <span title="Alerts of this event are muted">muted</span>}
          {snoozed && <span title="Alerts of this event are snoozed">snoozed</span>}
          {streamFailing && reason !== 'failing' && (
            <span
              data-testid={`stream-failing-${eventId}`}
              title="The live stream kept dropping; it rests and reconnects by itself within the hour"
            >
              stream failing, retrying later
            </span>
          )}
        </span>
      )}
    </span>
  );
}

/** What a row's column cells are drawn from. */
interface RowCells {
  eventId: number;
  e: RowFacts;
  /** The main lines shown (none once the event is gone). */
  lines: MainLines;
  stale: boolean;
  period: number;
  format: OddsFormat;
  model: DevigModel;
}

/** A line column's cells: the line (a spread's handicap, signed; a total's points) and its two sides' prices. */
function lineCells(
  c: GridColumn,
  eventId: number,
  lineId: number | null,
  [first, second]: ['home', 'away'] | ['over', 'under'],
  format: OddsFormat,
) {
  return (
    <Fragment key={c}>
      <LineCell eventId={eventId} lineId={lineId} signed={first === 'home'} />
      <FormattedPriceCell eventId={eventId} lineId={lineId} side={first} format={format} />
      <FormattedPriceCell eventId={eventId} lineId={lineId} side={second} format={format} />
    </Fragment>
  );
}

/** One column's cells in a row; the prices, ages, scores and max stakes write themselves (gridCells.tsx). */
function columnCells(c: GridColumn, { eventId, e, lines, stale, period, format, model }: RowCells) {
  switch (c) {
    case 'league':
      return (
        <span key={c} className="cell league-cell" title={e.league ?? undefined}>
          {e.league}
        </span>
      );
    case 'start':
      return (
        <span key={c} className="cell">
          <Time ms={e.starts} short />
        </span>
      );
    case 'score':
      return <ScoreCell key={c} eventId={eventId} settled={e.settled} ended={e.ended} live={e.live} />;
    case 'moneyline':
      return (
        <Fragment key={c}>
          <FormattedPriceCell eventId={eventId} lineId={lines.ml} side="home" format={format} />
          <FormattedPriceCell eventId={eventId} lineId={lines.ml} side="draw" format={format} />
          <FormattedPriceCell eventId={eventId} lineId={lines.ml} side="away" format={format} />
        </Fragment>
      );
    case 'fair':
      return (
        <Fragment key={c}>
          <FairCell eventId={eventId} lineId={lines.ml} side="home" format={format} model={model} />
          <FairCell eventId={eventId} lineId={lines.ml} side="draw" format={format} model={model} />
          <FairCell eventId={eventId} lineId={lines.ml} side="away" format={format} model={model} />
        </Fragment>
      );
    case 'spread':
      return lineCells(c, eventId, lines.spread, ['home', 'away'], format);
    case 'total':
      return lineCells(c, eventId, lines.total, ['over', 'under'], format);
    case 'move':
      return <MoveCell key={c} eventId={eventId} period={period} format={format} />;
    case 'age':
      return (
        <AgeCell key={c} eventId={eventId} ml={lines.ml} spread={lines.spread} total={lines.total} stale={stale} />
      );
    case 'maxWin':
      return <MaxWinCell key={c} eventId={eventId} lineId={lines.ml} />;
  }
}

/**
 * A row's structure. It renders when what it shows changes shape (lines added or replaced or another main line, the
 * header, the columns, the selection, mute, the stream's state, an end); a price tick renders nothing here: its
 * cells write themselves. Every store update asks the row's one selector (useRowFacts), so it reads only a few fields.
 */
const WatchRow = memo(function WatchRow({ eventId, top, columns, period, format, model }: RowProps) {
  if (rowRenders) rowRenders[eventId] = (rowRenders[eventId] ?? 0) + 1;
  const rowLines = useRowLines(eventId, period);
  const e = useRowFacts(eventId, rowLines);
  const { ended, reason, selected } = e;
  const gone = e.settled || ended !== null || e.otherMatch !== null;
  const lines = gone ? NO_LINES : rowLines;
  const stale = !gone && rowLines.held && !e.feedLive;
  const snoozed = useSnoozedUntil(eventId) !== null;
  const runs = useMemo(() => priceRuns(columns), [columns]);
  const { rowEl, flashAtRender } = useAlertFlash(eventId);
  const cells: RowCells = { eventId, e, lines, stale, period, format, model };
  return (
    <div
      ref={rowEl}
      role="row"
      aria-selected={selected}
      className={`wrow${selected ? ' selected' : ''}${e.settled ? ' settled' : ''}${ended !== null ? ' ended' : ''}${stale ? ' stale' : ''}${flashAtRender ? ' alert-flash' : ''}`}
      data-alert-flash={flashAtRender || undefined}
      data-ended={ended ?? undefined}
      style={{ transform: `translateY(${top}px)` }}
      data-testid={`watch-row-${eventId}`}
      // A single click opens the detail, also once Esc has closed it (it opened only while the pane was still open).
      onClick={() => useStore.getState().selectEvent(eventId, true)}
    >
      <EventCell eventId={eventId} e={e} snoozed={snoozed} />
      {columns.map((c) => {
        const run = reason ? runs.get(c) : undefined;
        if (run === 0) return null;
        if (run) {
          return run.first ? (
            <NoPriceCell key={c} eventId={eventId} reason={reason!} span={run.span} />
          ) : (
            <span key={c} className="cell" style={{ gridColumn: `span ${run.span}` }} />
          );
        }
        return columnCells(c, cells);
      })}
    </div>
  );
});

/** Periods any watched event has lines for; recomputed only when the set of lines changes. */
function usePeriods(): number[] {
  const lineIdsByEvent = useStore((s) => s.lineIdsByEvent);
  return useMemo(() => {
    const s = useStore.getState();
    const set = new Set<number>([0]);
    for (const [ev, ids] of Object.entries(lineIdsByEvent))
      for (const id of ids) {
        const m = s.markets[marketKey(Number(ev), id)];
        if (m) set.add(m.period);
      }
    return [...set].sort((a, b) => a - b).slice(0, 40);
  }, [lineIdsByEvent]);
}

function AddById() {
  const addWatch = useStore((s) => s.addWatch);
  const toast = useStore((s) => s.toast);
  const select = useStore((s) => s.selectEvent);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const id = Number(text.trim());
  const valid = text.trim() !== '' && Number.isInteger(id) && id >= 0;
  const submit = async () => {
    if (!valid) return;
    setBusy(true);
    const err = await addWatch(id);
    setBusy(false);
    if (err) toast(`Could not watch ${id}: ${err.message}`, 'error');
    else {
      setText('');
      select(id);
      // Done typing: the next key is a shortcut again, not another digit in the box.
      input.current?.blur();
    }
  };
  return (
    <form
      className="add-by-id"
      onSubmit={(ev) => {
        ev.preventDefault();
        void submit();
      }}
    >
      <input
        ref={input}
        data-testid="add-watch-input"
        placeholder="event id"
        inputMode="numeric"
        value={text}
        onChange={(ev) => setText(ev.target.value)}
        aria-label="Event id to watch"
        size={10}
      />
      <button type="submit" data-testid="add-watch-button" disabled={!valid || busy}>
        {busy ? 'Adding…' : 'Watch'}
      </button>
    </form>
  );
}

/** How often the Move column asks for the movers while it is shown. */
const MOVES_EVERY_MS = 15_000;

/** The width the grid's rows have (its scroller's, less a scrollbar), followed as the window and the split change. */
function useGridWidth(scroller: RefObject<HTMLDivElement | null>, present: boolean): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!present || !el) return;
    const measure = () => setWidth(el.clientWidth);
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [scroller, present]);
  return width;
}

/**
 * The column menu: each column shown or hidden, moved left or right, and back to the default set that fits the
 * width. A dialog of plain checkboxes and buttons: Tab moves through it, Space ticks, Esc closes and returns to the
 * button that opened it. Every change is kept for the profile at once.
 */
function ColumnMenu({
  shown,
  fitted,
  onClose,
}: {
  shown: readonly GridColumn[];
  fitted: boolean;
  onClose: () => void;
}) {
  const setColumns = useStore((s) => s.setGridColumns);
  const toast = useStore((s) => s.toast);
  const save = (columns: GridColumn[] | null) =>
    void setColumns(columns).then((e) => e && toast(`The columns were not kept: ${e.message}`, 'error'));
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.querySelector<HTMLInputElement>('input')?.focus();
    const away = (e: PointerEvent) => {
      const t = e.target as Node;
      if (!box.current?.contains(t) && !(t instanceof Element && t.closest('[data-testid="columns-button"]')))
        onClose();
    };
    // Esc closes it wherever the focus is (a moved row can take the focus with it), before the app's own Esc.
    const esc = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      onClose();
    };
    document.addEventListener('pointerdown', away);
    document.addEventListener('keydown', esc, true);
    return () => {
      document.removeEventListener('pointerdown', away);
      document.removeEventListener('keydown', esc, true);
    };
  }, [onClose]);
  /** After a move, the focus stays on the arrow pressed (the list is drawn again in the new order). */
  const move = (c: GridColumn, by: -1 | 1) => {
    save(moveColumn(shown, c, by));
    requestAnimationFrame(() => {
      const again = box.current?.querySelector<HTMLButtonElement>(
        `[data-testid="column-${by < 0 ? 'left' : 'right'}-${c}"]`,
      );
      if (again && !again.disabled && document.activeElement !== again) again.focus();
    });
  };
  return (
    <div
      ref={box}
      className="column-menu panel"
      role="dialog"
      aria-label="Grid columns"
      data-testid="column-menu"
      onKeyDown={(e) => {
        // The menu's keys are its own: the grid's arrows and letters wait until it closes.
        e.stopPropagation();
      }}
    >
      <div className="column-menu-head">
        <strong>Columns</strong>
        <span className="muted small-text">
          {fitted ? 'the default set for this width' : 'your choice, kept for this profile'}
        </span>
      </div>
      <ul>
        {menuOrder(shown).map((c) => {
          const at = shown.indexOf(c);
          return (
            <li key={c}>
              <label className="check">
                <input
                  type="checkbox"
                  checked={at >= 0}
                  onChange={(e) => save(toggleColumn(shown, c, e.target.checked))}
                  data-testid={`column-toggle-${c}`}
                />
                {COLUMN_NAMES[c]}
              </label>
              <span className="spacer" />
              <button
                className="small"
                disabled={at <= 0}
                onClick={() => move(c, -1)}
                aria-label={`Move ${COLUMN_NAMES[c]} left`}
                data-testid={`column-left-${c}`}
              >
                ←
              </button>
              <button
                className="small"
                disabled={at < 0 || at === shown.length - 1}
                onClick={() => move(c, 1)}
                aria-label={`Move ${COLUMN_NAMES[c]} right`}
                data-testid={`column-right-${c}`}
              >
                →
              </button>
            </li>
          );
        })}
      </ul>
      <div className="column-menu-foot">
        <button
          onClick={() => save(null)}
          disabled={fitted}
          data-testid="column-reset"
          title="The default columns, as many as fit the grid's width"
        >
          Fit to the width
        </button>
        <span className="spacer" />
        <button onClick={onClose} data-testid="column-menu-close">
          Done (Esc)
        </button>
      </div>
    </div>
  );
}

/** The view's toolbar: the count, the filter, live only, the period, the fixtures picker's button and add by id. */
function WatchToolbar({ shown, total }: { shown: number; total: number }) {
  // The service's own period descriptions (from /api/periods), as everywhere else.
  const periodNames = usePeriodNames();
  const { filter, liveOnly, period, picker } = useStore(
    useShallow((s) => ({
      filter: s.watchFilter,
      liveOnly: s.watchLiveOnly,
      period: s.watchPeriod,
      picker: s.fixturesOpen,
    })),
  );
  const { setFilter, setLiveOnly, setPeriod, setPicker } = useStore(
    useShallow((s) => ({
      setFilter: s.setWatchFilter,
      setLiveOnly: s.setWatchLiveOnly,
      setPeriod: s.setWatchPeriod,
      setPicker: s.setFixturesOpen,
    })),
  );
  const sportOfSelected = useStore((s) =>
    s.selectedEventId !== null ? (s.watchEvents[s.selectedEventId]?.sportName ?? null) : null,
  );
  const periods = usePeriods();
  return (
    <header className="view-header">
      <h1 id="watchlist-title">Watchlist</h1>
      <span className="muted" data-testid="watch-count">
        {shown === total ? countOf(total, 'event') : `${shown} of ${countOf(total, 'event')}`}
      </span>
      <input
        type="search"
        data-search
        data-testid="watch-filter"
        placeholder="Filter (/)"
        value={filter}
        onChange={(ev) => setFilter(ev.target.value)}
        aria-label="Filter watched events"
      />
      <label className="check">
        <input type="checkbox" checked={liveOnly} onChange={(ev) => setLiveOnly(ev.target.checked)} /> live only
      </label>
      <label className="check">
        period{' '}
        <select value={period} onChange={(ev) => setPeriod(Number(ev.target.value))} data-testid="period-select">
          {periods.map((p) => (
            <option key={p} value={p}>
              {labelPeriod(sportOfSelected ?? '', p, periodNames)}
            </option>
          ))}
        </select>
      </label>
      <span className="spacer" />
      <button onClick={() => setPicker(!picker)} data-testid="open-fixtures" aria-expanded={picker}>
        Fixtures…
      </button>
      <AddById />
    </header>
  );
}

/**
 * The grid's columns: the trader's, or the default set that fits the width the grid has now, each as wide as what it
 * shows (GridSizer measures it and calls `measured`). Sideways: the grid is wider than its room, and scrolls so.
 */
function useGridColumns(scroller: RefObject<HTMLDivElement | null>, present: boolean) {
  const chosen = useStore(useShallow((s) => gridLayoutOf(s).columns ?? NONE));
  const fitted = useStore((s) => gridLayoutOf(s).columns === null);
  const width = useGridWidth(scroller, present);
  const [fit, setFit] = useState<ContentWidths | undefined>(undefined);
  const measured = useCallback(
    (next: ContentWidths) => setFit((was) => (was && JSON.stringify(was) === JSON.stringify(next) ? was : next)),
    [],
  );
  const fittedKey = fitted ? autoColumns(width, fit).join(',') : '';
  const columns = useMemo<GridColumn[]>(
    () => (fitted ? (fittedKey ? (fittedKey.split(',') as GridColumn[]) : []) : chosen),
    [fitted, fittedKey, chosen],
  );
  const { template, minWidth } = useMemo(() => gridTemplate(columns, fit), [columns, fit]);
  // The event column stays put only when the grid scrolls sideways: a sticky cell is a compositor layer of its own,
  // one per row, which cost the page's frames hundreds of milliseconds with 200 rows on a tall screen.
  const sideways = width === 0 || minWidth > width;
  return { columns, fitted, measured, template, minWidth, sideways };
}

/** The Move column's figures, asked for every MOVES_EVERY_MS while it is shown. */
function useMovesWhileShown(moving: boolean): void {
  const loadMoves = useStore((s) => s.loadGridMoves);
  useEffect(() => {
    if (!moving) return;
    void loadMoves();
    const t = setInterval(() => void loadMoves(), MOVES_EVERY_MS);
    return () => clearInterval(t);
  }, [moving, loadMoves]);
}

/** The grid's header row: the event column (with the column menu's button) and a sorting header per cell. */
function GridHead({
  columns,
  menu,
  setMenu,
  menuButton,
}: {
  columns: readonly GridColumn[];
  menu: boolean;
  setMenu: (open: boolean) => void;
  menuButton: RefObject<HTMLButtonElement | null>;
}) {
  return (
    <div className="whead" role="row">
      <span className="th ev">
        <SortHeader k="event" label="Event" title="The match: home over away" />
        <button
          ref={menuButton}
          className="th-menu"
          onClick={() => setMenu(!menu)}
          aria-haspopup="dialog"
          aria-expanded={menu}
          title="Choose and order the columns"
          data-testid="columns-button"
        >
          Columns ▾
        </button>
      </span>
      {columns.flatMap((c) =>
        COLUMN_CELLS[c].map((h) => (
          <SortHeader key={h.key} k={h.key} label={h.label} title={h.title} className={h.num ? 'num' : ''} />
        )),
      )}
    </div>
  );
}

/** Why there is no grid: the list failed (with a retry), is loading, or nothing is watched yet. */
function WatchMessages({ total, picker }: { total: number; picker: boolean }) {
  const loaded = useStore((s) => s.watchLoaded);
  const error = useStore((s) => s.watchError);
  const reload = useStore((s) => s.loadWatchlist);
  const setPicker = useStore((s) => s.setFixturesOpen);
  return (
    <>
      {error && (
        <div className="calm-message" role="alert">
          The watchlist is not available: {error.message} <button onClick={() => void reload()}>Try again</button>
        </div>
      )}
      {!error && !loaded && <p className="calm-message">Loading the watchlist…</p>}
      {!error && loaded && total === 0 && !picker && (
        <div className="calm-message empty" data-testid="watch-empty">
          Nothing watched yet. Add an event from the fixtures, or type its id.{' '}
          <button onClick={() => setPicker(true)}>Browse fixtures</button>
        </div>
      )}
    </>
  );
}

export function WatchlistView() {
  const ids = useStore(useShallow(selectVisibleWatchIds));
  const total = useStore((s) => s.watchIds.length);
  const { period, selected } = useStore(useShallow((s) => ({ period: s.watchPeriod, selected: s.selectedEventId })));
  const format = useOddsFormat();
  const model = useStore((s) => s.devigModel);
  const picker = useStore((s) => s.fixturesOpen);
  const setPicker = useStore((s) => s.setFixturesOpen);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: ids.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const { columns, fitted, measured, template, minWidth, sideways } = useGridColumns(scroller, total > 0);
  const [menu, setMenu] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const closeMenu = useMemo(
    () => () => {
      setMenu(false);
      menuButton.current?.focus();
    },
    [],
  );
  useMovesWhileShown(columns.includes('move'));

  const selectedIndex = selected === null ? -1 : ids.indexOf(selected);
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedIndex, virtualizer]);

  return (
    <section className="view watchlist" aria-labelledby="watchlist-title">
      <WatchToolbar shown={ids.length} total={total} />
      {picker && <FixturePicker onClose={() => setPicker(false)} />}
      <WatchMessages total={total} picker={picker} />
      {total > 0 && (
        <div
          className={`wgrid${sideways ? ' sideways' : ''}`}
          role="grid"
          aria-rowcount={ids.length}
          data-testid="watch-grid"
          data-columns={columns.join(' ')}
          style={{ '--wcols': template, '--wmin': `${minWidth}px` } as CSSProperties}
        >
          {menu && <ColumnMenu shown={columns} fitted={fitted} onClose={closeMenu} />}
          <GridSizer format={format} onMeasure={measured} />
          <div className="wbody" ref={scroller} data-testid="watch-scroller">
            <GridHead columns={columns} menu={menu} setMenu={setMenu} menuButton={menuButton} />
            {ids.length === 0 && <p className="calm-message">No watched event matches the filter.</p>}
            <div className="rows" style={{ height: virtualizer.getTotalSize() }}>
              {virtualizer.getVirtualItems().map((item) => (
                <WatchRow
                  key={ids[item.index]}
                  eventId={ids[item.index]!}
                  top={item.start}
                  columns={columns}
                  period={period}
                  format={format}
                  model={model}
                />
              ))}
            </div>
          </div>
        </div>
      )}
    </section>
  );
}
