// Unit tests of the request governor's scheduling logic on a manual clock, without any network.
import { describe, expect, it } from 'vitest';
import { PATHS, type ApiPath } from '../../shared/api';
import { createManualClock } from '../../../test/support/manualClock';
import { backoffDelay, createGovernor, type GovernedRequest, type GovernorOptions } from './governor';
import { PURPOSES, type Priority, type Purpose } from './types';

const KEY = 'secret-key-123456';

function setup(opts: Partial<GovernorOptions> = {}) {
  const clock = createManualClock(1_700_000_000_000);
  let key: string | null = KEY;
  const logs: string[] = [];
  const gov = createGovernor({
    keyProvider: () => key,
    clock,
    random: () => 0.5,
    retry: { maxAttempts: 3, baseMs: 100, maxMs: 1000 },
    keyPollMs: 50,
    logger: (_l, m) => logs.push(m),
    ...opts,
  });
  const sent: Array<{ path: ApiPath; key: string | null; at: number; tag: string; purpose: Purpose | undefined }> = [];
  /**
   * A request; its purpose is the settled walk's unless given, which no share of the hour holds back: the tests of
   * the budget, the waits and the key are about those alone (the shares have tests of their own below).
   */
  function req(
    respond: () => Response | Promise<Response>,
    o: { path?: ApiPath; priority?: Priority; tag?: string; needsKey?: boolean; purpose?: Purpose } = {},
  ): GovernedRequest {
    const purpose = o.purpose ?? 'settled';
    return {
      path: o.path ?? PATHS.fixtures,
      baseUrl: 'http://127.0.0.1:9',
      purpose,
      ...(o.priority ? { priority: o.priority } : {}),
      ...(o.needsKey === undefined ? {} : { needsKey: o.needsKey }),
      send: async (k) => {
        sent.push({ path: o.path ?? PATHS.fixtures, key: k, at: clock.now(), tag: o.tag ?? '', purpose });
        return respond();
      },
    };
  }
  return {
    clock,
    gov,
    sent,
    req,
    logs,
    setKey: (k: string | null) => {
      key = k;
    },
  };
}

const ok = (headers: Record<string, string> = {}) => new Response('[]', { status: 200, headers });
const status = (s: number, body: unknown = { detail: 'x' }, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status: s, headers });

describe('backoffDelay', () => {
  it('grows exponentially, stays within [step/2, step] and never exceeds the cap', () => {
    const policy = { baseMs: 100, maxMs: 1000 };
    for (let attempt = 1; attempt <= 10; attempt++) {
      const step = Math.min(1000, 100 * 2 ** (attempt - 1));
      expect(backoffDelay(attempt, policy, () => 0)).toBe(step / 2);
      expect(backoffDelay(attempt, policy, () => 0.999999)).toBeLessThanOrEqual(step);
      expect(backoffDelay(attempt, policy, () => 0.999999)).toBeGreaterThan(step * 0.99);
    }
    expect(backoffDelay(30, policy, () => 1)).toBe(1000);
  });
});

