// `record`: runs the monitor engine headless against a service and writes the database. stdout carries one JSON
// object per line for each domain event; progress, status and the engine's warnings go to stderr, scrubbed. It is
// composed with the host kit like the other hosts: the key from --api-key-file (or stdin) or ODDSDESK_API_KEY, the
// one profile policy for its --db file, a logger for its engine, one bounded shutdown.
import { realClock, type Clock, type TimerHandle } from '../core/clock';
import { createEngine } from '../core/engine';
import { createHostKit, logLevelFrom, stderrSink } from '../core/host/kit';
import type { MonitorEvent } from '../core/monitor';
import { DEFAULT_MONITOR_SETTINGS } from '../core/settingsService';
import { openProfileStore } from '../core/profiles';
import { createProxyFetch, describeProxy, proxySettings } from '../core/net/proxyFetch';
import { requestsLine, requestsSummary } from '../core/status';
import { openStore } from '../core/store';

export interface RecordOptions {
  baseUrl: string;
  watch: number[];
  db: string;
  durationS: number | null;
  settledEveryS: number;
  /** The hourly quota of the trader's plan, used while the service sends no rate-limit headers. */
  quotaPerHour?: number;
  /** `--api-key-file`: a file holding the key, or `-` for standard input; else ODDSDESK_API_KEY. */
  apiKeyFile?: string;
}

/**
 * The stdout lines of a domain event, in the shape the monitor issue documents: a coalesced batch is one `odds` line
 * per event whose markets it moved (or replaced), as before.
 */
export function recordLines(e: MonitorEvent): Array<Record<string, unknown>> {
  if (e.type === 'batch') {
    return e.events
      .filter((x) => x.markets.length > 0 || x.replace)
      .map((x) => ({ type: 'odds', event_id: x.eventId, markets: x.markets }));
  }
  const line = recordLine(e);
  return line ? [line] : [];
}

/** The stdout line of any other domain event. */
function recordLine(e: Exclude<MonitorEvent, { type: 'batch' }>): Record<string, unknown> | null {
  switch (e.type) {
    case 'settlement':
      // A re-settlement has a line type of its own: a `settlement` line stays "stored for the first time".
      if (e.resettled) {
        return {
          type: 'resettlement',
          event_id: e.settlement.event_id,
          settled_at: e.settlement.settled_at,
          score_home: e.settlement.score_home,
          score_away: e.settlement.score_away,
          status: e.settlement.status,
          from_score_home: e.resettled.scoreHome,
          from_score_away: e.resettled.scoreAway,
          from_status: e.resettled.status,
        };
      }
      return {
        type: 'settlement',
        event_id: e.settlement.event_id,
        settled_at: e.settlement.settled_at,
        score_home: e.settlement.score_home,
        score_away: e.settlement.score_away,
      };
    case 'max_win':
      return {
        type: 'max_win',
        event_id: e.eventId,
        special_id: e.specialId,
        contestant_id: e.contestantId,
        line_id: e.lineId,
        from: e.from,
        to: e.to,
        at: e.at,
      };
    case 'error':
      return { type: 'error', kind: e.error.kind, message: e.error.message };
    default:
      return null;
  }
}

/** What a host gives the recorder; the CLI passes nothing (real clock, process streams, signals, proxy-aware fetch). */
export interface RecordHost {
  clock?: Clock;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  fetch?: typeof fetch;
  /** Resolves with a reason to stop (tests); the CLI stops on SIGINT/SIGTERM or at the end of --duration. */
  stop?: Promise<string>;
  /** The key, for hosts that are not a process of their own (tests); the CLI reads it as the host kit does. */
  key?: string;
  /** Standard input's text, for `--api-key-file -` (tests). */
  readStdin?: () => string;
  /** The CLI's own process: uncaught exceptions and unhandled rejections are logged scrubbed, then it exits 1. */
  catchCrashes?: boolean;
  /** The service's ping interval (tests whose clock runs far faster than the service's real-time pings). */
  pingIntervalMs?: number;
}

