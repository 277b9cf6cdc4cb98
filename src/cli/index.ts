// `npm run cli -- <command>`: the headless entry. Every command runs the core (or the simulator) without Electron.
//   record --base-url URL [--watch ID ...] [--db FILE] [--duration SECONDS] [--settled-every SECONDS] [--quota N]
//   export settlements|results|max-win|bets --db FILE [--format json|csv] [--since ISO] [--sport ID] [--odds-format F]
//   report models --db FILE [--format json|csv] [--since ISO] [--sport ID]
//   report rules --db FILE [--format json|csv] [--since ISO] [--sport ID] [--model M] [--drop-pct N] [--window MIN]
//   sim ...   the upstream simulator
//   web       browser mode
import { Argument, Command, InvalidArgumentError, Option } from 'commander';
import { DEVIG_MODELS, parseServiceTime, type DevigModel } from '../shared/api';
import { checkBaseUrl } from '../shared/baseUrl';
import { ODDS_FORMATS, type OddsFormat } from '../shared/formats';
import { restrictFileModes } from '../core/fileModes';

// Before any command opens a database or writes a file: owner-only files and folders (src/core/fileModes.ts).
restrictFileModes();

function port(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new InvalidArgumentError('expected a port number 0-65535');
  return n;
}

function eventId(value: string, previous: number[] = []): number[] {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n))
    throw new InvalidArgumentError(`"${value}" is not an event id (a whole number)`);
  return [...previous, n];
}

function positive(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || value.trim() === '')
    throw new InvalidArgumentError(`"${value}" is not a positive number`);
  return n;
}

function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || value.trim() === '')
    throw new InvalidArgumentError(`"${value}" is not a positive number of seconds`);
  return n;
}

/** The key goes wherever --base-url points: the same rule as the settings (https, or http on loopback only). */
function baseUrl(value: string): string {
  const r = checkBaseUrl(value);
  if (!r.ok) throw new InvalidArgumentError(r.message);
  return r.url;
}

function quota(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 1_000_000)
    throw new InvalidArgumentError(`"${value}" is not a request quota (a whole number 1-1000000)`);
  return n;
}

function isoTime(value: string): number {
  const ms = parseServiceTime(value);
  if (ms === null) throw new InvalidArgumentError(`"${value}" is not a date-time YYYY-MM-DDTHH:MM:SS (UTC)`);
  return ms;
}

function sportId(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`"${value}" is not a sport id (a whole number)`);
  return Number(value);
}

