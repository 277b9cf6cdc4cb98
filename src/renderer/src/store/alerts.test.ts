// What a batch of live alerts sounds like in the window: one tune per kind, the settlement's on by default and the
// others off; none under do-not-disturb, none for a muted event or one snoozed until later (a snooze that has ended
// sounds again). And how alerts flash their rows: from the first alert until the event has been quiet a while,
// without a store change per alert.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AlertRecord } from '../../../shared/domain';
import type { OddsdeskApi } from '../../../shared/ipc/contract';
import type { alertSound as AlertSoundFn } from './alerts';
import type { useStore as UseStore } from './index';

let alertSound: typeof AlertSoundFn;
let useStore: typeof UseStore;
let ALERT_FLASH_MS: number;
beforeAll(async () => {
  const api: OddsdeskApi = { invoke: async () => ({ ok: true, value: null }) as never, on: () => () => undefined };
  (globalThis as unknown as { window: { oddsdesk: OddsdeskApi } }).window = { oddsdesk: api };
  ({ alertSound, ALERT_FLASH_MS } = await import('./alerts'));
  ({ useStore } = await import('./index'));
});
afterEach(() => void vi.useRealTimers());

const alert = (kind: string, eventId: number | null = 7): AlertRecord => ({
  id: 1,
  at: 0,
  kind,
  eventId,
  specialId: null,
  contestantId: null,
  message: '',
  data: null,
});
const NOW = 1_000_000;
const defaults = {
  doNotDisturb: false,
  mutedEvents: [],
  snoozedEvents: [],
  settlementSound: true,
  maxWinSound: false,
  priceSound: false,
};

describe('alert sounds', () => {
  it('settlements sound by default; max stake, price and drop alerts only when switched on', () => {
    expect(alertSound([alert('settled')], defaults, NOW)).toBe('settlement');
    expect(alertSound([alert('max_win'), alert('price'), alert('drop')], defaults, NOW)).toBeNull();
    expect(alertSound([alert('drop')], { ...defaults, priceSound: true }, NOW)).toBe('price');
    expect(alertSound([alert('price')], { ...defaults, priceSound: true }, NOW)).toBe('price');
    expect(alertSound([alert('max_win')], { ...defaults, maxWinSound: true }, NOW)).toBe('max_win');
    // A burst plays one tune: the first alert whose kind is on.
    expect(alertSound([alert('max_win'), alert('drop'), alert('settled')], defaults, NOW)).toBe('settlement');
    expect(alertSound([alert('settled')], null, NOW)).toBeNull();
  });

  it('is silent under do-not-disturb and for a muted or snoozed event, and sounds again once the snooze is over', () => {
    expect(alertSound([alert('settled')], { ...defaults, doNotDisturb: true }, NOW)).toBeNull();
    expect(alertSound([alert('settled', 7)], { ...defaults, mutedEvents: [7] }, NOW)).toBeNull();
    const snoozed = { ...defaults, snoozedEvents: [{ eventId: 7, until: NOW + 60_000 }] };
    expect(alertSound([alert('settled', 7)], snoozed, NOW)).toBeNull();
    // Another event is not snoozed with it.
    expect(alertSound([alert('settled', 7), alert('settled', 8)], snoozed, NOW)).toBe('settlement');
    expect(alertSound([alert('settled', 7)], snoozed, NOW + 60_000)).toBe('settlement');
  });
});

describe('alert flashes', () => {
  it('a row flashes while its alerts keep coming, without a new value per alert, and stops a flash after the last', () => {
    vi.useFakeTimers();
    const s = () => useStore.getState();
    let id = 100;
    const drop = (eventId: number): AlertRecord => ({ ...alert('drop', eventId), id: ++id, at: Date.now() });
    s().addAlerts([drop(7)]);
    const first = s().alertFlash[7];
    expect(first).toBeGreaterThan(0);
    // A burst lasting longer than a flash: the row's value holds still (the row is not rendered again for each).
    for (let i = 0; i < 40; i++) {
      vi.advanceTimersByTime(50);
      s().addAlerts([drop(7), drop(8)]);
    }
    expect(s().alertFlash[7]).toBe(first);
    expect(s().alertFlash[8]).toBeGreaterThan(0);
    expect(s().unseenAlerts).toBeGreaterThanOrEqual(81); // every alert is still counted and listed
    // Quiet from here: the flash ends within a period or two of the last alert, never sooner than one.
    vi.advanceTimersByTime(ALERT_FLASH_MS - 1);
    expect(s().alertFlash[7]).toBe(first);
    vi.advanceTimersByTime(ALERT_FLASH_MS + 1);
    expect(s().alertFlash).toEqual({});
    // The next alert flashes the row anew.
    s().addAlerts([drop(7)]);
    expect(s().alertFlash[7]).toBeGreaterThan(first!);
    // A muted event's alerts do not flash.
    useStore.setState({ settings: { ...(s().settings ?? ({} as never)), mutedEvents: [9], snoozedEvents: [] } });
    s().addAlerts([drop(9)]);
    expect(s().alertFlash[9]).toBeUndefined();
  });
});

describe('alerts updated in place (a drop episode that grew)', () => {
  it('an update replaces its row where it stands, counts as nothing new and rings nothing', () => {
    const s = () => useStore.getState();
    useStore.setState({ alertsById: {}, alertIds: [], unseenAlerts: 0, view: 'watchlist' });
    const episode: AlertRecord = {
      ...alert('drop', 7),
      id: 501,
      at: 1,
      message: '2 lines dropped',
      data: { count: 2 },
    };
    const other: AlertRecord = { ...alert('price', 8), id: 502, at: 2, message: 'crossed' };
    s().addAlerts([episode, other]);
    expect(s().alertIds.slice(0, 2)).toEqual([502, 501]);
    expect(s().unseenAlerts).toBe(2);
    // Two pushes of the same episode in one frame: the latest wins.
    const grown = (n: number): AlertRecord => ({
      ...episode,
      message: `${n} lines dropped`,
      data: { count: n },
      updatedAt: 1_000 + n,
    });
    s().addAlerts([grown(5), grown(9)]);
    expect(s().alertIds.slice(0, 2)).toEqual([502, 501]);
    expect(s().alertsById[501]).toMatchObject({ message: '9 lines dropped', data: { count: 9 } });
    expect(s().unseenAlerts).toBe(2);
    expect(alertSound([grown(9)], { ...defaults, priceSound: true }, NOW)).toBeNull();
    expect(alertSound([episode], { ...defaults, priceSound: true }, NOW)).toBe('price');
  });
});
