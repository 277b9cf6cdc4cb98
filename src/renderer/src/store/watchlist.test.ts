// The watchlist slice as pushes reach it: an event added by id learns its teams, league and score from the snapshot
// header that comes with its odds; the stream's end sticks to the row through later pushes of the list and late odds.
import { beforeAll, describe, expect, it } from 'vitest';
import type { EventView, MarketView, WatchedEventView } from '../../../shared/domain';
import type { OddsBatch, OddsdeskApi } from '../../../shared/ipc/contract';
import type { useStore as UseStore } from './index';

let useStore: typeof UseStore;
const api: OddsdeskApi = { invoke: async () => ({ ok: true, value: null }) as never, on: () => () => undefined };

beforeAll(async () => {
  (globalThis as unknown as { window: { oddsdesk: OddsdeskApi } }).window = { oddsdesk: api };
  ({ useStore } = await import('./index'));
});

const bare = (eventId: number): WatchedEventView => ({
  eventId,
  sportId: null,
  sportName: null,
  leagueId: null,
  leagueName: null,
  runnerHome: null,
  runnerAway: null,
  starts: null,
  liveStatus: null,
  scoreHome: null,
  scoreAway: null,
  addedAt: 1,
  settled: false,
  markets: [],
});
const header: EventView = {
  eventId: 9001,
  sportId: 3,
  sportName: 'Basketball',
  leagueId: 301,
  leagueName: 'Harbour League',
  runnerHome: 'Lions',
  runnerAway: 'Kings',
  starts: 5,
  liveStatus: 1,
  scoreHome: 102,
  scoreAway: 99,
};
const ml = (home: number, seenAt: number): MarketView => ({
  lineId: 1,
  period: 0,
  market: 'moneyline',
  side: null,
  line: null,
  prices: { home, away: 3 },
  maxWin: 500,
  updatedAt: null,
  seenAt,
});
const batch = (events: OddsBatch['events']): OddsBatch => ({ events, at: 0 });

describe('watchlist pushes', () => {
  it('an event known by id only gets its header from the snapshot, and keeps its end through later pushes', () => {
    const s = () => useStore.getState();
    s().setWatchlist([bare(9001), bare(9002)]);
    expect(s().watchEvents[9001]?.runnerHome).toBeNull();

    s().applyOdds([batch([{ eventId: 9001, markets: [ml(1.4, 10)], replace: true, event: header }])]);
    expect(s().watchEvents[9001]).toMatchObject({
      runnerHome: 'Lions',
      runnerAway: 'Kings',
      leagueName: 'Harbour League',
      scoreHome: 102,
      liveStatus: 1,
      addedAt: 1,
    });
    // The other row is untouched.
    expect(s().watchEvents[9002]?.runnerHome).toBeNull();

    s().applyOdds([batch([{ eventId: 9001, markets: [], ended: 'removed' }])]);
    expect(s().watchEvents[9001]?.ended).toBe('removed');
    // Odds queued before the end but applied after it, and a push of the whole list, do not un-end the row.
    s().applyOdds([batch([{ eventId: 9001, markets: [ml(1.5, 11)] }])]);
    s().setWatchlist([{ ...bare(9001), ...header, addedAt: 1, settled: false, markets: [ml(1.5, 11)] }, bare(9002)]);
    expect(s().watchEvents[9001]?.ended).toBe('removed');
    expect(s().watchEvents[9002]?.ended).toBeNull();
  });

  it("a watched id the core flagged as another match's (a restarted book) shows the flag and nothing of that match (issue 34)", async () => {
    const { noPriceReason } = await import('./selectors');
    const s = () => useStore.getState();
    // The core decides and keeps the flag (Store.namesAnotherMatch); the list it pushes carries the other match's name.
    s().setWatchlist([
      {
        ...bare(9003),
        ...header,
        eventId: 9003,
        addedAt: 1,
        settled: false,
        markets: [],
        otherMatch: 'Kingston City v Greenfield City (Soccer)',
      },
    ]);
    expect(s().watchEvents[9003]).toMatchObject({
      runnerHome: 'Lions',
      runnerAway: 'Kings',
      sportId: 3,
      scoreHome: 102,
      otherMatch: 'Kingston City v Greenfield City (Soccer)',
    });
    expect(noPriceReason(s(), 9003, 0)).toBe('other_match');
    // A late score queued before the flag is not the watched match's.
    s().applyOdds([batch([{ eventId: 9003, markets: [], score: { liveStatus: 1, scoreHome: 0, scoreAway: 0 } }])]);
    expect(s().watchEvents[9003]).toMatchObject({ scoreHome: 102, scoreAway: 99 });
    // The page never judges a header itself: the same match described again (a name's case or spacing, a start
    // moved by an hour) is an update, not a flag.
    s().setWatchlist([{ ...bare(9004), ...header, eventId: 9004, addedAt: 1, settled: false, markets: [] }]);
    s().applyOdds([
      batch([
        {
          eventId: 9004,
          markets: [],
          event: { ...header, eventId: 9004, runnerHome: ' lions ', starts: 5 + 3_600_000, scoreHome: 104 },
        },
      ]),
    ]);
    expect(s().watchEvents[9004]).toMatchObject({ runnerHome: ' lions ', scoreHome: 104 });
    expect(s().watchEvents[9004]?.otherMatch).toBeUndefined();
  });
});
