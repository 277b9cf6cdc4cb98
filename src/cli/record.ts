// `record`: runs the monitor engine headless against a service and writes the database. stdout carries one JSON
// object per line for each domain event; progress and status go to stderr. The key comes from ODDSDESK_API_KEY.
import { realClock } from '../core/clock';
import { createEngine } from '../core/engine';
import { DEFAULT_MONITOR_SETTINGS, type MonitorEvent } from '../core/monitor';
import { claimProfile } from '../core/profiles';
import { openStore } from '../core/store';

export interface RecordOptions {
  baseUrl: string;
  watch: number[];
  db: string;
  durationS: number | null;
  settledEveryS: number;
  /** The hourly quota of the trader's plan, used while the service sends no rate-limit headers. */
  quotaPerHour?: number;
}

/** The stdout line of a domain event, in the shape the monitor issue documents. */
export function recordLine(e: MonitorEvent): Record<string, unknown> | null {
  switch (e.type) {
    case 'settlement':
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
    case 'odds':
      return { type: 'odds', event_id: e.eventId, markets: e.markets };
    case 'error':
      return { type: 'error', kind: e.error.kind, message: e.error.message };
    default:
      return null;
  }
}

export async function runRecord(options: RecordOptions): Promise<number> {
  const key = process.env['ODDSDESK_API_KEY'];
  // Read once, then gone from the environment: no child process, crash report or diagnostics dump can see it.
  delete process.env['ODDSDESK_API_KEY'];
  if (!key) {
    process.stderr.write('record: set ODDSDESK_API_KEY to the service key (it is read from the environment only)\n');
    return 2;
  }
  const log = (text: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${text}\n`);

  // Every HTTP request the recorder makes passes here, so the count it reports is exact.
  let requests = 0;
  let rateLimited = 0;
  const countingFetch: typeof fetch = async (input, init) => {
    requests++;
    const res = await fetch(input, init);
    if (res.status === 429) rateLimited++;
    return res;
  };

  const store = openStore({ path: options.db });
  // --db names the real service's history: a demo file is refused, another service's history is named aloud.
  const claim = claimProfile(store, { kind: 'service', baseUrl: options.baseUrl });
  if (!claim.ok) {
    store.close();
    process.stderr.write(`record: ${claim.message}\n`);
    return 2;
  }
  if (claim.previous !== null && claim.previous !== options.baseUrl) {
    log(`warning: ${options.db} holds the history of ${claim.previous}; recording ${options.baseUrl} into it as asked`);
  }
  const settings = { ...DEFAULT_MONITOR_SETTINGS, settledEverySeconds: options.settledEveryS, specialsEverySeconds: 120 };
  const engine = createEngine({
    baseUrl: options.baseUrl,
    key,
    store,
    clock: realClock,
    notifier: { notify: () => undefined },
    settings: () => settings,
    fetch: countingFetch,
    ...(options.quotaPerHour === undefined ? {} : { quotaPerHour: options.quotaPerHour }),
  });
  const { client, monitor } = engine;

  monitor.on((event) => {
    const line = recordLine(event);
    if (line) process.stdout.write(JSON.stringify(line) + '\n');
  });

  // The duration counts from launch, and a signal during start-up still stops cleanly.
  const stopped = new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
    if (options.durationS !== null) setTimeout(() => resolve('duration'), options.durationS * 1000);
  });

  for (const id of options.watch) await monitor.watch(id);
  log(`recording ${options.baseUrl} into ${options.db}; watching ${store.watchIds().length} event(s)`);
  await monitor.start();
  const first = await Promise.race([monitor.initialised().then(() => 'ready'), stopped]);
  if (first === 'ready') log(`ready: first settlement walk and specials round done (${requests} requests so far)`);

  const progress = setInterval(() => {
    const s = monitor.stats();
    const live = monitor.streamStates().filter((x) => x.status === 'live').length;
    const q = client.governor.state().quota;
    log(
      `requests ${requests} · settlements +${s.settlementsAdded} · max_win changes ${s.maxWinChanges} · streams ${live}/${monitor.streamStates().length} live` +
        (q.remaining !== null ? ` · quota remaining ${q.remaining}` : ''),
    );
  }, 10_000);

  const why = await stopped;
  clearInterval(progress);
  log(`stopping (${why}); flushing`);
  if (why === 'duration') {
    // The record should be complete up to the end: one last walk over what settled meanwhile, and one last look at
    // the specials' history (within the quota) so the max_win changes since the previous round are in too.
    await monitor.syncSettled();
    await monitor.refreshSpecials();
  }
  await engine.stop();
  store.close();
  const s = monitor.stats();
  log(`done: the recorder made ${requests} requests (${rateLimited} answered 429); ${s.settlementsAdded} new settlements, ${s.maxWinChanges} max_win changes`);
  return 0;
}