describe('governor', () => {
  it('counts its own requests against the configured quota and holds when it is spent', async () => {
    const { gov, clock, sent, req } = setup({ quotaPerHour: 3, lowPriorityReserve: 0, maxWaitMs: 2 * 3_600_000 });
    for (let i = 0; i < 3; i++) expect((await gov.run(req(() => ok()))).ok).toBe(true);
    expect(gov.state().quota).toMatchObject({ limit: 3, used: 3, remaining: 0, source: 'setting' });
    const fourth = gov.run(req(() => ok()));
    await clock.advance(60_000);
    expect(sent).toHaveLength(3);
    await clock.advance(3_600_000);
    expect((await fourth).ok).toBe(true);
    expect(sent).toHaveLength(4);
  });

  it('fails fast with rate_limit instead of waiting longer than maxWaitMs', async () => {
    const { gov, sent, req } = setup({ quotaPerHour: 1, lowPriorityReserve: 0 });
    expect((await gov.run(req(() => ok()))).ok).toBe(true);
    const r = await gov.run(req(() => ok()));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.kind).toBe('rate_limit');
      expect(r.error.retryAfter).toBe(3600);
      expect(r.error.message).toContain('1 of 1');
    }
    expect(sent).toHaveLength(1);
  });

  it('takes the budget from X-RateLimit-* when present and falls back to counting without them', async () => {
    const { gov, clock, req } = setup({ quotaPerHour: 50 });
    const reset = String(Math.floor(clock.now() / 1000) + 1800);
    await gov.run(
      req(() => ok({ 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': '40', 'X-RateLimit-Reset': reset })),
    );
    expect(gov.state().quota).toMatchObject({ limit: 100, remaining: 40, used: 60, source: 'headers' });
    expect(gov.state().quota.resetAt).toBe(Number(reset) * 1000);
    await gov.run(req(() => ok()));
    expect(gov.state().quota).toMatchObject({ source: 'headers', used: 2, limit: 100 });
  });

  it('emits state changes to subscribers', async () => {
    const { gov, req } = setup();
    const seen: number[] = [];
    const off = gov.subscribe((s) => seen.push(s.quota.used));
    await gov.run(req(() => ok()));
    off();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.at(-1)).toBe(1);
  });

  it('sends high before normal before low when requests queue up', async () => {
    const { gov, clock, sent, req } = setup({ maxConcurrent: 1 });
    let release!: () => void;
    const first = gov.run(req(() => new Promise<Response>((r) => (release = () => r(ok()))), { tag: 'first' }));
    await clock.advance(0);
    const low = gov.run(req(() => ok(), { priority: 'low', tag: 'low' }));
    const normal = gov.run(req(() => ok(), { priority: 'normal', tag: 'normal' }));
    const high = gov.run(req(() => ok(), { priority: 'high', tag: 'high' }));
    await clock.advance(0);
    expect(gov.state().queued).toBe(3);
    release();
    await Promise.all([first, low, normal, high]);
    expect(sent.map((s) => s.tag)).toEqual(['first', 'high', 'normal', 'low']);
  });

  it('keeps a reserve for high priority near the limit', async () => {
    const { gov, clock, sent, req } = setup({ quotaPerHour: 3, lowPriorityReserve: 1, maxWaitMs: 2 * 3_600_000 });
    await gov.run(req(() => ok()));
    await gov.run(req(() => ok()));
    const low = gov.run(req(() => ok(), { priority: 'low', tag: 'low' }));
    await clock.advance(1000);
    expect(sent.map((s) => s.tag)).not.toContain('low');
    expect((await gov.run(req(() => ok(), { priority: 'high', tag: 'high' }))).ok).toBe(true);
    await clock.advance(3_600_000);
    expect((await low).ok).toBe(true);
  });

  it('retries 5xx and network faults with backoff, then gives up after maxAttempts', async () => {
    const { gov, clock, sent, req } = setup();
    let n = 0;
    const p = gov.run(req(() => (++n < 3 ? status(503) : ok())));
    await clock.advance(0);
    expect(sent).toHaveLength(1);
    await clock.advance(2000);
    const r = await p;
    expect(r.ok).toBe(true);
    expect(r.attempts).toBe(3);
    // random 0.5: delays 75 (step 100) then 150 (step 200)
    expect(sent[1]!.at - sent[0]!.at).toBe(75);
    expect(sent[2]!.at - sent[1]!.at).toBe(150);

    const failing = gov.run(
      req(() => {
        throw new TypeError('fetch failed');
      }),
    );
    await clock.advance(5000);
    const f = await failing;
    expect(f.ok).toBe(false);
    if (!f.ok) expect(f.error.kind).toBe('network');
    expect(f.attempts).toBe(3);
  });

  it('after a 429 sends nothing of any kind until Retry-After has passed', async () => {
    const { gov, clock, sent, req } = setup();
    const r = await gov.run(req(() => status(429, { detail: 'Hourly quota exceeded' }, { 'Retry-After': '5' })));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ kind: 'rate_limit', retryAfter: 5 });
    const t429 = clock.now();
    expect(gov.state().pausedUntil).toBe(t429 + 5000);
    const next = gov.run(req(() => ok(), { priority: 'high' }));
    const unkeyed = gov.run(req(() => ok(), { path: PATHS.status, needsKey: false }));
    await clock.advance(4999);
    expect(sent).toHaveLength(1);
    await clock.advance(1);
    await Promise.all([next, unkeyed]);
    expect(sent).toHaveLength(3);
    expect(sent[1]!.at - t429).toBeGreaterThanOrEqual(5000);
    expect(gov.state().pausedUntil).toBeNull();
  });

  it('after a 401 fails fast without sending until the provider returns another key', async () => {
    const { gov, clock, sent, req, setKey } = setup();
    const r = await gov.run(req(() => status(401, { detail: 'Not authenticated' })));
    expect(!r.ok && r.error.kind).toBe('auth');
    expect(gov.state().auth).toBe('rejected');
    const again = await gov.run(req(() => ok()));
    expect(!again.ok && again.error.kind).toBe('auth');
    expect(sent).toHaveLength(1);
    // Status needs no key: it still goes out.
    expect((await gov.run(req(() => ok(), { path: PATHS.status, needsKey: false }))).ok).toBe(true);

    const usable = gov.whenKeyUsable();
    setKey('new-key-abcdef');
    await clock.advance(100); // the governor polls the provider while blocked
    await usable;
    expect(gov.state().auth).toBe('ok');
    expect((await gov.run(req(() => ok()))).ok).toBe(true);
    expect(sent.at(-1)!.key).toBe('new-key-abcdef');
  });

  it('reports a missing key without sending', async () => {
    const { gov, sent, req, setKey } = setup();
    setKey(null);
    const r = await gov.run(req(() => ok()));
    expect(!r.ok && r.error.kind).toBe('auth');
    expect(gov.state().auth).toBe('missing');
    expect(sent).toHaveLength(0);
    setKey('k-2-abcdef');
    gov.keyChanged();
    expect((await gov.run(req(() => ok()))).ok).toBe(true);
  });

  it('stops calling a plan-restricted path and forgets the restriction when the key changes', async () => {
    const { gov, sent, req, setKey } = setup();
    const body = { detail: 'Enterprise only', your_plan: 'starter', required_plan: 'enterprise' };
    const r = await gov.run(req(() => status(403, body), { path: PATHS.specialsFixtures }));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toMatchObject({ kind: 'plan', yourPlan: 'starter', requiredPlan: 'enterprise' });
      expect(r.error.message).toContain('requires enterprise; your plan: starter');
    }
    expect(gov.state().plan).toBe('starter');
    expect(gov.state().restrictedPaths.map((p) => p.path)).toEqual([PATHS.specialsFixtures]);
    const again = await gov.run(req(() => ok(), { path: PATHS.specialsFixtures }));
    expect(!again.ok && again.error.kind).toBe('plan');
    expect(sent).toHaveLength(1);
    // Other paths are unaffected.
    expect((await gov.run(req(() => ok()))).ok).toBe(true);
    setKey('enterprise-key-xyz');
    expect((await gov.run(req(() => ok(), { path: PATHS.specialsFixtures }))).ok).toBe(true);
    expect(gov.state().restrictedPaths).toEqual([]);
  });

  it('keeps the key out of errors and log lines', async () => {
    const { gov, clock, req, logs } = setup({ retry: { maxAttempts: 1 } });
    const p = gov.run(
      req(() => {
        throw new Error(`connect failed for header X-API-Key: ${KEY}`);
      }),
    );
    await clock.advance(0);
    const r = await p;
    expect(r.ok).toBe(false);
    if (!r.ok) expect(JSON.stringify(r.error)).not.toContain(KEY);
    expect(logs.join('\n')).not.toContain(KEY);
    expect(logs.join('\n')).toContain('[redacted key]');
  });
});

