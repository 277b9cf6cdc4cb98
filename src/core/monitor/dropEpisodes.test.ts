import { describe, expect, it } from 'vitest';
import type { AlertRecord } from '../../shared/domain';
import { createDropEpisodes, EPISODE_RULES, type EpisodeData, type LineDrop } from './dropEpisodes';

const drop = (lineId: number, from: number, to: number, over: Partial<LineDrop> = {}): LineDrop => ({
  lineId,
  side: 'home',
  words: `Line ${lineId} · Full match`,
  from,
  to,
  pct: ((to - from) / from) * 100,
  basis: 'open',
  model: 'EM',
  message: `line ${lineId} alone`,
  ...over,
});

/** Numbers what opens as the writer would, and keeps every record by id as the page would. */
function harness() {
  const eps = createDropEpisodes();
  let next = 1;
  const rows = new Map<number, AlertRecord>();
  const opened: AlertRecord[] = [];
  const updates: AlertRecord[] = [];
  const take = (now: number) => {
    const out = eps.take(now);
    for (const o of out.opened) {
      const r: AlertRecord = {
        id: next++,
        at: o.alert.at!,
        kind: o.alert.kind,
        eventId: o.alert.eventId ?? null,
        specialId: null,
        contestantId: null,
        message: o.alert.message,
        data: o.alert.data,
      };
      o.bind(r);
      rows.set(r.id, r);
      opened.push(r);
    }
    for (const u of out.updated) {
      rows.set(u.id, u);
      updates.push(u);
    }
  };
  return { eps, rows, opened, updates, take };
}

