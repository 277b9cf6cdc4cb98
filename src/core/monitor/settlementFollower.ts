// The settlement follower: walks /api/settled (the only way to learn that a match settled), stores each page with
// its cursor, the alerts of watched matches and the period results still owed in ONE transaction, then notifies.
// Period results are published per event, so they are fetched by budget: a watched match's at once, any other's when
// the trader opens it, or in the background from quota that is spare above the reserve, newest first. The shares
// are the governor's: results spend only above the reserve, the trader's count as look-ups.
import type { SettledEvent } from '../../shared/api';
import type { AlertRecord } from '../../shared/domain';
import type { AppError } from '../../shared/errors';
import type { ApiClient } from '../api/client';
import type { BadRecord } from '../api/types';
import type { Clock } from '../clock';
import type { Notifier } from '../notifier';
import type { Resettlement, Store } from '../store';
import { periodNames } from '../../shared/periods';
import { marketKind } from '../../shared/trading';
import { resettlementDecision, settlementDecision, type AlertSettings } from './alertRules';
import type { MonitorEvent } from './events';
import { walkSettled } from './settledWalk';

/** Continuous-score sports publish no per-period results (spec, /api/results). */
const CONTINUOUS_SPORTS = /soccer|football|basketball|baseball|hockey|handball|rugby|cricket|american/i;
/** Results may be published after the settlement: how often and how long to keep asking. */
const RESULTS_RETRY_MS = 5 * 60_000;
const RESULTS_MAX_ATTEMPTS = 4;
/** Watched matches' results fetched per walk (they are few; this bounds a burst after a long absence). */
const WATCHED_RESULTS_PER_WALK = 25;
/** Other matches' results fetched per walk from spare quota. */
const BACKGROUND_RESULTS_PER_WALK = 5;

export interface SettlementFollowerOptions {
  client: ApiClient;
  store: Store;
  clock: Clock;
  notifier: Notifier;
  isWatched(eventId: number): boolean;
  settings(): AlertSettings;
  /** Requests other matches' results may spend now; default: the governor's headroom for results. */
  spareQuota?(): number;
  emit(event: MonitorEvent): void;
  /** Matches per /api/settled page (default the maximum, 1,000). */
  pageLimit?: number;
  reportProblems(problems: readonly BadRecord[]): void;
  reportError(error: AppError): void;
}

/** Whether a look-up made a request, and if so the error it came back with (null: answered). */
export type LookupOutcome = { asked: false } | { asked: true; error: AppError | null };

export interface SettlementFollower {
  /**
   * One walk at a time: a second caller shares the running one. `fresh` (the trader asked now): a walk already under
   * way may have read the list before what the trader is waiting for was published, so one more walk follows it,
   * shared by every fresh ask made meanwhile (at most one waits, whatever the number of clicks).
   */
  sync(options?: { fresh?: boolean }): Promise<{ added: number; error: AppError | null }>;
  /** The trader opened a settlement: fetch its period results now if they are owed (one request at most). */
  resultsFor(eventId: number): Promise<LookupOutcome>;
  lastSync(): number | null;
  /** Waits for a running walk. */
  idle(): Promise<void>;
  stats(): { walks: number; added: number };
}