describe('governor: edge cases of a different upstream', () => {
  it('clamps a Retry-After of 86400 s to the quota hour, says so, and sends again after the hour', async () => {
    const { gov, clock, sent, req } = setup({ maxWaitMs: 2 * 3_600_000 });
    const r = await gov.run(req(() => status(429, { detail: 'Hourly quota exceeded' }, { 'Retry-After': '86400' })));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toMatchObject({ kind: 'rate_limit', retryAfter: 3600 });
      expect(r.error.message).toContain('86400 s');
    }
    const t429 = clock.now();
    expect(gov.state().pausedUntil).toBe(t429 + 3_600_000);
    expect(gov.state().retryAfterClamp).toEqual({ statedS: 86400, appliedS: 3600 });
    const next = gov.run(req(() => ok()));
    await clock.advance(3_600_000 - 1);
    expect(sent).toHaveLength(1);
    await clock.advance(1);
    expect((await next).ok).toBe(true);
    expect(sent).toHaveLength(2);
    expect(gov.state().retryAfterClamp).toBeNull();
  });

  it("reads a Retry-After given as an HTTP date against the answer's own Date, not a skewed local clock", async () => {
    const { gov, clock, req } = setup();
    // The service's clock is two hours behind ours: its Date and its Retry-After date are both in our past.
    const serviceNow = clock.now() - 2 * 3_600_000;
    const headers = {
      Date: new Date(serviceNow).toUTCString(),
      'Retry-After': new Date(serviceNow + 120_000).toUTCString(),
    };
    const r = await gov.run(req(() => status(429, { detail: 'Hourly quota exceeded' }, headers)));
    expect(!r.ok && r.error.retryAfter).toBe(120);
    expect(gov.state().pausedUntil).toBe(clock.now() + 120_000);
    expect(gov.state().retryAfterClamp).toBeNull();
  });

  it('ignores a limit header without a remaining header instead of reading it as nothing left', async () => {
    const { gov, sent, req } = setup({ quotaPerHour: 500 });
    for (let i = 0; i < 3; i++) {
      const r = await gov.run(req(() => ok({ 'X-RateLimit-Limit': '100' })));
      expect(r.ok).toBe(true);
    }
    expect(sent).toHaveLength(3);
    expect(gov.state().quota).toMatchObject({ limit: 500, used: 3, remaining: 497, source: 'setting' });
    // The reverse, and values that are not numbers, are ignored as well.
    await gov.run(req(() => ok({ 'X-RateLimit-Remaining': '0' })));
    await gov.run(req(() => ok({ 'X-RateLimit-Limit': 'lots', 'X-RateLimit-Remaining': 'none' })));
    expect(gov.state().quota).toMatchObject({ limit: 500, used: 5, source: 'setting' });
    expect((await gov.run(req(() => ok()))).ok).toBe(true);
  });

  for (const code of [401, 403]) {
    it(`takes a plan-restriction body under ${code} as a plan restriction, never as a rejected key`, async () => {
      const { gov, sent, req } = setup();
      const body = {
        detail: 'This endpoint is reserved to a higher plan',
        your_plan: 'starter',
        required_plan: 'enterprise',
      };
      const r = await gov.run(req(() => status(code, body), { path: PATHS.specialsOpening }));
      expect(r.ok).toBe(false);
      if (!r.ok)
        expect(r.error).toMatchObject({ kind: 'plan', status: code, yourPlan: 'starter', requiredPlan: 'enterprise' });
      expect(gov.state().auth).toBe('ok');
      expect(gov.state().plan).toBe('starter');
      expect(gov.state().restrictedPaths.map((p) => p.path)).toEqual([PATHS.specialsOpening]);
      // The key still works everywhere else; the restricted path is not asked again.
      expect((await gov.run(req(() => ok(), { path: PATHS.settled }))).ok).toBe(true);
      expect((await gov.run(req(() => ok(), { path: PATHS.specialsOpening }))).ok).toBe(false);
      expect(sent.map((s) => s.path)).toEqual([PATHS.specialsOpening, PATHS.settled]);
    });
  }

  it('a 403 without a plan in its body neither blocks the key nor marks the endpoint restricted', async () => {
    const { gov, sent, req } = setup();
    const r = await gov.run(req(() => status(403, { detail: 'Forbidden by proxy' }), { path: PATHS.specialsOpening }));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toMatchObject({ kind: 'validation', status: 403 });
      expect(r.error.message).toContain('Forbidden by proxy');
    }
    expect(gov.state()).toMatchObject({ auth: 'ok', plan: 'unknown', restrictedPaths: [] });
    expect((await gov.run(req(() => ok(), { path: PATHS.specialsOpening }))).ok).toBe(true);
    expect(sent).toHaveLength(2);
  });

  it('a plain 401 still blocks the key', async () => {
    const { gov, req } = setup();
    await gov.run(req(() => status(401, { detail: 'Not authenticated' })));
    expect(gov.state().auth).toBe('rejected');
  });
});

