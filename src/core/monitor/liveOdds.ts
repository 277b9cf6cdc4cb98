// The monitor's live side: what the streams deliver of the watched events, from the gate of an id's match
// (./otherMatches.ts) to the closing lines (./closingLines.ts), the odds pipeline (ticks, coalesced batches, limit
// moves) and alert dispatch (./alertDispatch.ts). It opens an event's stream when the event may have one, and lets go
// of all it holds of an event that is no longer followed.
import { PATHS } from '../../shared/api';
import { errorMessage } from '../../shared/errors';
import type { DisposableStore } from '../../shared/event';
import type { ApiClient } from '../api/client';
import type { Clock } from '../clock';
import type { Store } from '../store';
import type { StreamClient } from '../stream/client';
import type { AlertDispatch } from './alertDispatch';
import { createClosingLines } from './closingLines';
import { createOddsPipeline } from './oddsPipeline';
import { createOtherMatches } from './otherMatches';
import type { Reporter } from './reporter';

export interface LiveOdds {
  /** Listens to the streams until `subscriptions` is disposed. */
  follow(subscriptions: DisposableStore): void;
  /** Opens the event's stream, unless the plan, its settlement or another match under its id rules it out. */
  openStream(eventId: number): void;
  /** What is held of an event no longer followed goes (baselines, rule state); its pending closes are written. */
  forget(eventId: number): void;
  /** Hands what waits for its next write (ticks, closing lines) to the store's writer now. */
  flushWrites(): void;
  /** Hands on pending odds, writes what is pending, and stops. */
  close(): void;
  /** Events whose max_win baseline is held. */
  followed(): number;
}

export function createLiveOdds(o: {
  client: ApiClient;
  streams: StreamClient;
  store: Store;
  clock: Clock;
  batchMs: number;
  isWatched(eventId: number | null): boolean;
  alerts: AlertDispatch;
  reporter: Reporter;
  /** A stream ended because its match settled. */
  settled(eventId: number): void;
}): LiveOdds {
  const { client, streams, store, clock, alerts, reporter } = o;
  const { emit, internal, reportError } = reporter;

  const closingLines = createClosingLines({
    store,
    clock,
    isWatched: o.isWatched,
    isFollowing: (id) => streams.state(id)?.status === 'live',
    serviceNow: () => (client.clockSkewMs() === null ? null : client.serviceNow()),
    reportError,
  });

  const odds = createOddsPipeline({
    store,
    clock,
    batchMs: o.batchMs,
    // The one pacing stage: the coalesced batch goes to the host as it is, one monitor event (each event's markets,
    // then its score, then its end); then the batch's price alerts. An ended event's rule state goes after its last
    // prices were judged.
    onBatch: (batch) => {
      emit({ type: 'batch', events: batch });
      try {
        alerts.observePrices(batch);
      } catch (e) {
        internal(`Price alerts failed: ${errorMessage(e)}`);
      }
      for (const e of batch) if (e.ended !== undefined) alerts.forgetPrices(e.eventId);
    },
    onMaxWinChange: alerts.maxWinChange,
    reportError,
  });

  // An id the service now uses for another match: its stream is stopped and never opened again (./otherMatches.ts).
  const otherMatches = createOtherMatches({
    store,
    clock,
    onOtherMatch(eventId) {
      streams.unwatch(eventId);
      forget(eventId);
      emit({ type: 'other_match', eventId, watched: o.isWatched(eventId) });
    },
    reportError,
  });

  function forget(eventId: number): void {
    odds.forget(eventId);
    alerts.forget(eventId);
    closingLines.flush();
    closingLines.forget(eventId);
  }

  /**
   * Every message passes the one gate of an id's match first (./otherMatches.ts): nothing of another match under a
   * stored match's id is stored, judged or handed on.
   */
  function follow(subscriptions: DisposableStore): void {
    subscriptions.add(
      streams.onSnapshot((eventId, snapshot) => {
        if (!otherMatches.admitsSnapshot(eventId, snapshot)) return;
        closingLines.onSnapshot(eventId, snapshot);
        odds.onSnapshot(eventId, snapshot);
      }),
    );
    subscriptions.add(
      streams.onMarkets((eventId, markets) => {
        if (!otherMatches.admits(eventId)) return;
        closingLines.onMarkets(eventId, markets);
        odds.onMarkets(eventId, markets);
      }),
    );
    subscriptions.add(
      streams.onScore((eventId, score) => {
        if (!otherMatches.admits(eventId)) return;
        closingLines.onScore(eventId, score);
        try {
          store.odds.recordScore(score, clock.now());
        } catch (e) {
          internal(`Could not record a score: ${errorMessage(e)}`);
        }
        odds.onScore(eventId, {
          liveStatus: score.live_status,
          scoreHome: score.score_home,
          scoreAway: score.score_away,
        });
      }),
    );
    subscriptions.add(
      streams.onEnd((eventId, end) => {
        if (!otherMatches.admits(eventId)) return;
        // The match left the book: nothing more will move its limits. Its settlement is discovered through
        // /api/settled, soon.
        odds.forget(eventId);
        alerts.forgetLimits(eventId);
        closingLines.forget(eventId);
        // Its price rules go when the end is handed on, after the prices still in the batch (onBatch above).
        odds.onEnd(eventId, end.reason);
        if (end.reason === 'settled') o.settled(eventId);
      }),
    );
    subscriptions.add(streams.onProblem((_eventId, problem) => reporter.reportProblems([problem])));
    subscriptions.add(
      streams.onState((state) => {
        if (state.status === 'failed' && state.error) reportError(state.error);
      }),
    );
  }

  return {
    follow,
    openStream(eventId) {
      if (client.governor.state().restrictedPaths.some((r) => r.path === PATHS.stream)) return;
      if (store.settlements.settlement(eventId)) return; // it has left the book: there is no stream to open
      if (!otherMatches.admits(eventId)) return; // the service's stream of this id is another match's
      streams.watch(eventId);
    },
    forget,
    flushWrites() {
      odds.flushTicks();
      closingLines.flush();
    },
    close() {
      odds.close();
      closingLines.close();
    },
    followed: () => odds.followed(),
  };
}
