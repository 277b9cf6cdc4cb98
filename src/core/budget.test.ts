import { describe, expect, it } from 'vitest';
import { emptyByPurpose } from '../shared/requests';
import { lookupAllowed, spareAboveReserve, specialsAllowance } from './budget';

const view = (remaining: number, used: Partial<ReturnType<typeof emptyByPurpose>> = {}) => ({
  limit: 1000,
  remaining,
  hourByPurpose: { ...emptyByPurpose(), ...used },
});

describe('quota shares', () => {
  it('keeps a reserve free of background work', () => {
    expect(spareAboveReserve(view(1000))).toBe(700);
    expect(spareAboveReserve(view(300))).toBe(0);
    expect(spareAboveReserve(view(120))).toBeLessThan(0);
  });
  it('caps specials at their share of the hour even with quota to spare', () => {
    expect(specialsAllowance(view(1000))).toBe(500);
    expect(specialsAllowance(view(900, { specials: 490 }))).toBe(10);
    expect(specialsAllowance(view(900, { specials: 500 }))).toBe(0);
    // And never into the reserve.
    expect(specialsAllowance(view(320))).toBe(20);
  });
  it("lets the trader's look-ups spend their own share, never the reserve", () => {
    expect(lookupAllowed(view(800, { ui: 199 }))).toBe(true);
    expect(lookupAllowed(view(800, { ui: 200 }))).toBe(false);
    expect(lookupAllowed(view(300, { ui: 5 }))).toBe(false);
  });
});
