// The recorder against the simulator over a simulated hour: nothing lost, nothing twice, within the quota.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Fixture } from '../../src/shared/api';
import type { AlertRecord } from '../../src/shared/domain';
import { parseServiceTime } from '../../src/shared/api';
import { startSimulator, type Simulator } from '../../src/sim';
import { openStore } from '../../src/core/store';
import { runRecord, type RecordOptions } from '../../src/cli/record';
import { createManualClock, type ManualClock } from '../support/manualClock';
import { runCli } from './cliHarness';

const KEY = 'recorder-key-enterprise';
const SETUP_KEY = 'test-setup-key';

let sim: Simulator | null = null;
afterEach(async () => {
  await sim?.close();
  sim = null;
});

async function fixtures(s: Simulator): Promise<Fixture[]> {
  const res = await fetch(new URL('/api/fixtures', s.url), { headers: { 'X-API-Key': SETUP_KEY } });
  return (await res.json()) as Fixture[];
}

interface InProcessRun {
  out: () => string;
  err: () => string;
  lines: () => Array<Record<string, unknown>>;
  /** Moves the simulator and the recorder's clock together, a few simulated seconds at a time. */
  advance(simSeconds: number, until?: () => boolean): Promise<void>;
  stop(): Promise<number>;
  done: Promise<number>;
}

/** `cli record` in process, on the simulator's manual clock: an hour runs in seconds and never sleeps for real. */
function record(s: Simulator, clock: ManualClock, options: Omit<RecordOptions, 'baseUrl'>): InProcessRun {
  let out = '';
  let err = '';
  let stop!: (why: string) => void;
  const stopped = new Promise<string>((r) => (stop = r));
  const done = runRecord(
    { baseUrl: s.url, ...options },
    // The simulator pings in real time while this clock runs far ahead: keep the watchdog out of it.
    {
      clock,
      key: KEY,
      stop: stopped,
      pingIntervalMs: 3_600_000,
      fetch: globalThis.fetch.bind(globalThis),
      stdout: (t) => void (out += t),
      stderr: (t) => void (err += t),
    },
  );
  let finished = false;
  void done.finally(() => (finished = true));
  return {
    out: () => out,
    err: () => err,
    lines: () =>
      out
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    async advance(simSeconds, until) {
      for (let t = 0; t < simSeconds && !finished && !until?.(); t += 5) {
        await s.advance(5);
        await clock.advance(5_000);
      }
    },
    async stop() {
      stop('SIGTERM');
      return done;
    },
    done,
  };
}

function tmpDb(): string {
  return path.join(mkdtempSync(path.join(tmpdir(), 'oddsdesk-rec-')), 'record.db');
}

/** Checks the database holds exactly the simulator's settlements up to the stored cursor, each once, with all lines. */
function checkSettlements(s: Simulator, db: string) {
  const store = openStore({ path: db });
  try {
    const cursor = store.settlements.settledCursor();
    expect(cursor).not.toBeNull();
    const stored = [...store.settlements.exportSettlements()];
    const ids = stored.map((e) => e.event_id);
    expect(new Set(ids).size, 'no settlement stored twice').toBe(ids.length);
    const truth = s.truth.settled().filter((e) => Math.floor(parseServiceTime(e.settled_at)! / 1000) < cursor!);
    expect(truth.length).toBeGreaterThan(5);
    const byId = new Map(stored.map((e) => [e.event_id, e]));
    for (const t of truth) {
      const got = byId.get(t.event_id);
      expect(got, `settlement of event ${t.event_id} (settled ${t.settled_at}) is stored`).toBeDefined();
      expect(got!.settlement.length, `all lines of ${t.event_id}`).toBe(t.settlement.length);
      expect(
        new Set(got!.settlement.map((l) => `${l.line_id}:${l.outcome_home}${l.outcome_draw}${l.outcome_away}`)),
      ).toEqual(new Set(t.settlement.map((l) => `${l.line_id}:${l.outcome_home}${l.outcome_draw}${l.outcome_away}`)));
      expect([got!.score_home, got!.score_away]).toEqual([t.score_home, t.score_away]);
    }
    // And nothing invented: every stored settlement is one the simulator produced.
    const truthIds = new Set(s.truth.settled().map((e) => e.event_id));
    for (const id of ids) expect(truthIds.has(id)).toBe(true);
    return { stored, cursor: cursor!, store: null };
  } finally {
    store.close();
  }
}

