// Settlements: the live feed (onSettlement) on top of the offline review of everything cached (settlements:query
// with filters, keyset-paged, virtualised), W/L/P per line for the chosen row, and CSV export. Keys: arrows (PgUp/PgDn,
// Home/End) move, Enter opens the settlement explained, Esc closes it, X exports.
import { useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { countOf } from '../../../shared/formats';
import { sportHasDraws } from '../../../shared/periods';
import { host } from '../host';
import { DayInput } from '../components/DayInput';
import { Outcome } from '../components/Outcome';
import { SettledLines } from '../components/SettledLines';
import { Time } from '../components/Time';
import { SportSelect } from '../components/SportSelect';
import { exportName, useTimeZone } from '../format';
import { useSports } from '../hooks';
import { useListKeys } from '../keys';
import { useStore } from '../store';
import { EMPTY_FILTER, toQuery, type SettlementFilter } from '../store/settlements';
import { useFitColumns } from './fitColumns';

/** The settlement list's columns at their narrowest (an empty list): settled, sport · league, match, score, 1 X 2, lines. */
const SETTLEMENT_FLOORS = [80, 110, 150, 56, 72, 56] as const;

const ROW = 30;

const SettlementRowView = memo(function SettlementRowView({
  eventId,
  top,
  selected,
  cursor,
  onSelect,
  sportName,
}: {
  eventId: number;
  top: number;
  /** Shown explained beside the list. */
  selected: boolean;
  /** The keyboard's row. */
  cursor: boolean;
  onSelect: (id: number) => void;
  sportName: (id: number) => string;
}) {
  const r = useStore((s) => s.settlementsById[eventId]);
  if (!r) return null;
  return (
    <div
      role="row"
      aria-selected={cursor}
      data-open={selected || undefined}
      className={`srow${selected ? ' selected' : ''}${cursor ? ' cursor' : ''}`}
      style={{ transform: `translateY(${top}px)` }}
      data-testid={`settlement-row-${eventId}`}
      onClick={() => onSelect(eventId)}
    >
      <Time ms={r.settledAt} short className="cell" />
      <span className="cell muted ellipsis">{[sportName(r.sportId), r.leagueName].filter(Boolean).join(' · ')}</span>
      <span className="cell ellipsis">
        {r.runnerHome} v {r.runnerAway}
      </span>
      <span className="cell num">
        {r.scoreHome}–{r.scoreAway}
      </span>
      <span className="cell ml">
        <Outcome value={r.moneyline?.home} label="home" testId={`ml-${eventId}-home`} />
        {sportHasDraws(sportName(r.sportId)) || r.moneyline?.draw?.trim().toLowerCase() !== 'loss' ? (
          <Outcome value={r.moneyline?.draw} label="draw" testId={`ml-${eventId}-draw`} />
        ) : (
          // A sport played to a winner has no draw: its column stays, empty, so the rows line up.
          <span
            className="oc none"
            title={`No draw in ${sportName(r.sportId).toLowerCase()}`}
            data-testid={`ml-${eventId}-draw`}
            data-outcome="none"
          />
        )}
        <Outcome value={r.moneyline?.away} label="away" testId={`ml-${eventId}-away`} />
      </span>
      <span className="cell num muted">{countOf(r.lineCount, 'line')}</span>
    </div>
  );
});

function SettlementDetail({ eventId }: { eventId: number }) {
  const detail = useStore((s) => s.settlementDetails[eventId]);
  const load = useStore((s) => s.loadSettlementDetail);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setError(null);
    void load(eventId).then((e) => e && setError(e.message));
  }, [eventId, load]);
  if (detail === undefined && error)
    return <p className="calm-message">The settlement's lines are not available: {error}</p>;
  if (detail === undefined) return <p className="calm-message">Loading lines…</p>;
  if (detail === null) return <p className="calm-message">This settlement is no longer cached.</p>;
  const s = detail.settlement;
  return (
    <div className="settlement-detail" data-testid="settlement-detail">
      {/* No status here: the service's "ended" is no word for a trader, and any other status (abandoned, ...) is told in words by SettledLines. */}
      <h3 data-testid="settlement-title">
        {s.runner_home} v {s.runner_away} · {s.score_home}–{s.score_away}
      </h3>
      <div className="muted" title={`Event id ${s.event_id}`}>
        {[detail.sportName, s.league_name].filter(Boolean).join(' · ')}
      </div>
      <SettledLines detail={detail} />
    </div>
  );
}

