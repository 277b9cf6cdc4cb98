// What the core pushes to its host: the current engine's domain events turned into the contract's pushed events
// (odds coalesced to one batch per interval, settlements, alerts), and the status projection, sent at most every
// 250 ms. It follows whichever connection the session says is current, and nothing from a replaced one.
import type { Market, SettledEvent } from '../shared/api';
import { parseServiceTime } from '../shared/api';
import type { EventView, MarketView, SettlementRow } from '../shared/domain';
import type { AppError } from '../shared/errors';
import { STREAM_GONE, type OddsBatch, type PushListener, type StatusView } from '../shared/ipc/contract';
import { DisposableStore, Emitter } from '../shared/event';
import type { Clock, TimerHandle } from './clock';
import type { MonitorEvent, SnapshotHeader } from './monitor';
import type { CoalescedEvent } from './monitor/coalescer';
import type { UserNotification } from './notifier';
import type { Connection } from './session';
import type { Store } from './store';
import { quotaView } from './status';

export function marketView(m: Market, seenAt: number): MarketView {
  return {
    lineId: m.line_id,
    period: m.period,
    market: m.market,
    side: m.side,
    line: m.line,
    prices: m.prices,
    maxWin: m.max_win,
    updatedAt: m.updated_at,
    seenAt,
  };
}

export function settlementRow(s: SettledEvent): SettlementRow {
  // The schema admitted both texts as service date-times, so they parse.
  const parse = (t: string) => parseServiceTime(t)!;
  const ml = s.settlement.find((l) => l.market === 'moneyline' && l.period === 0);
  return {
    eventId: s.event_id,
    sportId: s.sport_id,
    leagueId: s.league_id,
    leagueName: s.league_name,
    runnerHome: s.runner_home,
    runnerAway: s.runner_away,
    starts: parse(s.starts),
    settledAt: parse(s.settled_at),
    scoreHome: s.score_home,
    scoreAway: s.score_away,
    status: s.status,
    lineCount: s.settlement.length,
    moneyline: ml ? { home: ml.outcome_home, draw: ml.outcome_draw, away: ml.outcome_away } : null,
  };
}

export interface Pushes {
  push: PushListener;
  subscribe(listener: PushListener): () => void;
  onMonitorEvent(listener: (e: MonitorEvent) => void): () => void;
  /** Follows this connection's engine from now on (and drops the previous one's). */
  attach(connection: Connection): void;
  /** A notification the core decided on, for a host whose page shows notifications (browser mode). */
  notification(n: UserNotification): void;
  status(): StatusView;
  scheduleStatus(): void;
  /** A request answered (or not): keeps the online/offline state and the last error. */
  noteOutcome(error: AppError | null): void;
  /** The status stops showing this error, if it is the last one (its cause went away: a removed watch's stream). */
  forgetError(error: AppError): void;
  close(): void;
}

/**
 * A replaced row's header: the snapshot's teams, league, start, state and score over what the store held of the event
 * (its sport's name, which a snapshot does not carry). Without a snapshot (a bare replace), the store's view.
 */
export function snapshotView(
  store: Pick<Store, 'history' | 'scores'>,
  eventId: number,
  s: SnapshotHeader | undefined,
): EventView | null {
  const stored = store.history.eventView(eventId);
  if (!s) return stored;
  return {
    eventId,
    sportId: s.sport_id,
    sportName:
      stored?.sportId === s.sport_id && stored.sportName
        ? stored.sportName
        : (store.scores.sportNames().get(s.sport_id) ?? null),
    leagueId: s.league_id,
    leagueName: s.league_name,
    runnerHome: s.runner_home,
    runnerAway: s.runner_away,
    starts: parseServiceTime(s.starts) ?? stored?.starts ?? null,
    liveStatus: s.live_status,
    scoreHome: s.score_home,
    scoreAway: s.score_away,
  };
}

/**
 * The monitor's coalesced batch in the screen's shape, as one push: the monitor's coalescer is the one pacing stage
 * (odds, scores and ends alike, at most one flush per its DEFAULT_BATCH_MS), so nothing is gathered here. A
 * snapshot's header (teams, league, start, score) goes with the snapshot, so an event watched by its id alone gets its
 * names without a reload: the snapshot's own word, over what the store held before it (the store's writer may not
 * have written the snapshot yet).
 */
function oddsBatch(at: number, connection: Connection, batch: readonly CoalescedEvent[]): OddsBatch {
  const events: OddsBatch['events'] = [];
  for (const e of batch) {
    const entry: OddsBatch['events'][number] = {
      eventId: e.eventId,
      markets: e.markets.map((m) => marketView(m, at)),
    };
    if (e.replace) {
      entry.replace = true;
      const header = snapshotView(connection.store, e.eventId, e.snapshot);
      if (header) entry.event = header;
    }
    if (e.score)
      entry.score = { liveStatus: e.score.liveStatus, scoreHome: e.score.scoreHome, scoreAway: e.score.scoreAway };
    if (e.ended !== undefined) entry.ended = e.ended;
    events.push(entry);
  }
  return { events, at };
}

/** What the pushes keep of the connection beside the session: online or not since when, and the last error. */
interface LinkState {
  connection: StatusView['connection'];
  since: number | null;
  lastError: AppError | null;
}

