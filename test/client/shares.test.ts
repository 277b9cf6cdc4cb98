// The quota's shares held by the governor for the callers that spend them (issue 24), over real HTTP against the
// simulator: the trader opening a settlement (its period results are a look-up of the trader's, a path that once
// skipped the look-ups' check) and the specials refresher. Over their share they send nothing, the governor's
// ledger shows the refusal, and they get through again once the hour has rolled. The governor runs on a manual
// clock; the simulator's key has a small quota, which the client learns from its rate-limit headers.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/core/api';
import { createSettlementFollower } from '../../src/core/monitor/settlementFollower';
import { createSpecialsRefresher } from '../../src/core/monitor/specialsRefresher';
import { DEFAULT_MONITOR_SETTINGS } from '../../src/core/settingsService';
import { openStore } from '../../src/core/store';
import { PATHS } from '../../src/shared/api';
import type { AppError } from '../../src/shared/errors';
import { createManualClock, type ManualClock } from '../support/manualClock';
import { startTestSim, type Sim } from './helpers';

let sim: Sim;
beforeAll(async () => {
  sim = await startTestSim({ historyHours: 3 });
});
afterAll(async () => {
  await sim.close();
});

function clientFor(clock: ManualClock, key: string): ApiClient {
  return createApiClient({
    baseUrl: sim.url,
    keyProvider: () => key,
    clock,
    probe: false,
    governor: { retry: { maxAttempts: 1, baseMs: 20, maxMs: 100 }, timeoutMs: 5_000 },
  });
}

const tempStore = () =>
  openStore({ path: path.join(mkdtempSync(path.join(tmpdir(), 'oddsdesk-shares-')), 'shares.db') });

describe('shares of the hour, held by the governor for every caller', () => {
  it("opening a settlement over the look-ups' share sends no results request; once the hour rolls, it does", async () => {
    // 200 an hour: the trader's look-ups may spend 40 of them.
    const key = sim.addKey('enterprise', { quotaPerHour: 200 });
    const clock = createManualClock(sim.now());
    const client = clientFor(clock, key);
    const store = tempStore();
    const follower = createSettlementFollower({
      client,
      store,
      clock,
      notifier: { notify: () => undefined },
      isWatched: () => false,
      settings: () => ({ ...DEFAULT_MONITOR_SETTINGS, mutedEvents: new Set() }),
      // No results in the background: the ones the walk leaves owed wait for the trader to open them.
      spareQuota: () => 0,
      emit: () => undefined,
      reportProblems: () => undefined,
      reportError: () => undefined,
    });
    expect((await follower.sync()).error).toBeNull();
    const owed = store.resultsQueue.resultsDue(Number.MAX_SAFE_INTEGER, { limit: 1 })[0];
    expect(owed).toBeDefined();
    const eventId = owed!.eventId;

    // The trader looks around until the look-ups' share is spent.
    while (client.governor.canSpend('ui')) expect((await client.periods({ purpose: 'ui' })).ok).toBe(true);
    const resultsAsked = () => sim.requestLog().filter((e) => e.keyId !== null && e.path === PATHS.results).length;
    const before = resultsAsked();
    const opened = await follower.resultsFor(eventId);
    expect(opened).toMatchObject({ asked: true, error: { kind: 'rate_limit' } });
    expect(resultsAsked()).toBe(before);
    expect(store.resultsQueue.isResultOwed(eventId)).toBe(true);
    expect(client.governor.state().requests.hour.refused.ui).toBe(1);

    await clock.advance(3_600_000);
    expect(await follower.resultsFor(eventId)).toEqual({ asked: true, error: null });
    expect(resultsAsked()).toBe(before + 1);
    expect(client.governor.state().requests.session.refused.ui).toBe(1);
    client.dispose();
    store.close();
  });

  it('the specials refresher skips a round that would not fit, and a round the trader asks for stops at its first refusal', async () => {
    // 40 an hour: specials may spend 20 of them.
    const key = sim.addKey('enterprise', { quotaPerHour: 40 });
    const clock = createManualClock(sim.now());
    const client = clientFor(clock, key);
    const store = tempStore();
    const errors: AppError[] = [];
    const refresher = createSpecialsRefresher({
      client,
      store,
      clock,
      devigModel: () => null,
      running: () => true,
      onMaxWinStep: () => undefined,
      reportProblems: () => undefined,
      reportError: (e) => errors.push(e),
    });
    const fixtures = await client.fixtures();
    const ids = fixtures.ok ? fixtures.value.slice(0, 2).map((f) => f.event_id) : [];
    expect(ids).toHaveLength(2);
    for (const id of ids) store.watchlist.addWatch(id, clock.now());
    const specialsAsked = () =>
      sim.requestLog().filter((e) => e.keyId !== null && e.path.startsWith('/api/specials')).length;

    // Specials spend 16 of their 20: a round over two events (about 10 requests) no longer fits.
    for (let i = 0; i < 16; i++) expect((await client.specialsFixtures({ eventId: ids[0]! })).ok).toBe(true);
    const before = specialsAsked();
    await refresher.refresh();
    expect(refresher.stats()).toEqual({ rounds: 0, skipped: 1 });
    expect(specialsAsked()).toBe(before);
    expect(client.governor.state().requests.hour.refused.specials).toBe(0);

    // With the share spent, a round the trader asks for (two events opened) is refused at its first request: it
    // sends nothing and says why once, rather than once for every request it had left.
    for (let i = 0; i < 4; i++) expect((await client.specialsFixtures({ eventId: ids[0]! })).ok).toBe(true);
    await refresher.refresh(ids);
    expect(specialsAsked()).toBe(before + 4);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      kind: 'rate_limit',
      message: expect.stringMatching(
        /^Specials have used their share of this hour's requests \(20 of 40, at most 50%\)/,
      ),
    });
    expect(client.governor.state().requests.hour).toMatchObject({
      byPurpose: { specials: 20 },
      refused: { specials: 1 },
    });
    client.dispose();
    store.close();
  });
});
