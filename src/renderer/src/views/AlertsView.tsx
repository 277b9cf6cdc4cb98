// Alerts: the alert history (alerts:list, then onAlert as they fire), filterable, with muting and snoozing per event.
// Keys: arrows (PgUp/PgDn, Home/End) move, Enter opens the alert's event at its line (a settlement explained); a
// double-click does the same. While the pointer is over the list or a row has focus, new alerts are held above it
// ("N new alerts", a click shows them): rows never move under the pointer, so a row's Mute acts on that row's match.
// A row updated in place (a drop episode that grew) keeps its place meanwhile.
import { useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useMemo, useRef, useState, type FocusEvent, type RefObject } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { alertWordsIn } from '../../../shared/formats';
import type { AlertRecord } from '../../../shared/domain';
import { SnoozeSelect } from '../components/Snooze';
import { Time } from '../components/Time';
import { eventName, useOddsFormat } from '../format';
import { useListKeys } from '../keys';
import { useStore } from '../store';
import { LabLink } from './LabView';
import { useFitColumns } from './fitColumns';

const KIND_LABEL: Record<string, string> = {
  max_win: 'MAX STAKE',
  max_win_change: 'MAX STAKE',
  settled: 'SETTLED',
  resettled: 'RE-SETTLED',
  odds_move: 'MOVE',
};
/** The alert list's columns at their narrowest (an empty list): time, kind, event, mute and snooze, what happened. */
const ALERT_FLOORS = [80, 60, 120, 120, 200] as const;
const kindLabel = (k: string) => KIND_LABEL[k] ?? k.replace(/_/g, ' ').toUpperCase();
/** A settlement and a re-settlement (the service sent it again with another result) open the same place. */
const isSettlementKind = (k: string) => k === 'settled' || k === 'resettled';
const kindClass = (k: string) =>
  k.startsWith('max_win') ? 'maxwin' : k.startsWith('settle') || isSettlementKind(k) ? 'settled' : 'other';

/** The line an alert is about: price, drop and max stake alerts carry it in their data. */
export function alertLineId(a: Pick<AlertRecord, 'data'>): number | null {
  const lineId = (a.data as { lineId?: unknown } | null)?.lineId;
  return typeof lineId === 'number' && Number.isSafeInteger(lineId) ? lineId : null;
}

/** Opens what an alert is about: its event at its line, or a settlement explained; Esc comes back to the alerts. */
export function openAlert(a: AlertRecord): void {
  if (a.eventId === null) return;
  const s = useStore.getState();
  if (isSettlementKind(a.kind)) s.openSettlement(a.eventId, 'alerts');
  else s.openEvent(a.eventId, { lineId: alertLineId(a), from: 'alerts' });
}

function MuteButton({ eventId }: { eventId: number }) {
  const muted = useStore((s) => s.settings?.mutedEvents.includes(eventId) ?? false);
  const mute = useStore((s) => s.muteEvent);
  const toast = useStore((s) => s.toast);
  return (
    <button
      className="small"
      aria-pressed={muted}
      data-testid={`mute-${eventId}`}
      onClick={(e) => {
        e.stopPropagation();
        void mute(eventId, !muted).then((err) => err && toast(`Could not change muting: ${err.message}`, 'error'));
      }}
    >
      {muted ? 'Unmute' : 'Mute'}
    </button>
  );
}

const AlertRow = memo(function AlertRow({
  id,
  top,
  cursor,
  onSelect,
}: {
  id: number;
  top: number;
  cursor: boolean;
  onSelect(id: number): void;
}) {
  const a = useStore((s) => s.alertsById[id]);
  const ev = useStore(useShallow((s) => (a?.eventId != null ? s.watchEvents[a.eventId] : undefined)));
  const format = useOddsFormat();
  if (!a) return null;
  return (
    <div
      className={`arow${cursor ? ' cursor' : ''}`}
      role="row"
      aria-selected={cursor}
      style={{ transform: `translateY(${top}px)` }}
      data-testid="alert-row"
      data-alert-id={a.id}
      data-line-id={alertLineId(a) ?? undefined}
      data-kind={a.kind}
      data-event-id={a.eventId ?? undefined}
      onClick={() => onSelect(a.id)}
      onDoubleClick={() => openAlert(a)}
      title={
        a.eventId != null
          ? isSettlementKind(a.kind)
            ? 'Enter or double-click: the settlement explained'
            : 'Enter or double-click: the event, at this line'
          : undefined
      }
    >
      <Time ms={a.at} short className="cell" />
      <span className={`cell kind ${kindClass(a.kind)}`}>{kindLabel(a.kind)}</span>
      <span className="cell ellipsis muted">
        {a.eventId != null ? (ev ? eventName(ev.runnerHome, ev.runnerAway) : `#${a.eventId}`) : ''}
      </span>
      {/* Mute and snooze before the words, which are the longest: in reach without scrolling sideways. */}
      <span className="cell actions">
        {a.eventId != null && (
          <>
            <MuteButton eventId={a.eventId} /> <SnoozeSelect eventId={a.eventId} />
          </>
        )}
      </span>
      <span className="cell ellipsis msg" title={a.message} data-testid="alert-text">
        {alertWordsIn(a, format).replace(/\n/g, ' · ')}
      </span>
    </div>
  );
});

