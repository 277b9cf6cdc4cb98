// A recorded demo history for the model scoreboard's tests and screenshot: `cli record` in process against the
// simulator at the demo's pace (matches ten times faster than real ones), on manual clocks moved together, watching
// the soonest matches so that they kick off (their lines close) and settle within the recording. A simulated hour
// runs in a few seconds and never waits for real time.
import type { Fixture } from '../../src/shared/api';
import { parseServiceTime } from '../../src/shared/api';
import { runRecord } from '../../src/cli/record';
import { startSimulator, type Simulator } from '../../src/sim';
import { createManualClock } from './manualClock';

export interface DemoHistoryOptions {
  db: string;
  seed?: number;
  /** Simulated seconds to record (default an hour). */
  seconds?: number;
  /** How many of the soonest upcoming matches to watch (default 40). */
  watch?: number;
  /** The service's clock at the start of the recording (a service date-time; default the simulator's own). */
  startTime?: string;
  /** Leave the simulator serving (its clock stopped) for a host to connect to; the caller closes it. */
  keepServing?: boolean;
}

/**
 * Records the history into `o.db` and closes the simulator (unless asked to keep it serving); resolves with the
 * service's address the file is stamped for (a host opens the file only for that service: src/core/profiles.ts) and
 * the key it takes; `sim` is the simulator itself (serving only with keepServing), for a test that moves it on.
 */
export async function recordDemoHistory(
  o: DemoHistoryOptions,
): Promise<{ baseUrl: string; key: string; sim: Simulator; close(): Promise<void> }> {
  const key = 'demo-history-key';
  let serving = false;
  const sim = await startSimulator({
    port: 0,
    seed: o.seed ?? 27,
    clock: 'manual',
    pace: 10,
    events: 120,
    ...(o.startTime !== undefined ? { startTime: o.startTime } : {}),
    keys: [{ key, plan: 'enterprise' }],
  });
  try {
    const fixtures = (await (
      await fetch(new URL('/api/fixtures', sim.url), { headers: { 'X-API-Key': key } })
    ).json()) as Fixture[];
    const upcoming = fixtures
      .filter((f) => parseServiceTime(f.starts)! > sim.now())
      .sort((a, b) => a.starts.localeCompare(b.starts));
    const watch = upcoming.slice(0, o.watch ?? 40).map((f) => f.event_id);
    const seconds = o.seconds ?? 3600;
    const clock = createManualClock(sim.now());
    let err = '';
    let finished = false;
    const run = runRecord(
      { baseUrl: sim.url, db: o.db, watch, durationS: seconds, settledEveryS: 60 },
      // The simulator pings in real time while this clock runs far ahead: keep the watchdog out of it.
      {
        clock,
        key,
        stop: new Promise<string>(() => undefined),
        pingIntervalMs: 3_600_000,
        fetch: globalThis.fetch.bind(globalThis),
        stdout: () => undefined,
        stderr: (t) => void (err += t),
      },
    );
    void run.finally(() => (finished = true));
    // Ten simulated seconds at a time, so the I/O each step starts lands before the next.
    for (let t = 0; t < seconds + 120 && !finished; t += 10) {
      await sim.advance(10);
      await clock.advance(10_000);
    }
    const code = await run;
    if (code !== 0) throw new Error(`cli record exited ${code}:\n${err}`);
    serving = o.keepServing === true;
    return { baseUrl: sim.url, key, sim, close: () => sim.close() };
  } finally {
    if (!serving) await sim.close();
  }
}
