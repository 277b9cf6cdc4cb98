// The share rules the governor's admission applies, as worked examples on an hour of 1,000 requests.
import { describe, expect, it } from 'vitest';
import { emptyByPurpose, PURPOSES } from '../shared/requests';
import { headroom, shareBound, spareAboveReserve } from './budget';

const view = (remaining: number, used: Partial<ReturnType<typeof emptyByPurpose>> = {}) => ({
  limit: 1000,
  remaining,
  hourByPurpose: { ...emptyByPurpose(), ...used },
});

describe('quota shares', () => {
  it('keeps a reserve free of everything but the walk, its repairs and the streams', () => {
    expect(spareAboveReserve(view(1000))).toBe(700);
    expect(spareAboveReserve(view(300))).toBe(0);
    expect(spareAboveReserve(view(120))).toBeLessThan(0);
    for (const p of ['results', 'lookup', 'specials', 'ui'] as const) {
      expect(headroom(p, view(300))).toBe(0);
      expect(shareBound(p, view(300))).toBe('reserve');
    }
  });

  it('never holds back the settled walk, its repairs or stream opens, even with nothing left', () => {
    for (const p of ['settled', 'repair', 'stream'] as const) {
      expect(headroom(p, view(0, { [p]: 1000 }))).toBe(Infinity);
      expect(shareBound(p, view(0, { [p]: 1000 }))).toBeNull();
    }
  });

  it('caps specials at their share of the hour even with quota to spare', () => {
    expect(headroom('specials', view(1000))).toBe(500);
    expect(headroom('specials', view(900, { specials: 490 }))).toBe(10);
    expect(headroom('specials', view(900, { specials: 500 }))).toBe(0);
    expect(shareBound('specials', view(900, { specials: 500 }))).toBe('ceiling');
    // And never into the reserve.
    expect(headroom('specials', view(320))).toBe(20);
  });

  it("lets the trader's look-ups spend their own share, never the reserve", () => {
    expect(headroom('ui', view(800, { ui: 199 }))).toBe(1);
    expect(headroom('ui', view(800, { ui: 200 }))).toBe(0);
    expect(shareBound('ui', view(800, { ui: 200 }))).toBe('ceiling');
    expect(headroom('ui', view(300, { ui: 5 }))).toBe(0);
    expect(shareBound('ui', view(300, { ui: 5 }))).toBe('reserve');
  });

  it("gives other matches' results and the core's own look-ups what is left above the reserve", () => {
    expect(headroom('results', view(305, { results: 600 }))).toBe(5);
    expect(headroom('lookup', view(301))).toBe(1);
    expect(shareBound('lookup', view(301))).toBeNull();
  });

  it('lets every purpose spend on a fresh hour', () => {
    for (const p of PURPOSES) expect(headroom(p, view(1000))).toBeGreaterThan(0);
  });
});