function LiveFeed({ sportName }: { sportName: (id: number) => string }) {
  const ids = useStore(useShallow((s) => s.liveSettlementIds.slice(0, 6)));
  const rows = useStore(useShallow((s) => ids.map((id) => s.settlementsById[id]).filter((r) => !!r)));
  if (rows.length === 0)
    return <div className="live-feed muted">Live: new settlements appear here as they arrive.</div>;
  return (
    <div className="live-feed" data-testid="live-settlements">
      <span className="muted">Live:</span>
      {rows.map((r) => (
        <span
          key={r.eventId}
          className="live-item"
          data-testid={`live-settlement-${r.eventId}`}
          title={[sportName(r.sportId), r.leagueName].filter(Boolean).join(' · ')}
        >
          <Time ms={r.settledAt} /> {r.runnerHome} v {r.runnerAway} {r.scoreHome}–{r.scoreAway}
        </span>
      ))}
    </div>
  );
}

function downloadCsv(csv: string) {
  const blob = new Blob([csv], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = exportName('settlements');
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The sport's name by id, for the rows and the feed; offline, sports:list may not answer: the league name alone still reads well. */
function useSportName(): (id: number) => string {
  const sports = useSports();
  return useMemo(() => {
    const m = new Map(sports.map((s) => [s.sport_id, s.name]));
    return (id: number) => m.get(id) ?? '';
  }, [sports]);
}

/** The CSV export of what the filter selects: the desktop streams it into a file the trader picks; a browser downloads it. */
function useCsvExport(filter: SettlementFilter, zone: string): { exporting: boolean; exportCsv: () => Promise<void> } {
  const toast = useStore((s) => s.toast);
  const [exporting, setExporting] = useState(false);
  const exportCsv = async () => {
    setExporting(true);
    if (useStore.getState().info?.host === 'electron') {
      const r = await host.invoke('settlements:exportCsvToFile', toQuery(filter, zone));
      setExporting(false);
      if (!r.ok) toast(`Export failed: ${r.error.message}`, 'error');
      else if (r.value) toast(`Exported ${countOf(r.value.rows, 'settlement')} to ${r.value.path}`, 'info');
      return;
    }
    const r = await host.invoke('settlements:exportCsv', toQuery(filter, zone));
    setExporting(false);
    if (r.ok) downloadCsv(r.value);
    else toast(`Export failed: ${r.error.message}`, 'error');
  };
  return { exporting, exportCsv };
}

/** The team box's text: typed here at once, queried once typing pauses. */
function useTeamFilter(applied: string, setFilter: (patch: Partial<SettlementFilter>) => void) {
  const [team, setTeam] = useState(applied);
  useEffect(() => {
    if (team === useStore.getState().settlementFilter.team) return;
    const t = setTimeout(() => setFilter({ team }), 250);
    return () => clearTimeout(t);
  }, [team, setFilter]);
  return [team, setTeam] as const;
}

/**
 * The keyboard's row in the list (it follows a row opened by a click, a notification or an alert, and is scrolled to)
 * and the list's keys: arrows move, Enter opens, Esc closes the open one, X exports. Returns the row's index.
 */
function useSettlementKeys(
  ids: number[],
  virtualizer: Virtualizer<HTMLDivElement, Element>,
  csv: { exporting: boolean; exportCsv: () => Promise<void> },
): number {
  const selected = useStore((s) => s.selectedSettlementId);
  const setSelected = useStore((s) => s.selectSettlement);
  const cursor = useStore((s) => s.listCursor.settlements);
  const setCursor = useStore((s) => s.setListCursor);
  const backToList = useStore((s) => s.backToList);
  const cursorIndex = cursor === null ? -1 : ids.indexOf(cursor as number);
  useEffect(() => {
    if (selected !== null) setCursor('settlements', selected);
  }, [selected, setCursor]);
  useEffect(() => {
    if (cursorIndex >= 0) virtualizer.scrollToIndex(cursorIndex, { align: 'auto' });
  }, [cursorIndex, virtualizer]);
  useListKeys('settlements', {
    count: ids.length,
    index: cursorIndex,
    select: (i) => setCursor('settlements', ids[i]!),
    open: (i) => setSelected(ids[i]!),
    back: () => {
      if (selected === null) return backToList();
      setSelected(null);
      backToList();
      return true;
    },
    other: (e) => {
      if (e.key.toLowerCase() !== 'x') return false;
      if (!csv.exporting) void csv.exportCsv();
      return true;
    },
  });
  return cursorIndex;
}

/** One end of the settled days (from, or to and including), a day in the trader's zone. */
function SettledDay({
  bound,
  day,
  setFilter,
  zone,
}: {
  bound: 'from' | 'to';
  day: string;
  setFilter: (patch: Partial<SettlementFilter>) => void;
  zone: string;
}) {
  return (
    <label className="check">
      {bound}{' '}
      <DayInput
        value={day}
        onChange={(next) => setFilter({ [bound]: next })}
        label={`Settled ${bound} (YYYY-MM-DD)`}
        testId={`settlement-${bound}`}
        zone={zone}
      />
    </label>
  );
}

/** The filter form: team, sport, league, settled from and to (days in the trader's zone), the moneyline's outcome. */
function SettlementFilters({
  filter,
  setFilter,
  team,
  setTeam,
  zone,
  filtered,
  clearFilters,
}: {
  filter: SettlementFilter;
  setFilter: (patch: Partial<SettlementFilter>) => void;
  team: string;
  setTeam: (team: string) => void;
  zone: string;
  filtered: boolean;
  clearFilters: () => void;
}) {
  const leagues = useStore((s) => s.leaguesSeen);
  const leagueList = Object.values(leagues)
    .filter((l) => filter.sportId === null || l.sportId === filter.sportId)
    .sort((a, b) => a.leagueName.localeCompare(b.leagueName));
  return (
    <div className="filters" role="search">
      <input
        type="search"
        data-search
        placeholder="Team (/)"
        value={team}
        onChange={(e) => setTeam(e.target.value)}
        aria-label="Team"
        data-testid="settlement-team-filter"
      />
      <SportSelect
        value={filter.sportId}
        onChange={(sportId) => setFilter({ sportId, leagueId: null })}
        testId="settlement-sport-filter"
      />
      <select
        value={filter.leagueId ?? ''}
        onChange={(e) => setFilter({ leagueId: e.target.value === '' ? null : Number(e.target.value) })}
        aria-label="League"
        data-testid="settlement-league-filter"
      >
        <option value="">All leagues</option>
        {leagueList.map((l) => (
          <option key={l.leagueId} value={l.leagueId}>
            {l.leagueName}
          </option>
        ))}
      </select>
      <SettledDay bound="from" day={filter.from} setFilter={setFilter} zone={zone} />
      <SettledDay bound="to" day={filter.to} setFilter={setFilter} zone={zone} />
      <select
        value={filter.outcomeSide}
        onChange={(e) => setFilter({ outcomeSide: e.target.value as typeof filter.outcomeSide })}
        aria-label="Moneyline side"
        data-testid="settlement-outcome-side"
      >
        <option value="">Any outcome</option>
        <option value="home">Home</option>
        <option value="draw">Draw</option>
        <option value="away">Away</option>
      </select>
      {filter.outcomeSide && (
        <select
          value={filter.outcomeResult || 'win'}
          onChange={(e) => setFilter({ outcomeResult: e.target.value as typeof filter.outcomeResult })}
          aria-label="Result"
          data-testid="settlement-outcome-result"
        >
          <option value="win">won (W)</option>
          <option value="loss">lost (L)</option>
          <option value="push">pushed (P)</option>
        </select>
      )}
      {filtered && <button onClick={clearFilters}>Clear filters</button>}
    </div>
  );
}

/** What the list cannot show: a failed read (with a retry), an empty cache or filter, the first load. */
function SettlementMessages({
  empty,
  filtered,
  clearFilters,
}: {
  empty: boolean;
  filtered: boolean;
  clearFilters: () => void;
}) {
  const { loaded, error, load } = useStore(
    useShallow((s) => ({ loaded: s.settlementsLoaded, error: s.settlementsError, load: s.loadSettlements })),
  );
  return (
    <>
      {error && (
        <div className="calm-message" role="alert">
          Cached settlements could not be read: {error.message} <button onClick={() => void load()}>Try again</button>
        </div>
      )}
      {!error && loaded && empty && (
        <div className="calm-message" data-testid="settlements-empty">
          {filtered
            ? 'No cached settlement matches these filters.'
            : 'No settlement cached yet; they arrive as matches finish.'}{' '}
          {filtered && <button onClick={clearFilters}>Clear filters</button>}
        </div>
      )}
      {!loaded && !error && <p className="calm-message">Loading cached settlements…</p>}
    </>
  );
}

/** The list, virtualised, with the settlement open beside it. */
function SettlementSplit({
  ids,
  scroller,
  virtualizer,
  cursorIndex,
  stale,
  sportName,
}: {
  ids: number[];
  scroller: RefObject<HTMLDivElement | null>;
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  cursorIndex: number;
  stale: boolean;
  sportName: (id: number) => string;
}) {
  const selected = useStore((s) => s.selectedSettlementId);
  const setSelected = useStore((s) => s.selectSettlement);
  // Settled, sport · league, match, score, 1 X 2, lines: each as wide as what it shows.
  const fit = useFitColumns(scroller, SETTLEMENT_FLOORS);
  return (
    <div className={`split${selected !== null ? ' open' : ''}`}>
      <div
        className={`sgrid${stale ? ' stale' : ''}`}
        role="grid"
        aria-rowcount={ids.length}
        aria-busy={stale}
        data-testid="settlement-grid"
        style={fit}
      >
        <div className="sbody" ref={scroller} data-testid="settlement-list">
          <div className="shead" role="row">
            <span className="th">Settled</span>
            <span className="th">Sport · league</span>
            <span className="th">Match</span>
            <span className="th num">Score</span>
            <span className="th">1 X 2</span>
            <span className="th num">Lines</span>
          </div>
          <div className="rows" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((it) => (
              <SettlementRowView
                key={ids[it.index]}
                eventId={ids[it.index]!}
                top={it.start}
                selected={ids[it.index] === selected}
                cursor={it.index === cursorIndex}
                onSelect={setSelected}
                sportName={sportName}
              />
            ))}
          </div>
        </div>
      </div>
      {selected !== null && (
        <div className="side-panel">
          <button className="close" onClick={() => setSelected(null)} aria-label="Close lines">
            ×
          </button>
          <SettlementDetail eventId={selected} />
        </div>
      )}
    </div>
  );
}

export function SettlementsView() {
  const ids = useStore(useShallow((s) => s.settlementIds));
  const { filter, listFilter, total, loading, loaded, hasMore } = useStore(
    useShallow((s) => ({
      filter: s.settlementFilter,
      listFilter: s.settlementListFilter,
      total: s.settlementTotal,
      loading: s.settlementsLoading,
      loaded: s.settlementsLoaded,
      hasMore: s.settlementNext !== null,
    })),
  );
  const { setFilter, load, loadMore } = useStore(
    useShallow((s) => ({ setFilter: s.setSettlementFilter, load: s.loadSettlements, loadMore: s.loadMoreSettlements })),
  );
  const sportName = useSportName();
  const zone = useTimeZone();
  const csv = useCsvExport(filter, zone);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: ids.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const cursorIndex = useSettlementKeys(ids, virtualizer, csv);
  useEffect(() => {
    void load();
  }, [load]);
  const [team, setTeam] = useTeamFilter(filter.team, setFilter);
  // Keyset paging: fetch the next page when the last rows come into view.
  const lastIndex = items[items.length - 1]?.index ?? -1;
  useEffect(() => {
    if (hasMore && !loading && lastIndex >= ids.length - 20) void loadMore();
  }, [lastIndex, ids.length, hasMore, loading, loadMore]);

  const filtered = JSON.stringify(filter) !== JSON.stringify(EMPTY_FILTER);
  // A filter just changed and its rows are not in yet: the rows on screen answer the last one, and look it.
  const stale = loaded && listFilter !== filter;
  const clearFilters = () => {
    setTeam('');
    setFilter(EMPTY_FILTER);
  };

  return (
    <section className="view settlements" aria-labelledby="settlements-title">
      <header className="view-header">
        <h1 id="settlements-title">Settlements</h1>
        <span className="muted" data-testid="settlement-count">
          {total !== null ? `${total.toLocaleString('en-US')} settled` : `${ids.length.toLocaleString('en-US')} shown`}
          {loading ? ' · loading…' : ''}
        </span>
        <span className="spacer" />
        <button onClick={() => void csv.exportCsv()} disabled={csv.exporting} data-testid="export-csv">
          {csv.exporting ? 'Exporting…' : 'Export CSV'} <kbd className="key">X</kbd>
        </button>
      </header>
      <LiveFeed sportName={sportName} />
      <SettlementFilters
        filter={filter}
        setFilter={setFilter}
        team={team}
        setTeam={setTeam}
        zone={zone}
        filtered={filtered}
        clearFilters={clearFilters}
      />
      <SettlementMessages empty={ids.length === 0} filtered={filtered} clearFilters={clearFilters} />
      <SettlementSplit
        ids={ids}
        scroller={scroller}
        virtualizer={virtualizer}
        cursorIndex={cursorIndex}
        stale={stale}
        sportName={sportName}
      />
    </section>
  );
}
