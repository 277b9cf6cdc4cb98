// Demo mode's test-only knobs (src/sim/CONTROL.md, "Demo mode in tests"): unset they change nothing, a pace must be
// one the world can run, and a value not allowed stops the demo with the reason instead of running another demo.
import { describe, expect, it } from 'vitest';
import { DEMO_PACE, testDemoOptions, TEST_DEMO_PACES } from '../../src/sim/demo';

describe('testDemoOptions', () => {
  it('changes nothing unless set', () => {
    expect(testDemoOptions({})).toEqual({});
    expect(testDemoOptions({ ODDSDESK_TEST_DEMO_PACE: '', ODDSDESK_TEST_DEMO_SEED: '' })).toEqual({});
  });

  it('takes a pace the world can run and a whole seed', () => {
    expect(testDemoOptions({ ODDSDESK_TEST_DEMO_PACE: '60', ODDSDESK_TEST_DEMO_SEED: '25' })).toEqual({
      pace: 60,
      seed: 25,
    });
    expect(Math.min(...TEST_DEMO_PACES)).toBe(DEMO_PACE);
  });

  it('refuses anything else, naming the variable', () => {
    expect(() => testDemoOptions({ ODDSDESK_TEST_DEMO_PACE: '7' })).toThrow(
      /ODDSDESK_TEST_DEMO_PACE must be one of 10, 12, .*, 120, not 7/,
    );
    expect(() => testDemoOptions({ ODDSDESK_TEST_DEMO_PACE: '1' })).toThrow(/ODDSDESK_TEST_DEMO_PACE/);
    expect(() => testDemoOptions({ ODDSDESK_TEST_DEMO_SEED: '-3' })).toThrow(
      /ODDSDESK_TEST_DEMO_SEED must be a whole number/,
    );
  });
});