export function createSettlementFollower(o: SettlementFollowerOptions): SettlementFollower {
  const { client, store, clock } = o;
  let sportNames = new Map<number, string>();
  let walking: Promise<{ added: number; error: AppError | null }> | null = null;
  /** The walk that follows the running one for a fresh ask. */
  let following: Promise<{ added: number; error: AppError | null }> | null = null;
  let lastSync: number | null = null;
  const stats = { walks: 0, added: 0 };
  const results = createResultsFetcher(o);

  async function sports(): Promise<{ ok: true; value: Map<number, string> } | { ok: false; error: AppError }> {
    if (sportNames.size > 0) return { ok: true, value: sportNames };
    const r = await client.sports({ priority: 'high', purpose: 'settled' });
    if (!r.ok) return r;
    sportNames = new Map(r.value.map((s) => [s.sport_id, s.name]));
    try {
      store.odds.recordSports(r.value);
    } catch {
      /* the names are a convenience; the walk goes on without them */
    }
    return { ok: true, value: sportNames };
  }

  /** Results exist for sports played in sets; a sport we cannot name is asked about rather than skipped. */
  const publishesResults = (sportId: number) => {
    const name = sportNames.get(sportId);
    return !name || !CONTINUOUS_SPORTS.test(name);
  };

  /** The page, its cursor, its alerts and the results it leaves owed: all or nothing. */
  function commitPage(events: readonly SettledEvent[], cursor: number): SettledEvent[] {
    const now = clock.now();
    const settings = o.settings();
    const words = { periodNames: periodNames(store.history.periods()) };
    const committed = store.transaction(() => {
      const known = store.settlements.knownSettlements(events.map((e) => e.event_id));
      // A known match sent again with another result is a re-settlement (its earlier result kept in its history);
      // sent again unchanged, it is nothing.
      const resettled = store.settlements.recordSettledPage(events, cursor);
      // A settlement the store refused (its id names another match than the stored one) is not the match's result.
      const stored = store.settlements.knownSettlements(events.map((e) => e.event_id));
      const told: Array<{
        settlement: SettledEvent;
        fresh: boolean;
        resettled?: Resettlement['from'];
        watched: boolean;
        alert: AlertRecord | null;
        notify: { title: string; body: string; sound?: boolean } | null;
      }> = [];
      for (const s of events) {
        if (known.has(s.event_id) || !stored.has(s.event_id)) continue;
        const watched = o.isWatched(s.event_id);
        const decision = settlementDecision(s, watched, settings, {
          ...words,
          sportName: sportNames.get(s.sport_id) ?? null,
          teams: teamTotalTeams(store, s),
        });
        const alert = decision.alert ? store.alerts.appendAlert(decision.alert) : null;
        if (publishesResults(s.sport_id)) store.resultsQueue.oweResults(s.event_id, now, watched);
        told.push({ settlement: s, fresh: true, watched, alert, notify: decision.notify });
      }
      for (const r of resettled) {
        const s = r.to;
        const watched = o.isWatched(s.event_id);
        const decision = resettlementDecision(r, watched, settings, {
          ...words,
          sportName: sportNames.get(s.sport_id) ?? null,
          teams: teamTotalTeams(store, s),
        });
        const alert = decision.alert ? store.alerts.appendAlert(decision.alert) : null;
        told.push({ settlement: s, fresh: false, resettled: r.from, watched, alert, notify: decision.notify });
      }
      return told;
    });
    // Told only once the page is safely stored: a crash before this point leaves it to be read again, unalerted.
    for (const f of committed) {
      o.emit({
        type: 'settlement',
        settlement: f.settlement,
        watched: f.watched,
        ...(f.resettled ? { resettled: f.resettled } : {}),
      });
      if (f.alert) o.emit({ type: 'alert', alert: f.alert });
      if (f.notify) o.notifier.notify({ kind: 'settlement', ...f.notify, eventId: f.settlement.event_id });
    }
    return committed.filter((f) => f.fresh).map((f) => f.settlement);
  }

  async function walk(): Promise<{ added: number; error: AppError | null }> {
    stats.walks++;
    // Which sports publish period results is known before any page commits (one request a session): a football
    // match must not be left owing results that never come.
    if (sportNames.size === 0) await sports();
    const r = await walkSettled({
      client,
      store: { settledCursor: () => store.settlements.settledCursor(), commitPage },
      ...(o.pageLimit ? { limit: o.pageLimit } : {}),
      sportIds: async () => {
        const s = await sports();
        return s.ok ? { ok: true, value: [...s.value.keys()] } : s;
      },
    });
    o.reportProblems(r.problems);
    if (r.error) o.reportError(r.error);
    else lastSync = clock.now();
    stats.added += r.added.length;
    // The walk comes first; results only once discovery is done (and not while it is failing).
    if (!r.error) await results.owedResults();
    return { added: r.added.length, error: r.error };
  }

  return {
    sync(options) {
      const start = () => (walking = walk().finally(() => (walking = null)));
      if (!walking) return start();
      if (!options?.fresh) return walking;
      following ??= walking
        .catch(() => undefined)
        .then(() => {
          following = null;
          return walking ?? start();
        });
      return following;
    },
    async resultsFor(eventId) {
      if (store.settlements.results(eventId).length > 0 || !store.resultsQueue.isResultOwed(eventId))
        return { asked: false };
      return { asked: true, error: (await results.fetchResults(eventId, 'ui')).error };
    },
    lastSync: () => lastSync,
    idle: async () => void (await walking?.catch(() => undefined)),
    stats: () => ({ ...stats }),
  };
}

