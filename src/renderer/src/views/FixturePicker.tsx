// The fixtures picker: lists fixtures:list (optionally live only, per sport), filters by text, adds a watch. From the
// search box, ↓/↑ move the highlighted fixture (the first one to begin with) and Enter watches it, or opens it when
// it is watched already.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { countOf } from '../../../shared/formats';
import type { FixtureView } from '../../../shared/ipc/contract';
import { host } from '../host';
import { Time } from '../components/Time';
import { serviceMs } from '../format';
import { SportSelect } from '../components/SportSelect';
import { useQuery } from '../hooks';
import { useStore } from '../store';

/** The rows a key moves the highlight by in the search box (0: not a moving key). */
function stepOf(key: string): number {
  switch (key) {
    case 'ArrowDown':
      return 1;
    case 'ArrowUp':
      return -1;
    case 'PageDown':
      return 10;
    case 'PageUp':
      return -10;
    default:
      return 0;
  }
}

/** The fixtures the typed text matches (teams, league, sport or id), by start time. */
function useShownFixtures(fixtures: FixtureView[] | undefined | null, text: string): FixtureView[] {
  return useMemo(() => {
    const q = text.trim().toLowerCase();
    const list = (fixtures ?? []).filter(
      (f) =>
        !q ||
        `${f.runner_home} ${f.runner_away} ${f.league_name} ${f.sport_name} ${f.event_id}`.toLowerCase().includes(q),
    );
    return list.sort((a, b) => a.starts.localeCompare(b.starts) || a.event_id - b.event_id);
  }, [fixtures, text]);
}

/** Watching a fixture: the ones on their way, and the add itself (the added event is selected; a failure is told). */
function useAddWatch() {
  const [adding, setAdding] = useState<Set<number>>(new Set());
  const { addWatch, toast, select } = useStore(
    useShallow((s) => ({ addWatch: s.addWatch, toast: s.toast, select: s.selectEvent })),
  );
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
  return { adding, add, select };
}

/** One fixture in the list: when, where, who, live or not, and its Watch button. */
function FixtureRow({
  f,
  top,
  highlighted,
  watched,
  adding,
  onAdd,
  onHover,
}: {
  f: FixtureView;
  top: number;
  highlighted: boolean;
  watched: boolean;
  adding: boolean;
  onAdd: (f: FixtureView) => void;
  onHover: () => void;
}) {
  return (
    <div
      id={`fixture-option-${f.event_id}`}
      role="option"
      aria-selected={highlighted}
      className={`prow${highlighted ? ' selected' : ''}`}
      style={{ transform: `translateY(${top}px)` }}
      data-testid={`fixture-row-${f.event_id}`}
      onMouseMove={() => !highlighted && onHover()}
    >
      <Time ms={serviceMs(f.starts)} withDate />
      <span className="muted">{f.sport_name}</span>
      <span className="muted ellipsis">{f.league_name}</span>
      <span className="ellipsis">
        {f.runner_home} v {f.runner_away}
      </span>
      <span>{f.live_status === 1 ? <span className="badge live">LIVE</span> : null}</span>
      <button disabled={watched || adding} onClick={() => onAdd(f)} data-testid={`fixture-add-${f.event_id}`}>
        {watched ? 'Watched' : adding ? 'Adding…' : 'Watch'}
      </button>
    </div>
  );
}

export function FixturePicker({ onClose }: { onClose: () => void }) {
  const [liveOnly, setLiveOnly] = useState(false);
  const [sportId, setSportId] = useState<number | null>(null);
  const [text, setText] = useState('');
  const watchEvents = useStore((s) => s.watchEvents);
  const { adding, add, select } = useAddWatch();
  const [active, setActive] = useState(0);
  const scroller = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);

  const {
    data: fixtures,
    error,
    reload,
  } = useQuery(`${sportId}:${liveOnly}`, () =>
    host.invoke('fixtures:list', { ...(sportId !== null ? { sportId } : {}), liveOnly }),
  );
  useEffect(() => input.current?.focus(), []);

  const shown = useShownFixtures(fixtures, text);
  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 28,
    overscan: 10,
  });
  // A new list (typed text, another sport): the first fixture is the highlighted one again.
  useEffect(() => setActive(0), [shown]);
  const highlighted = shown.length === 0 ? -1 : Math.min(active, shown.length - 1);
  const moveTo = (i: number) => {
    const next = Math.max(0, Math.min(i, shown.length - 1));
    setActive(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };
  const isWatched = (f: FixtureView) => f.watched || !!watchEvents[f.event_id];

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
        <input
          ref={input}
          type="search"
          placeholder="team, league or id"
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-label="Filter fixtures (↓↑ choose, Enter watches)"
          aria-controls="fixture-list"
          aria-activedescendant={highlighted >= 0 ? `fixture-option-${shown[highlighted]!.event_id}` : undefined}
          data-testid="fixture-filter"
          onKeyDown={(e) => {
            const step = stepOf(e.key);
            if (step !== 0 && shown.length > 0) {
              e.preventDefault();
              moveTo(highlighted + step);
            } else if (e.key === 'Enter' && highlighted >= 0) {
              e.preventDefault();
              const f = shown[highlighted]!;
              if (isWatched(f)) select(f.event_id, true);
              else if (!adding.has(f.event_id)) void add(f);
            }
          }}
        />
        <SportSelect value={sportId} onChange={setSportId} />
        <label className="check">
          <input
            type="checkbox"
            checked={liveOnly}
            onChange={(e) => setLiveOnly(e.target.checked)}
            data-testid="fixture-live-only"
          />{' '}
          live now only
        </label>
        <span className="muted">{fixtures ? countOf(shown.length, 'fixture') : ''}</span>
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
      {fixtures && shown.length === 0 && (
        <p className="calm-message">No fixture matches. {liveOnly ? 'Try without "live now only".' : ''}</p>
      )}
      <div className="picker-list" ref={scroller} id="fixture-list" role="listbox" aria-label="Fixtures">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const f = shown[item.index]!;
            return (
              <FixtureRow
                key={f.event_id}
                f={f}
                top={item.start}
                highlighted={item.index === highlighted}
                watched={isWatched(f)}
                adding={adding.has(f.event_id)}
                onAdd={(x) => void add(x)}
                onHover={() => setActive(item.index)}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}
