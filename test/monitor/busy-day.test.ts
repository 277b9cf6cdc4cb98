// Issue 17, must-show 1: the recorder on the simulator's busy day (thousands of set-sport settlements an hour in
// crowded seconds, results published late, a quota of 1,000 an hour enforced with 429s, streams that drop right after
// their snapshot) with 50 watched events, over two simulated hours on manual clocks. Every settlement is stored
// exactly once, the service never answers 429, every watched stream still live upstream is live at the end, and the
// recorder prints its requests by purpose.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { runRecord } from '../../src/cli/record';
import { PATHS, parseServiceTime } from '../../src/shared/api';
import { PURPOSES } from '../../src/shared/requests';
import { startSimulator, type Simulator } from '../../src/sim';
import { createManualClock } from '../support/manualClock';
import { logSoak, soak } from '../support/soak';

const START = '2026-11-22T12:00:00';
const KEY = 'busy-day-recorder-key';
// Two simulated hours under `npm run test:soak`. By default 36 minutes: they cross the crowded seconds at :12 and
// :24, the flood at :30 and the one at :36, and with the flap shortened to 20 minutes its end falls inside the run
// too (the full run flaps for the scenario's default 60 minutes, which end halfway through it).
const HOURS = soak(0.6, 2);
const FLAP_MINUTES = soak(20, 60);
const STEP_S = 5;

let sim: Simulator | null = null;
afterAll(() => sim?.close());

describe('the recorder on a busy day', () => {
  it('stores every settlement once, gets no 429, keeps the watched streams live and accounts for every request', async () => {
    logSoak(
      `busy day: ${HOURS * 60} simulated minutes, streams flapping for the first ${FLAP_MINUTES} (full: 120 and 60)`,
    );
    sim = await startSimulator({
      seed: 42,
      busy: { flapMinutes: FLAP_MINUTES },
      startTime: START,
      keys: [{ key: KEY, plan: 'enterprise' }],
    });
    const s = sim;
    // 50 watched events, the flapping ones among them, the rest those that start first.
    const flapping = s.busy!.flappingEventIds;
    const book = s.truth.bookIds().filter((id) => !flapping.includes(id));
    const watch = [...flapping, ...book.slice(0, 50 - flapping.length)];
    expect(watch).toHaveLength(50);

    const clock = createManualClock(parseServiceTime(START)!);
    const db = path.join(mkdtempSync(path.join(tmpdir(), 'oddsdesk-busy-')), 'busy.db');
    let out = '';
    let err = '';
    let stop!: (why: string) => void;
    const stopped = new Promise<string>((r) => (stop = r));
    // The run ends at --duration, as `cli record --duration 7200` does: with one last walk over what settled meanwhile.
    const run = runRecord(
      { baseUrl: s.url, watch, db, durationS: HOURS * 3600, settledEveryS: 60 },
      // The simulator pings in real time while our clock runs hours in seconds: the watchdog would read every quiet
      // stream as dead. Dropped connections (the flapping streams) are seen at once, without the watchdog.
      {
        clock,
        key: KEY,
        stop: stopped,
        pingIntervalMs: 3_600_000,
        stdout: (t) => void (out += t),
        stderr: (t) => void (err += t),
        fetch: globalThis.fetch.bind(globalThis),
      },
    );
    // The service's clock and ours move together, a few seconds at a time, so I/O in flight lands between steps.
    let finished = false;
    void run.finally(() => (finished = true));
    for (let t = 0; t < HOURS * 3600 && !finished; t += STEP_S) {
      await s.advance(STEP_S);
      await clock.advance(STEP_S * 1000);
    }
    // The duration's timer is due now; the last walk and the flush are I/O and need no more time to pass.
    await clock.advance(STEP_S * 1000);
    expect(await run, err).toBe(0);
    stop('unused');

    // Every settlement the service made is stored exactly once (the walk starts at its 24-hour window).
    const truth = s.truth.settled();
    // The hour of history and the run, at well over 2,000 an hour (the scenario makes at least 3,000): more than
    // 6,000 over the full three hours, pro rata over the small run's 1.6.
    expect(truth.length).toBeGreaterThan((6000 * (1 + HOURS)) / 3);
    const sql = new Database(db, { readonly: true });
    const stored = sql.prepare('SELECT event_id FROM settlements').pluck().all() as number[];
    const lines = sql.prepare('SELECT count(*) FROM settlement_lines').pluck().get() as number;
    sql.close();
    expect(new Set(stored).size).toBe(stored.length);
    expect(stored.sort((a, b) => a - b)).toEqual(truth.map((e) => e.event_id).sort((a, b) => a - b));
    expect(lines).toBe(truth.reduce((n, e) => n + e.settlement.length, 0));

    // The service never had to say 429 to the recorder's key.
    const log = s.requestLog().filter((r) => r.keyId !== null);
    expect(log.filter((r) => r.status === 429)).toEqual([]);

    // Every watched event still in the book upstream has its stream open at the end.
    const stillLive = new Set(s.truth.bookIds());
    const open = watch.filter((id) => stillLive.has(id));
    expect(open.length).toBeGreaterThan(10);
    // A stream the service answered is logged with status 0 while it is open (200 once it ended cleanly).
    const lastStream = new Map<number, number>();
    for (const r of log)
      if (r.path === PATHS.stream) lastStream.set(Number(new URLSearchParams(r.query).get('event_id')), r.status);
    for (const id of open) expect([0, 200], `stream of ${id}`).toContain(lastStream.get(id));
    // The flapping streams were cut off during the flap and are live again after it.
    const flappingLive = flapping.filter((f) => stillLive.has(f));
    expect(flappingLive.length, 'flapping events still in the book (they start after the run)').toBeGreaterThan(0);
    for (const id of flappingLive) expect([0, 200], `stream of flapping ${id}`).toContain(lastStream.get(id));
    // Closed on stop: the service sees every connection end (I/O, not time: a bounded wait on the socket closes).
    for (let i = 0; i < 200 && s.openStreams() > 0; i++) await new Promise((r) => setImmediate(r));
    expect(s.openStreams()).toBe(0);

    // The requests, by purpose: printed on stderr and as the last stdout line, matching what the service saw.
    const last = JSON.parse(out.trim().split('\n').at(-1)!) as {
      type: string;
      total: number;
      rate_limited: number;
      by_purpose: Record<string, number>;
    };
    expect(last.type).toBe('requests');
    expect(Object.keys(last.by_purpose).sort()).toEqual([...PURPOSES].sort());
    expect(last.rate_limited).toBe(0);
    expect(last.total).toBe(Object.values(last.by_purpose).reduce((a, b) => a + b, 0));
    expect(last.total).toBe(log.filter((r) => r.path !== PATHS.status).length);
    expect(last.by_purpose['stream']).toBe(log.filter((r) => r.path === PATHS.stream).length);
    expect(last.by_purpose['settled']).toBeGreaterThanOrEqual(HOURS * 60);
    expect(err).toMatch(/requests by purpose: \d+ requests/);
    // A flapping stream cannot storm: its opens stay within the cap of 30 in any rolling hour (so 30 per hour the
    // run has begun, plus the one after the flap).
    expect(flapping.length).toBeGreaterThan(0);
    for (const id of flapping) {
      const opens = log.filter(
        (r) => r.path === PATHS.stream && new URLSearchParams(r.query).get('event_id') === String(id),
      ).length;
      expect(opens).toBeLessThanOrEqual(30 * Math.ceil(HOURS) + 1);
    }
  }, 300_000);
});