describe('cli record', () => {
  it('records a simulated hour: every settlement once with its lines, every watched max_win change stored and (once watched) alerted, no 429 on a 1,000/h quota with 50 watched events', async () => {
    sim = await startSimulator({
      port: 0,
      seed: 2026,
      clock: 'manual',
      quotaPerHour: 1000,
      keys: [
        { key: KEY, plan: 'enterprise' },
        { key: SETUP_KEY, plan: 'enterprise' },
      ],
      events: 80,
    });
    const fx = await fixtures(sim);
    const watch = fx
      .sort((a, b) => a.starts.localeCompare(b.starts))
      .slice(0, 50)
      .map((f) => f.event_id);
    expect(watch.length).toBe(50);
    const db = tmpDb();
    const clock = createManualClock(sim.now());
    const run = record(sim, clock, { db, watch, durationS: 3600, settledEveryS: 360 });
    // Changes after the recorder's first look are news; those before it are history (stored, not alerted).
    await run.advance(120, () => run.err().includes('ready:'));
    expect(run.err()).toContain('ready:');
    const firstLook = sim.now();
    await run.advance(3700);
    const code = await run.done;
    expect(code, run.err()).toBe(0);

    checkSettlements(sim, db);

    // Zero 429 answers to the recorder's key, and the recorder says how many requests it made.
    const keyIds = new Set(
      sim
        .requestLog()
        .filter((r) => r.status !== 401)
        .map((r) => r.keyId),
    );
    expect(keyIds.size).toBeGreaterThan(0);
    const recorderLog = sim.requestLog().filter((r) => r.keyId !== null && r.path !== '/api/fixtures');
    expect(recorderLog.filter((r) => r.status === 429)).toEqual([]);
    const reported = /made (\d+) requests/.exec(run.err());
    expect(reported, run.err()).not.toBeNull();
    expect(Number(reported![1])).toBeGreaterThan(50);

    // Every max_win change of the watched specials is a stdout line, a stored change point and an alert.
    const watched = new Set(watch);
    const store = openStore({ path: db });
    try {
      const points = [...store.history.exportMaxWin()].filter((p) => p.previousMaxWin !== null);
      const all: AlertRecord[] = [];
      for (
        let page = store.alerts.listAlerts({ limit: 1000 });
        page.length > 0;
        page = store.alerts.listAlerts({ limit: 1000, beforeId: page[page.length - 1]!.id })
      )
        all.push(...page);
      const alerts = all.filter((a) => a.kind === 'max_win' && a.specialId !== null);
      const lines = run.lines().filter((l) => l['type'] === 'max_win' && l['special_id'] !== null);
      const truth = sim.truth.maxWinChanges().filter((c) => c.event_id !== null && watched.has(c.event_id));
      const seenUpTo = Math.max(...points.map((p) => p.at), 0);
      const stored = truth.filter((c) => parseServiceTime(c.at)! <= seenUpTo);
      const due = stored.filter((c) => parseServiceTime(c.at)! > firstLook);
      expect(due.length).toBeGreaterThan(0);
      const key = (s: number, c: number, from: number | null, to: number) => `${s}/${c}/${from}->${to}`;
      const pointKeys = new Set(points.map((p) => key(p.specialId, p.contestantId, p.previousMaxWin, p.maxWin)));
      // A special's step is one alert naming its contestants (issue 33): each contestant's change is in its data.
      type StepData = {
        from: number;
        to: number;
        at: string;
        contestants?: Array<{ contestantId: number; from: number; to: number }>;
      };
      const alerted = alerts.flatMap((a) => {
        const d = a.data as StepData;
        return d.contestants
          ? d.contestants.map((c) => key(a.specialId!, c.contestantId, c.from, c.to))
          : [key(a.specialId!, a.contestantId!, d.from, d.to)];
      });
      const alertKeys = new Set(alerted);
      const lineKeys = new Set(
        lines.map((l) =>
          key(l['special_id'] as number, l['contestant_id'] as number, l['from'] as number, l['to'] as number),
        ),
      );
      for (const c of stored) {
        const k = key(c.special_id, c.contestant_id, c.from, c.to);
        expect(pointKeys.has(k), `stored change point ${k}`).toBe(true);
      }
      for (const c of due) {
        const k = key(c.special_id, c.contestant_id, c.from, c.to);
        expect(alertKeys.has(k), `alert for ${k}`).toBe(true);
        expect(lineKeys.has(k), `stdout line for ${k}`).toBe(true);
      }
      // Once per change: no change point or alert twice; and one alert per step of a special, never one per contestant.
      expect(alerted.length).toBe(alertKeys.size);
      const steps = alerts.map((a) => `${a.specialId}@${(a.data as StepData).at}`);
      expect(steps.length).toBe(new Set(steps).size);
      expect(alerts.some((a) => ((a.data as StepData).contestants?.length ?? 0) > 1)).toBe(true);
    } finally {
      store.close();
    }
  }, 120_000);

  it('loses and duplicates nothing when stopped and restarted mid-run', async () => {
    sim = await startSimulator({
      port: 0,
      seed: 99,
      clock: 'manual',
      keys: [
        { key: KEY, plan: 'enterprise' },
        { key: SETUP_KEY, plan: 'starter' },
      ],
    });
    const db = tmpDb();
    const clock = createManualClock(sim.now());
    const first = record(sim, clock, { db, watch: [], durationS: null, settledEveryS: 240 });
    await first.advance(24 * 60);
    expect(await first.stop(), first.err()).toBe(0);
    // The matches keep settling while the recorder is down.
    await sim.advance(8 * 60);
    await clock.advance(8 * 60_000);
    const second = record(sim, clock, { db, watch: [], durationS: 20 * 60, settledEveryS: 240 });
    await second.advance(21 * 60);
    expect(await second.done, second.err()).toBe(0);

    const { stored } = checkSettlements(sim, db);
    const announced = [...first.lines(), ...second.lines()]
      .filter((l) => l['type'] === 'settlement')
      .map((l) => l['event_id']);
    expect(new Set(announced).size, 'no settlement announced twice across the restart').toBe(announced.length);
    expect(new Set(announced)).toEqual(new Set(stored.map((s) => s.event_id)));
  }, 90_000);
});

describe('cli arguments', () => {
  it('exits non-zero with a clear message on a bad argument', async () => {
    const bad = runCli(['record', '--base-url', 'not a url']);
    expect(await bad.exited).not.toBe(0);
    expect(bad.stderr()).toMatch(/not a URL/);
    const badDuration = runCli(['record', '--base-url', 'http://127.0.0.1:9', '--duration', 'soon']);
    expect(await badDuration.exited).not.toBe(0);
    expect(badDuration.stderr()).toMatch(/positive number of seconds/);
    const badExport = runCli(['export', 'everything', '--db', 'x.db']);
    expect(await badExport.exited).not.toBe(0);
    expect(badExport.stderr()).toMatch(/settlements, results, max-win/);
    const noKey = runCli(['record', '--base-url', 'http://127.0.0.1:9', '--duration', '1'], { ODDSDESK_API_KEY: '' });
    expect(await noKey.exited).not.toBe(0);
    expect(noKey.stderr()).toMatch(/ODDSDESK_API_KEY/);
  }, 60_000);
});