/**
 * Period results by budget: a watched match's at once, any other's from quota spare above the reserve (newest first),
 * a few per walk; one not published yet is asked for again later, a few times.
 */
function createResultsFetcher(
  o: Pick<SettlementFollowerOptions, 'client' | 'store' | 'clock' | 'spareQuota' | 'reportProblems'>,
) {
  const { client, store, clock } = o;
  /** 'stop' when the quota or the key said no (a share refused, a 429, a rejected key): the results stay owed. */
  async function fetchResults(
    eventId: number,
    purpose: 'results' | 'ui',
  ): Promise<{ next: 'done' | 'later' | 'stop'; error: AppError | null }> {
    const r = await client.results(eventId, { priority: purpose === 'ui' ? 'high' : 'normal', purpose });
    if (!r.ok) {
      if (r.error.kind === 'rate_limit' || r.error.kind === 'auth') return { next: 'stop', error: r.error };
      store.resultsQueue.resultsRetry(
        eventId,
        clock.now() + RESULTS_RETRY_MS,
        r.error.kind === 'plan' ? 0 : RESULTS_MAX_ATTEMPTS,
      );
      return { next: 'later', error: r.error };
    }
    o.reportProblems(r.problems);
    if (r.value.length > 0) {
      store.transaction(() => {
        store.settlements.recordPeriodResults(r.value);
        store.resultsQueue.resultsSettled(eventId);
      });
      return { next: 'done', error: null };
    }
    // Not published yet: ask again later, a few times.
    store.resultsQueue.resultsRetry(eventId, clock.now() + RESULTS_RETRY_MS, RESULTS_MAX_ATTEMPTS);
    return { next: 'later', error: null };
  }

  async function owedResults(): Promise<void> {
    const now = clock.now();
    for (const due of store.resultsQueue.resultsDue(now, { limit: WATCHED_RESULTS_PER_WALK, watchedOnly: true })) {
      if ((await fetchResults(due.eventId, 'results')).next === 'stop') return;
    }
    const spare = Math.min(
      BACKGROUND_RESULTS_PER_WALK,
      Math.floor(o.spareQuota ? o.spareQuota() : client.governor.headroom('results')),
    );
    if (spare <= 0) return;
    for (const due of store.resultsQueue.resultsDue(now, { limit: spare })) {
      if ((await fetchResults(due.eventId, 'results')).next === 'stop') return;
    }
  }

  return { fetchResults, owedResults };
}

/** Which team each team-total line of a settlement is about, from the lines the stream showed (none asked for otherwise). */
export function teamTotalTeams(
  store: Pick<Store, 'history'>,
  s: Pick<SettledEvent, 'event_id' | 'settlement'>,
): Map<number, 'home' | 'away'> {
  const teams = new Map<number, 'home' | 'away'>();
  if (!s.settlement.some((l) => marketKind(l.market) === 'team_total')) return teams;
  for (const m of store.history.latestMarkets(s.event_id))
    if (m.side && marketKind(m.market) === 'team_total') teams.set(m.lineId, m.side);
  return teams;
}