describe('governor: the account by purpose', () => {
  it('counts every request sent by purpose, 429s and retries included, status probes not at all', async () => {
    const { gov, clock, req } = setup();
    const run = (purpose: Purpose, respond: () => Response, path: ApiPath = PATHS.fixtures) =>
      gov.run({ ...req(respond, { path }), purpose });
    await run('settled', () => ok(), PATHS.settled);
    await run('settled', () => ok(), PATHS.settled);
    await run('stream', () => ok(), PATHS.stream);
    let n = 0;
    const retried = run('results', () => (++n < 2 ? status(503) : ok()), PATHS.results);
    await clock.advance(1000);
    await retried;
    await gov.run({ ...req(() => ok()), purpose: undefined }); // no purpose given: a look-up
    await gov.run(req(() => ok(), { path: PATHS.status, needsKey: false }));
    await run('ui', () => status(429, { detail: 'Hourly quota exceeded' }, { 'Retry-After': '5' }));
    const { hour, session } = gov.state().requests;
    expect(hour).toEqual({
      total: 7,
      rateLimited: 1,
      byPurpose: { settled: 2, repair: 0, results: 2, specials: 0, stream: 1, lookup: 1, ui: 1 },
      refused: { settled: 0, repair: 0, results: 0, specials: 0, stream: 0, lookup: 0, ui: 0 },
    });
    expect(session).toEqual(hour);
    expect(gov.state().quota.used).toBe(7);
  });

  it('rolls the hour with the quota window while the session keeps counting', async () => {
    const { gov, clock, req } = setup();
    await gov.run({
      ...req(() => status(429, { detail: 'x' }, { 'Retry-After': '1' }), { path: PATHS.settled }),
      purpose: 'settled',
    });
    await clock.advance(30 * 60_000);
    await gov.run({ ...req(() => ok(), { path: PATHS.stream }), purpose: 'stream' });
    expect(gov.state().requests.hour).toMatchObject({ total: 2, rateLimited: 1 });
    await clock.advance(30 * 60_000);
    expect(gov.state().requests.hour).toMatchObject({ total: 1, rateLimited: 0, byPurpose: { settled: 0, stream: 1 } });
    expect(gov.state().requests.session).toMatchObject({
      total: 2,
      rateLimited: 1,
      byPurpose: { settled: 1, stream: 1 },
    });
    await clock.advance(30 * 60_000);
    expect(gov.state().requests.hour.total).toBe(0);
    expect(gov.state().quota).toMatchObject({ used: 0, resetAt: null });
  });
});