const program = new Command()
  .name('oddsdesk')
  .description('Oddsdesk headless commands')
  .showHelpAfterError()
  .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2))
  // commander repeats a refused argument; a URL's user-info (where a key is sometimes pasted) is not repeated.
  .configureOutput({
    outputError: (text, write) => write(text.replace(/\/\/[^\s/@']*@/g, '//[credentials removed]@')),
  });

program
  .command('record')
  .description('Run the monitor engine headless and write the database; domain events as JSON lines on stdout')
  .requiredOption(
    '--base-url <url>',
    'the odds service (key from --api-key-file, else the ODDSDESK_API_KEY environment variable)',
    baseUrl,
  )
  .option(
    '--api-key-file <file>',
    'read the service key from this file (- for standard input) instead of the environment',
  )
  .option('--watch <id...>', 'event ids to watch (repeatable)', eventId)
  .option('--db <file>', 'SQLite database to write', 'oddsdesk.db')
  .option('--duration <seconds>', 'stop after this many seconds (default: until SIGINT/SIGTERM)', seconds)
  .option('--settled-every <seconds>', 'how often to walk /api/settled', seconds, 60)
  .option(
    '--quota <requests>',
    'the hourly request quota of your plan (used while the service sends no rate-limit headers)',
    quota,
    1000,
  )
  .action(
    async (opts: {
      baseUrl: string;
      apiKeyFile?: string;
      watch?: number[];
      db: string;
      duration?: number;
      settledEvery: number;
      quota: number;
    }) => {
      const { runRecord } = await import('./record');
      process.exitCode = await runRecord(
        {
          baseUrl: opts.baseUrl,
          watch: [...new Set(opts.watch ?? [])],
          db: opts.db,
          durationS: opts.duration ?? null,
          settledEveryS: opts.settledEvery,
          quotaPerHour: opts.quota,
          ...(opts.apiKeyFile === undefined ? {} : { apiKeyFile: opts.apiKeyFile }),
        },
        { catchCrashes: true },
      );
    },
  );

program
  .command('export')
  .description('Write recorded settlements, period results, max_win change points or your bet log to stdout')
  .addArgument(
    new Argument('<what>', 'settlements | results | max-win | bets').choices([
      'settlements',
      'results',
      'max-win',
      'bets',
    ]),
  )
  .requiredOption('--db <file>', 'the recorded SQLite database')
  .addOption(new Option('--format <format>', 'output format').choices(['json', 'csv']).default('json'))
  .option('--since <iso>', 'only records at or after this UTC date-time (bets: placed at or after)', isoTime)
  .option('--sport <id>', 'only this sport id (not for bets)', sportId)
  .addOption(
    new Option(
      '--odds-format <format>',
      'bets as CSV: the columns price_in_format and closing_price_in_format in this odds format (price and closing_price stay decimal)',
    )
      .choices([...ODDS_FORMATS])
      .default('decimal'),
  )
  .action(
    async (
      what: 'settlements' | 'results' | 'max-win' | 'bets',
      opts: { db: string; format: 'json' | 'csv'; since?: number; sport?: number; oddsFormat: OddsFormat },
    ) => {
      const { runExport } = await import('./export');
      process.exitCode = await runExport({
        kind: what,
        db: opts.db,
        format: opts.format,
        since: opts.since ?? null,
        sport: opts.sport ?? null,
        oddsFormat: opts.oddsFormat,
      });
    },
  );

program
  .command('report')
  .description(
    'Reports from a recorded database: `models`, which de-vig model the closing prices call best; `rules`, which drop rule beats the close (the rule lab)',
  )
  .addArgument(new Argument('<what>', 'models or rules').choices(['models', 'rules']))
  .requiredOption('--db <file>', 'the recorded SQLite database')
  .addOption(
    new Option('--format <format>', 'output format: one JSON object, or a CSV table')
      .choices(['json', 'csv'])
      .default('json'),
  )
  .option('--since <iso>', 'only lines of matches kicking off at or after this UTC date-time', isoTime)
  .option('--sport <id>', 'only this sport id', sportId)
  .addOption(new Option('--model <model>', 'rules: the de-vig model of the CLV').choices([...DEVIG_MODELS]))
  .option('--drop-pct <n>', 'rules: the current drop rule, percent (default the app default)', positive)
  .option('--window <minutes>', "rules: the current drop rule's window in minutes (default the app default)", positive)
  .action(
    async (
      what: 'models' | 'rules',
      opts: {
        db: string;
        format: 'json' | 'csv';
        since?: number;
        sport?: number;
        model?: DevigModel;
        dropPct?: number;
        window?: number;
      },
    ) => {
      const common = { db: opts.db, format: opts.format, since: opts.since ?? null, sport: opts.sport ?? null };
      if (what === 'rules') {
        const { runRulesReport } = await import('./reportRules');
        process.exitCode = await runRulesReport({
          ...common,
          ...(opts.model ? { model: opts.model } : {}),
          current: {
            ...(opts.dropPct ? { dropPct: opts.dropPct } : {}),
            ...(opts.window ? { dropWindowMinutes: opts.window } : {}),
          },
        });
        return;
      }
      const { runReport } = await import('./report');
      process.exitCode = await runReport(common);
    },
  );

program
  .command('web')
  .description('Run the app in a browser: start the core and the bridge, print the URL to open')
  .option('--port <port>', 'port on 127.0.0.1; 0 = a free port the system picks, new at each start', port, 0)
  .option(
    '--base-url <url>',
    'upstream service (key from ODDSDESK_API_KEY or the keychain); omitted = as configured, else demo',
    baseUrl,
  )
  .option(
    '--db <file>',
    "the real service's history (default: a file per service under ~/.local/share/oddsdesk/profiles); demo mode never writes into it",
  )
  .option(
    '--api-key-file <file>',
    'with --base-url: read the service key from this file (- for standard input) instead of ODDSDESK_API_KEY or the keychain',
  )
  .action(async (opts: { port: number; baseUrl?: string; db?: string; apiKeyFile?: string }) => {
    const { runWeb } = await import('./web');
    await runWeb({
      port: opts.port,
      ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}),
      ...(opts.db ? { db: opts.db } : {}),
      ...(opts.apiKeyFile === undefined ? {} : { apiKeyFile: opts.apiKeyFile }),
    });
  });

program
  .command('sim')
  .description('Run the upstream simulator (see src/sim/CONTROL.md)')
  .allowUnknownOption()
  .helpOption(false)
  .argument('[args...]')
  .action(async (args: string[]) => {
    const { runSimCli } = await import('../sim/cli');
    await runSimCli(args);
  });

await program.parseAsync(process.argv);
