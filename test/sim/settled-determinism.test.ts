// The settled cursor exactly as docs/service/assumptions.md decides it, and byte-identical replays of the same seed and steps.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS, parseSettledPage, parseServiceTime } from '../../src/shared/api';
import { startSimulator, type Simulator } from '../../src/sim';
import { get, openSse } from '../../src/sim/testing';

describe('/api/settled paging', () => {
  let sim: Simulator;
  let key: string;
  beforeAll(async () => {
    sim = await startSimulator({ seed: 21, events: 60, historyHours: 2 });
    key = sim.keys[0]?.key ?? '';
    await sim.advance(20 * 3600);
  });
  afterAll(() => sim.close());

  const page = async (query: string) => {
    const r = await get(sim.url, `${PATHS.settled}?${query}`, key);
    expect(r.status).toBe(200);
    const parsed = parseSettledPage(r.json);
    expect(parsed.problems).toEqual([]);
    if (!parsed.page) throw new Error('no page');
    return parsed.page;
  };
  const sec = (iso: string) => Math.floor((parseServiceTime(iso) ?? 0) / 1000);

  it('walking with `last` sees every settled event, duplicates only at page boundaries', async () => {
    const truth = sim.truth.settled();
    const perSecond = new Map<string, number>();
    for (const s of truth) perSecond.set(s.settled_at, (perSecond.get(s.settled_at) ?? 0) + 1);
    const crowd = Math.max(...perSecond.values());
    expect(crowd).toBeGreaterThanOrEqual(2); // shared seconds happen, so the inclusive boundary matters
    const limit = crowd + 1; // more than a second's crowd, or the cursor could not move (spec semantics)

    const seen: number[] = [];
    let since = 0;
    let pages = 0;
    for (;;) {
      const p = await page(`since=${since}&limit=${limit}`);
      pages++;
      expect(p.since).toBe(since);
      expect(p.count).toBe(p.events.length);
      expect(p.events.length).toBeLessThanOrEqual(limit);
      const secs = p.events.map((e) => sec(e.settled_at));
      expect([...secs].sort((a, b) => a - b)).toEqual(secs);
      expect(secs.every((s) => s >= since)).toBe(true);
      const newOnes = p.events.filter((e) => !seen.includes(e.event_id));
      // Whatever repeats is the head of this page and belongs to the previous page's last second.
      const repeats = p.events.length - newOnes.length;
      p.events.slice(0, repeats).forEach((e) => expect(sec(e.settled_at)).toBe(since));
      seen.push(...newOnes.map((e) => e.event_id));
      if (p.events.length) expect(p.last).toBe(secs[secs.length - 1]);
      if (!newOnes.length) break;
      since = p.last;
    }
    expect(pages).toBeGreaterThan(5);
    expect(seen).toEqual(truth.map((s) => s.event_id));
  });

  it('an empty page echoes last = since, for an integer and for an ISO since', async () => {
    const future = Math.floor(sim.now() / 1000) + 3600;
    expect(await page(`since=${future}`)).toEqual({ last: future, since: future, count: 0, events: [] });
    const iso = new Date((future + 60) * 1000).toISOString().slice(0, 19);
    expect(await page(`since=${iso}`)).toMatchObject({ last: future + 60, since: future + 60, count: 0 });
  });

  it('since is inclusive; without since the window is the last 24 hours; sport and league filters apply', async () => {
    const truth = sim.truth.settled();
    const pivot = truth[Math.floor(truth.length / 2)];
    if (!pivot) throw new Error('no settlements');
    const from = await page(`since=${pivot.settled_at}&limit=1000`);
    expect(from.events[0]?.settled_at).toBe(pivot.settled_at);
    expect(from.events.length).toBe(truth.filter((s) => s.settled_at >= pivot.settled_at).length);

    const dflt = await page('limit=1000');
    const windowStart = Math.floor(sim.now() / 1000) - 24 * 3600;
    expect(dflt.since).toBe(windowStart);
    expect(dflt.events.length).toBe(truth.filter((s) => sec(s.settled_at) >= windowStart).length);

    const soccer = await page(`since=0&limit=1000&sport_id=1`);
    expect(soccer.events.length).toBe(truth.filter((s) => s.sport_id === 1).length);
    const league = await page(`since=0&limit=1000&league_id=${pivot.league_id}`);
    expect(league.events.length).toBeGreaterThan(0);
    expect(league.events.every((e) => e.league_id === pivot.league_id)).toBe(true);
  });

  it('when more events than `limit` share one second, the cursor cannot move past it (the spec semantics)', async () => {
    const truth = sim.truth.settled();
    const crowded = truth.find((s) => truth.filter((t) => t.settled_at === s.settled_at).length >= 2);
    if (!crowded) throw new Error('no shared second');
    const at = sec(crowded.settled_at);
    const p = await page(`since=${at}&limit=1`);
    expect(p.last).toBe(at);
    expect((await page(`since=${p.last}&limit=1`)).events).toEqual(p.events);
  });
});

describe('determinism', () => {
  const PATHS_TO_COMPARE = [
    PATHS.status,
    PATHS.fixtures,
    PATHS.coverage,
    `${PATHS.settled}?since=0&limit=1000`,
    `${PATHS.outrightMarkets}?min_contestants=2`,
  ];

  async function transcript(seed: number): Promise<string[]> {
    const sim = await startSimulator({ seed, events: 25, historyHours: 1, keys: [{ key: 'k', plan: 'enterprise' }] });
    try {
      const out: string[] = [];
      for (const step of [0, 1800, 7, 3600, 5400]) {
        await sim.advance(step);
        for (const p of PATHS_TO_COMPARE) {
          const r = await get(sim.url, p, 'k');
          out.push(`${r.status} ${[...r.headers].map((h) => h.join(':')).join(' ')}\n${r.text}`);
        }
        const ids = sim.truth.bookIds();
        for (const id of ids.slice(0, 3)) {
          for (const p of [`${PATHS.specialsHistory}?event_id=${id}`, `${PATHS.specialsFixtures}?event_id=${id}`])
            out.push((await get(sim.url, p, 'k')).text);
          const c = await openSse(`${sim.url}${PATHS.stream}?event_id=${id}`, 'k');
          out.push(JSON.stringify(await c.waitFor(1)));
          c.close();
        }
      }
      return out;
    } finally {
      await sim.close();
    }
  }

  it('the same seed and the same manual steps give byte-identical responses; another seed does not', async () => {
    const [a, b, c] = await Promise.all([transcript(99), transcript(99), transcript(100)]);
    expect(a.length).toBeGreaterThan(30);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
  });
});
