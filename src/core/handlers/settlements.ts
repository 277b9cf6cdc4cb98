// Settlements and alerts: the offline review reads the profile's store; opening a settlement asks for its period
// results when they are still owed (one request, counted as 'ui').
import { formatServiceTime } from '../../shared/api';
import { csvRow } from '../../shared/csv';
import { AppErrorException } from '../../shared/errors';
import type { SettlementQuery } from '../../shared/domain';
import type { CoreHandlers } from '../../shared/ipc/contract';
import { conn, requireEngine, store, type CoreContext } from './context';

export function settlementsHandlers(
  ctx: CoreContext,
): Pick<CoreHandlers, 'settlements:query' | 'settlements:detail' | 'settlements:syncNow' | 'settlements:exportCsv' | 'alerts:list' | 'alerts:mute'> {
  async function exportCsv(q: SettlementQuery): Promise<string> {
    const s = store(ctx);
    const header = ['event_id', 'sport_id', 'league', 'home', 'away', 'starts_utc', 'settled_at_utc', 'score_home', 'score_away', 'status', 'lines', 'ml_home', 'ml_draw', 'ml_away'];
    let out = csvRow(header);
    let after: SettlementQuery['after'];
    for (let pages = 0; pages < 2000; pages++) {
      const page = s.querySettlements({ ...q, limit: 500, withoutTotal: true, ...(after ? { after } : {}) });
      for (const r of page.rows) {
        out += csvRow([r.eventId, r.sportId, r.leagueName, r.runnerHome, r.runnerAway, formatServiceTime(r.starts), formatServiceTime(r.settledAt), r.scoreHome, r.scoreAway, r.status, r.lineCount, r.moneyline?.home, r.moneyline?.draw, r.moneyline?.away]);
      }
      if (!page.next) break;
      after = page.next;
    }
    return out;
  }

  return {
    'settlements:query': (q) => store(ctx).querySettlements(q),
    'settlements:detail': async (eventId) => {
      const c = conn(ctx);
      const settlement = c.store.settlement(eventId);
      if (!settlement) return null;
      // Results owed for a match nobody watched are fetched when the trader opens it; offline, what we have.
      await c.engine?.monitor.resultsFor(eventId).catch(() => undefined);
      return { settlement, periodResults: c.store.results(eventId) };
    },
    'settlements:syncNow': async () => {
      const r = await requireEngine(ctx).monitor.syncSettled();
      if (r.error) throw new AppErrorException(r.error);
      ctx.pushes.scheduleStatus();
      return { added: r.added };
    },
    'settlements:exportCsv': (q) => exportCsv(q),
    'alerts:list': (q) => store(ctx).listAlerts(q),
    'alerts:mute': (eventId, muted) => {
      const s = store(ctx);
      const set = new Set(mutedEvents(s));
      if (muted) set.add(eventId);
      else set.delete(eventId);
      s.setSetting(MUTED_SETTING, [...set]);
      return null;
    },
  };
}

/** Muted events belong to the profile: event ids mean something only within one service. */
export const MUTED_SETTING = 'alerts.mutedEvents';
export const mutedEvents = (s: { getSetting<T>(name: string): T | undefined }): number[] => s.getSetting<number[]>(MUTED_SETTING) ?? [];
