// Price and drop alerts on watched lines: holds each line's rule state (./priceRules.ts, pure) and feeds it the odds
// pipeline's coalesced batches. The trader's per-event overrides (thresholds, another drop rule) live in the
// profile's store; the defaults come from Settings. Memory follows the watchlist: an event's state goes with it.
import type { Market } from '../../shared/api';
import type { NewAlert, PriceAlertOverrides, PriceThreshold } from '../../shared/domain';
import type { Store } from '../store';
import type { AlertSettings } from './alertRules';
import type { CoalescedEvent } from './coalescer';
import { lineLabel } from './oddsPipeline';
import { stepLine, type LineState, type PriceRuleConfig } from './priceRules';

export interface PriceAlertSettings {
  dropPct: number;
  dropWindowMinutes: number;
  hysteresisPct: number;
  notify: boolean;
}

const NO_THRESHOLDS: readonly PriceThreshold[] = [];

export const priceAlertKey = (eventId: number) => `priceAlerts.${eventId}`;

export function priceOverrides(store: Pick<Store, 'getSetting'>, eventId: number): PriceAlertOverrides {
  return store.getSetting<PriceAlertOverrides>(priceAlertKey(eventId)) ?? { thresholds: [] };
}

export interface PriceWatch {
  observe(batch: readonly CoalescedEvent[], at: number): void;
  forget(eventId: number): void;
  followed(): number;
}

export function createPriceWatch(o: {
  store: Store;
  settings(): AlertSettings & { price: PriceAlertSettings; model: PriceRuleConfig['model'] };
  isWatched(eventId: number): boolean;
  onAlert(alert: NewAlert, notify: { title: string; body: string } | null): void;
}): PriceWatch {
  const lines = new Map<number, Map<number, LineState>>();
  /**
   * The event's teams as an alert names them, read from the store once per event: a busy minute fires hundreds of
   * alerts a second, and a read each was a measurable share of the host's time. Only names are kept (a bare id is
   * read again, so names a later snapshot brings are used), and forget() drops them.
   */
  const teamsOf = new Map<number, string>();

  function label(eventId: number, m: Market): string {
    let teams = teamsOf.get(eventId);
    if (teams === undefined) {
      const e = o.store.eventView(eventId);
      if (e?.runnerHome && e.runnerAway) teamsOf.set(eventId, (teams = `${e.runnerHome} v ${e.runnerAway} `));
      else teams = `event ${eventId} `;
    }
    return teams + lineLabel(m);
  }

  return {
    observe(batch, at) {
      const s = o.settings();
      for (const e of batch) {
        // A score or an end alone (they share the batch) moves no price.
        if (e.markets.length === 0 || !o.isWatched(e.eventId)) continue;
        const over = priceOverrides(o.store, e.eventId);
        const base: PriceRuleConfig = {
          thresholds: NO_THRESHOLDS,
          dropPct: over.dropPct ?? s.price.dropPct,
          dropWindowMinutes: over.dropWindowMinutes ?? s.price.dropWindowMinutes,
          hysteresisPct: s.price.hysteresisPct,
          model: s.model,
        };
        let state = lines.get(e.eventId);
        if (!state) lines.set(e.eventId, (state = new Map()));
        // A muted event keeps its state moving (so unmuting does not fire on old moves) but says nothing.
        const muted = s.mutedEvents.has(e.eventId);
        for (const m of e.markets) {
          const thresholds = over.thresholds.length ? over.thresholds.filter((t) => t.lineId === m.line_id) : NO_THRESHOLDS;
          if (base.dropPct <= 0 && thresholds.length === 0) continue;
          // The label reads the event's names from the store: only an alert that fires needs it (a getter, read once).
          let named: string | undefined;
          const nameOf = () => (named ??= label(e.eventId, m));
          const observation = { eventId: e.eventId, lineId: m.line_id, at, prices: m.prices, market: m.market, line: m.line, team: m.side, get label() { return nameOf(); } };
          const r = stepLine(state.get(m.line_id), observation, thresholds.length ? { ...base, thresholds } : base);
          state.set(m.line_id, r.state);
          if (muted) continue;
          for (const alert of r.alerts) {
            const title = alert.kind === 'drop' ? 'Drop' : 'Price';
            o.onAlert(alert, s.price.notify && !s.doNotDisturb ? { title: `${title}: ${nameOf()}`, body: alert.message } : null);
          }
        }
      }
    },
    forget(eventId) {
      lines.delete(eventId);
      teamsOf.delete(eventId);
    },
    followed: () => lines.size,
  };
}
