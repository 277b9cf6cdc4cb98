// Alert dispatch: what the rules decided becomes alerts. Limit (max_win) changes are told to the host and decided on
// their own bases (./maxWinAlerts.ts), a special's step as one alert for the special; a batch's price alerts and the
// drop episodes it opened are numbered by the store's writer together and pushed at once, and an open episode that
// grew is written and pushed again under its number (./dropEpisodes.ts). Each alert goes to the monitor's listeners
// and, when its rule says so, to the notifier. The rules (muting, thresholds, what notifies) are pure functions in
// ./alertRules.ts and ./priceRules.ts; this keeps their state and hands on what they decide.
import type { DevigModel } from '../../shared/api';
import type { AlertRecord, NewAlert } from '../../shared/domain';
import type { Clock } from '../clock';
import type { Notifier } from '../notifier';
import type { Store } from '../store';
import { specialStepDecision, type AlertDecision, type AlertSettings, type ContestantStep } from './alertRules';
import type { CoalescedEvent } from './coalescer';
import type { MaxWinChange, MonitorEvent } from './events';
import { createMaxWinAlerts } from './maxWinAlerts';
import { createPriceWatch, type PriceAlertSettings } from './priceWatch';
import type { Schedule } from './schedule';
import type { SpecialStep } from './specialsRefresher';

type Notify = { title: string; body: string } | null;

export interface AlertDispatch {
  /** One limit's change: said to the host, and decided on (its base moves when it alerts). */
  maxWinChange(c: MaxWinChange & { label: string }): void;
  /** A special's step: each contestant decided on its own base, and what fired said as one alert for the special. */
  maxWinStep(step: SpecialStep): void;
  /** A coalesced batch's price alerts and drop episodes. */
  observePrices(batch: readonly CoalescedEvent[]): void;
  /** The event's price rule state goes (it ended: after its last prices were judged). */
  forgetPrices(eventId: number): void;
  /** The event's limits' bases go (it left the book: nothing more moves its limits). */
  forgetLimits(eventId: number): void;
  /** The event is no longer followed: its limits' bases and its price rule state go. */
  forget(eventId: number): void;
  /** Limit changes seen so far. */
  maxWinChanges(): number;
}

export function createAlertDispatch(o: {
  store: Store;
  notifier: Notifier;
  clock: Clock;
  settings(): AlertSettings & { devigModel: DevigModel | null; price: PriceAlertSettings };
  isWatched(eventId: number | null): boolean;
  emit(event: MonitorEvent): void;
  /** Whether the monitor runs (an episode's timer is armed only then). */
  running(): boolean;
  /** Whether the monitor stopped: nothing more is written or said. */
  stopped(): boolean;
  schedule: Pick<Schedule, 'later'>;
}): AlertDispatch {
  const { store, clock } = o;
  let maxWinChanges = 0;
  // Each limit alerts on its move since the value that last alerted: the bases live here, beside the decision.
  const maxWinAlerts = createMaxWinAlerts();

  function maxWinDecide(c: MaxWinChange & { label: string }): AlertDecision {
    maxWinChanges++;
    const eventWatched = o.isWatched(c.eventId);
    const { label: _label, ...change } = c;
    o.emit({ type: 'max_win', ...change, watched: eventWatched });
    return maxWinAlerts.decide(c, eventWatched, o.settings());
  }
  function maxWinAlert(decision: AlertDecision, eventId: number | null, lineId: number | null): void {
    if (!decision.alert || o.stopped()) return;
    const [alert] = store.writer.appendAlerts([decision.alert]);
    o.emit({ type: 'alert', alert: alert! });
    if (decision.notify) o.notifier.notify({ kind: 'max_win', ...decision.notify, eventId, lineId });
  }
  function maxWinStep(step: SpecialStep): void {
    const fired: Array<{ decision: AlertDecision; step: ContestantStep; at: string }> = [];
    for (const c of step.changes) {
      const decision = maxWinDecide(c);
      const d = decision.alert?.data as { from: number; to: number; pct: number | null } | undefined;
      if (d)
        fired.push({
          decision,
          at: c.at,
          step: {
            contestantId: c.contestantId,
            name: c.contestant,
            from: d.from,
            to: d.to,
            pct: d.pct,
            previous: c.from,
          },
        });
    }
    maxWinAlert(specialStepDecision(step, fired, o.settings()), step.eventId, null);
  }

  /** The price alerts of the batch being observed (priceWatch hands them over one by one). */
  let priceAlerts: Array<{ alert: NewAlert; notify: Notify }> = [];
  const priceWatch = createPriceWatch({
    store,
    settings: () => {
      const s = o.settings();
      return { ...s, model: s.devigModel ?? 'MPTO' };
    },
    isWatched: o.isWatched,
    onAlert: (alert, notify) => void priceAlerts.push({ alert, notify }),
  });

  /** Numbers and writes what fired and what opened in one hand-over to the writer, then pushes and notifies. */
  function dispatchOpened(opened: Array<{ alert: NewAlert; notify: Notify; bind?(record: AlertRecord): void }>): void {
    const stored = store.writer.appendAlerts(opened.map((f) => f.alert));
    opened.forEach((f, i) => {
      const alert = stored[i]!;
      f.bind?.(alert);
      o.emit({ type: 'alert', alert });
      if (f.notify)
        o.notifier.notify({ kind: 'price', ...f.notify, eventId: alert.eventId, lineId: alertLineId(alert.data) });
    });
  }

  function observePrices(batch: readonly CoalescedEvent[]): void {
    const now = clock.now();
    try {
      priceWatch.observe(batch, now);
    } finally {
      const fired = priceAlerts;
      priceAlerts = [];
      const episodes = priceWatch.takeEpisodes(now);
      const opened = [...fired, ...episodes.opened];
      if (opened.length && !o.stopped()) dispatchOpened(opened);
      if (episodes.updated.length && !o.stopped()) {
        store.writer.updateAlerts(episodes.updated);
        for (const alert of episodes.updated) o.emit({ type: 'alert', alert });
      }
      armEpisodes(now);
    }
  }

  /** An open episode's owed update, or its end, is written on time even when no further batch comes for its event. */
  let episodeTimer: { cancel: () => void; at: number } | null = null;
  function armEpisodes(now: number): void {
    const next = priceWatch.nextEpisodeAt();
    if (next === null || !o.running()) return;
    const at = Math.max(next, now);
    if (episodeTimer && episodeTimer.at <= at) return;
    episodeTimer?.cancel();
    const timer = {
      at,
      cancel: o.schedule.later(() => {
        if (episodeTimer === timer) episodeTimer = null;
        observePrices([]);
      }, at - now),
    };
    episodeTimer = timer;
  }

  return {
    maxWinChange: (c) => maxWinAlert(maxWinDecide(c), c.eventId, c.lineId),
    maxWinStep,
    observePrices,
    forgetPrices: (eventId) => priceWatch.forget(eventId),
    forgetLimits: (eventId) => maxWinAlerts.forget(eventId),
    forget(eventId) {
      maxWinAlerts.forget(eventId);
      priceWatch.forget(eventId);
    },
    maxWinChanges: () => maxWinChanges,
  };
}

/** The line a price or drop alert is about (its data names it), for a notification that opens at that line. */
function alertLineId(data: unknown): number | null {
  const lineId = (data as { lineId?: unknown } | null)?.lineId;
  return typeof lineId === 'number' ? lineId : null;
}
