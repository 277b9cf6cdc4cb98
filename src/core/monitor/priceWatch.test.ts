import { afterEach, describe, expect, it } from 'vitest';
import type { Market, Prices } from '../../shared/api';
import type { NewAlert } from '../../shared/domain';
import { DEFAULT_MONITOR_SETTINGS } from '../settingsService';
import { openStore, type Store } from '../store';
import type { CoalescedEvent, SnapshotHeader } from './coalescer';
import { createPriceWatch, dropInScope, type PriceAlertSettings } from './priceWatch';

let store: Store | null = null;
afterEach(() => {
  store?.close();
  store = null;
});

const market = (lineId: number, prices: Prices): Market => ({
  line_id: lineId,
  period: 0,
  market: 'moneyline',
  side: null,
  line: null,
  prices,
  max_win: 1000,
  updated_at: '2026-11-22T12:00:00',
});

const header = (eventId: number, sportId: number, live: number): SnapshotHeader => ({
  event_id: eventId,
  sport_id: sportId,
  league_id: 1,
  league_name: 'L',
  runner_home: `Home ${eventId}`,
  runner_away: `Away ${eventId}`,
  starts: '2026-11-23T12:00:00',
  live_status: live,
  score_home: null,
  score_away: null,
});

/** A price watch on a store of its own, with the scope given; returns its episodes as they open. */
function watch(scope: Pick<PriceAlertSettings, 'phase' | 'sports'>) {
  store = openStore({ path: ':memory:' });
  const settings = {
    ...DEFAULT_MONITOR_SETTINGS,
    model: 'EM' as const,
    price: { ...DEFAULT_MONITOR_SETTINGS.price, dropPct: 5, ...scope },
  };
  const thresholds: NewAlert[] = [];
  const w = createPriceWatch({
    store,
    settings: () => settings,
    isWatched: () => true,
    onAlert: (a) => void thresholds.push(a),
  });
  const opened: Array<{ eventId: number | null | undefined; notify: boolean }> = [];
  const observe = (batch: CoalescedEvent[], at: number) => {
    w.observe(batch, at);
    for (const o of w.takeEpisodes(at).opened) opened.push({ eventId: o.alert.eventId, notify: o.notify !== null });
  };
  return { observe, opened, thresholds };
}

/** An event's snapshot at 2.0 / 1.9, then its home side steamed to 1.6 (a drop of the rule's size), a minute later. */
function steam(
  observe: (b: CoalescedEvent[], at: number) => void,
  eventId: number,
  sportId: number,
  live: number,
  at: number,
) {
  observe(
    [
      {
        eventId,
        markets: [market(eventId * 10, { home: 2.0, away: 1.9 })],
        replace: true,
        snapshot: header(eventId, sportId, live),
      },
    ],
    at,
  );
  observe([{ eventId, markets: [market(eventId * 10, { home: 1.6, away: 2.4 })], replace: false }], at + 60_000);
}

describe('drop rule scope (docs/trading.md: pre-match, in play, sports)', () => {
  it('the rule itself: phases and sports; an unknown sport is not silenced', () => {
    expect(dropInScope({}, { sportId: 1, live: false })).toBe(true);
    expect(dropInScope({ phase: 'inplay' }, { sportId: 1, live: false })).toBe(false);
    expect(dropInScope({ phase: 'inplay' }, { sportId: 1, live: true })).toBe(true);
    expect(dropInScope({ phase: 'prematch' }, { sportId: 1, live: true })).toBe(false);
    expect(dropInScope({ sports: [2] }, { sportId: 1, live: false })).toBe(false);
    expect(dropInScope({ sports: [2] }, { sportId: 2, live: true })).toBe(true);
    expect(dropInScope({ sports: [2] }, { sportId: null, live: false })).toBe(true);
  });

  it('by default (both phases, every sport) a pre-match drop alerts, as before', () => {
    const w = watch({});
    steam(w.observe, 1, 1, 0, 0);
    expect(w.opened).toEqual([{ eventId: 1, notify: true }]);
  });

  it('an in-play-only rule says nothing pre-match; after kick-off a new steam alerts, never the old move', () => {
    const w = watch({ phase: 'inplay' });
    steam(w.observe, 1, 1, 0, 0);
    expect(w.opened).toEqual([]);
    // Kick-off: the stream's score says live. The move before it is not news now.
    w.observe(
      [
        {
          eventId: 1,
          markets: [market(10, { home: 1.6, away: 2.4 })],
          replace: false,
          score: { liveStatus: 1, scoreHome: 0, scoreAway: 0 },
        },
      ],
      120_000,
    );
    expect(w.opened).toEqual([]);
    // A steam in play: 1.6 → 1.35.
    w.observe([{ eventId: 1, markets: [market(10, { home: 1.35, away: 3.5 })], replace: false }], 180_000);
    expect(w.opened).toEqual([{ eventId: 1, notify: true }]);
  });

  it('a pre-match-only rule says nothing in play', () => {
    const w = watch({ phase: 'prematch' });
    steam(w.observe, 1, 1, 1, 0);
    expect(w.opened).toEqual([]);
  });

  it('a sport filter excludes other sports', () => {
    const w = watch({ sports: [2] });
    steam(w.observe, 1, 1, 0, 0);
    expect(w.opened).toEqual([]);
    steam(w.observe, 2, 2, 0, 0);
    expect(w.opened).toEqual([{ eventId: 2, notify: true }]);
  });
});