describe('drop episodes (docs/trading.md: one alert per burst of drops on an event)', () => {
  it('a goal: every line of the event dropping within a second is one alert, updated in place, at most once a second', () => {
    const h = harness();
    // The first batch: three lines at once.
    h.eps.add(7, 'A v B', drop(1, 2.0, 1.8), 1_000);
    h.eps.add(7, 'A v B', drop(2, 3.0, 2.5), 1_000);
    h.eps.add(7, 'A v B', drop(3, 1.9, 1.78), 1_000);
    h.take(1_000);
    expect(h.opened).toHaveLength(1);
    expect(h.opened[0]!.message).toBe(
      '3 lines dropped on A v B (EM): Line 2 · Full match fair 3.000 → 2.500 (-16.7%); Line 1 · Full match fair 2.000 → 1.800 (-10.0%); Line 3 · Full match fair 1.900 → 1.780 (-6.3%)',
    );
    // Twenty more lines over the next 900 ms, a batch every 8 ms: nothing new is given out within the second.
    for (let i = 0; i < 20; i++) {
      const at = 1_008 + i * 45;
      h.eps.add(7, 'A v B', drop(10 + i, 2.0, 1.85), at);
      h.take(at);
    }
    expect(h.opened).toHaveLength(1);
    expect(h.updates).toHaveLength(0);
    expect(h.eps.nextAt()).toBe(2_000);
    h.take(2_000);
    expect(h.opened).toHaveLength(1);
    expect(h.updates).toHaveLength(1);
    const row = h.rows.get(h.opened[0]!.id)!;
    expect(row).toMatchObject({ id: h.opened[0]!.id, at: 1_000, kind: 'drop', eventId: 7, updatedAt: 2_000 });
    const data = row.data as EpisodeData;
    expect(data.count).toBe(23);
    expect(data.lines).toHaveLength(23);
    // The largest move is named at the top (the line a notification opens at), and leads the words.
    expect(data).toMatchObject({ lineId: 2, side: 'home', from: 3.0, to: 2.5, basis: 'open', at: 1_000, until: 1_863 });
    expect(data.lines[0]).toEqual({ lineId: 2, side: 'home', from: 3.0, to: 2.5, pct: data.pct, basis: 'open' });
    expect(row.message).toMatch(
      /^23 lines dropped on A v B \(EM\): Line 2 · Full match fair 3\.000 → 2\.500 \(-16\.7%\); .*; and 18 more$/,
    );
    // Nothing more to say until it grows again.
    expect(h.eps.nextAt()).toBeNull();
  });

  it('an episode of one line reads as that line alert; a line dropping again shows its whole move in the episode', () => {
    const h = harness();
    h.eps.add(7, 'A v B', drop(1, 2.0, 1.8), 0);
    h.take(0);
    expect(h.opened[0]!.message).toBe('line 1 alone');
    h.eps.add(7, 'A v B', drop(1, 1.8, 1.6, { basis: 'alert' }), 3_000);
    h.take(3_000);
    const data = h.rows.get(1)!.data as EpisodeData;
    expect(data.lines).toEqual([
      { lineId: 1, side: 'home', from: 2.0, to: 1.6, pct: expect.closeTo(-20, 9) as number, basis: 'open' },
    ]);
  });

  it('a burst after the quiet gap is a new episode; the first one ends with its last state written', () => {
    const h = harness();
    h.eps.add(7, 'A v B', drop(1, 2.0, 1.8), 0);
    h.take(0);
    h.eps.add(7, 'A v B', drop(2, 2.0, 1.8), 500);
    // No take in between: the first episode ended with an update owed, and the next drop opens another.
    h.eps.add(7, 'A v B', drop(3, 2.0, 1.8), 500 + EPISODE_RULES.quietMs);
    h.take(500 + EPISODE_RULES.quietMs);
    expect(h.opened.map((r) => r.id)).toEqual([1, 2]);
    expect(h.updates.map((r) => [r.id, (r.data as EpisodeData).count])).toEqual([[1, 2]]);
    expect((h.rows.get(2)!.data as EpisodeData).lines.map((l) => l.lineId)).toEqual([3]);
    // Just inside the gap it would have joined.
    const g = harness();
    g.eps.add(7, 'A v B', drop(1, 2.0, 1.8), 0);
    g.take(0);
    g.eps.add(7, 'A v B', drop(2, 2.0, 1.8), EPISODE_RULES.quietMs - 1);
    g.take(EPISODE_RULES.quietMs - 1);
    expect(g.opened).toHaveLength(1);
  });

  it('under a constant storm an event opens a new episode only at the maximum length; other events have their own', () => {
    const h = harness();
    for (let t = 0; t <= 2 * EPISODE_RULES.maxMs; t += 250) {
      h.eps.add(7, 'A v B', drop(t % 40, 2.0, 1.8), t);
      if (t % 5_000 === 0) h.eps.add(8, 'C v D', drop(1, 2.0, 1.8), t);
      h.take(t);
    }
    expect(h.opened.filter((r) => r.eventId === 7).map((r) => r.at)).toEqual([
      0,
      EPISODE_RULES.maxMs,
      2 * EPISODE_RULES.maxMs,
    ]);
    expect(h.opened.filter((r) => r.eventId === 8).map((r) => r.at)).toEqual([
      0,
      EPISODE_RULES.maxMs,
      2 * EPISODE_RULES.maxMs,
    ]);
    // At most one update a second per event, and fewer as the episode lasts: a second apart at first, a third of the
    // episode's age later, 10 s apart at most; so a 5-minute storm is rewritten about 35 times, not 300.
    const seven = h.updates
      .filter((r) => r.eventId === 7 && r.updatedAt! < EPISODE_RULES.maxMs)
      .map((r) => r.updatedAt!);
    const gaps = seven.slice(1).map((at, i) => at - seven[i]!);
    expect(gaps.every((g) => g >= EPISODE_RULES.updateMs)).toBe(true);
    expect(gaps.slice(0, 3)).toEqual([1_000, 1_000, 1_000]);
    expect(gaps.slice(-3)).toEqual([10_000, 10_000, 10_000]);
    expect(seven.length).toBeGreaterThan(25);
    expect(seven.length).toBeLessThan(50);
    expect(h.eps.held()).toBe(2);
    h.eps.forget(7);
    h.eps.forget(8);
    expect(h.eps.held()).toBe(0);
  });
});
