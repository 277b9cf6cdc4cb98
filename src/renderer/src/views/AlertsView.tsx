// Alerts: the alert history (alerts:list, then onAlert as they fire), filterable, with muting per event.
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { alertWordsIn } from '../../../shared/formats';
import { Time } from '../components/Time';
import { eventName, useOddsFormat } from '../format';
import { focusEvent, focusSettlement, useStore } from '../store';

const KIND_LABEL: Record<string, string> = { max_win: 'MAX STAKE', max_win_change: 'MAX STAKE', settled: 'SETTLED', odds_move: 'MOVE' };
const kindLabel = (k: string) => KIND_LABEL[k] ?? k.replace(/_/g, ' ').toUpperCase();
const kindClass = (k: string) => (k.startsWith('max_win') ? 'maxwin' : k.startsWith('settle') ? 'settled' : 'other');

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

const AlertRow = memo(function AlertRow({ id, top }: { id: number; top: number }) {
  const a = useStore((s) => s.alertsById[id]);
  const ev = useStore(useShallow((s) => (a?.eventId != null ? s.watchEvents[a.eventId] : undefined)));
  const format = useOddsFormat();
  if (!a) return null;
  return (
    <div
      className="arow"
      role="row"
      style={{ transform: `translateY(${top}px)` }}
      data-testid="alert-row"
      data-kind={a.kind}
      data-event-id={a.eventId ?? undefined}
      onDoubleClick={() => a.eventId != null && (a.kind === 'settled' ? focusSettlement : focusEvent)(a.eventId)}
      title={a.eventId != null ? (a.kind === 'settled' ? 'Double-click to open the settlement' : 'Double-click to open the event') : undefined}
    >
      <Time ms={a.at} short className="cell" />
      <span className={`cell kind ${kindClass(a.kind)}`}>{kindLabel(a.kind)}</span>
      <span className="cell ellipsis muted">{a.eventId != null ? (ev ? eventName(ev.runnerHome, ev.runnerAway) : `#${a.eventId}`) : ''}</span>
      <span className="cell ellipsis msg" title={a.message} data-testid="alert-text">
        {alertWordsIn(a, format).replace(/\n/g, ' · ')}
      </span>
      <span className="cell">{a.eventId != null && <MuteButton eventId={a.eventId} />}</span>
    </div>
  );
});

export function AlertsView() {
  const allIds = useStore(useShallow((s) => s.alertIds));
  const byId = useStore((s) => s.alertsById);
  const { loaded, error, load, markSeen, mutedEvents } = useStore(
    useShallow((s) => ({ loaded: s.alertsLoaded, error: s.alertsError, load: s.loadAlerts, markSeen: s.markAlertsSeen, mutedEvents: s.settings?.mutedEvents })),
  );
  const [kind, setKind] = useState('');
  const [text, setText] = useState('');
  const scroller = useRef<HTMLDivElement>(null);
  useEffect(() => {
    markSeen();
  }, [markSeen, allIds.length]);

  const kinds = useMemo(() => [...new Set(allIds.map((id) => byId[id]?.kind ?? ''))].filter(Boolean).sort(), [allIds, byId]);
  const ids = useMemo(() => {
    const q = text.trim().toLowerCase();
    if (!kind && !q) return allIds;
    return allIds.filter((id) => {
      const a = byId[id];
      return !!a && (!kind || a.kind === kind) && (!q || `${a.message} ${a.eventId ?? ''}`.toLowerCase().includes(q));
    });
  }, [allIds, byId, kind, text]);
  const virtualizer = useVirtualizer({ count: ids.length, getScrollElement: () => scroller.current, estimateSize: () => 28, overscan: 12 });

  return (
    <section className="view alerts" aria-labelledby="alerts-title">
      <header className="view-header">
        <h1 id="alerts-title">Alerts</h1>
        <span className="muted">{allIds.length.toLocaleString('en-US')} in history</span>
        <input type="search" data-search placeholder="Filter (/)" value={text} onChange={(e) => setText(e.target.value)} aria-label="Filter alerts" />
        <select value={kind} onChange={(e) => setKind(e.target.value)} aria-label="Kind" data-testid="alert-kind-filter">
          <option value="">All kinds</option>
          {kinds.map((k) => (
            <option key={k} value={k}>
              {kindLabel(k)}
            </option>
          ))}
        </select>
        <span className="spacer" />
        {mutedEvents && mutedEvents.length > 0 && (
          <span className="muted" data-testid="muted-events">
            Muted: {mutedEvents.map((id) => `#${id}`).join(', ')}
          </span>
        )}
      </header>
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
      <div className="agrid" role="grid">
        <div className="abody" ref={scroller}>
          <div className="ahead" role="row">
            <span className="th">Time</span>
            <span className="th">Kind</span>
            <span className="th">Event</span>
            <span className="th">What happened</span>
            <span className="th" />
          </div>
          <div className="rows" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((it) => (
              <AlertRow key={ids[it.index]} id={ids[it.index]!} top={it.start} />
            ))}
          </div>
        </div>
      </div>
    </section>
  );
}