/** The status projection: the link's state over the current connection's governor and streams. */
function statusView(c: Connection, link: LinkState): StatusView {
  const gov = c.engine?.client.governor.state();
  const streams = c.engine?.monitor.streamStates() ?? [];
  return {
    connection: link.connection,
    connectionSince: link.since,
    demo: c.demo,
    auth: gov?.auth ?? (c.engine ? 'ok' : 'missing'),
    plan: gov && gov.plan !== 'unknown' ? gov.plan : null,
    restricted: (gov?.restrictedPaths ?? []).map((r) => ({
      path: r.path,
      requiredPlan: r.requiredPlan ?? 'enterprise',
      yourPlan: r.yourPlan ?? 'unknown',
    })),
    quota: quotaView(gov),
    streams: streams.map((s) => ({
      eventId: s.eventId,
      state: s.status === 'failed' && s.error?.kind === 'plan' ? 'restricted' : s.status,
      lastMessageAt: s.lastEventAt,
      // A stream refused because the service does not know the event (a restarted book, an event withdrawn long
      // ago): said as its end, 'unknown', so the row tells the trader the match is gone instead of "stream stopped".
      endReason:
        s.status === 'ended'
          ? (s.endReason ?? null)
          : s.status === 'failed' && s.error?.kind === 'not_found'
            ? STREAM_GONE
            : null,
    })),
    lastSettledSync: c.engine?.monitor.lastSettledSync() ?? null,
    lastError: c.problem ?? link.lastError,
  };
}

export function createPushes(clock: Clock, current: () => Connection): Pushes {
  const pushed = new Emitter<Parameters<PushListener>>({ name: 'the core pushes' });
  const monitorEvents = new Emitter<[MonitorEvent]>({ name: 'the monitor events' });
  /** The current engine's subscriptions, ended when another connection is attached. */
  let attached = new DisposableStore();
  const link: LinkState = { connection: 'unknown', since: null, lastError: null };
  let statusTimer: TimerHandle | null = null;

  const push: PushListener = (event, payload) => pushed.fire(event, payload);
  let notificationId = 0;

  /** The one place the online/offline state changes, so "offline since" is the moment it went. */
  function setConnection(next: StatusView['connection']): boolean {
    if (next === link.connection) return false;
    link.connection = next;
    link.since = next === 'unknown' ? null : clock.now();
    return true;
  }

  function onMonitorEvent(connection: Connection, e: MonitorEvent): void {
    if (current() !== connection) return; // a replaced engine's last words go nowhere
    monitorEvents.fire(e);
    switch (e.type) {
      case 'batch':
        if (e.events.length) push('onOdds', oddsBatch(clock.now(), connection, e.events));
        if (e.events.some((x) => x.markets.length > 0 || x.replace || x.score) && setConnection('online'))
          scheduleStatus();
        break;
      case 'settlement':
        push('onSettlement', settlementRow(e.settlement));
        if (e.watched) push('onWatchlist', connection.store.watchlist.watchedEvents());
        break;
      case 'other_match':
        // The row says it at once (the store keeps the flag); the stopped stream leaves the status.
        if (e.watched) push('onWatchlist', connection.store.watchlist.watchedEvents());
        scheduleStatus();
        break;
      case 'alert':
        push('onAlert', e.alert);
        break;
      case 'error':
        link.lastError = e.error;
        if (e.error.kind === 'network') setConnection('offline');
        scheduleStatus();
        break;
      default:
        break;
    }
  }

  const status = (): StatusView => statusView(current(), link);

  function scheduleStatus(): void {
    if (statusTimer !== null) return;
    statusTimer = clock.setTimeout(() => {
      statusTimer = null;
      push('onStatus', status());
    }, 250);
  }

  return {
    push,
    subscribe(listener) {
      const unsubscribe = pushed.event(listener);
      listener('onStatus', status());
      return unsubscribe;
    },
    onMonitorEvent: monitorEvents.event,
    notification(n) {
      push('onNotification', {
        id: ++notificationId,
        kind: n.kind,
        title: n.title,
        body: n.body,
        eventId: n.eventId ?? null,
        lineId: n.lineId ?? null,
        sound: n.sound === true,
      });
    },
    attach(connection) {
      attached.dispose();
      attached = new DisposableStore();
      link.lastError = null;
      setConnection('unknown');
      const engine = connection.engine;
      if (engine) {
        attached.add(engine.client.governor.subscribe(() => scheduleStatus()));
        attached.add(engine.streams.onState(() => scheduleStatus()));
        attached.add(engine.monitor.on((e) => onMonitorEvent(connection, e)));
      }
      push('onWatchlist', connection.store.watchlist.watchedEvents());
      scheduleStatus();
    },
    status,
    scheduleStatus,
    noteOutcome(error) {
      const changed = setConnection(error?.kind === 'network' ? 'offline' : 'online');
      if (error) link.lastError = error;
      if (changed || error) scheduleStatus();
    },
    forgetError(error) {
      if (link.lastError?.kind !== error.kind || link.lastError.message !== error.message) return;
      link.lastError = null;
      scheduleStatus();
    },
    close() {
      attached.dispose();
      if (statusTimer !== null) clock.clearTimeout(statusTimer);
      statusTimer = null;
      pushed.dispose();
      monitorEvents.dispose();
    },
  };
}
