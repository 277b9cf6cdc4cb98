// Watching safely (issue 25, item 8): a watch by id is checked against the service's book with one look-up of the
// trader's (counted on screen). A made-up id and an ended match are refused in words and leave no row; a real id gets
// a row named from the book at once. Removing a watch whose stream failed takes that stream's error out of the
// status bar.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core';
import { claimProfile, DEMO_PROFILE } from '../../src/core/profiles';
import { openStore } from '../../src/core/store';
import { parseServiceTime, type Fixture } from '../../src/shared/api';
import { startSimulator, type Simulator } from '../../src/sim';
import { createManualClock } from '../support/manualClock';
import { openTestCore, type CoreCall } from '../support/testCore';

const T0 = '2026-11-20T12:00:00';
const KEY = 'watch-by-id-enterprise';
let core: Core | null = null;
let sim: Simulator | null = null;
afterEach(async () => {
  await core?.close();
  core = null;
  await sim?.close();
  sim = null;
});

async function open(dataDir: string, how: 'service' | 'demo'): Promise<CoreCall> {
  const service = { baseUrl: sim!.url, key: KEY };
  const opened = await openTestCore({
    dataDir,
    clock: createManualClock(parseServiceTime(T0)!),
    ...(how === 'service' ? { service } : { demo: service }),
  });
  core = opened.core;
  return opened.call;
}

const lookups = async (call: CoreCall) => (await call('status:get')).quota.byPurpose.ui;

/** The error a refused call answers with (the handlers throw; the contract's dispatch makes it an {ok: false}). */
async function refusal(p: Promise<unknown>): Promise<{ kind: string; message: string }> {
  try {
    await p;
  } catch (e) {
    return (e as { error: { kind: string; message: string } }).error;
  }
  throw new Error('the call was accepted');
}

describe('watch by id', () => {
  it('refuses a made-up id and an ended match in words, with no row; a real id gets its names from the book at once', async () => {
    sim = await startSimulator({
      port: 0,
      seed: 21,
      clock: 'manual',
      startTime: T0,
      keys: [{ key: KEY, plan: 'enterprise' }],
      historyHours: 2,
    });
    const call = await open(mkdtempSync(path.join(tmpdir(), 'oddsdesk-watch-id-')), 'service');

    // A made-up id: one look-up of the trader's, a clear answer, nothing on the watchlist, no stream.
    const before = await lookups(call);
    const madeUp = await refusal(call('watch:add', 999));
    expect(madeUp.kind).toBe('not_found');
    expect(madeUp.message).toBe(
      "There is no event 999 in the service's book. Check the id: a match that has ended leaves the book too.",
    );
    expect(await lookups(call)).toBe(before + 1);
    expect(await call('watch:list')).toEqual([]);
    expect((await call('status:get')).streams).toEqual([]);

    // A match that has ended (its settlement is stored): refused without asking the service.
    await call('settlements:syncNow');
    const ended = (await call('settlements:query', { limit: 1 })).rows[0]!;
    const spent = await lookups(call);
    const endedRefusal = await refusal(call('watch:add', ended.eventId));
    expect(endedRefusal.kind).toBe('not_found');
    expect(endedRefusal.message).toBe(
      `${ended.runnerHome} v ${ended.runnerAway} (event ${ended.eventId}) has ended (settled ${ended.scoreHome}–${ended.scoreAway}): there is nothing left to watch. Its result is in Settlements.`,
    );
    expect(await lookups(call)).toBe(spent);
    expect(await call('watch:list')).toEqual([]);

    // A real id, never looked up before: accepted, and the row is named from the book, not "Event 1600123".
    const book = (await (
      await fetch(new URL('/api/fixtures', sim.url), { headers: { 'X-API-Key': KEY } })
    ).json()) as Fixture[];
    const real = book[0]!;
    const added = await call('watch:add', real.event_id);
    expect(added).toMatchObject({
      eventId: real.event_id,
      runnerHome: real.runner_home,
      runnerAway: real.runner_away,
      leagueName: real.league_name,
    });
    expect((await call('watch:list')).map((w) => w.eventId)).toEqual([real.event_id]);
    // Watching it again asks nothing.
    const now = await lookups(call);
    await call('watch:add', real.event_id);
    expect(await lookups(call)).toBe(now);
  });

  it('removing a watch whose stream failed takes its error out of the status', async () => {
    sim = await startSimulator({
      port: 0,
      seed: 22,
      clock: 'manual',
      startTime: T0,
      keys: [{ key: KEY, plan: 'enterprise' }],
      historyHours: 2,
    });
    const dataDir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-watch-id-'));
    // A watch kept from an earlier session, of an event this service does not know (the demo profile's history).
    mkdirSync(path.join(dataDir, 'profiles'));
    const earlier = openStore({ path: path.join(dataDir, 'profiles', 'demo.db') });
    expect(claimProfile(earlier, DEMO_PROFILE).ok).toBe(true);
    earlier.watchlist.addWatch(999, parseServiceTime(T0)!);
    earlier.close();
    const call = await open(dataDir, 'demo');
    expect((await call('watch:list')).map((w) => w.eventId)).toEqual([999]);

    // Its stream is refused (the service has no such event): the status bar shows why.
    let status = await call('status:get');
    for (const end = Date.now() + 15_000; !status.lastError && Date.now() < end;) {
      await new Promise((r) => setTimeout(r, 20));
      status = await call('status:get');
    }
    expect(status.streams).toEqual([expect.objectContaining({ eventId: 999, state: 'failed' })]);
    expect(status.lastError?.kind).toBe('not_found');

    await call('watch:remove', 999);
    status = await call('status:get');
    expect(status.streams).toEqual([]);
    expect(status.lastError).toBeNull();
  });
});
