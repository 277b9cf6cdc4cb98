// Watchlist: the live grid of watched events (virtualised; each row subscribes to its own event id and each price
// cell to its own line), its toolbar (search, live filter, period, add by id) and the fixtures picker.
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { parseServiceTime } from '../../../shared/api';
import type { MarketView } from '../../../shared/domain';
import { labelPeriod } from '../../../shared/periods';
import { lineNumber } from '../../../shared/trading';
import { usePeriodNames } from '../hooks';
import { EventBadge } from '../components/EventBadge';
import { PriceCell } from '../components/PriceCell';
import { useSnoozedUntil } from '../components/Snooze';
import { Time } from '../components/Time';
import { eventName, fmtLine, fmtMoney, fmtScore } from '../format';
import { useStore } from '../store';
import { mainLines, NO_PRICE_WORDS, noPriceReason, selectVisibleWatchIds, type MainLines, type NoPriceReason } from '../store/selectors';
import type { SortKey } from '../store/ui';
import { endedOf, marketKey, streamOf } from '../store/watchlist';
import { FixturePicker } from './FixturePicker';

const ROW_HEIGHT = 30;
const NO_LINES: MainLines = { ml: null, spread: null, total: null };

// ---- one shared one-second ticker for the price ages (one interval, however many rows are on screen) ----
let nowMs = Date.now();
const tickListeners = new Set<() => void>();
let ticker: ReturnType<typeof setInterval> | null = null;
function subscribeNow(listener: () => void): () => void {
  tickListeners.add(listener);
  ticker ??= setInterval(() => {
    nowMs = Date.now();
    for (const l of tickListeners) l();
  }, 1000);
  return () => {
    tickListeners.delete(listener);
    if (tickListeners.size === 0 && ticker !== null) {
      clearInterval(ticker);
      ticker = null;
    }
  };
}
const useNow = () => useSyncExternalStore(subscribeNow, () => nowMs);

/** "now", "12s", "4m", "3h": how long ago a price was last set. */
export function fmtAge(ms: number): string {
  if (ms < 1500) return 'now';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  return `${Math.floor(s / 3600)}h`;
}

/**
 * When the row's freshest main price was set, on this machine's clock: the service's updated_at moved by the
 * measured clock skew, else when we received it.
 */
function usePriceTime(eventId: number, lines: MainLines): number | null {
  return useStore((s) => {
    const skew = s.status?.quota.clockSkewMs ?? 0;
    let latest: number | null = null;
    for (const id of [lines.ml, lines.spread, lines.total]) {
      if (id === null) continue;
      const m = s.markets[marketKey(eventId, id)];
      if (!m) continue;
      const service = serviceTimeOf(m);
      const t = service !== null ? Math.min(service - skew, m.seenAt) : m.seenAt;
      if (latest === null || t > latest) latest = t;
    }
    return latest;
  });
}

/** A market's updated_at parsed once: a market object is replaced when it changes, so the answer is kept with it. */
const serviceTimes = new WeakMap<MarketView, number | null>();
function serviceTimeOf(m: MarketView): number | null {
  let t = serviceTimes.get(m);
  if (t === undefined) serviceTimes.set(m, (t = m.updatedAt ? parseServiceTime(m.updatedAt) : null));
  return t;
}

/**
 * The price's age. Its own component: the time of a row's freshest price changes with nearly every tick, and when
 * the row read it, the whole row rendered again on every tick.
 */
function AgeCell({ eventId, lines, stale }: { eventId: number; lines: MainLines; stale: boolean }) {
  const at = usePriceTime(eventId, lines);
  const now = useNow();
  const age = at === null ? null : Math.max(0, now - at);
  return (
    <span
      className={`cell num age${stale ? ' stale' : ''}`}
      data-testid={`age-${eventId}`}
      title={at === null ? 'No price' : `Price set ${fmtAge(age!)} ago${stale ? '; the feed is not live, so it may be out of date' : ''}`}
    >
      {age === null ? '—' : fmtAge(age)}
    </span>
  );
}