describe('governor: the quota the trader states', () => {
  it('a new figure takes effect at once: a raised quota lets the waiting request go', async () => {
    const { gov, clock, sent, req } = setup({ quotaPerHour: 2, lowPriorityReserve: 0, maxWaitMs: 2 * 3_600_000 });
    await gov.run(req(() => ok()));
    await gov.run(req(() => ok()));
    const third = gov.run(req(() => ok()));
    await clock.advance(1000);
    expect(sent).toHaveLength(2);
    gov.setQuotaPerHour(5000);
    await clock.advance(0);
    expect((await third).ok).toBe(true);
    expect(gov.state().quota).toMatchObject({ limit: 5000, used: 3, remaining: 4997, source: 'setting' });
    gov.setQuotaPerHour(0);
    gov.setQuotaPerHour(2.5);
    expect(gov.state().quota.limit).toBe(5000);
  });

  it("the service's headers take precedence over the figure, whatever it is set to later", async () => {
    const { gov, req } = setup({ quotaPerHour: 50 });
    await gov.run(req(() => ok({ 'X-RateLimit-Limit': '300', 'X-RateLimit-Remaining': '280' })));
    gov.setQuotaPerHour(10);
    expect(gov.state().quota).toMatchObject({ limit: 300, remaining: 280, source: 'headers' });
  });
});

