// The alert rules as pure functions: whether a max_win change or a settlement alerts and notifies, and what its
// words are. No I/O here; the monitor's parts call these and do the writing.
import type { SettledEvent } from '../../shared/api';
import type { NewAlert } from '../../shared/domain';
import type { MaxWinChange } from './events';

/** What the rules need of the trader's settings. */
export interface AlertSettings {
  /** A max_win change alerts when it moves at least this many percent. 0 = every change. */
  maxWinThresholdPct: number;
  notifySettlements: boolean;
  notifyMaxWin: boolean;
  doNotDisturb: boolean;
  mutedEvents: ReadonlySet<number>;
}

export interface AlertDecision {
  alert: NewAlert | null;
  notify: { title: string; body: string } | null;
}

const NONE: AlertDecision = { alert: null, notify: null };

export function pctChange(from: number, to: number): number {
  if (from === 0) return to === 0 ? 0 : Infinity;
  return ((to - from) / from) * 100;
}

export function formatPct(pct: number): string {
  if (!Number.isFinite(pct)) return 'new';
  return `${pct > 0 ? '+' : ''}${pct.toFixed(1)}%`;
}

export const money = (n: number): string => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

const isMuted = (s: AlertSettings, eventId: number | null) => eventId !== null && s.mutedEvents.has(eventId);

/** A max_win change of a watched, unmuted event alerts when it moves by at least the threshold. */
export function maxWinDecision(c: MaxWinChange & { label: string }, watched: boolean, s: AlertSettings): AlertDecision {
  const pct = pctChange(c.from, c.to);
  if (!watched || isMuted(s, c.eventId) || Math.abs(pct) < s.maxWinThresholdPct) return NONE;
  const message = `max_win ${money(c.from)} → ${money(c.to)} (${formatPct(pct)}) on ${c.label}`;
  return {
    alert: {
      kind: 'max_win',
      eventId: c.eventId,
      specialId: c.specialId,
      contestantId: c.contestantId,
      message,
      data: { lineId: c.lineId, from: c.from, to: c.to, pct: Number.isFinite(pct) ? pct : null, at: c.at },
    },
    notify: s.notifyMaxWin && !s.doNotDisturb ? { title: `max_win ${formatPct(pct)}: ${c.label}`, body: message } : null,
  };
}

export function settlementTitle(s: SettledEvent): string {
  return `Settled: ${s.runner_home} v ${s.runner_away} ${s.score_home}–${s.score_away}`;
}

export function settlementBody(s: SettledEvent): string {
  const letter = { win: 'W', loss: 'L', push: 'P' } as const;
  return s.settlement
    .map((l) => {
      const line = l.line === null ? '' : ` ${l.line}`;
      return `${l.market}${line} (p${l.period}): H ${letter[l.outcome_home]} · D ${letter[l.outcome_draw]} · A ${letter[l.outcome_away]}`;
    })
    .join('\n');
}

/** A settlement of a watched, unmuted event alerts; it notifies unless the trader silenced settlements. */
export function settlementDecision(s: SettledEvent, watched: boolean, settings: AlertSettings): AlertDecision {
  if (!watched || isMuted(settings, s.event_id)) return NONE;
  const title = settlementTitle(s);
  const body = settlementBody(s);
  return {
    alert: { kind: 'settled', eventId: s.event_id, message: `${title}\n${body}`, data: { score_home: s.score_home, score_away: s.score_away } },
    notify: settings.notifySettlements && !settings.doNotDisturb ? { title, body } : null,
  };
}
