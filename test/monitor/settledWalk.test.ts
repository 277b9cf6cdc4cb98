// The settled walk against a scripted service built straight from assumptions.md, with the edge cases a busy day
// brings and the simulator rarely does: many settlements in one second, a full page stuck on the cursor's second,
// a malformed record, settlements arriving while the walk pages.
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/core/api';
import { plainWalkStore, walkSettled } from '../../src/core/monitor/settledWalk';
import { openStore, type Store } from '../../src/core/store';
import type { SettledEvent } from '../../src/shared/api';

import { scriptedService, settled, type Scripted } from './scriptedSettled';

let service: Scripted | null = null;
let store: Store | null = null;
afterEach(async () => {
  store?.close();
  store = null;
  await service?.close();
  service = null;
});

function walk(limit?: number) {
  const client = createApiClient({ baseUrl: service!.url, keyProvider: () => 'k', governor: { retry: { baseMs: 1, maxMs: 5 } } });
  return walkSettled({
    client,
    store: plainWalkStore(store!),
    sportIds: async () => ({ ok: true, value: [1, 2, 3] }),
    ...(limit ? { limit } : {}),
  });
}

describe('settled walk', () => {
  it('pages to the end with the inclusive cursor, storing every settlement once', async () => {
    // Three settlements in most seconds, so page boundaries fall inside a second.
    const events = Array.from({ length: 95 }, (_, i) => settled(1000 + i, Math.floor(i / 3)));
    service = await scriptedService(events);
    store = openStore({ path: ':memory:' });
    const r = await walk(10);
    expect(r.error).toBeNull();
    expect(r.added.map((e) => e.event_id)).toEqual(events.map((e) => e.event_id));
    expect([...store.exportSettlements()].length).toBe(95);
    // A second walk finds nothing new and stores nothing twice.
    const again = await walk(10);
    expect(again.added).toEqual([]);
    expect([...store.exportSettlements()].length).toBe(95);
  });

  it('gets past a full page whose settlements all share the cursor second', async () => {
    // 1,200 settlements in one second, across three sports: more than the largest page.
    const events = [
      settled(1, 0),
      ...Array.from({ length: 1200 }, (_, i) => settled(100 + i, 5, 1 + (i % 3))),
      settled(5000, 9),
    ];
    service = await scriptedService(events);
    store = openStore({ path: ':memory:' });
    const r = await walk(200);
    expect(r.error).toBeNull();
    expect(new Set(r.added.map((e) => e.event_id)).size).toBe(events.length);
    expect([...store.exportSettlements()].length).toBe(events.length);
    // It widened the page, then split the second by sport.
    expect(service.calls.some((c) => c.includes('limit=1000') && c.includes('sport_id='))).toBe(true);
  });

  it('fetches a page with a malformed record again instead of stepping past it', async () => {
    const events = Array.from({ length: 30 }, (_, i) => settled(200 + i, i));
    service = await scriptedService(events);
    let spoiled = 0;
    service.hook = (_q, body) => {
      if (spoiled < 1 && body.events.length > 3) {
        spoiled++;
        body.events[2] = { ...(body.events[2] as object), score_home: null };
      }
    };
    store = openStore({ path: ':memory:' });
    const r = await walk(10);
    expect(r.error).toBeNull();
    expect(r.added.length).toBe(30);
    expect(r.problems.length).toBe(1); // reported, not silent
  });

  it('asks for a record that stays malformed in every page on its own, and reports one it cannot repair', async () => {
    const events = Array.from({ length: 12 }, (_, i) => settled(400 + i, i));
    service = await scriptedService(events);
    // Event 405 is always broken inside /api/settled; /api/settlement has it whole. Event 408 has no readable id.
    service.hook = (_q, body) => {
      body.events = body.events.map((e) => {
        const id = (e as SettledEvent).event_id;
        if (id === 405) return { ...(e as object), settlement: 'garbled' };
        if (id === 408) return { ...(e as object), event_id: 'x' };
        return e;
      });
    };
    store = openStore({ path: ':memory:' });
    const r = await walk(50);
    expect(r.error).toBeNull();
    const stored = new Set([...store.exportSettlements()].map((e) => e.event_id));
    expect(stored.has(405)).toBe(true);
    expect(store.settlement(405)!.settlement.length).toBe(2);
    expect(stored.has(408)).toBe(false);
    expect(stored.size).toBe(11);
    // Both were reported; the one that could not be repaired says it is missing.
    expect(r.problems.some((p) => p.eventId === 405)).toBe(true);
    expect(r.problems.some((p) => p.path.startsWith('events[') && p.eventId === undefined)).toBe(true);
  });

  it('never moves the cursor past a settlement it did not store when the service fails mid-walk', async () => {
    const events = Array.from({ length: 40 }, (_, i) => settled(300 + i, i));
    service = await scriptedService(events);
    let calls = 0;
    const realHook = (_q: URLSearchParams, body: { events: unknown[] }) => {
      calls++;
      if (calls === 3) body.events = 'broken' as unknown as unknown[];
    };
    service.hook = realHook;
    store = openStore({ path: ':memory:' });
    const first = await walk(10);
    const stored = new Set([...store.exportSettlements()].map((e) => e.event_id));
    const cursor = store.settledCursor()!;
    // Everything before the cursor second is stored.
    for (const e of events) if (Math.floor(Date.parse(`${e.settled_at}Z`) / 1000) < cursor) expect(stored.has(e.event_id)).toBe(true);
    expect(first.error).not.toBeNull();
    service.hook = undefined;
    const second = await walk(10);
    expect(second.error).toBeNull();
    expect([...store.exportSettlements()].length).toBe(40);
  });

  it('sees settlements that arrive in the cursor second after a walk', async () => {
    const events = [settled(1, 0), settled(2, 1)];
    service = await scriptedService(events);
    store = openStore({ path: ':memory:' });
    await walk(10);
    // Another match settles in the same second as the last one the walk saw.
    service.events.push(settled(3, 1), settled(4, 2));
    const r = await walk(10);
    expect(r.added.map((e) => e.event_id)).toEqual([3, 4]);
  });
});
