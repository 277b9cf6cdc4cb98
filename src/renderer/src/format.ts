// The renderer's face of the one formatting module (src/shared/formats.ts): prices in the trader's odds format,
// probabilities and changes as % to one place, max_win with thousands separators, times in the trader's zone on a
// 24-hour clock (the UTC form goes in a title attribute for hover). Components read the format and the zone with the
// hooks below, so they render again when the trader changes them; the plain functions default to the same choices,
// kept in step with the settings once, outside React, for the few callers outside a component's render.
import { useCallback } from 'react';
import { parseServiceTime } from '../../shared/api/time';
import {
  DEFAULT_ODDS_FORMAT,
  exportFileName,
  formatClock,
  formatDateTime,
  formatOdds,
  formatPercent,
  formatShortDateTime,
  resolveTimeZone,
  zoneLabel,
  type OddsFormat,
} from '../../shared/formats';
import { useStore } from './store';

let shownFormat: OddsFormat = DEFAULT_ODDS_FORMAT;
let shownZone = resolveTimeZone(null);
const follow = (s: ReturnType<typeof useStore.getState>) => {
  shownFormat = s.settings?.oddsFormat ?? DEFAULT_ODDS_FORMAT;
  shownZone = resolveTimeZone(s.settings?.timeZone);
};
follow(useStore.getState());
useStore.subscribe(follow);

/** The trader's odds format (decimal until the settings arrive). */
export const useOddsFormat = (): OddsFormat => useStore((s) => s.settings?.oddsFormat ?? DEFAULT_ODDS_FORMAT);
/** The trader's time zone (the OS zone until the settings arrive). */
export const useTimeZone = (): string => useStore((s) => resolveTimeZone(s.settings?.timeZone));
/** A price formatter in the trader's odds format, stable while the format is. */
export function useOdds(): (o: number | null | undefined) => string {
  const format = useOddsFormat();
  return useCallback((o) => formatOdds(o, format), [format]);
}

const thousands = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export const fmtOdds = (o: number | null | undefined, format: OddsFormat = shownFormat): string =>
  formatOdds(o, format);
/** A probability (0..1) as a percentage: 52.4%. */
export const fmtPct = (p: number | null | undefined): string =>
  p == null || !Number.isFinite(p) ? '—' : formatPercent(p * 100);
export const fmtMoney = (n: number | null | undefined): string =>
  n == null || !Number.isFinite(n) ? '—' : thousands.format(n);
export const fmtLine = (l: number | null | undefined): string => (l == null ? '' : l > 0 ? `+${l}` : String(l));
/** A signed share, e.g. CLV: +3.2%. */
export const fmtSignedPct = (x: number | null | undefined): string =>
  x == null || !Number.isFinite(x) ? '—' : formatPercent(x * 100, { sign: true });

/** HH:MM:SS in the trader's zone. */
export function fmtTime(ms: number | null | undefined, zone: string = shownZone): string {
  return ms == null ? '—' : formatClock(ms, zone);
}

/** "2024-11-23 14:05" in the trader's zone: short and sortable by eye. */
export function fmtDateTime(ms: number | null | undefined, zone: string = shownZone): string {
  return ms == null ? '—' : formatDateTime(ms, zone);
}

/** Dense grids: "14:05" today (in the trader's zone), "23 Nov 14:05" on another day. */
export function fmtShortDateTime(ms: number | null | undefined, zone: string = shownZone): string {
  return ms == null ? '—' : formatShortDateTime(ms, zone, Date.now());
}

/** A file the page saves now ("bets", "settlements"), named for the trader's day. */
export const exportName = (kind: string): string => exportFileName(kind, Date.now(), shownZone);

/** The hover text: the same instant in UTC, and the zone the screen shows it in. */
export function utcTitle(ms: number | null | undefined, zone: string = shownZone): string | undefined {
  return ms == null
    ? undefined
    : `${formatDateTime(ms, 'UTC', { seconds: true })} UTC · shown in ${zoneLabel(zone, ms)}`;
}

/** A service date-time text (UTC, no zone) as ms, or null. */
export const serviceMs = (text: string | null | undefined): number | null => (text ? parseServiceTime(text) : null);

export function eventName(home: string | null | undefined, away: string | null | undefined, eventId?: number): string {
  if (home || away) return `${home ?? '?'} v ${away ?? '?'}`;
  return eventId != null ? `Event ${eventId}` : 'Unknown event';
}

export function fmtScore(home: number | null | undefined, away: number | null | undefined): string {
  return home == null || away == null ? '' : `${home}–${away}`;
}
