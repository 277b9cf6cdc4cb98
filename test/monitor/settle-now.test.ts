// "Check settlements now" while a walk is already under way: the trader's ask is answered by a walk that starts after
// it, not by the one that read the list before the match the trader waits for was published (that walk shares its
// answer with every caller, and the next timed walk can be minutes away). A scripted upstream publishes a settlement
// in the very moment the running walk's page is answered, and the trader asks then.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/core/api';
import { createSettlementFollower, type SettlementFollower } from '../../src/core/monitor/settlementFollower';
import { DEFAULT_MONITOR_SETTINGS } from '../../src/core/settingsService';
import { openStore, type Store } from '../../src/core/store';
import { createManualClock } from '../support/manualClock';
import { scriptedService, settled, T0, type Scripted } from './scriptedSettled';

let service: Scripted | null = null;
let store: Store | null = null;
let dir: string | null = null;
afterEach(async () => {
  store?.close();
  store = null;
  await service?.close();
  service = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

async function follower(): Promise<{ follower: SettlementFollower; service: Scripted; store: Store }> {
  service = await scriptedService([settled(701, 10)]);
  dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-settle-now-'));
  const clock = createManualClock(T0 + 60_000);
  store = openStore({ path: path.join(dir, 'now.db'), clock: () => clock.now() });
  const f = createSettlementFollower({
    client: createApiClient({
      baseUrl: service.url,
      keyProvider: () => 'settle-now-key',
      governor: { retry: { baseMs: 1, maxMs: 2 } },
    }),
    store,
    clock,
    notifier: { notify: () => undefined },
    isWatched: () => true,
    settings: () => ({ ...DEFAULT_MONITOR_SETTINGS, mutedEvents: new Set<number>() }),
    spareQuota: () => 0,
    emit: () => undefined,
    reportProblems: () => undefined,
    reportError: () => undefined,
  });
  return { follower: f, service, store };
}

const settledPages = (s: Scripted) => s.calls.filter((c) => c.startsWith('/api/settled')).length;

describe('check settlements now', () => {
  it('asked while a walk is under way: a walk after the ask stores the match published meanwhile; three clicks make one more walk', async () => {
    const { follower: f, service: s, store: st } = await follower();
    let asked: Array<Promise<{ added: number }>> = [];
    s.hook = (_q, body) => {
      if (asked.length) return;
      // The running walk's page is already made; the match settles now, and the trader clicks three times.
      s.events.push(settled(702, 20));
      asked = [f.sync({ fresh: true }), f.sync({ fresh: true }), f.sync({ fresh: true })];
      expect(body.events).toHaveLength(1);
    };
    const timed = await f.sync();
    expect(timed.added).toBe(1);
    const answers = await Promise.all(asked);
    expect(answers.map((a) => a.added)).toEqual([1, 1, 1]);
    expect(st.settlements.settlement(702)).not.toBeNull();
    // The timed walk (one page), then one walk for all three clicks (the inclusive cursor's page), not three.
    expect(settledPages(s)).toBe(2);
  });

  it('a timed walk asked while one runs shares it (no request of its own)', async () => {
    const { follower: f, service: s } = await follower();
    let second: Promise<{ added: number }> | null = null;
    s.hook = () => {
      second ??= f.sync();
    };
    await f.sync();
    expect((await second!).added).toBe(1);
    expect(settledPages(s)).toBe(1);
  });
});
