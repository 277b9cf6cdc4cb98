// Entry of the upstream simulator: `startSimulator` builds the world, the clock (manual or real at a speed), the
// keys, and a node:http server on 127.0.0.1, and returns the control handle described in CONTROL.md.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DevigModel, EventOdds, Plan, Prices, SettledEvent } from '../shared/api';
import { parseServiceTime } from '../shared/api';
import { Emitter } from '../shared/event';
import { Access, type Faults } from './access';
import { Prng } from './prng';
import { SimServer, type RequestLogEntry } from './server';
import { StreamHub } from './stream';
import { World, type MaxWinChange, type OutcomeWords, type Scenario, type StreamMessage } from './world';

export type { Faults } from './access';
export type { RequestLogEntry } from './server';
export type { MaxWinChange, OutcomeWords, Scenario, ScenarioKind, StreamMessage } from './world';

export interface SimKey {
  key: string;
  plan: Plan;
  quotaPerHour?: number;
  /** Account preference for the leading todds. */
  model?: DevigModel;
}

export interface SimulatorOptions {
  port?: number;
  seed?: number;
  clock?: 'manual' | 'real';
  speed?: number;
  startTime?: string;
  /**
   * The service's clock this many ms ahead of this machine's (negative: behind), real clock only: the world starts
   * at the machine's now plus this (instead of `startTime`); at speed 1 the skew stays as it is. Its answers stamp
   * times (status `time`, `updated_at`, `starts`, the `Date` header) on that clock.
   */
  skewMs?: number;
  quotaPerHour?: number;
  rateLimitHeaders?: boolean;
  keys?: SimKey[];
  events?: number;
  /** Matches run this many times faster than real ones, on an unchanged clock (demo mode); see WorldOptions.pace. */
  pace?: number;
  /** Simulated hours the world runs before startTime, so it opens with history (settlements); default 3. */
  historyHours?: number;
  /** Real ms between `: ping` comments on every stream; default 15000. */
  pingIntervalMs?: number;
  /**
   * Which clock stream faults (drop every N ms, stall for N ms) and pings run on: 'real' (default) models a wall-clock
   * network; 'sim' (manual clock only) makes them move with `advance`, so a test on a manual clock sees a stall
   * long enough for its watchdog without sleeping.
   */
  faultClock?: 'real' | 'sim';
  /** `retry:` sent at the head of every stream connection, in ms; default 2000. */
  retryMs?: number;
  faults?: Faults;
  /**
   * Load generation for benchmarks, real clock only: this many extra market price changes per real second, each on
   * one market of an event picked at random among those with an open stream. Default 0 (off): the seeded world then
   * moves exactly as without the option.
   */
  oddsRate?: number;
  /** The busy day (see CONTROL.md); `true` takes every default. */
  busy?: boolean | BusyOptions;
  /** The first event id of the book (default 1,600,001); demo mode numbers past what its profile remembers. */
  firstEventId?: number;
  /** Every match under way when the world opens is offered in play (demo mode); default false. */
  openingMatchesLive?: boolean;
  /**
   * Serve the HTTP control routes under /__sim/ (CONTROL.md); default true, for tests and `npm run sim`. Demo mode
   * turns them off: they then answer 404, and only this process's handle can steer the simulator.
   */
  controlRoutes?: boolean;
}

/** The busy-day scenario's knobs; with it on, quotaPerHour defaults to 1000, events to 80, historyHours to 1. */
export interface BusyOptions {
  /** Simulated seconds between a settlement and its /api/results rows; default 300. */
  resultsDelayS?: number;
  /** How many book events have a flapping stream (dropped right after its snapshot, every connection); default 2. */
  flapEvents?: number;
  /** Simulated minutes from the start during which those streams flap; default 60. */
  flapMinutes?: number;
}

/** What the busy day decided at start, for the operator and for tests. */
export interface BusyInfo {
  resultsDelayS: number;
  /** Book events whose stream flaps: they start at least two simulated hours after the start, so they stay. */
  flappingEventIds: number[];
  /** Simulated ms since epoch when they stop flapping. */
  flapUntil: number;
}

