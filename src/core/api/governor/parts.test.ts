// The governor's parts on their own, through their narrow interfaces and a manual clock: the quota ledger's account of
// the hour (the service's headers, a 429's pause, refusals by share) and the key gate's waits (a key polled back, a
// service answering again). The governor's composed behaviour is tested in ../governor.test.ts.
import { describe, expect, it } from 'vitest';
import { PATHS, RATE_LIMIT_HEADERS } from '../../../shared/api';
import { createManualClock } from '../../../../test/support/manualClock';
import { createKeyGate } from './keyGate';
import { createQuotaLedger } from './quotaLedger';

const START = Date.UTC(2026, 0, 5, 14, 0, 0);

function ledgerOn(quotaPerHour = 100) {
  const clock = createManualClock(START);
  const logs: string[] = [];
  let changes = 0;
  const ledger = createQuotaLedger({
    clock,
    quotaPerHour,
    defaultRetryAfterS: 60,
    log: (_level, m) => logs.push(m),
    changed: () => changes++,
  });
  return { clock, ledger, logs, changes: () => changes };
}

function rateHeaders(limit: string | null, remaining: string | null, reset?: number): Headers {
  const h = new Headers();
  if (limit !== null) h.set(RATE_LIMIT_HEADERS.limit, limit);
  if (remaining !== null) h.set(RATE_LIMIT_HEADERS.remaining, remaining);
  if (reset !== undefined) h.set(RATE_LIMIT_HEADERS.reset, String(reset));
  return h;
}

describe('the quota ledger', () => {
  it("counts against the trader's figure until the service states its own, and never reads a partial set as none left", () => {
    const { ledger } = ledgerOn(100);
    ledger.countSent('settled');
    expect(ledger.quota()).toMatchObject({ limit: 100, used: 1, remaining: 99, source: 'setting' });
    ledger.readRateHeaders(rateHeaders('500', null));
    expect(ledger.quota()).toMatchObject({ limit: 100, remaining: 99, source: 'setting' });
    ledger.readRateHeaders(rateHeaders('500', '420', START / 1000 + 1800));
    ledger.countSent('settled');
    // The reading does not include the request sent after it yet.
    expect(ledger.quota()).toMatchObject({ limit: 500, used: 81, remaining: 419, source: 'headers' });
    expect(ledger.quota().resetAt).toBe(START + 1_800_000);
  });

  it('pauses for the Retry-After a 429 asks, clamped to the hour, and lifts the pause when its time has come', async () => {
    const { clock, ledger, logs } = ledgerOn();
    const error = ledger.pauseFor429(PATHS.fixtures, { kind: 'rate_limit', retryAfter: 86_400, message: 'slow down' });
    expect(error.retryAfter).toBe(3600);
    expect(error.message).toMatch(/asked to wait 86400 s, longer than the quota's hour; requests resume in 3600 s/);
    expect(ledger.pause(clock.now())).toEqual({
      until: START + 3_600_000,
      clamp: { statedS: 86_400, appliedS: 3600 },
    });
    await clock.advance(3_600_000);
    ledger.endPauseIfOver(clock.now());
    expect(ledger.pause(clock.now())).toBeNull();
    expect(logs).toContain('rate-limit pause over');
  });

  it('refuses specials over half the hour, counts the refusal, and says when the oldest leaves the hour', async () => {
    const { clock, ledger } = ledgerOn(10);
    for (let i = 0; i < 5; i++) {
      expect(ledger.admit('specials')).toBeNull();
      ledger.countSent('specials');
      await clock.advance(60_000);
    }
    const refusal = ledger.admit('specials');
    expect(refusal).toMatchObject({ kind: 'rate_limit', retryAfter: 3600 - 5 * 60 });
    expect(refusal?.message).toMatch(
      /^Specials have used their share of this hour's requests \(5 of 10, at most 50%\); the next is possible at 15:00 UTC\.$/,
    );
    expect(ledger.counts().hour.refused.specials).toBe(1);
    expect(ledger.headroom('specials')).toBe(0);
    // The settled walk is held back by no share.
    expect(ledger.admit('settled')).toBeNull();
  });
});

describe('the key gate', () => {
  function gateOn(key: { value: string | null }) {
    const clock = createManualClock(START);
    let usable = 0;
    const gate = createKeyGate({
      keyProvider: () => key.value,
      clock,
      keyPollMs: 1000,
      knownKeys: new Set(),
      log: () => {},
      changed: () => {},
      usable: () => usable++,
    });
    return { clock, gate, usable: () => usable };
  }

  it('refuses while no key is set, polls the provider, and lets waiters and the queue go once a key appears', async () => {
    const key = { value: null as string | null };
    const { clock, gate, usable } = gateOn(key);
    await gate.readKey();
    expect(gate.auth()).toBe('missing');
    expect(gate.refusal(PATHS.fixtures)?.message).toMatch(/No API key is set/);
    let resolved = false;
    void gate.whenKeyUsable().then(() => (resolved = true));
    await clock.advance(1000);
    expect(resolved).toBe(false);
    key.value = 'a-new-key-123';
    await clock.advance(1000);
    expect(resolved).toBe(true);
    expect(gate.auth()).toBe('ok');
    expect(gate.refusal(PATHS.fixtures)).toBeNull();
    expect(usable()).toBe(1);
  });

  it('a waiter for the service rejects when its signal aborts, and another resolves when the service answers', async () => {
    const { gate } = gateOn({ value: 'key-123456' });
    gate.setReachable(false);
    const controller = new AbortController();
    const aborted = gate.whenReachable(controller.signal);
    const back = gate.whenReachable();
    controller.abort(new Error('closed'));
    await expect(aborted).rejects.toThrow('closed');
    gate.setReachable(true);
    await expect(back).resolves.toBeUndefined();
  });
});
