// The projections hosts show: the status bar's quota (split by purpose, source, a clamped Retry-After, refusals over
// a share) and the account `cli record` prints at stop, from a real governor on the manual clock.
import { describe, expect, it } from 'vitest';
import { PATHS, type ApiPath } from '../shared/api';
import { createManualClock } from '../../test/support/manualClock';
import { createGovernor } from './api/governor';
import type { Purpose } from './api/types';
import { quotaView, requestsLine, requestsSummary } from './status';

function setup(quotaPerHour = 1000) {
  const clock = createManualClock(1_700_000_000_000);
  const gov = createGovernor({ keyProvider: () => 'status-test-key', clock, quotaPerHour, random: () => 0.5 });
  const send = (purpose: Purpose, res: () => Response, path: ApiPath = PATHS.fixtures) =>
    gov.run({ path, baseUrl: 'http://127.0.0.1:9', purpose, maxAttempts: 1, send: async () => res() });
  return { clock, gov, send };
}
const ok = (headers: Record<string, string> = {}) => new Response('[]', { status: 200, headers });
const tooMany = (retryAfter: string) =>
  new Response('{"detail":"Hourly quota exceeded"}', { status: 429, headers: { 'Retry-After': retryAfter } });

describe('quotaView', () => {
  it('shows nothing counted and no source while not connected', () => {
    expect(quotaView(undefined)).toMatchObject({
      used: 0,
      limit: null,
      source: null,
      rateLimited: 0,
      byPurpose: { settled: 0, ui: 0 },
      refused: { specials: 0, ui: 0 },
    });
  });

  it("splits the hour by purpose and says the limit is the trader's setting", async () => {
    const { gov, send } = setup(750);
    await send('settled', () => ok());
    await send('settled', () => ok());
    await send('stream', () => ok());
    await send('ui', () => ok());
    const q = quotaView(gov.state());
    expect(q).toMatchObject({
      used: 4,
      limit: 750,
      remaining: 746,
      source: 'setting',
      rateLimited: 0,
      retryAfterClampedFromS: null,
    });
    expect(q.byPurpose).toEqual({ settled: 2, repair: 0, results: 0, specials: 0, stream: 1, lookup: 0, ui: 1 });
  });

  it('says the limit comes from the headers once the service states it', async () => {
    const { gov, send } = setup(750);
    await send('lookup', () => ok({ 'X-RateLimit-Limit': '2000', 'X-RateLimit-Remaining': '1990' }));
    expect(quotaView(gov.state())).toMatchObject({ limit: 2000, remaining: 1990, source: 'headers' });
  });

  it('shows the Retry-After the service asked for while a pause cut to the hour lasts, then not', async () => {
    const { gov, clock, send } = setup();
    await send('settled', () => tooMany('86400'));
    const q = quotaView(gov.state());
    expect(q).toMatchObject({ retryAfterClampedFromS: 86400, rateLimited: 1, pausedUntil: clock.now() + 3_600_000 });
    await clock.advance(3_600_000);
    expect(quotaView(gov.state())).toMatchObject({ retryAfterClampedFromS: null, pausedUntil: null });
  });
});

describe('requestsLine', () => {
  it('accounts for the whole run, every purpose listed, 429s apart, beyond the hour', async () => {
    const { gov, clock, send } = setup();
    await send('settled', () => ok(), PATHS.settled);
    await send('repair', () => ok(), PATHS.settlement);
    await clock.advance(2 * 3_600_000);
    await send('stream', () => tooMany('1'), PATHS.stream);
    const line = requestsLine(gov.state());
    expect(JSON.parse(JSON.stringify(line))).toEqual({
      type: 'requests',
      total: 3,
      rate_limited: 1,
      by_purpose: { settled: 1, repair: 1, results: 0, specials: 0, stream: 1, lookup: 0, ui: 0 },
      refused: { settled: 0, repair: 0, results: 0, specials: 0, stream: 0, lookup: 0, ui: 0 },
    });
    expect(requestsSummary(gov.state())).toBe(
      '3 requests (1 answered 429; limit 1000/h from the setting): checking for settlements 1, incomplete settlements asked for again 1, price streams opened 1',
    );
  });

  it('counts the requests refused over their share apart from those sent, in the hour and in the run', async () => {
    // An hour of 10: the trader's look-ups may spend 2 of it, specials 5.
    const { gov, send } = setup(10);
    for (let i = 0; i < 4; i++) await send('ui', () => ok());
    for (let i = 0; i < 6; i++) await send('specials', () => ok(), PATHS.specialsFixtures);
    // 2 look-ups and 5 specials went out; the 2 look-ups and the special over their share were refused.
    expect(quotaView(gov.state())).toMatchObject({
      used: 7,
      byPurpose: { ui: 2, specials: 5 },
      refused: { ui: 2, specials: 1, settled: 0 },
    });
    const line = requestsLine(gov.state());
    expect(line).toMatchObject({
      total: 7,
      by_purpose: { ui: 2, specials: 5 },
      refused: { settled: 0, repair: 0, results: 0, specials: 1, stream: 0, lookup: 0, ui: 2 },
    });
    expect(requestsSummary(gov.state())).toBe(
      '7 requests (0 answered 429; limit 10/h from the setting): specials and outrights 5, your own look-ups 2; refused over their share: specials and outrights 1, your own look-ups 2',
    );
  });
});
