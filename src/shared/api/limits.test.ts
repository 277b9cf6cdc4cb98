// The caps of one response (issue 36): problems bounded, a hostile remainder refused with one problem, records past a
// list's cap not read, and a text longer than the cap refused with its reason.
import { describe, expect, it } from 'vitest';
import { RESPONSE_LIMITS } from './limits';
import { FixtureSchema, parseMarkets, parseRecords, parseSettledPage } from './schemas';

const fixture = (id: number, league = 'L') => ({
  event_id: id,
  sport_id: 1,
  sport_name: 'S',
  league_id: 1,
  league_name: league,
  runner_home: 'H',
  runner_away: 'A',
  starts: '2026-11-22T12:00:00',
  live_status: 0,
});

describe('response caps', () => {
  it('keeps the first problems whole and counts the rest in one summary', () => {
    const values = [fixture(1), ...Array.from({ length: 50 }, () => 0), fixture(2)];
    const r = parseRecords(FixtureSchema, values, '');
    expect(r.items.map((f) => f.event_id)).toEqual([1, 2]);
    expect(r.problems).toHaveLength(RESPONSE_LIMITS.problemsShown + 1);
    expect(r.problems.at(-1)).toMatchObject({ count: 50 - RESPONSE_LIMITS.problemsShown });
  });

  it('refuses the rest of an answer once it has had too many bad records, with one problem', () => {
    const r = parseMarkets(new Array<unknown>(1_000_000).fill(0));
    expect(r.items).toEqual([]);
    expect(r.problems).toHaveLength(RESPONSE_LIMITS.problemsShown + 1);
    expect(r.problems.at(-1)!.message).toMatch(
      /999800 records were not read: after 200 bad ones the rest of the answer was refused/,
    );
  });

  it('reads no more records of a settled page than a page may hold', () => {
    const r = parseSettledPage({ last: 1, since: 0, count: 1, events: [] }, 5000);
    expect(r.problems).toEqual([
      expect.objectContaining({ count: 5000, message: expect.stringMatching(/more than the 1000 it may/) }),
    ]);
  });

  it('refuses a record whose text is longer than the cap, saying so', () => {
    const r = parseRecords(FixtureSchema, [fixture(1, 'x'.repeat(4_000_000)), fixture(2)], '');
    expect(r.items.map((f) => f.event_id)).toEqual([2]);
    expect(r.problems[0]!.message).toMatch(/league_name: longer than 1000 characters/);
    expect(r.problems[0]!.message.length).toBeLessThan(300);
  });
});