function SortHeader({ k, label, title, className }: { k: SortKey; label: string; title?: string; className?: string }) {
  const sort = useStore(useShallow((s) => s.watchSort));
  const sortBy = useStore((s) => s.sortWatchBy);
  const active = sort.key === k;
  return (
    <button
      className={`th sortable ${className ?? ''}${active ? ' active' : ''}`}
      onClick={() => sortBy(k)}
      aria-sort={active ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'}
      data-testid={`sort-${k}`}
      title={title}
    >
      {label}
      {active ? (sort.dir === 1 ? ' ↑' : ' ↓') : ''}
    </button>
  );
}

/** A spread's home handicap is signed ("+0.5", "-1.25"); a total never is ("2.5"), as everywhere else. */
function LineCell({ eventId, lineId, signed }: { eventId: number; lineId: number | null; signed: boolean }) {
  const line = useStore((s) => (lineId === null ? null : (s.markets[marketKey(eventId, lineId)]?.line ?? null)));
  return <span className="cell num line">{signed ? fmtLine(line) : line === null ? '' : lineNumber(line)}</span>;
}

function MaxWinCell({ eventId, lineId }: { eventId: number; lineId: number | null }) {
  const maxWin = useStore((s) => (lineId === null ? null : (s.markets[marketKey(eventId, lineId)]?.maxWin ?? null)));
  return (
    <span className="cell num maxwin" data-testid={`maxwin-${eventId}`}>
      {fmtMoney(maxWin)}
    </span>
  );
}

/** In place of the price columns of a row that has none to show: why, in a few words, with the detail on hover. */
function NoPriceCell({ eventId, reason }: { eventId: number; reason: NoPriceReason }) {
  const words = NO_PRICE_WORDS[reason];
  return (
    <span className="cell muted" style={{ gridColumn: 'span 9' }} title={words.detail} data-testid={`no-price-${eventId}`} data-reason={reason}>
      {words.text}
    </span>
  );
}

const WatchRow = memo(function WatchRow({ eventId, top }: { eventId: number; top: number }) {
  const e = useStore(
    useShallow((s) => {
      const ev = s.watchEvents[eventId];
      return {
        home: ev?.runnerHome,
        away: ev?.runnerAway,
        league: ev?.leagueName,
        starts: ev?.starts,
        live: ev?.liveStatus === 1,
        scoreHome: ev?.scoreHome,
        scoreAway: ev?.scoreAway,
        settled: ev?.settled ?? false,
      };
    }),
  );
  // The stream's end: pushed with the odds, or (after a reload) as the stream's state.
  const ended = useStore((s) => endedOf(s, eventId));
  // Live prices only while the feed is: an event that left the book shows none, and a row whose stream is not live
  // (or whose service or host is unreachable) is dimmed as stale.
  const feedLive = useStore((s) => s.hostConnected && s.status?.connection !== 'offline' && streamOf(s, eventId)?.state === 'live');
  const period = useStore((s) => s.watchPeriod);
  const gone = e.settled || ended !== null;
  const shown = useStore(useShallow((s) => mainLines(s, eventId, period)));
  const lines = gone ? NO_LINES : shown;
  const priced = useStore((s) => [lines.ml, lines.spread, lines.total].some((id) => id !== null && s.markets[marketKey(eventId, id)] !== undefined));
  const stale = !gone && priced && !feedLive;
  // A row without a price says why (ended, offline, the stream, or what the stream says of the markets).
  const reason = useStore((s) => noPriceReason(s, eventId, period));
  const selected = useStore((s) => s.selectedEventId === eventId);
  const muted = useStore((s) => s.settings?.mutedEvents.includes(eventId) ?? false);
  // A stream over its hourly cap rests and retries by itself: said quietly on the row, not as an alarm.
  const streamFailing = useStore((s) => streamOf(s, eventId)?.state === 'failing');
  const select = useStore((s) => s.selectEvent);
  // A live alert on the event flashes its row for a moment (not while it is snoozed: the store decides).
  const flash = useStore((s) => s.alertFlash[eventId] ?? 0);
  const snoozed = useSnoozedUntil(eventId) !== null;
  return (
    <div
      role="row"
      aria-selected={selected}
      className={`wrow${selected ? ' selected' : ''}${e.settled ? ' settled' : ''}${ended !== null ? ' ended' : ''}${stale ? ' stale' : ''}${flash ? ' alert-flash' : ''}`}
      data-alert-flash={flash || undefined}
      data-ended={ended ?? undefined}
      style={{ transform: `translateY(${top}px)` }}
      data-testid={`watch-row-${eventId}`}
      onClick={() => select(eventId)}
      onDoubleClick={() => select(eventId, true)}
    >
      <span className="cell ev" title={`${e.league ?? ''} · event ${eventId}`}>
        <span className="teams">{eventName(e.home, e.away, eventId)}</span>
        <span className="league">
          {e.league}
          {muted ? ' · muted' : ''}
          {snoozed ? ' · snoozed' : ''}
          {streamFailing && reason !== 'failing' && (
            <span data-testid={`stream-failing-${eventId}`} title="The live stream kept dropping; it rests and reconnects by itself within the hour">
              {' · stream failing, retrying later'}
            </span>
          )}
        </span>
      </span>
      <span className="cell">
        <Time ms={e.starts} short />
      </span>
      <span className="cell score" data-testid={`score-${eventId}`} title={fmtScore(e.scoreHome, e.scoreAway) || undefined}>
        <EventBadge eventId={eventId} settled={e.settled} live={e.live} testId={`badge-${eventId}`} />{' '}
        {fmtScore(e.scoreHome, e.scoreAway)}
      </span>
      {reason ? (
        <NoPriceCell eventId={eventId} reason={reason} />
      ) : (
        <>
          <PriceCell eventId={eventId} lineId={lines.ml} side="home" />
          <PriceCell eventId={eventId} lineId={lines.ml} side="draw" />
          <PriceCell eventId={eventId} lineId={lines.ml} side="away" />
          <LineCell eventId={eventId} lineId={lines.spread} signed />
          <PriceCell eventId={eventId} lineId={lines.spread} side="home" />
          <PriceCell eventId={eventId} lineId={lines.spread} side="away" />
          <LineCell eventId={eventId} lineId={lines.total} signed={false} />
          <PriceCell eventId={eventId} lineId={lines.total} side="over" />
          <PriceCell eventId={eventId} lineId={lines.total} side="under" />
        </>
      )}
      <AgeCell eventId={eventId} lines={lines} stale={stale} />
      <MaxWinCell eventId={eventId} lineId={lines.ml} />
    </div>
  );
});

/** Periods any watched event has lines for; recomputed only when the set of lines changes. */
function usePeriods(): number[] {
  const lineIdsByEvent = useStore((s) => s.lineIdsByEvent);
  return useMemo(() => {
    const s = useStore.getState();
    const set = new Set<number>([0]);
    for (const [ev, ids] of Object.entries(lineIdsByEvent)) for (const id of ids) {
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

export function WatchlistView() {
  // The service's own period descriptions (from /api/periods), as everywhere else.
  const periodNames = usePeriodNames();
  const ids = useStore(useShallow(selectVisibleWatchIds));
  const total = useStore((s) => s.watchIds.length);
  const loaded = useStore((s) => s.watchLoaded);
  const error = useStore((s) => s.watchError);
  const { filter, liveOnly, period, selected } = useStore(
    useShallow((s) => ({ filter: s.watchFilter, liveOnly: s.watchLiveOnly, period: s.watchPeriod, selected: s.selectedEventId })),
  );
  const { setFilter, setLiveOnly, setPeriod, reload } = useStore(
    useShallow((s) => ({ setFilter: s.setWatchFilter, setLiveOnly: s.setWatchLiveOnly, setPeriod: s.setWatchPeriod, reload: s.loadWatchlist })),
  );
  const sportOfSelected = useStore((s) => (s.selectedEventId !== null ? (s.watchEvents[s.selectedEventId]?.sportName ?? null) : null));
  const periods = usePeriods();
  const picker = useStore((s) => s.fixturesOpen);
  const setPicker = useStore((s) => s.setFixturesOpen);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: ids.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });

  const selectedIndex = selected === null ? -1 : ids.indexOf(selected);
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedIndex, virtualizer]);

  return (
    <section className="view watchlist" aria-labelledby="watchlist-title">
      <header className="view-header">
        <h1 id="watchlist-title">Watchlist</h1>
        <span className="muted" data-testid="watch-count">
          {ids.length === total ? `${total} events` : `${ids.length} of ${total} events`}
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
      {picker && <FixturePicker onClose={() => setPicker(false)} />}
      {error && (
        <div className="calm-message" role="alert">
          The watchlist is not available: {error.message}{' '}
          <button onClick={() => void reload()}>Try again</button>
        </div>
      )}
      {!error && !loaded && <p className="calm-message">Loading the watchlist…</p>}
      {!error && loaded && total === 0 && !picker && (
        <div className="calm-message empty" data-testid="watch-empty">
          Nothing watched yet. Add an event from the fixtures, or type its id.{' '}
          <button onClick={() => setPicker(true)}>Browse fixtures</button>
        </div>
      )}
      {total > 0 && (
        <div className="wgrid" role="grid" aria-rowcount={ids.length} data-testid="watch-grid">
          <div className="wbody" ref={scroller}>
            <div className="whead" role="row">
              <SortHeader k="event" label="Event" />
              <SortHeader k="start" label="Start" />
              <SortHeader k="score" label="Score" />
              <span className="th num">1</span>
              <span className="th num">X</span>
              <span className="th num">2</span>
              <span className="th num">Spread</span>
              <span className="th num">Home</span>
              <span className="th num">Away</span>
              <span className="th num">Total</span>
              <span className="th num">Over</span>
              <span className="th num">Under</span>
              <span className="th num" title="How long ago the row's freshest price was set; dimmed while the feed is not live">
                Age
              </span>
              <SortHeader k="maxWin" label="Max stake" title="Limit: the maximum stake accepted on the line" className="num" />
            </div>
            {ids.length === 0 && <p className="calm-message">No watched event matches the filter.</p>}
            <div className="rows" style={{ height: virtualizer.getTotalSize() }}>
              {virtualizer.getVirtualItems().map((item) => (
                <WatchRow key={ids[item.index]} eventId={ids[item.index]!} top={item.start} />
              ))}
            </div>
          </div>
        </div>
      )}
    </section>
  );
}
