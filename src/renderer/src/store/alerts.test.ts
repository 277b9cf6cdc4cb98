// What a batch of live alerts sounds like in the window: one tune per kind, the settlement's on by default and the
// others off; none under do-not-disturb, none for a muted event or one snoozed until later (a snooze that has ended
// sounds again).
import { beforeAll, describe, expect, it } from 'vitest';
import type { AlertRecord } from '../../../shared/domain';
import type { OddsdeskApi } from '../../../shared/ipc/contract';
import type { alertSound as AlertSoundFn } from './alerts';

let alertSound: typeof AlertSoundFn;
beforeAll(async () => {
  const api: OddsdeskApi = { invoke: async () => ({ ok: true, value: null }) as never, on: () => () => undefined };
  (globalThis as unknown as { window: { oddsdesk: OddsdeskApi } }).window = { oddsdesk: api };
  ({ alertSound } = await import('./alerts'));
});

const alert = (kind: string, eventId: number | null = 7): AlertRecord => ({ id: 1, at: 0, kind, eventId, specialId: null, contestantId: null, message: '', data: null });
const NOW = 1_000_000;
const defaults = { doNotDisturb: false, mutedEvents: [], snoozedEvents: [], settlementSound: true, maxWinSound: false, priceSound: false };

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