describe('governor: the service clock', () => {
  it('measures the skew at the midpoint of the round trip and corrects X-RateLimit-Reset with it', async () => {
    const { gov, clock, req } = setup();
    const now = clock.now();
    // The service runs 10 minutes ahead of us.
    gov.noteServiceTime(now + 600_000 + 50, now, now + 100);
    expect(gov.state().clockSkewMs).toBe(600_000);
    const serviceReset = Math.floor((now + 600_000 + 1_200_000) / 1000);
    await gov.run(
      req(() =>
        ok({ 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': '90', 'X-RateLimit-Reset': String(serviceReset) }),
      ),
    );
    // 20 minutes from now on our clock, not 30.
    expect(gov.state().quota.resetAt).toBe(serviceReset * 1000 - 600_000);
  });

  it('marks the service unreachable after a network fault and reachable at its next answer', async () => {
    const { gov, clock, req } = setup({ retry: { maxAttempts: 1 } });
    expect(gov.state().reachable).toBeNull();
    const down = gov.run(
      req(() => {
        throw new TypeError('fetch failed');
      }),
    );
    await clock.advance(0);
    await down;
    expect(gov.state().reachable).toBe(false);
    let back = false;
    void gov.whenReachable().then(() => (back = true));
    await clock.advance(0);
    expect(back).toBe(false);
    await gov.run(req(() => ok(), { path: PATHS.status, needsKey: false }));
    await clock.advance(0);
    expect(back).toBe(true);
    expect(gov.state().reachable).toBe(true);
    expect(gov.state().requests.hour.total).toBe(1);
  });
});

describe('governor: admission by share of the hour', () => {
  // The default hour of 1,000 requests: specials may spend 500 of it, the trader's look-ups 200, and the last 300
  // are kept from everything but the settled walk, its repairs and stream opens. The clock starts at
  // 2023-11-14 22:13:20 UTC, so an hour on is 23:13:20: "possible at 23:14 UTC".
  const PATH_OF: Record<Purpose, ApiPath> = {
    settled: PATHS.settled,
    repair: PATHS.settlement,
    results: PATHS.results,
    specials: PATHS.specialsFixtures,
    stream: PATHS.stream,
    lookup: PATHS.periods,
    ui: PATHS.fixtures,
  };
  const none = { settled: 0, repair: 0, results: 0, specials: 0, stream: 0, lookup: 0, ui: 0 };

  /** `n` requests for `purpose`, one after another, `everyMs` apart. */
  async function spend(t: ReturnType<typeof setup>, purpose: Purpose, n: number, everyMs = 0) {
    const results = [];
    for (let i = 0; i < n; i++) {
      results.push(await t.gov.run(t.req(() => ok(), { purpose, path: PATH_OF[purpose] })));
      if (everyMs) await t.clock.advance(everyMs);
    }
    return results;
  }

  it('refuses specials past half the hour without sending, shows the refusals, and frees the share as the hour rolls', async () => {
    const t = setup();
    // 500 specials over 50 minutes: the share is spent while most of the hour's quota is still there.
    expect((await spend(t, 'specials', 500, 6_000)).every((r) => r.ok)).toBe(true);
    expect(t.sent).toHaveLength(500);
    expect(t.gov.headroom('specials')).toBe(0);
    const over = await t.gov.run(t.req(() => ok(), { purpose: 'specials', path: PATHS.specialsFixtures }));
    expect(over).toEqual({
      ok: false,
      attempts: 0,
      error: {
        kind: 'rate_limit',
        // The first special, sent at the start, leaves the hour 10 minutes from now.
        retryAfter: 600,
        message:
          "Specials have used their share of this hour's requests (500 of 1000, at most 50%); the next is possible at 23:14 UTC.",
      },
    });
    expect(t.sent).toHaveLength(500);
    expect(t.gov.state().requests.hour).toEqual({
      total: 500,
      rateLimited: 0,
      byPurpose: { ...none, specials: 500 },
      refused: { ...none, specials: 1 },
    });
    // Other purposes still spend their own.
    expect((await spend(t, 'settled', 1))[0]!.ok).toBe(true);
    expect((await spend(t, 'ui', 1))[0]!.ok).toBe(true);

    await t.clock.advance(600_000);
    expect(t.gov.headroom('specials')).toBe(1);
    expect((await spend(t, 'specials', 1))[0]!.ok).toBe(true);
    const again = await t.gov.run(t.req(() => ok(), { purpose: 'specials', path: PATHS.specialsFixtures }));
    expect(!again.ok && again.error.retryAfter).toBe(6);
    expect(t.sent.filter((s) => s.purpose === 'specials')).toHaveLength(501);

    // The refusals leave the hour with it; the session keeps them.
    await t.clock.advance(3_600_000);
    expect(t.gov.state().requests.hour.refused).toEqual(none);
    expect(t.gov.state().requests.session.refused).toEqual({ ...none, specials: 2 });
  });

  it("admits the trader's look-ups up to a fifth of the hour when they all come at once, and not one more", async () => {
    const t = setup();
    const results = await Promise.all(
      Array.from({ length: 230 }, () => t.gov.run(t.req(() => ok(), { purpose: 'ui' }))),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(200);
    expect(t.sent).toHaveLength(200);
    const refused = results.filter((r) => !r.ok);
    expect(refused).toHaveLength(30);
    for (const r of refused) {
      expect(r.attempts).toBe(0);
      expect(!r.ok && r.error).toEqual({
        kind: 'rate_limit',
        retryAfter: 3600,
        message:
          "Look-ups have used their share of this hour's requests (200 of 1000, at most 20%); the next is possible at 23:14 UTC.",
      });
    }
    expect(t.gov.state().requests.session).toMatchObject({
      total: 200,
      byPurpose: { ...none, ui: 200 },
      refused: { ...none, ui: 30 },
    });
  });

  it('keeps the last 300 requests from all but the settled walk, its repairs and stream opens, which a share never refuses', async () => {
    const t = setup();
    expect((await spend(t, 'settled', 700)).every((r) => r.ok)).toBe(true);
    for (const purpose of ['results', 'lookup', 'specials', 'ui'] as const) {
      expect(t.gov.headroom(purpose)).toBe(0);
      const r = await t.gov.run(t.req(() => ok(), { purpose, path: PATH_OF[purpose] }));
      expect(!r.ok && r.error).toMatchObject({ kind: 'rate_limit', retryAfter: 3600 });
      expect(!r.ok && r.error.message).toMatch(
        /^(Period results|Background look-ups|Specials|Look-ups) are held back: the last 300 of this hour's 1000 requests are kept for settlements and live streams \(300 left\); the next is possible at 23:14 UTC\.$/,
      );
    }
    expect(t.sent).toHaveLength(700);
    // The reserve is theirs: the walk, its repairs and stream opens spend it to the last request.
    for (const purpose of ['settled', 'repair', 'stream'] as const) {
      expect(t.gov.headroom(purpose)).toBe(Infinity);
      expect((await spend(t, purpose, 100)).every((r) => r.ok)).toBe(true);
    }
    expect(t.sent).toHaveLength(1000);
    // Past the budget itself they wait for it as ever (here longer than maxWaitMs, so they fail fast), never refused by a share.
    const past = await t.gov.run(t.req(() => ok(), { purpose: 'stream', path: PATHS.stream }));
    expect(!past.ok && past.error.message).toContain('The hourly request budget is used up (1000 of 1000)');
    expect(t.sent).toHaveLength(1000);
    const { hour } = t.gov.state().requests;
    expect(hour.byPurpose).toEqual({ ...none, settled: 800, repair: 100, stream: 100 });
    expect(hour.refused).toEqual({ ...none, results: 1, lookup: 1, specials: 1, ui: 1 });
  });

  it("under the service's own figures, the reserve frees when the service's window resets", async () => {
    const t = setup();
    // Another client of the same key has spent most of the hour: the service says so.
    const reset = Math.floor(t.clock.now() / 1000) + 1800;
    const stated = (remaining: number) =>
      ok({
        'X-RateLimit-Limit': '1000',
        'X-RateLimit-Remaining': String(remaining),
        'X-RateLimit-Reset': String(reset),
      });
    await t.gov.run(t.req(() => stated(301)));
    expect(t.gov.headroom('ui')).toBe(1);
    expect((await t.gov.run(t.req(() => stated(300), { purpose: 'ui' }))).ok).toBe(true);
    const r = await t.gov.run(t.req(() => ok(), { purpose: 'ui' }));
    expect(!r.ok && r.error).toMatchObject({ kind: 'rate_limit', retryAfter: 1800 });
    expect(!r.ok && r.error.message).toContain(
      "the last 300 of this hour's 1000 requests are kept for settlements and live streams (300 left)",
    );
    expect(t.sent).toHaveLength(2);
  });

  it('tells a caller that would rather skip a round what its share has left, without counting a refusal', async () => {
    const t = setup();
    expect(Object.fromEntries(PURPOSES.map((p) => [p, t.gov.headroom(p)]))).toEqual({
      settled: Infinity,
      repair: Infinity,
      results: 700,
      specials: 500,
      stream: Infinity,
      lookup: 700,
      ui: 200,
    });
    await spend(t, 'specials', 100);
    expect(t.gov.headroom('specials')).toBe(400);
    expect(t.gov.headroom('results')).toBe(600);
    expect(t.gov.canSpend('specials', 400)).toBe(true);
    expect(t.gov.canSpend('specials', 401)).toBe(false);
    expect(t.gov.state().requests.session.refused).toEqual(none);
  });

  it('never holds back a status probe, which needs no key and is not counted', async () => {
    const t = setup({ quotaPerHour: 1 });
    for (let i = 0; i < 3; i++)
      expect((await t.gov.run(t.req(() => ok(), { path: PATHS.status, needsKey: false, purpose: 'lookup' }))).ok).toBe(
        true,
      );
    expect(t.sent).toHaveLength(3);
    expect(t.gov.state().requests.session.refused).toEqual(none);
  });
});

describe('closing the client', () => {
  it('a request in flight when the client closes (an engine replaced) is cancelled, not a network fault: no warning, the service not taken as away', async () => {
    const { gov, req, logs, clock } = setup();
    let fail: ((e: Error) => void) | null = null;
    const inFlight = gov.run(req(() => new Promise<Response>((_resolve, reject) => (fail = reject))));
    await clock.advance(0);
    expect(fail).not.toBeNull();
    gov.dispose();
    fail!(new Error('This operation was aborted'));
    const r = await inFlight;
    expect(r.ok).toBe(false);
    expect(r.ok ? null : r.error.message).toBe('The request was cancelled.');
    expect(logs.filter((l) => /network fault/.test(l))).toEqual([]);
    expect(gov.state().reachable).not.toBe(false);
  });
});
