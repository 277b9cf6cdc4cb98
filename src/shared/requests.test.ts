// The trader-facing rules of the request account: the quota figure a trader may type, and when a clock skew is
// worth saying.
import { describe, expect, it } from 'vitest';
import { describeSkew, parseQuotaPerHour, purposeSplit } from './requests';

describe('parseQuotaPerHour', () => {
  it('takes a whole number from 1 to 1,000,000 and nothing else', () => {
    expect(parseQuotaPerHour('1000')).toBe(1000);
    expect(parseQuotaPerHour(' 1 ')).toBe(1);
    expect(parseQuotaPerHour('1000000')).toBe(1_000_000);
    for (const bad of ['0', '1000001', '2.5', '-3', '1e3', '', 'lots', '0x10'])
      expect(parseQuotaPerHour(bad)).toBeNull();
  });
});

describe('describeSkew', () => {
  it('says nothing under 5 s, and which way and how far beyond', () => {
    expect(describeSkew(null)).toBeNull();
    expect(describeSkew(4_999)).toBeNull();
    expect(describeSkew(-4_999)).toBeNull();
    expect(describeSkew(12_000)).toBe("the service's clock is 12 s ahead of this machine's");
    expect(describeSkew(-600_000)).toBe("the service's clock is 10 min behind this machine's");
    expect(describeSkew(3 * 3_600_000)).toBe("the service's clock is 3.0 h ahead of this machine's");
  });
});

describe('purposeSplit', () => {
  it('lists purposes in their fixed order, and only those spent on when asked', () => {
    const by = { settled: 3, repair: 0, results: 0, specials: 2, stream: 1, lookup: 0, ui: 4 };
    expect(purposeSplit(by).map((r) => r.purpose)).toEqual([
      'settled',
      'repair',
      'results',
      'specials',
      'stream',
      'lookup',
      'ui',
    ]);
    expect(purposeSplit(by, true).map((r) => [r.label, r.count])).toEqual([
      ['checking for settlements', 3],
      ['specials and outrights', 2],
      ['price streams opened', 1],
      ['your own look-ups', 4],
    ]);
  });
});