/**
 * The list as it stood when the pointer came over it (or a row took focus): what is shown until it leaves, with the
 * count of alerts waiting above it. `listEvents` go on the list's element.
 */
function useHeldList(allIds: number[], byId: Record<number, AlertRecord>) {
  const [held, setHeld] = useState<number[] | null>(null);
  const pointerIn = useRef(false);
  const focusIn = useRef(false);
  const hold = useCallback(() => setHeld((h) => h ?? useStore.getState().alertIds), []);
  const release = useCallback(() => {
    if (!pointerIn.current && !focusIn.current) setHeld(null);
  }, []);
  const showNew = useCallback(() => setHeld(useStore.getState().alertIds), []);
  const shownIds = useMemo(() => (held ? held.filter((id) => byId[id]) : allIds), [held, allIds, byId]);
  const waiting = useMemo(() => {
    if (!held) return 0;
    const seen = new Set(held);
    return allIds.reduce((n, id) => (seen.has(id) ? n : n + 1), 0);
  }, [held, allIds]);
  const listEvents = {
    onPointerEnter: () => {
      pointerIn.current = true;
      hold();
    },
    onPointerLeave: () => {
      pointerIn.current = false;
      release();
    },
    onFocus: (e: FocusEvent<HTMLDivElement>) => {
      // A row reached by the keyboard holds the list; a button clicked with the pointer takes focus too, but the
      // pointer's own hold covers it, and the list must not stay held once the pointer has moved on.
      if (!(e.target as HTMLElement).matches?.(':focus-visible')) return;
      focusIn.current = true;
      hold();
    },
    onBlur: (e: FocusEvent<HTMLDivElement>) => {
      if (e.currentTarget.contains(e.relatedTarget as Node | null)) return;
      focusIn.current = false;
      release();
    },
  };
  return { held, shownIds, waiting, showNew, listEvents };
}

/** The view's header: the count, the text and kind filters, the keys' hint and the muted matches (by name). */
function AlertsHeader({
  total,
  text,
  setText,
  kind,
  setKind,
  kinds,
}: {
  total: number;
  text: string;
  setText: (text: string) => void;
  kind: string;
  setKind: (kind: string) => void;
  kinds: string[];
}) {
  const mutedEvents = useStore((s) => s.settings?.mutedEvents);
  // The muted matches by name (the watchlist knows them), not by id.
  const mutedNames = useStore(
    useShallow((s) =>
      (mutedEvents ?? []).map((id) =>
        s.watchEvents[id] ? eventName(s.watchEvents[id].runnerHome, s.watchEvents[id].runnerAway, id) : `event ${id}`,
      ),
    ),
  );
  return (
    <header className="view-header">
      <h1 id="alerts-title">Alerts</h1>
      <LabLink testId="alerts-open-lab" />
      <span className="muted">{total.toLocaleString('en-US')} in history</span>
      <input
        type="search"
        data-search
        placeholder="Filter (/)"
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-label="Filter alerts"
      />
      <select value={kind} onChange={(e) => setKind(e.target.value)} aria-label="Kind" data-testid="alert-kind-filter">
        <option value="">All kinds</option>
        {kinds.map((k) => (
          <option key={k} value={k}>
            {kindLabel(k)}
          </option>
        ))}
      </select>
      <span className="muted small-text">↑↓ select · Enter opens the event at the alert's line</span>
      <span className="spacer" />
      {mutedEvents && mutedEvents.length > 0 && (
        <span className="muted" data-testid="muted-events">
          Muted: {mutedNames.join(', ')}
        </span>
      )}
    </header>
  );
}

