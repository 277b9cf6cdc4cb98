// Settlements slice: the live feed (onSettlement) and the offline review of everything cached (settlements:query,
// paged by keyset with `after`). Rows normalised by eventId; the list keeps ids in the store's order (newest first).
import type { StateCreator } from 'zustand';
import type { SettlementCursor, SettlementQuery, SettlementRow } from '../../../shared/domain';
import type { AppError } from '../../../shared/errors';
import { api } from '../api';
import type { StoreState } from './index';

export interface SettlementFilter {
  sportId: number | null;
  leagueId: number | null;
  team: string;
  /** yyyy-mm-dd, local day; '' = open. */
  from: string;
  to: string;
  outcomeSide: '' | 'home' | 'draw' | 'away';
  outcomeResult: '' | 'win' | 'loss' | 'push';
}

export const EMPTY_FILTER: SettlementFilter = { sportId: null, leagueId: null, team: '', from: '', to: '', outcomeSide: '', outcomeResult: '' };
const PAGE = 200;
const LIVE_KEEP = 100;

const localDay = (text: string, plusDays = 0): number | undefined => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  return m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + plusDays).getTime() : undefined;
};

/** The filter form as a settlements:query argument (without paging). */
export function toQuery(f: SettlementFilter): SettlementQuery {
  const q: SettlementQuery = {};
  if (f.sportId !== null) q.sportId = f.sportId;
  if (f.leagueId !== null) q.leagueId = f.leagueId;
  if (f.team.trim()) q.team = f.team.trim();
  const from = localDay(f.from);
  const to = localDay(f.to, 1); // the "to" day is included
  if (from !== undefined) q.from = from;
  if (to !== undefined) q.to = to;
  if (f.outcomeSide) q.outcome = { side: f.outcomeSide, result: f.outcomeResult || 'win', scope: 'moneyline' };
  return q;
}

function matches(f: SettlementFilter, r: SettlementRow): boolean {
  const q = toQuery(f);
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
  /** Newest live settlements, for the feed strip. */
  liveSettlementIds: number[];
  /** Leagues seen in any row, for the filter's league list. */
  leaguesSeen: Record<number, { leagueId: number; leagueName: string; sportId: number }>;
  setSettlementFilter(patch: Partial<SettlementFilter>): void;
  loadSettlements(): Promise<void>;
  loadMoreSettlements(): Promise<void>;
  addLiveSettlement(row: SettlementRow): void;
}

let seq = 0;

export const createSettlementsSlice: StateCreator<StoreState, [], [], SettlementsSlice> = (set, get) => {
  const remember = (rows: SettlementRow[]) => {
    const s = get();
    const settlementsById = { ...s.settlementsById };
    let leaguesSeen = s.leaguesSeen;
    for (const r of rows) {
      settlementsById[r.eventId] = r;
      if (!leaguesSeen[r.leagueId]) leaguesSeen = { ...leaguesSeen, [r.leagueId]: { leagueId: r.leagueId, leagueName: r.leagueName, sportId: r.sportId } };
    }
    return { settlementsById, leaguesSeen };
  };
  return {
    settlementFilter: EMPTY_FILTER,
    settlementsById: {},
    settlementIds: [],
    settlementTotal: null,
    settlementNext: null,
    settlementsLoading: false,
    settlementsLoaded: false,
    settlementsError: null,
    liveSettlementIds: [],
    leaguesSeen: {},
    setSettlementFilter(patch) {
      set({ settlementFilter: { ...get().settlementFilter, ...patch } });
      void get().loadSettlements();
    },
    async loadSettlements() {
      const mine = ++seq;
      set({ settlementsLoading: true });
      const r = await api.invoke('settlements:query', { ...toQuery(get().settlementFilter), limit: PAGE });
      if (mine !== seq) return; // a newer filter is on its way
      if (!r.ok) {
        set({ settlementsLoading: false, settlementsLoaded: true, settlementsError: r.error });
        return;
      }
      set({
        ...remember(r.value.rows),
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
      const r = await api.invoke('settlements:query', {
        ...toQuery(s.settlementFilter),
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
        ...remember(r.value.rows),
        settlementIds: [...get().settlementIds, ...r.value.rows.map((x) => x.eventId).filter((id) => !have.has(id))],
        settlementNext: r.value.next,
        settlementsLoading: false,
      });
    },
    addLiveSettlement(row) {
      const s = get();
      const fresh = !s.settlementsById[row.eventId];
      const inList = s.settlementIds.includes(row.eventId);
      const showInList = !inList && s.settlementsLoaded && matches(s.settlementFilter, row);
      set({
        ...remember([row]),
        liveSettlementIds: [row.eventId, ...s.liveSettlementIds.filter((id) => id !== row.eventId)].slice(0, LIVE_KEEP),
        ...(showInList
          ? { settlementIds: [row.eventId, ...s.settlementIds], settlementTotal: s.settlementTotal === null ? null : s.settlementTotal + (fresh ? 1 : 0) }
          : {}),
      });
      // A settled watched event has left the book: mark it so the grid can say so.
      const w = s.watchEvents[row.eventId];
      if (w && !w.settled) {
        set({ watchEvents: { ...get().watchEvents, [row.eventId]: { ...w, settled: true, scoreHome: row.scoreHome, scoreAway: row.scoreAway } } });
      }
    },
  };
};