/** Every stream message as the world emits it, with the real wall-clock ms of the emission (Date.now()). */
export type StreamMessageListener = (eventId: number, message: StreamMessage, realMs: number) => void;

export interface Simulator {
  url: string;
  port: number;
  /** The keys as issued at start (given ones, or generated demo keys). */
  keys: Array<{ key: string; plan: Plan }>;
  advance(seconds: number): Promise<void>;
  now(): number;
  addKey(plan: Plan, options?: { quotaPerHour?: number; model?: DevigModel }): string;
  regenerateKey(oldKey: string): string;
  revokeKey(key: string): void;
  setFaults(faults: Faults, key?: string): void;
  requestLog(): RequestLogEntry[];
  truth: {
    event(eventId: number): EventOdds | null;
    settled(): SettledEvent[];
    maxWinChanges(): MaxWinChange[];
    /** Event ids in the book now, ascending. */
    bookIds(): number[];
    /** The trading situations the world planned on its own (still ahead, played, skipped), by when they begin. */
    scenarios(): Scenario[];
  };
  openStreams(): number;
  /** Scripted moves for tests, each at once at the current simulated time (see CONTROL.md, "Scenarios"). */
  script: SimScript;
  /** The busy day's decisions, or null when it is off. */
  busy: BusyInfo | null;
  /** Taps the stream log as it is written (benchmarks stamp emissions here); returns the unsubscribe. */
  onStreamMessage(listener: StreamMessageListener): () => void;
  close(): Promise<void>;
}

export interface SimScript {
  /** One market's prices (null: offline; a partial object leaves sides out; 1.0 is allowed) and max_win. */
  setMarket(eventId: number, lineId: number, prices: Prices | null, maxWin?: number): boolean;
  /** The line goes offline now and stays so for `seconds`; then re-offered at `reoffer` or at a moved price. */
  suspend(eventId: number, lineId: number, seconds: number, reoffer?: Prices): boolean;
  /** One side leaves the line's prices now (the others stand still) and comes back at its price after `seconds`. */
  dropSide(eventId: number, lineId: number, side: keyof Prices, seconds: number): boolean;
  /** A pre-match event kicks off now: a `score` message with live_status 1, 0-0; its schedule moves with it. */
  kickOff(eventId: number): boolean;
  /** The match stops now and settles void in the next batch: this status (default `abandoned`), every line push. */
  abandon(eventId: number, status?: string): boolean;
  /** The event's settlement will carry these words on that line (say `void`, `half-win`). */
  outcomeWords(eventId: number, lineId: number, words: OutcomeWords): boolean;
}

export const DEFAULT_START_TIME = '2026-11-22T12:00:00';
const REAL_TICK_MS = 100;
/** The load ticker's period: short enough that 2,000 moves a second leave in small groups, not 100 ms bursts. */
const ODDS_TICK_MS = 5;

/** The clock's settings, checked: the world's start (simulated ms) and how the clock runs from there. */
interface SimClockPlan {
  seed: number;
  speed: number;
  manual: boolean;
  /** The machine's Date.now() when the simulator started. */
  startedAt: number;
  startMs: number;
  oddsRate: number;
}

function planClock(options: SimulatorOptions): SimClockPlan {
  const seed = options.seed ?? 1;
  const speed = options.speed ?? 60;
  const manual = (options.clock ?? 'manual') === 'manual';
  if (options.skewMs !== undefined && (manual || options.startTime !== undefined || !Number.isFinite(options.skewMs))) {
    throw new Error(
      'skewMs needs the real clock and no startTime (a manual clock is as far from the host as its startTime)',
    );
  }
  const startedAt = Date.now();
  const startMs =
    options.skewMs !== undefined
      ? startedAt + options.skewMs
      : parseServiceTime(options.startTime ?? DEFAULT_START_TIME);
  if (startMs === null) throw new Error(`startTime is not a date-time: ${options.startTime}`);
  if (!(speed > 0)) throw new Error('speed must be > 0');
  const oddsRate = options.oddsRate ?? 0;
  if (!(oddsRate >= 0)) throw new Error('oddsRate must be >= 0');
  if (oddsRate > 0 && manual) throw new Error('oddsRate needs the real clock');
  return { seed, speed, manual, startedAt, startMs, oddsRate };
}