/** The grid of alerts, virtualised: time, kind, event, mute and snooze, what happened, each as wide as what it shows. */
function AlertGrid({
  ids,
  scroller,
  virtualizer,
  cursorIndex,
}: {
  ids: number[];
  scroller: RefObject<HTMLDivElement | null>;
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  cursorIndex: number;
}) {
  const fit = useFitColumns(scroller, ALERT_FLOORS);
  const selectAlert = useCallback((id: number) => useStore.getState().setListCursor('alerts', id), []);
  return (
    <div className="agrid" role="grid" style={fit}>
      <div className="abody" ref={scroller}>
        <div className="ahead" role="row">
          <span className="th">Time</span>
          <span className="th">Kind</span>
          <span className="th">Event</span>
          <span className="th" />
          <span className="th">What happened</span>
        </div>
        <div className="rows" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((it) => (
            <AlertRow
              key={ids[it.index]}
              id={ids[it.index]!}
              top={it.start}
              cursor={it.index === cursorIndex}
              onSelect={selectAlert}
            />
          ))}
        </div>
      </div>
    </div>
  );
}

export function AlertsView() {
  const allIds = useStore(useShallow((s) => s.alertIds));
  const byId = useStore((s) => s.alertsById);
  const { loaded, error, load, markSeen } = useStore(
    useShallow((s) => ({
      loaded: s.alertsLoaded,
      error: s.alertsError,
      load: s.loadAlerts,
      markSeen: s.markAlertsSeen,
    })),
  );
  const [kind, setKind] = useState('');
  const [text, setText] = useState('');
  const scroller = useRef<HTMLDivElement>(null);
  useEffect(() => {
    markSeen();
  }, [markSeen, allIds.length]);
  const { held, shownIds, waiting, showNew, listEvents } = useHeldList(allIds, byId);

  const kinds = useMemo(
    () => [...new Set(allIds.map((id) => byId[id]?.kind ?? ''))].filter(Boolean).sort(),
    [allIds, byId],
  );
  const ids = useMemo(() => {
    const q = text.trim().toLowerCase();
    if (!kind && !q) return shownIds;
    return shownIds.filter((id) => {
      const a = byId[id];
      return !!a && (!kind || a.kind === kind) && (!q || `${a.message} ${a.eventId ?? ''}`.toLowerCase().includes(q));
    });
  }, [shownIds, byId, kind, text]);
  const virtualizer = useVirtualizer({
    count: ids.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 28,
    overscan: 12,
  });
  const cursor = useStore((s) => s.listCursor.alerts);
  const setCursor = useStore((s) => s.setListCursor);
  const cursorIndex = cursor === null ? -1 : ids.indexOf(cursor as number);
  useEffect(() => {
    if (cursorIndex >= 0) virtualizer.scrollToIndex(cursorIndex, { align: 'auto' });
  }, [cursorIndex, virtualizer]);
  useListKeys('alerts', {
    count: ids.length,
    index: cursorIndex,
    select: (i) => setCursor('alerts', ids[i]!),
    open: (i) => {
      const a = byId[ids[i]!];
      if (a) openAlert(a);
    },
  });

  return (
    <section className="view alerts" aria-labelledby="alerts-title">
      <AlertsHeader total={allIds.length} text={text} setText={setText} kind={kind} setKind={setKind} kinds={kinds} />
      {error && (
        <div className="calm-message" role="alert">
          The alert history is not available: {error.message} <button onClick={() => void load()}>Try again</button>
        </div>
      )}
      {!error && !loaded && <p className="calm-message">Loading alerts…</p>}
      {!error && loaded && allIds.length === 0 && (
        <p className="calm-message" data-testid="alerts-empty">
          No alert yet. Max stake changes and settlements of watched events show up here.
        </p>
      )}
      <div className="alist" data-testid="alert-list" data-held={held ? 'true' : undefined} {...listEvents}>
        {waiting > 0 && (
          <button className="small new-alerts" data-testid="new-alerts" onClick={showNew}>
            {waiting.toLocaleString('en-US')} new {waiting === 1 ? 'alert' : 'alerts'} ↑
          </button>
        )}
        <AlertGrid ids={ids} scroller={scroller} virtualizer={virtualizer} cursorIndex={cursorIndex} />
      </div>
    </section>
  );
}
