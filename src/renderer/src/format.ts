// Number and time formats a trader reads: decimal odds to 3 places, probabilities as % to 1 place, max_win with
// thousands separators, times in the local zone (the UTC form goes in a title attribute for hover).
import { parseServiceTime } from '../../shared/api/time';

const thousands = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export const fmtOdds = (o: number | null | undefined): string => (o == null || !Number.isFinite(o) ? '—' : o.toFixed(3));
export const fmtPct = (p: number | null | undefined): string => (p == null || !Number.isFinite(p) ? '—' : `${(p * 100).toFixed(1)}%`);
export const fmtMoney = (n: number | null | undefined): string => (n == null || !Number.isFinite(n) ? '—' : thousands.format(n));
export const fmtLine = (l: number | null | undefined): string => (l == null ? '' : l > 0 ? `+${l}` : String(l));
/** A signed share, e.g. CLV: +3.2%. */
export const fmtSignedPct = (x: number | null | undefined): string =>
  x == null || !Number.isFinite(x) ? '—' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;

const pad = (n: number) => String(n).padStart(2, '0');

/** Local HH:MM:SS. */
export function fmtTime(ms: number | null | undefined): string {
  if (ms == null) return '—';
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Local "Mon 22 Nov 14:05" style, short and sortable by eye. */
export function fmtDateTime(ms: number | null | undefined): string {
  if (ms == null) return '—';
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Dense grids: "14:05" today, "23 Nov 14:05" on another day. */
export function fmtShortDateTime(ms: number | null | undefined): string {
  if (ms == null) return '—';
  const d = new Date(ms);
  const hm = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return d.toDateString() === new Date().toDateString() ? hm : `${d.getDate()} ${MONTHS[d.getMonth()]} ${hm}`;
}

/** The hover text: the same instant in UTC. */
export function utcTitle(ms: number | null | undefined): string | undefined {
  return ms == null ? undefined : `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
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
