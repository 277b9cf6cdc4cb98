// Settlements slice: the live feed (onSettlement) and the offline review of everything cached (settlements:query,
// paged by keyset with `after`). Rows normalised by eventId; the list keeps ids in the store's order (newest first).
// Bounded over a trading day: the map holds only rows of the list and of the live strip; live rows prepended to the
// list push its oldest rows out beyond SETTLEMENT_LIST_KEEP, and the keyset cursor moves back so scrolling down
// fetches them again. Paging further down by hand is the trader's choice (one page per scroll).
import type { StateCreator } from 'zustand';
import type { SettlementCursor, SettlementQuery, SettlementRow } from '../../../shared/domain';
import type { AppError } from '../../../shared/errors';
import type { SettlementDetail } from '../../../shared/ipc/contract';
import { dayStartIn, resolveTimeZone } from '../../../shared/formats';
import { host } from '../host';
import type { StoreState } from './index';
import type { GetStore, SetStore } from './slice';

export interface SettlementFilter {
  sportId: number | null;
  leagueId: number | null;
  team: string;
  /** YYYY-MM-DD, a day in the trader's zone (Settings); '' = open. */
  from: string;
  to: string;
  outcomeSide: '' | 'home' | 'draw' | 'away';
  outcomeResult: '' | 'win' | 'loss' | 'push';
}

export const EMPTY_FILTER: SettlementFilter = {
  sportId: null,
  leagueId: null,
  team: '',
  from: '',
  to: '',
  outcomeSide: '',
  outcomeResult: '',
};
const PAGE = 200;
export const SETTLEMENT_LIVE_KEEP = 100;
export const SETTLEMENT_LIST_KEEP = 5000;

/** The filter form as a settlements:query argument (without paging); its days start at midnight in `zone`. */
export function toQuery(f: SettlementFilter, zone: string): SettlementQuery {
  const q: SettlementQuery = {};
  if (f.sportId !== null) q.sportId = f.sportId;
  if (f.leagueId !== null) q.leagueId = f.leagueId;
  if (f.team.trim()) q.team = f.team.trim();
  const from = dayStartIn(f.from, zone);
  const to = dayStartIn(f.to, zone, 1); // the "to" day is included
  if (from !== undefined) q.from = from;
  if (to !== undefined) q.to = to;
  if (f.outcomeSide) q.outcome = { side: f.outcomeSide, result: f.outcomeResult || 'win', scope: 'moneyline' };
  return q;
}

function matches(f: SettlementFilter, r: SettlementRow, zone: string): boolean {
  const q = toQuery(f, zone);
  if (q.sportId !== undefined && r.sportId !== q.sportId) return false;
  if (q.leagueId !== undefined && r.leagueId !== q.leagueId) return false;
  if (q.team && !`${r.runnerHome}\n${r.runnerAway}`.toLowerCase().includes(q.team.toLowerCase())) return false;
  if (q.from !== undefined && r.settledAt < q.from) return false;
  if (q.to !== undefined && r.settledAt >= q.to) return false;
  if (q.outcome && r.moneyline?.[q.outcome.side] !== q.outcome.result) return false;
  return true;
}

export interface SettlementsSlice {
  settlementFilter: SettlementFilter;
  settlementsById: Record<number, SettlementRow>;
  settlementIds: number[];
  settlementTotal: number | null;
  settlementNext: SettlementCursor | null;
  settlementsLoading: boolean;
  settlementsLoaded: boolean;
  settlementsError: AppError | null;
  /**
   * The filter the listed rows answer: until a new filter's first page is in, it is the old one, and the view shows
   * those rows as stale rather than as the new filter's.
   */
  settlementListFilter: SettlementFilter | null;
  /** Newest live settlements, for the feed strip. */
  liveSettlementIds: number[];
  /** Leagues seen in any row, for the filter's league list. */
  leaguesSeen: Record<number, { leagueId: number; leagueName: string; sportId: number }>;
  setSettlementFilter(patch: Partial<SettlementFilter>): void;
  loadSettlements(): Promise<void>;
  loadMoreSettlements(): Promise<void>;
  addLiveSettlement(row: SettlementRow): void;
  /** The settlement open in the Settlements view (a row click or a notification click). */
  selectedSettlementId: number | null;
  selectSettlement(eventId: number | null): void;
  /**
   * Settled events explained (lines, period results, labels), fetched on demand and kept; one whose period results
   * are not in yet is asked again next time, since they may be published after the settlement.
   */
  settlementDetails: Record<number, SettlementDetail | null>;
  loadSettlementDetail(eventId: number): Promise<AppError | null>;
}

