// The fixtures picker: lists fixtures:list (optionally live only, per sport), filters by text, adds a watch.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { FixtureView } from '../../../shared/ipc/contract';
import { api } from '../api';
import { Time } from '../components/Time';
import { serviceMs } from '../format';
import { SportSelect } from '../components/SportSelect';
import { useQuery } from '../hooks';
import { useStore } from '../store';

export function FixturePicker({ onClose }: { onClose: () => void }) {
  const [liveOnly, setLiveOnly] = useState(false);
  const [sportId, setSportId] = useState<number | null>(null);
  const [text, setText] = useState('');
  const [adding, setAdding] = useState<Set<number>>(new Set());
  const watchEvents = useStore((s) => s.watchEvents);
  const { addWatch, toast, select } = useStore(useShallow((s) => ({ addWatch: s.addWatch, toast: s.toast, select: s.selectEvent })));
  const scroller = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);

  const { data: fixtures, error, reload } = useQuery(`${sportId}:${liveOnly}`, () =>
    api.invoke('fixtures:list', { ...(sportId !== null ? { sportId } : {}), liveOnly }),
  );
  useEffect(() => input.current?.focus(), []);

  const shown = useMemo(() => {
    const q = text.trim().toLowerCase();
    const list = (fixtures ?? []).filter(
      (f) => !q || `${f.runner_home} ${f.runner_away} ${f.league_name} ${f.sport_name} ${f.event_id}`.toLowerCase().includes(q),
    );
    return list.sort((a, b) => a.starts.localeCompare(b.starts) || a.event_id - b.event_id);
  }, [fixtures, text]);
  const virtualizer = useVirtualizer({ count: shown.length, getScrollElement: () => scroller.current, estimateSize: () => 28, overscan: 10 });

  const add = async (f: FixtureView) => {
    setAdding((s) => new Set(s).add(f.event_id));
    const err = await addWatch(f.event_id);
    setAdding((s) => {
      const n = new Set(s);
      n.delete(f.event_id);
      return n;
    });
    if (err) toast(`Could not watch ${f.runner_home} v ${f.runner_away}: ${err.message}`, 'error');
    else select(f.event_id);
  };

  return (
    <div
      className="picker panel"
      data-testid="fixture-picker"
      onKeyDown={(ev) => {
        if (ev.key === 'Escape') {
          ev.stopPropagation();
          onClose();
        }
      }}
    >
      <div className="picker-bar">
        <strong>Fixtures</strong>
        <input ref={input} type="search" placeholder="team, league or id" value={text} onChange={(e) => setText(e.target.value)} aria-label="Filter fixtures" data-testid="fixture-filter" />
        <SportSelect value={sportId} onChange={setSportId} />
        <label className="check">
          <input type="checkbox" checked={liveOnly} onChange={(e) => setLiveOnly(e.target.checked)} data-testid="fixture-live-only" /> live now only
        </label>
        <span className="muted">{fixtures ? `${shown.length} fixtures` : ''}</span>
        <span className="spacer" />
        <button onClick={onClose} aria-label="Close fixtures">
          Close (Esc)
        </button>
      </div>
      {error && (
        <p className="calm-message" role="alert">
          Fixtures are not available: {error.message} <button onClick={reload}>Try again</button>
        </p>
      )}
      {!error && !fixtures && <p className="calm-message">Loading fixtures…</p>}
      {fixtures && shown.length === 0 && <p className="calm-message">No fixture matches. {liveOnly ? 'Try without "live now only".' : ''}</p>}
      <div className="picker-list" ref={scroller}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const f = shown[item.index]!;
            const watched = f.watched || !!watchEvents[f.event_id];
            return (
              <div key={f.event_id} className="prow" style={{ transform: `translateY(${item.start}px)` }} data-testid={`fixture-row-${f.event_id}`}>
                <Time ms={serviceMs(f.starts)} withDate />
                <span className="muted">{f.sport_name}</span>
                <span className="muted ellipsis">{f.league_name}</span>
                <span className="ellipsis">
                  {f.runner_home} v {f.runner_away}
                </span>
                <span>{f.live_status === 1 ? <span className="badge live">LIVE</span> : null}</span>
                <button
                  disabled={watched || adding.has(f.event_id)}
                  onClick={() => void add(f)}
                  data-testid={`fixture-add-${f.event_id}`}
                >
                  {watched ? 'Watched' : adding.has(f.event_id) ? 'Adding…' : 'Watch'}
                </button>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
