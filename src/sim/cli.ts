// `npm run sim -- ...` / `npm run cli -- sim ...`: parses the simulator's flags, starts it on a real clock and prints
// its base URL and keys. Runs until the process is stopped.
import { Command, InvalidArgumentError } from 'commander';
import type { Plan } from '../shared/api';
import { PLANS } from '../shared/api';
import { startSimulator, type Faults, type SimKey, type Simulator } from './index';

function number(min: number, max = Number.POSITIVE_INFINITY) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < min || n > max)
      throw new InvalidArgumentError(`expected a number from ${min} to ${max}`);
    return n;
  };
}

function keySpec(value: string, previous: SimKey[] = []): SimKey[] {
  const at = value.lastIndexOf(':');
  const key = value.slice(0, at);
  const plan = value.slice(at + 1);
  if (at <= 0 || !(PLANS as readonly string[]).includes(plan))
    throw new InvalidArgumentError(`expected KEY:PLAN with PLAN one of ${PLANS.join(', ')}`);
  return [...previous, { key, plan: plan as Plan }];
}

interface CliFlags {
  port: number;
  seed: number;
  speed: number;
  quota?: number;
  key?: SimKey[];
  events?: number;
  oddsRate?: number;
  startTime?: string;
  rateLimitHeaders: boolean;
  faultDropMs?: number;
  faultStallMs?: number;
  fault5xx?: number;
  faultLatencyMs?: number;
  faultMalformed?: number;
  faultStormS?: number;
  faultRetryAfterS?: number;
  faultFlapS?: number;
  busy?: boolean;
  resultsDelayS?: number;
  flapEvents?: number;
  flapMinutes?: number;
}

/** Starts the simulator from command-line arguments (without the leading `sim`); resolves once it listens. */
export async function runSimCli(
  argv: string[],
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
): Promise<Simulator> {
  const program = new Command()
    .name('sim')
    .description('Run the upstream odds service simulator (see src/sim/CONTROL.md)')
    .option('--port <n>', 'port on 127.0.0.1 (0 = any free port)', number(0, 65535), 8787)
    .option('--seed <n>', 'world seed', number(0), 42)
    .option('--speed <x>', 'simulated seconds per real second', number(0.001), 60)
    .option('--quota <n>', 'hourly request quota per key', number(1))
    .option('--key <KEY:PLAN>', 'a key and its plan (starter|enterprise); repeatable', keySpec)
    .option('--events <n>', 'events kept in the book', number(1))
    .option('--odds-rate <n>', 'load generation: extra price changes per second over the streamed events', number(0))
    .option('--start-time <iso>', 'simulated start, YYYY-MM-DDTHH:MM:SS (UTC)')
    .option('--no-rate-limit-headers', 'do not send X-RateLimit-* headers')
    .option('--fault-drop-ms <ms>', 'close every stream connection this often', number(1))
    .option('--fault-stall-ms <ms>', 'once at start: streams send nothing for this long', number(1))
    .option('--fault-5xx <rate>', 'share of answers replaced by 500/502/503', number(0, 1))
    .option('--fault-latency-ms <ms>', 'latency added to every answer', number(0))
    .option('--fault-malformed <rate>', 'share of JSON answers with a broken record', number(0, 1))
    .option('--fault-storm-s <s>', 'answer 429 to everything for this many seconds from start', number(1))
    .option('--fault-retry-after-s <s>', 'Retry-After to send with 429', number(0))
    .option(
      '--fault-flap-s <s>',
      'every stream connection is dropped this many simulated seconds after its snapshot',
      number(0),
    )
    .option(
      '--busy',
      'the busy day: >= 3,000 settlements an hour (set sports), crowded seconds, late results, quota 1000/h, flapping streams',
    )
    .option(
      '--results-delay-s <s>',
      'busy day: simulated seconds before /api/results shows a settlement (default 300)',
      number(0),
    )
    .option('--flap-events <n>', 'busy day: how many book events have a flapping stream (default 2)', number(0))
    .option('--flap-minutes <n>', 'busy day: simulated minutes from the start that they flap (default 60)', number(0))
    .exitOverride()
    .configureOutput({ writeOut: (s) => out(s.trimEnd()), writeErr: (s) => out(s.trimEnd()) });
  program.parse(argv, { from: 'user' });
  const f = program.opts<CliFlags>();

  const faults: Faults = {};
  if (f.faultDropMs !== undefined) faults.dropStreamEveryMs = f.faultDropMs;
  if (f.faultStallMs !== undefined) faults.stallStreamMs = f.faultStallMs;
  if (f.fault5xx !== undefined) faults.serverErrorRate = f.fault5xx;
  if (f.faultLatencyMs !== undefined) faults.latencyMs = f.faultLatencyMs;
  if (f.faultMalformed !== undefined) faults.malformedRate = f.faultMalformed;
  if (f.faultStormS !== undefined) faults.rateLimitStormS = f.faultStormS;
  if (f.faultRetryAfterS !== undefined) faults.retryAfterS = f.faultRetryAfterS;
  if (f.faultFlapS !== undefined) faults.flapStreamS = f.faultFlapS;
  const busy = f.busy
    ? {
        ...(f.resultsDelayS !== undefined ? { resultsDelayS: f.resultsDelayS } : {}),
        ...(f.flapEvents !== undefined ? { flapEvents: f.flapEvents } : {}),
        ...(f.flapMinutes !== undefined ? { flapMinutes: f.flapMinutes } : {}),
      }
    : undefined;

  const sim = await startSimulator({
    port: f.port,
    seed: f.seed,
    clock: 'real',
    speed: f.speed,
    rateLimitHeaders: f.rateLimitHeaders,
    faults,
    ...(f.quota !== undefined ? { quotaPerHour: f.quota } : {}),
    ...(f.key ? { keys: f.key } : {}),
    ...(f.events !== undefined ? { events: f.events } : {}),
    ...(f.startTime ? { startTime: f.startTime } : {}),
    ...(f.oddsRate ? { oddsRate: f.oddsRate } : {}),
    ...(busy ? { busy } : {}),
  });
  out(`simulator listening on ${sim.url} (seed ${f.seed}, speed ${f.speed}x)`);
  for (const k of sim.keys) out(`key ${k.plan}: ${k.key}`);
  if (Object.keys(faults).length) out(`faults: ${JSON.stringify(faults)}`);
  if (sim.busy) {
    const b = sim.busy;
    out(
      `busy day: results published ${b.resultsDelayS} s after settlement; streams of ${b.flappingEventIds.join(', ') || 'no event'} flap until ${new Date(b.flapUntil).toISOString().slice(0, 19)}`,
    );
  }
  return sim;
}