/** Details kept at most (one a settlement the trader opened); the oldest go first. */
export const SETTLEMENT_DETAIL_KEEP = 200;
const detailInFlight = new Map<number, Promise<AppError | null>>();
const detailOrder: number[] = [];

let seq = 0;

/**
 * The rows kept once `rows` are in: a new list (`fresh`, a new filter) keeps only what the live strip still shows of
 * the old one. Also the leagues seen, for the filter's league list.
 */
function remember(
  s: StoreState,
  rows: SettlementRow[],
  fresh = false,
): Pick<StoreState, 'settlementsById' | 'leaguesSeen'> {
  const settlementsById: Record<number, SettlementRow> = fresh ? {} : { ...s.settlementsById };
  if (fresh)
    for (const id of s.liveSettlementIds) if (s.settlementsById[id]) settlementsById[id] = s.settlementsById[id];
  let leaguesSeen = s.leaguesSeen;
  for (const r of rows) {
    settlementsById[r.eventId] = r;
    if (!leaguesSeen[r.leagueId])
      leaguesSeen = {
        ...leaguesSeen,
        [r.leagueId]: { leagueId: r.leagueId, leagueName: r.leagueName, sportId: r.sportId },
      };
  }
  return { settlementsById, leaguesSeen };
}

/** The settlement open in the view and its explanation, fetched on demand and kept (the newest few hundred). */
function detailActions(
  set: SetStore,
  get: GetStore,
): Pick<SettlementsSlice, 'selectSettlement' | 'loadSettlementDetail'> {
  return {
    selectSettlement(eventId) {
      set({ selectedSettlementId: eventId });
      if (eventId !== null) void get().loadSettlementDetail(eventId);
    },
    loadSettlementDetail(eventId) {
      const have = get().settlementDetails[eventId];
      if (have && have.periodResults.length > 0) return Promise.resolve(null);
      const running = detailInFlight.get(eventId);
      if (running) return running;
      const p = host.invoke('settlements:detail', eventId).then((r) => {
        detailInFlight.delete(eventId);
        if (!r.ok) return r.error;
        const next = { ...get().settlementDetails, [eventId]: r.value };
        // Numeric keys iterate in number order, not by age: the order of opening is kept beside the map.
        const at = detailOrder.indexOf(eventId);
        if (at >= 0) detailOrder.splice(at, 1);
        detailOrder.push(eventId);
        for (const id of detailOrder.splice(0, Math.max(0, detailOrder.length - SETTLEMENT_DETAIL_KEEP)))
          delete next[id];
        set({ settlementDetails: next });
        return null;
      });
      detailInFlight.set(eventId, p);
      return p;
    },
  };
}

