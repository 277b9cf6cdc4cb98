// The grid sorted by what the trader chose (issue 25, item 2): by an event's facts or by any price, fair price or
// line it shows, either way; a row with nothing to sort by (no price, no start) goes last both ways, and the order
// follows the prices as they move.
import { beforeAll, describe, expect, it } from 'vitest';
import type { MarketView, WatchedEventView } from '../../../shared/domain';
import type { GridSortKey } from '../../../shared/gridLayout';
import type { OddsdeskApi, SettingsSnapshot } from '../../../shared/ipc/contract';
import type { useStore as UseStore } from './index';
import type { selectVisibleWatchIds as SelectFn } from './selectors';

let useStore: typeof UseStore;
let selectVisibleWatchIds: typeof SelectFn;
const api: OddsdeskApi = { invoke: async () => ({ ok: true, value: null }) as never, on: () => () => undefined };

beforeAll(async () => {
  (globalThis as unknown as { window: { oddsdesk: OddsdeskApi } }).window = { oddsdesk: api };
  ({ useStore } = await import('./index'));
  ({ selectVisibleWatchIds } = await import('./selectors'));
});

const ml = (lineId: number, home: number, away: number): MarketView => ({
  lineId,
  period: 0,
  market: 'moneyline',
  side: null,
  line: null,
  prices: { home, away },
  maxWin: 1000,
  updatedAt: null,
  seenAt: 1,
});
const total = (lineId: number, line: number): MarketView => ({
  lineId,
  period: 0,
  market: 'totals',
  side: null,
  line,
  prices: { over: 1.9, under: 1.9 },
  maxWin: 1000,
  updatedAt: null,
  seenAt: 1,
});
const event = (eventId: number, home: string, starts: number | null, markets: MarketView[]): WatchedEventView => ({
  eventId,
  sportId: 1,
  sportName: 'Soccer',
  leagueId: 1,
  leagueName: 'League',
  runnerHome: home,
  runnerAway: 'Away side',
  starts,
  liveStatus: 0,
  scoreHome: null,
  scoreAway: null,
  addedAt: eventId,
  settled: false,
  markets,
});

function order(key: GridSortKey, dir: 1 | -1): number[] {
  const settings = { gridLayout: { columns: null, sort: { key, dir } } } as unknown as SettingsSnapshot;
  useStore.setState({ settings, devigModel: 'MPTO' });
  return selectVisibleWatchIds(useStore.getState());
}

describe('the grid in the sort the trader chose', () => {
  it('by a price, up and down; the row without that price last both ways', () => {
    useStore
      .getState()
      .setWatchlist([
        event(1, 'Alpha', 300, [ml(11, 2.5, 1.6), total(12, 2.5)]),
        event(2, 'Bravo', 100, [ml(21, 1.8, 2.1), total(22, 3.5)]),
        event(3, 'Charlie', null, [total(32, 1.5)]),
        event(4, 'Delta', 200, [ml(41, 3.4, 1.35)]),
      ]);
    expect(order('home', 1)).toEqual([2, 1, 4, 3]);
    expect(order('home', -1)).toEqual([4, 1, 2, 3]);
    expect(order('away', 1)).toEqual([4, 1, 2, 3]);
    // Fair prices keep the order of the prices here (a two-way market, each side's fair price rises with its price).
    expect(order('fairHome', 1)).toEqual([2, 1, 4, 3]);
    expect(order('totalLine', 1)).toEqual([3, 1, 2, 4]);
    expect(order('totalLine', -1)).toEqual([2, 1, 3, 4]);
    expect(order('start', 1)).toEqual([2, 4, 1, 3]);
    expect(order('start', -1)).toEqual([1, 4, 2, 3]);
    expect(order('event', -1)).toEqual([4, 3, 2, 1]);
  });

  it('follows the prices as they move', () => {
    expect(order('home', 1)).toEqual([2, 1, 4, 3]);
    useStore.getState().applyOdds([{ at: 2, events: [{ eventId: 4, markets: [{ ...ml(41, 1.5, 2.6), seenAt: 2 }] }] }]);
    expect(order('home', 1)).toEqual([4, 2, 1, 3]);
  });
});
