// The grid's keyed change channel as applyOdds drives it: a tick on one market tells that market's and its event's
// listeners, once, and nobody else's; a price tick leaves the slices the rows render from (events, line ids) as
// they were, so no row has anything to render.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MarketView, WatchedEventView } from '../../../shared/domain';
import type { OddsBatch, OddsdeskApi } from '../../../shared/ipc/contract';
import type { useStore as UseStore } from './index';
import type { marketBus as MarketBus } from './marketBus';

let useStore: typeof UseStore;
let marketBus: typeof MarketBus;
const api: OddsdeskApi = { invoke: async () => ({ ok: true, value: null }) as never, on: () => () => undefined };

beforeAll(async () => {
  (globalThis as unknown as { window: { oddsdesk: OddsdeskApi } }).window = { oddsdesk: api };
  ({ useStore } = await import('./index'));
  ({ marketBus } = await import('./marketBus'));
});

const market = (lineId: number, home: number, seenAt = 1): MarketView => ({
  lineId,
  period: 0,
  market: lineId === 1 ? 'moneyline' : 'spread',
  side: null,
  line: lineId === 1 ? null : -0.5,
  prices: { home, away: 3 },
  maxWin: 500,
  updatedAt: null,
  seenAt,
});
const watched = (eventId: number): WatchedEventView => ({
  eventId,
  sportId: 1,
  sportName: 'Soccer',
  leagueId: 1,
  leagueName: 'League',
  runnerHome: `H${eventId}`,
  runnerAway: `A${eventId}`,
  starts: 0,
  liveStatus: 1,
  scoreHome: 0,
  scoreAway: 0,
  addedAt: 1,
  settled: false,
  markets: [market(1, 2), market(2, 1.9)],
});
const batch = (events: OddsBatch['events']): OddsBatch => ({ events, at: 0 });
const s = () => useStore.getState();

/** Listens to every market and event of events 1..3 and counts what each hears. */
function listenAll(): { heard: Map<string, number>; stop: () => void } {
  const heard = new Map<string, number>();
  const offs: Array<() => void> = [];
  for (const ev of [1, 2, 3]) {
    offs.push(marketBus.onEvent(ev, () => heard.set(`event ${ev}`, (heard.get(`event ${ev}`) ?? 0) + 1)));
    for (const line of [1, 2]) {
      const k = `${ev}:${line}`;
      offs.push(marketBus.onMarket(k, () => heard.set(k, (heard.get(k) ?? 0) + 1)));
    }
  }
  return { heard, stop: () => offs.forEach((f) => f()) };
}

describe('market bus', () => {
  beforeEach(() => s().setWatchlist([watched(1), watched(2), watched(3)]));

  it('a tick on one market tells only that market and its event, once', () => {
    const { heard, stop } = listenAll();
    const events = s().watchEvents;
    const lineIds = s().lineIdsByEvent;
    s().applyOdds([batch([{ eventId: 2, markets: [market(1, 2.1, 2)] }])]);
    expect(Object.fromEntries(heard)).toEqual({ '2:1': 1, 'event 2': 1 });
    expect(s().markets['2:1']?.prices?.home).toBe(2.1);
    // The row's structure is read from these: a price tick leaves them as they were.
    expect(s().watchEvents).toBe(events);
    expect(s().lineIdsByEvent).toBe(lineIds);
    stop();
    expect(marketBus.size()).toBe(0);
  });

  it('a thousand ticks folded into one frame tell each changed market once, and a frame with nothing tells nobody', () => {
    const { heard, stop } = listenAll();
    const backlog: OddsBatch[] = [];
    for (let i = 0; i < 1000; i++)
      backlog.push(batch([{ eventId: 1 + (i % 2), markets: [market(1 + (i % 4 < 2 ? 0 : 1), 2 + i / 1000, 10 + i)] }]));
    s().applyOdds(backlog);
    expect(Object.fromEntries(heard)).toEqual({ '1:1': 1, '1:2': 1, '2:1': 1, '2:2': 1, 'event 1': 1, 'event 2': 1 });
    heard.clear();
    s().applyOdds([]);
    expect(heard.size).toBe(0);
    stop();
  });

  it('a score tells the event only; lines replaced tell the old and the new markets', () => {
    const { heard, stop } = listenAll();
    s().applyOdds([batch([{ eventId: 3, markets: [], score: { liveStatus: 1, scoreHome: 1, scoreAway: 0 } }])]);
    expect(Object.fromEntries(heard)).toEqual({ 'event 3': 1 });
    expect(s().watchEvents[3]?.scoreHome).toBe(1);
    heard.clear();
    s().applyOdds([batch([{ eventId: 1, markets: [market(2, 1.8, 5)], replace: true }])]);
    expect(heard.get('1:1')).toBe(1);
    expect(heard.get('1:2')).toBeGreaterThanOrEqual(1);
    expect(heard.get('event 1')).toBe(1);
    expect(heard.has('2:1') || heard.has('event 2')).toBe(false);
    expect(s().markets['1:1']).toBeUndefined();
    stop();
  });

  it('a new watchlist tells everyone (the cells read again what they show)', () => {
    const { heard, stop } = listenAll();
    s().setWatchlist([watched(1)]);
    expect(heard.get('3:2')).toBe(1);
    expect(heard.get('event 2')).toBe(1);
    stop();
  });
});