/** The offline review: the filter, its first page, and the next pages by keyset. */
function listActions(
  set: SetStore,
  get: GetStore,
): Pick<SettlementsSlice, 'setSettlementFilter' | 'loadSettlements' | 'loadMoreSettlements'> {
  return {
    setSettlementFilter(patch) {
      set({ settlementFilter: { ...get().settlementFilter, ...patch } });
      void get().loadSettlements();
    },
    async loadSettlements() {
      const mine = ++seq;
      const filter = get().settlementFilter;
      set({ settlementsLoading: true });
      const r = await host.invoke('settlements:query', {
        ...toQuery(filter, resolveTimeZone(get().settings?.timeZone)),
        limit: PAGE,
      });
      if (mine !== seq) return; // a newer filter is on its way
      if (!r.ok) {
        set({ settlementsLoading: false, settlementsLoaded: true, settlementsError: r.error });
        return;
      }
      set({
        settlementListFilter: filter,
        ...remember(get(), r.value.rows, true),
        settlementIds: r.value.rows.map((x) => x.eventId),
        settlementTotal: r.value.total,
        settlementNext: r.value.next,
        settlementsLoading: false,
        settlementsLoaded: true,
        settlementsError: null,
      });
    },
    async loadMoreSettlements() {
      const s = get();
      if (!s.settlementNext || s.settlementsLoading) return;
      const mine = ++seq;
      set({ settlementsLoading: true });
      const r = await host.invoke('settlements:query', {
        ...toQuery(s.settlementFilter, resolveTimeZone(s.settings?.timeZone)),
        limit: PAGE,
        after: s.settlementNext,
        withoutTotal: true,
      });
      if (mine !== seq) return;
      if (!r.ok) {
        set({ settlementsLoading: false, settlementsError: r.error });
        return;
      }
      const have = new Set(get().settlementIds);
      set({
        ...remember(get(), r.value.rows),
        settlementIds: [...get().settlementIds, ...r.value.rows.map((x) => x.eventId).filter((id) => !have.has(id))],
        settlementNext: r.value.next,
        settlementsLoading: false,
      });
    },
  };
}

/**
 * A settlement pushed live: into the strip, and into the list when it matches the filter, each list bounded (what
 * falls out of both leaves the map). A watched event it settles is marked so the grid can say so.
 */
function addLiveSettlement(set: SetStore, get: GetStore, row: SettlementRow): void {
  const s = get();
  const fresh = !s.settlementsById[row.eventId];
  const inList = s.settlementIds.includes(row.eventId);
  const showInList =
    !inList && s.settlementsLoaded && matches(s.settlementFilter, row, resolveTimeZone(s.settings?.timeZone));
  const { settlementsById, leaguesSeen } = remember(s, [row]);
  const liveSettlementIds = [row.eventId, ...s.liveSettlementIds.filter((id) => id !== row.eventId)];
  const leftLive = liveSettlementIds.splice(SETTLEMENT_LIVE_KEEP);
  let settlementIds = s.settlementIds;
  let settlementNext = s.settlementNext;
  let leftList: number[] = [];
  if (showInList) {
    settlementIds = [row.eventId, ...s.settlementIds];
    leftList = settlementIds.splice(SETTLEMENT_LIST_KEEP);
    const last = settlementsById[settlementIds[settlementIds.length - 1]!];
    // The rows pushed out are older than the last kept one: scrolling down pages them in again from here.
    if (leftList.length && last) settlementNext = { settledAt: last.settledAt, eventId: last.eventId };
  }
  // Usually one id leaves each list per settlement: a scan is cheaper than building sets.
  for (const id of leftLive) if (!settlementIds.includes(id)) delete settlementsById[id];
  for (const id of leftList) if (!liveSettlementIds.includes(id)) delete settlementsById[id];
  set({
    settlementsById,
    leaguesSeen,
    liveSettlementIds,
    ...(showInList
      ? {
          settlementIds,
          settlementNext,
          settlementTotal: s.settlementTotal === null ? null : s.settlementTotal + (fresh ? 1 : 0),
        }
      : {}),
  });
  // A settled watched event has left the book: mark it so the grid can say so.
  const w = s.watchEvents[row.eventId];
  if (w && !w.settled) {
    set({
      watchEvents: {
        ...get().watchEvents,
        [row.eventId]: { ...w, settled: true, scoreHome: row.scoreHome, scoreAway: row.scoreAway },
      },
    });
  }
}

export const createSettlementsSlice: StateCreator<StoreState, [], [], SettlementsSlice> = (set, get) => ({
  settlementFilter: EMPTY_FILTER,
  settlementsById: {},
  settlementIds: [],
  settlementTotal: null,
  settlementNext: null,
  settlementsLoading: false,
  settlementsLoaded: false,
  settlementsError: null,
  settlementListFilter: null,
  liveSettlementIds: [],
  leaguesSeen: {},
  selectedSettlementId: null,
  settlementDetails: {},
  ...detailActions(set, get),
  ...listActions(set, get),
  addLiveSettlement: (row) => addLiveSettlement(set, get, row),
});