/** The seeded world, with the busy day's decisions when it is on. */
function openWorld(options: SimulatorOptions, seed: number, startMs: number): { world: World; busy: BusyInfo | null } {
  const busy = options.busy === true ? {} : options.busy || null;
  const resultsDelayS = busy?.resultsDelayS ?? 300;
  const world = new World({
    seed,
    startMs,
    events: options.events ?? (busy ? 80 : 60),
    historyMs: (options.historyHours ?? (busy ? 1 : 3)) * 3600_000,
    ...(options.pace ? { pace: options.pace } : {}),
    ...(options.firstEventId ? { firstEventId: options.firstEventId } : {}),
    ...(options.openingMatchesLive ? { openingMatchesLive: true } : {}),
    ...(busy ? { busy: { resultsDelayMs: resultsDelayS * 1000 }, settledCap: 50_000 } : {}),
  });
  const busyInfo: BusyInfo | null = busy
    ? {
        resultsDelayS,
        flappingEventIds: flappingEvents(world, startMs, busy.flapEvents ?? 2),
        flapUntil: startMs + (busy.flapMinutes ?? 60) * 60_000,
      }
    : null;
  return { world, busy: busyInfo };
}

/** The keys issued at start: the given ones, or an enterprise and a starter demo key. */
function issueKeys(access: Access, given: SimKey[] | undefined): Simulator['keys'] {
  const keys = given ?? [
    { key: '', plan: 'enterprise' as const },
    { key: '', plan: 'starter' as const },
  ];
  return keys.map((k) => {
    const record = access.add(k.plan, {
      ...(k.key ? { key: k.key } : {}),
      ...(k.quotaPerHour ? { quotaPerHour: k.quotaPerHour } : {}),
      model: k.model ?? null,
    });
    return { key: record.key, plan: record.plan };
  });
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const { seed, speed, manual, startedAt, startMs, oddsRate } = planClock(options);
  const { world, busy: busyInfo } = openWorld(options, seed, startMs);
  const access = new Access(seed, options.quotaPerHour ?? (options.busy ? 1000 : 100_000));
  const flapping = new Set(busyInfo?.flappingEventIds ?? []);
  const keys = issueKeys(access, options.keys);
  if (options.faults) access.setFaults(options.faults, undefined, Date.now());

  // The sim clock: exact in manual mode (advance by seconds); in real mode it runs at `speed` from start.
  let simMs = startMs;
  // A skewed clock runs from when its start was read, so building the world's history does not eat into the skew.
  const realStart = options.skewMs !== undefined ? startedAt : Date.now();
  const simNow = () => (manual ? simMs : startMs + (Date.now() - realStart) * speed);
  const advanceWorld = () => world.advanceTo(simNow());
  const advance = async (seconds: number): Promise<void> => {
    if (!manual) throw new Error('advance needs the manual clock');
    simMs += seconds * 1000;
    advanceWorld();
    streams.applyFaults(); // faults on the simulated clock (flaps) fall due as it moves
  };

  const simFaults = options.faultClock === 'sim';
  if (simFaults && !manual) throw new Error("faultClock 'sim' needs the manual clock");
  const faultNow = simFaults ? () => Math.floor(simNow()) : () => Date.now();
  const streams = new StreamHub(
    world,
    access,
    {
      pingIntervalMs: options.pingIntervalMs ?? 15_000,
      retryMs: options.retryMs ?? 2_000,
      flapFor: (eventId, simMs) => (busyInfo && flapping.has(eventId) && simMs < busyInfo.flapUntil ? 0 : null),
      pingsOnFaultClock: simFaults,
    },
    faultNow,
    () => Math.floor(simNow()),
  );
  const taps = new Emitter<Parameters<StreamMessageListener>>({ name: "the simulator's stream log" });
  world.onMessage((eventId, message) => {
    const realMs = Date.now();
    streams.deliver(eventId, message);
    taps.fire(eventId, message, realMs);
  });

  let port = 0;
  const server = new SimServer({
    world,
    access,
    streams,
    seed,
    rateLimitHeaders: options.rateLimitHeaders ?? true,
    simNow: () => Math.floor(simNow()),
    realNow: () => Date.now(),
    // A manual clock only moves when told, so a wait is quoted in simulated seconds; a real one runs `speed` times fast.
    realSecondsFor: (simSeconds) => Math.max(1, Math.ceil(manual ? simSeconds : simSeconds / speed)),
    advance,
    controlRoutes: options.controlRoutes ?? true,
    port: () => port,
  });

  const http: Server = createServer((req, res) => {
    if (!manual) advanceWorld();
    server.handle(req, res);
  });
  const timer = manual ? null : setInterval(advanceWorld, REAL_TICK_MS);
  const oddsTimer = oddsRate > 0 ? startOddsTicker(world, streams, oddsRate, seed) : null;
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (http.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    keys,
    advance,
    now: () => Math.floor(simNow()),
    addKey: (plan, o = {}) =>
      access.add(plan, { ...(o.quotaPerHour ? { quotaPerHour: o.quotaPerHour } : {}), model: o.model ?? null }).key,
    regenerateKey: (oldKey) => access.regenerate(oldKey),
    revokeKey: (key) => access.revoke(key),
    setFaults: (faults, key) => access.setFaults(faults, key, faultNow()),
    requestLog: () => server.requestLog(),
    truth: {
      event: (id) => world.eventOdds(id),
      settled: () => world.allSettled(),
      maxWinChanges: () => world.maxWinChanges(),
      bookIds: () => world.bookIds(),
      scenarios: () => world.scenarios(),
    },
    openStreams: () => streams.openCount(),
    script: {
      setMarket: (eventId, lineId, prices, maxWin) => world.setMarket(eventId, lineId, prices, maxWin),
      suspend: (eventId, lineId, seconds, reoffer) => world.suspendMarket(eventId, lineId, seconds, reoffer),
      dropSide: (eventId, lineId, side, seconds) => world.dropSide(eventId, lineId, side, seconds),
      kickOff: (eventId) => world.kickOff(eventId),
      abandon: (eventId, status = 'abandoned') => world.abandonMatch(eventId, status),
      outcomeWords: (eventId, lineId, words) => world.setOutcomeWords(eventId, lineId, words),
    },
    busy: busyInfo && { ...busyInfo, flappingEventIds: [...busyInfo.flappingEventIds] },
    onStreamMessage: taps.event,
    close: async () => {
      if (timer) clearInterval(timer);
      if (oddsTimer) clearInterval(oddsTimer);
      streams.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** The lowest-id book events that start at least two hours after `startMs` (so they outlast a two-hour run). */
function flappingEvents(world: World, startMs: number, count: number): number[] {
  const late = world.bookIds().filter((id) => {
    const starts = parseServiceTime(world.eventOdds(id)?.starts ?? '');
    return starts !== null && starts >= startMs + 2 * 3600_000;
  });
  return late.slice(0, Math.max(0, count));
}

/**
 * Paces `rate` price changes a second against the real clock (the count due is recomputed from the start each tick,
 * so timer jitter does not lower the rate) over the events that have an open stream. Its dice are its own, so the
 * world's seeded motion is the same with or without it.
 */
function startOddsTicker(world: World, streams: StreamHub, rate: number, seed: number): NodeJS.Timeout {
  const rng = new Prng((seed ^ 0x6f646473) >>> 0);
  const started = Date.now();
  let done = 0;
  return setInterval(() => {
    const due = Math.floor(((Date.now() - started) * rate) / 1000);
    const ids = streams.openEventIds();
    if (!ids.length) {
      done = due; // nobody listens: no backlog to burst out once a stream opens
      return;
    }
    // Events with nothing priced (offline) are skipped; a few misses in a row end the tick instead of spinning.
    // Counted in markets moved: a nudge that moves a ladder moves several (src/sim/world.ts, nudgeOdds).
    for (let misses = 0; done < due && misses < 20;) {
      const moved = world.nudgeOdds(rng.pick(ids), rng);
      if (moved) done += moved;
      else misses++;
    }
    done = Math.max(done, due - rate); // never owe more than a second after a stall
  }, ODDS_TICK_MS);
}
