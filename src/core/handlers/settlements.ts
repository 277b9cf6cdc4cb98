// Settlements and alerts: the offline review reads the profile's store; opening a settlement asks for its period
// results when they are still owed (one request, counted as 'ui': a look-up of the trader's like the others, within
// the look-ups' share and noted for the connection state).
import { teamTotalTeams } from '../monitor/settlementFollower';
import { csvRow } from '../../shared/csv';
import { AppErrorException } from '../../shared/errors';
import { exportFileName, resolveTimeZone } from '../../shared/formats';
import type { SettlementQuery } from '../../shared/domain';
import type { CoreHandlers, SnoozedEvent } from '../../shared/ipc/contract';
import { exportSettlementsCsvToFile, SETTLEMENT_CSV_HEADER, settlementCsvRows } from '../export/csv';
import { conn, noteOutcome, requireEngine, settledStore, store, type CoreContext } from './context';

export function settlementsHandlers(
  ctx: CoreContext,
): Pick<
  CoreHandlers,
  | 'settlements:query'
  | 'settlements:detail'
  | 'settlements:syncNow'
  | 'settlements:exportCsv'
  | 'settlements:exportCsvToFile'
  | 'alerts:list'
  | 'alerts:mute'
  | 'alerts:snooze'
> {
  /** Browser mode's download: the same rows and neutralised cells as the file export, as one text. */
  function exportCsv(q: SettlementQuery): string {
    let out = csvRow(SETTLEMENT_CSV_HEADER);
    for (const row of settlementCsvRows(store(ctx), q)) out += csvRow(row);
    return out;
  }

  return {
    'settlements:query': (q) => store(ctx).settlements.querySettlements(q),
    'settlements:detail': async (eventId) => {
      const c = conn(ctx);
      const settlement = c.store.settlements.settlement(eventId);
      if (!settlement) return null;
      // Results owed for a match nobody watched are fetched when the trader opens it; offline (or over the
      // look-ups' share), what we have.
      if (c.engine) {
        const r = await c.engine.monitor.resultsFor(eventId).catch(() => null);
        if (r?.asked) noteOutcome(ctx, r.error);
      }
      const sportName =
        c.store.history.eventView(eventId)?.sportName ??
        c.store.history.storedSports().find((s) => s.sport_id === settlement.sport_id)?.name ??
        null;
      const teams = Object.fromEntries(teamTotalTeams(c.store, settlement));
      return {
        settlement,
        periodResults: c.store.settlements.results(eventId),
        sportName,
        periodNames: c.store.history.periods(),
        teams,
      };
    },
    'settlements:syncNow': async () => {
      const r = await requireEngine(ctx).monitor.syncSettled();
      if (r.error) throw new AppErrorException(r.error);
      ctx.pushes.scheduleStatus();
      return { added: r.added };
    },
    'settlements:exportCsv': (q) => exportCsv(q),
    'settlements:exportCsvToFile': async (q) => {
      if (!ctx.chooseSavePath)
        throw new AppErrorException({
          kind: 'validation',
          message: 'This host has no save dialog; use the download instead.',
        });
      const file = await ctx.chooseSavePath(
        exportFileName('settlements', ctx.clock.now(), resolveTimeZone(ctx.settings.get().timeZone)),
      );
      return file === null ? null : exportSettlementsCsvToFile(store(ctx), q, file);
    },
    // Price, drop and max_win alerts are written by the store's writer: the list waits for what already fired.
    'alerts:list': async (q) => (await settledStore(ctx)).alerts.listAlerts(q),
    'alerts:mute': (eventId, muted) => {
      const s = store(ctx);
      const set = new Set(mutedEvents(s.settings));
      if (muted) set.add(eventId);
      else set.delete(eventId);
      s.settings.setSetting(MUTED_SETTING, [...set]);
      return null;
    },
    'alerts:snooze': (eventId, until) => {
      const s = store(ctx);
      const now = ctx.clock.now();
      const kept = snoozedEvents(s.settings, now).filter((x) => x.eventId !== eventId);
      if (until !== null && until > now) kept.push({ eventId, until: Math.min(until, now + MAX_SNOOZE_MS) });
      s.settings.setSetting(SNOOZE_SETTING, kept);
      return kept;
    },
  };
}

/** Muted events belong to the profile: event ids mean something only within one service. */
export const MUTED_SETTING = 'alerts.mutedEvents';
export const mutedEvents = (s: { getSetting<T>(name: string): T | undefined }): number[] =>
  s.getSetting<number[]>(MUTED_SETTING) ?? [];

/**
 * Snoozed events belong to the profile too: a timed quiet, unlike a mute. A snoozed event's alerts are still kept and
 * listed, but until the snooze ends they notify nobody (no OS notification, decided here in the core) and the window
 * plays no sound and flashes no row for them. Kept as [{eventId, until}], expired ones dropped on the next write.
 */
export const SNOOZE_SETTING = 'alerts.snoozedEvents';
const MAX_SNOOZE_MS = 7 * 24 * 3_600_000;

/** The snoozes in force at `now`. */
export function snoozedEvents(s: { getSetting<T>(name: string): T | undefined }, now: number): SnoozedEvent[] {
  const all = s.getSetting<SnoozedEvent[]>(SNOOZE_SETTING);
  return Array.isArray(all)
    ? all.filter((x) => Number.isSafeInteger(x?.eventId) && typeof x.until === 'number' && x.until > now)
    : [];
}

export function isSnoozed(s: { getSetting<T>(name: string): T | undefined }, eventId: number, now: number): boolean {
  return snoozedEvents(s, now).some((x) => x.eventId === eventId);
}
