// Demo mode: with no key configured, the app runs on the built-in simulator with a demo enterprise key. The demo
// world runs on the wall clock (speed 1: nothing is started, settled or timestamped in the future, and a demo cursor
// is a real second), with its matches compressed tenfold so the screen moves: a football match lasts about ten
// minutes and settlements are published every minute. The world's own trading scenarios (CONTROL.md, "Scenarios":
// pre-match suspensions, quarter lines, a missing draw, a side priced 1.0, void matches, best-of-7 table tennis) run at
// the same pace, so a demo session meets each of them every few minutes to an hour.
// The demo simulator serves the service's /api and nothing else: its control routes (/__sim/, which issue keys, move
// the clock and switch faults on, with no key) are off, so no other program or web page can steer it; what the demo's
// own tests need of it they ask this process's handle.
// For tests only, two environment variables (CONTROL.md, "Demo mode in tests") make a demo session quick and the same
// each time: ODDSDESK_TEST_DEMO_PACE runs matches faster still on the same wall clock, ODDSDESK_TEST_DEMO_SEED fixes
// the world. Unset, as in every install, they change nothing.
import { formatServiceTime } from '../shared/api';
import { startSimulator, type Scenario } from './index';

/** Not a secret: it only opens the in-process simulator. */
export const DEMO_KEY = 'oddsdesk-demo-enterprise';

export interface Demo {
  baseUrl: string;
  key: string;
  /** The trading situations the demo world planned (the control route's truth, in process only). */
  scenarios(): Scenario[];
  close(): Promise<void>;
}

/** How much faster demo matches run than real ones (they still run on the wall clock). */
export const DEMO_PACE = 10;

/** The paces a test may ask for: faster than the demo's own, and splitting the world's settlement batch evenly. */
export const TEST_DEMO_PACES = [10, 12, 15, 20, 24, 30, 40, 60, 120] as const;

/**
 * The test-only overrides from the environment: `ODDSDESK_TEST_DEMO_PACE` (one of TEST_DEMO_PACES) and
 * `ODDSDESK_TEST_DEMO_SEED` (a whole number). A value not allowed throws, so a test never runs on a demo it did not
 * ask for.
 */
export function testDemoOptions(env: Readonly<Record<string, string | undefined>>): { pace?: number; seed?: number } {
  const out: { pace?: number; seed?: number } = {};
  const pace = env['ODDSDESK_TEST_DEMO_PACE'];
  if (pace !== undefined && pace !== '') {
    const n = Number(pace);
    if (!(TEST_DEMO_PACES as readonly number[]).includes(n))
      throw new Error(`ODDSDESK_TEST_DEMO_PACE must be one of ${TEST_DEMO_PACES.join(', ')}, not ${pace}`);
    out.pace = n;
  }
  const seed = env['ODDSDESK_TEST_DEMO_SEED'];
  if (seed !== undefined && seed !== '') {
    if (!/^\d{1,9}$/.test(seed)) throw new Error(`ODDSDESK_TEST_DEMO_SEED must be a whole number, not ${seed}`);
    out.seed = Number(seed);
  }
  return out;
}

/** The demo world's first event id: past every id its profile remembers, and never below the simulator's own base. */
export function demoFirstEventId(idsAbove = 0): number {
  // A whole thousand past the highest id remembered, so the ids read as a new block after every restart.
  return Math.max(1_600_001, (Math.floor(idsAbove / 1000) + 1) * 1000 + 1);
}

/**
 * `idsAbove`: the highest event id the demo profile's store remembers (watches, snoozes, bets, settlements). A
 * restarted demo is a new world with other matches; its events are numbered above that, so an id the trader's
 * profile remembers never names another match (issue 34). The store is what remembers the ids, so the mark is read
 * from it (not kept beside it, where a new data dir would lose it while the store lives on).
 */
export async function startDemo(
  options: { port?: number; seed?: number; idsAbove?: number } = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<Demo> {
  const forTest = testDemoOptions(env);
  const sim = await startSimulator({
    port: options.port ?? 0,
    seed: options.seed ?? forTest.seed ?? Date.now() % 1_000_000,
    clock: 'real',
    // The demo world starts now and runs at the wall clock's pace, so its kick-offs and settlements read right on the
    // trader's clock.
    startTime: formatServiceTime(Date.now()),
    speed: 1,
    pace: forTest.pace ?? DEMO_PACE,
    keys: [{ key: DEMO_KEY, plan: 'enterprise' }],
    controlRoutes: false,
    firstEventId: demoFirstEventId(options.idsAbove),
    // The matches a first run picks as live are priced: every match under way when the demo opens is offered in play.
    openingMatchesLive: true,
  });
  return { baseUrl: sim.url, key: DEMO_KEY, scenarios: () => sim.truth.scenarios(), close: () => sim.close() };
}