export async function runRecord(options: RecordOptions, host: RecordHost = {}): Promise<number> {
  const out = host.stdout ?? ((t: string) => void process.stdout.write(t));
  const err = host.stderr ?? ((t: string) => void process.stderr.write(t));
  const clock = host.clock ?? realClock;
  const kit = createHostKit({ sink: stderrSink(err, () => clock.now()), level: logLevelFrom(process.env) });
  // The CLI's process (a test's in-process recorder leaves the process alone): a crash goes through the scrubber.
  if (host.catchCrashes) kit.catchCrashes();
  const log = (text: string) => kit.log('info', text);
  const intake = kit.takeKey({
    env: host.key === undefined ? process.env : { ODDSDESK_API_KEY: host.key },
    ...(options.apiKeyFile === undefined ? {} : { file: options.apiKeyFile }),
    ...(host.readStdin ? { readStdin: host.readStdin } : {}),
  });
  if (!intake.ok) {
    err(`record: ${intake.message}\n`);
    return 2;
  }
  if (intake.key === null) {
    err(
      'record: give the service key with --api-key-file FILE (or - for standard input) or the ODDSDESK_API_KEY environment variable\n',
    );
    return 2;
  }
  const key = intake.key;

  // --db names the real service's history: the one profile policy (a demo file or another service's history is
  // refused, as everywhere).
  const opened = openProfileStore({ kind: 'service', baseUrl: options.baseUrl }, [options.db], (file) =>
    openStore({ path: file, clock: () => clock.now(), writer: 'thread' }),
  );
  if (!opened.ok) {
    err(`record: ${opened.problems.join('; ')}\n`);
    return 2;
  }
  const store = opened.store;
  const proxy = proxySettings(process.env).httpsProxy;
  if (!host.fetch && proxy) log(`through the proxy ${describeProxy(proxy)} (HTTPS_PROXY/NO_PROXY)`);
  // A recorder alerts on every max_win change (threshold 0): its record is complete; the model is the service's.
  const settings = {
    ...DEFAULT_MONITOR_SETTINGS,
    devigModel: null,
    maxWinThresholdPct: 0,
    settledEverySeconds: options.settledEveryS,
    specialsEverySeconds: 120,
  };
  const engine = createEngine({
    baseUrl: options.baseUrl,
    key,
    store,
    clock,
    notifier: { notify: () => undefined },
    settings: () => settings,
    fetch: host.fetch ?? createProxyFetch(process.env),
    logger: kit.log,
    ...(host.pingIntervalMs ? { pingIntervalMs: host.pingIntervalMs } : {}),
    ...(options.quotaPerHour === undefined ? {} : { quotaPerHour: options.quotaPerHour }),
  });
  const { client, monitor } = engine;
  // Stopped in this order under the kit's one deadline: requests and streams end and ticks flush, then the file closes.
  kit.onShutdown('the engine', () => engine.stop());
  kit.onShutdown('the history file', () => store.close());
  // The governor counts every request it sends (stream opens and 429s included; the free status probe not).
  const requests = () => client.governor.state().requests.session.total;

  monitor.on((event) => {
    for (const line of recordLines(event)) out(JSON.stringify(line) + '\n');
  });

  // The duration counts from launch, and a signal during start-up still stops cleanly.
  const timers: TimerHandle[] = [];
  const stopped = new Promise<string>((resolve) => {
    if (host.stop) void host.stop.then(resolve);
    else {
      process.once('SIGINT', () => resolve('SIGINT'));
      process.once('SIGTERM', () => resolve('SIGTERM'));
    }
    if (options.durationS !== null) timers.push(clock.setTimeout(() => resolve('duration'), options.durationS * 1000));
  });

  for (const id of options.watch) await monitor.watch(id);
  log(`recording ${options.baseUrl} into ${options.db}; watching ${store.watchlist.watchIds().length} event(s)`);
  await engine.start();
  const first = await Promise.race([monitor.initialised().then(() => 'ready'), stopped]);
  if (first === 'ready') log(`ready: first settlement walk and specials round done (${requests()} requests so far)`);

  let progressOn = true;
  const progress = () => {
    if (!progressOn) return;
    const s = monitor.stats();
    const live = monitor.streamStates().filter((x) => x.status === 'live').length;
    const q = client.governor.state().quota;
    log(
      `requests ${requests()} · settlements +${s.settlementsAdded} · max_win changes ${s.maxWinChanges} · streams ${live}/${monitor.streamStates().length} live` +
        (q.remaining !== null ? ` · quota remaining ${q.remaining}` : ''),
    );
    timers.push(clock.setTimeout(progress, 10_000));
  };
  timers.push(clock.setTimeout(progress, 10_000));

  const why = await stopped;
  progressOn = false;
  for (const t of timers) clock.clearTimeout(t);
  log(`stopping (${why})`);
  if (why === 'duration') {
    // The record should be complete up to the end: one last walk over what settled meanwhile, and one last look at
    // the specials' history (within the quota) so the max_win changes since the previous round are in too.
    await monitor.syncSettled();
    await monitor.refreshSpecials();
  }
  const gov = client.governor.state();
  const closed = await kit.shutdown(why);
  const s = monitor.stats();
  log(
    `done: the recorder made ${gov.requests.session.total} requests (${gov.requests.session.rateLimited} answered 429); ${s.settlementsAdded} new settlements, ${s.maxWinChanges} max_win changes`,
  );
  log(`requests by purpose: ${requestsSummary(gov)}`);
  // The last stdout line: every request of the run, by purpose.
  out(JSON.stringify(requestsLine(gov)) + '\n');
  return closed === 'closed' ? 0 : 1;
}
