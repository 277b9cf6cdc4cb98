// The alert rules as pure functions: whether a max_win change or a settlement alerts and notifies, and what its
// words are. No I/O here; the monitor's parts call these and do the writing.
import type { SettledEvent } from '../../shared/api';
import type { Resettlement } from '../store';
import type { NewAlert, SettlementAlertScope } from '../../shared/domain';
import { NO_PERIOD_NAMES, type PeriodNames } from '../../shared/periods';
import { settledLineText, settlementStatusNote } from '../../shared/trading';
import type { MaxWinChange } from './events';

/** What the rules need of the trader's settings. */
export interface AlertSettings {
  /** A max_win change alerts when it moves at least this many percent. 0 = every change. */
  maxWinThresholdPct: number;
  notifySettlements: boolean;
  /** Which settlements alert (and notify): the watched matches, every one, or the chosen sports and leagues. */
  settlementAlerts: SettlementAlertScope;
  settlementSports: readonly number[];
  settlementLeagues: readonly number[];
  /** A sound with settlement notifications. */
  settlementSound: boolean;
  notifyMaxWin: boolean;
  doNotDisturb: boolean;
  mutedEvents: ReadonlySet<number>;
}

export interface AlertDecision {
  alert: NewAlert | null;
  notify: { title: string; body: string; sound?: boolean } | null;
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

/** What a limit's change decides, and where the limit's next move is measured from. */
export interface MaxWinDecision extends AlertDecision {
  /** The value the next change of this limit is measured from: the value that alerted now, else the one given. */
  base: number;
}

/** A move of exactly the threshold alerts, whatever the binary fractions make of it (900 → 810 is -10.000000000000002%). */
const PCT_EPSILON = 1e-9;

/**
 * The limit (max_win: the maximum stake accepted on the market) of a watched, unmuted event alerts when it has moved
 * by at least the threshold since `base`: the value that last alerted, or the first value seen before any alert
 * (default: this change's own `from`). Comparing with the previous point only, a limit cut 2% at a time never
 * alerted; measured from the base, the steps add up (1000 → 980 → 960 → 940 → 900 alerts once, at 900). The alerted
 * value becomes the next base; cuts and raises alike. Pure: the caller keeps the base per line or contestant.
 */
export function maxWinDecision(
  c: MaxWinChange & { label: string },
  watched: boolean,
  s: AlertSettings,
  base: number = c.from,
): MaxWinDecision {
  const pct = pctChange(base, c.to);
  if (!watched || isMuted(s, c.eventId) || c.to === base || Math.abs(pct) < s.maxWinThresholdPct - PCT_EPSILON)
    return { ...NONE, base };
  const message = `Max stake ${money(base)} → ${money(c.to)} (${formatPct(pct)}) on ${c.label}`;
  return {
    alert: {
      kind: 'max_win',
      eventId: c.eventId,
      specialId: c.specialId,
      contestantId: c.contestantId,
      message,
      // from: the value that last alerted (or the first seen); previous: the value just before this change.
      data: {
        lineId: c.lineId,
        from: base,
        to: c.to,
        pct: Number.isFinite(pct) ? pct : null,
        at: c.at,
        previous: c.from,
      },
    },
    notify:
      s.notifyMaxWin && !s.doNotDisturb ? { title: `Max stake ${formatPct(pct)}: ${c.label}`, body: message } : null,
    base: c.to,
  };
}

/** A contestant's limit move within a special's step, as its alert's data lists it. */
export interface ContestantStep {
  contestantId: number | null;
  name: string;
  /** The value this contestant's limit last alerted at (or the first seen), and its new value. */
  from: number;
  to: number;
  pct: number | null;
  previous: number;
}

/** The contestants a special step's words name; the rest are counted, and all are in its data. */
export const STEP_CONTESTANTS_IN_WORDS = 5;

/**
 * One step of a special's limit (the service re-prices every contestant at once) as ONE alert for the special, from
 * the per-contestant decisions that fired (each made by maxWinDecision, whose bases move as before). A step that moved
 * every contestant alike reads "Max stake 200 → 180 (-10.0%) on First scorer: 20 contestants (Nine, Ten, … and 15
 * more)"; otherwise each named contestant with its own move. One fired contestant reads as its own alert.
 */
export function specialStepDecision(
  special: { eventId: number | null; specialId: number | null; name: string },
  fired: ReadonlyArray<{ decision: AlertDecision; step: ContestantStep; at: string }>,
  s: AlertSettings,
): AlertDecision {
  if (fired.length === 0) return NONE;
  if (fired.length === 1) return fired[0]!.decision;
  const steps = fired.map((f) => f.step);
  const first = steps[0]!;
  const alike = steps.every((x) => x.from === first.from && x.to === first.to);
  const named = steps.slice(0, STEP_CONTESTANTS_IN_WORDS);
  const more = steps.length - named.length;
  const tail = more > 0 ? ` and ${more} more` : '';
  const message = alike
    ? `Max stake ${money(first.from)} → ${money(first.to)} (${formatPct(first.pct ?? Infinity)}) on ${special.name}: ${steps.length} contestants (${named.map((x) => x.name).join(', ')}${tail})`
    : `Max stake step on ${special.name}: ${named.map((x) => `${x.name} ${money(x.from)} → ${money(x.to)} (${formatPct(x.pct ?? Infinity)})`).join('; ')}${more > 0 ? `;${tail}` : ''}`;
  const title = alike
    ? `Max stake ${formatPct(first.pct ?? Infinity)}: ${special.name}`
    : `Max stake step: ${special.name}`;
  return {
    alert: {
      kind: 'max_win',
      eventId: special.eventId,
      specialId: special.specialId,
      contestantId: null,
      message,
      data: {
        lineId: null,
        from: first.from,
        to: first.to,
        pct: first.pct,
        at: fired[0]!.at,
        previous: first.previous,
        contestants: steps,
        count: steps.length,
      },
    },
    notify:
      fired.some((f) => f.decision.notify) && s.notifyMaxWin && !s.doNotDisturb
        ? { title: `${title} (${steps.length} contestants)`, body: message }
        : null,
  };
}

/** What the words of a settlement need beyond the record: the sport's name and the service's period names. */
export interface SettlementWordsContext {
  sportName?: string | null;
  periodNames?: PeriodNames;
  /** The team of each team-total line (its market's `side`), by line id, where the stream showed the line. */
  teams?: ReadonlyMap<number, 'home' | 'away'>;
}

/** "Settled: A v B 2–1"; a settlement whose status is not `ended` says it: "Settled (abandoned): A v B 0–0". */
export function settlementTitle(s: SettledEvent): string {
  const note = settlementStatusNote(s.status);
  return `Settled${note ? ` (${note.toLowerCase()})` : ''}: ${s.runner_home} v ${s.runner_away} ${s.score_home}–${s.score_away}`;
}

/**
 * Each line in words, one a line: "Away +0.5: won", "Home -0.75: half won" (a full-match quarter line, from the
 * score), "Home team total Over 1.5: won" (the team from the line's market, when the stream showed it); on a match
 * that did not end (abandoned), a line the service pushes reads "void", never a result from the score.
 */
export function settlementBody(s: SettledEvent, ctx: SettlementWordsContext = {}): string {
  const score = { home: s.score_home, away: s.score_away };
  return s.settlement
    .map((l) =>
      settledLineText(l, {
        sport: ctx.sportName ?? false,
        names: ctx.periodNames ?? NO_PERIOD_NAMES,
        score,
        team: ctx.teams?.get(l.line_id) ?? null,
        status: s.status,
      }),
    )
    .join('\n');
}

/** Whether the trader's scope covers this settlement (muting is checked apart). */
export function settlementInScope(s: SettledEvent, watched: boolean, settings: AlertSettings): boolean {
  switch (settings.settlementAlerts) {
    case 'all':
      return true;
    case 'chosen':
      // A watched match always counts: choosing sports widens the default, it never silences a watched match.
      return (
        watched || settings.settlementSports.includes(s.sport_id) || settings.settlementLeagues.includes(s.league_id)
      );
    default:
      return watched;
  }
}

/** A settlement in the trader's scope (watched only by default) alerts unless muted; it notifies unless silenced. */
export function settlementDecision(
  s: SettledEvent,
  watched: boolean,
  settings: AlertSettings,
  ctx: SettlementWordsContext = {},
): AlertDecision {
  if (!settlementInScope(s, watched, settings) || isMuted(settings, s.event_id)) return NONE;
  const title = settlementTitle(s);
  const body = settlementBody(s, ctx);
  return {
    alert: {
      kind: 'settled',
      eventId: s.event_id,
      message: body ? `${title}\n${body}` : title,
      data: {
        score_home: s.score_home,
        score_away: s.score_away,
        watched,
        sport_id: s.sport_id,
        league_id: s.league_id,
      },
    },
    notify:
      settings.notifySettlements && !settings.doNotDisturb ? { title, body, sound: settings.settlementSound } : null,
  };
}

/** A score as the settlement's title writes it, with the status when the match did not simply end: "2–3", "0–0 (abandoned)". */
function resultWordsOf(score: { home: number; away: number }, status: string): string {
  const note = settlementStatusNote(status);
  return `${score.home}–${score.away}${note ? ` (${note.toLowerCase()})` : ''}`;
}

/** "Re-settled: A v B: 2–3 → 99–99": the match, the result the service replaced and the one it sent now. */
export function resettlementTitle(r: Resettlement): string {
  const from = resultWordsOf({ home: r.from.scoreHome, away: r.from.scoreAway }, r.from.status);
  const to = resultWordsOf({ home: r.to.score_home, away: r.to.score_away }, r.to.status);
  return `Re-settled: ${r.runnerHome} v ${r.runnerAway}: ${from} → ${to}`;
}

/**
 * A settlement the service sent again with another result alerts (kind `resettled`) and notifies exactly as a
 * settlement of that match would (the same scope, muting and silencing): the trader was told the first result, so
 * a change of it is news of the same weight. Its words list the lines as now settled.
 */
export function resettlementDecision(
  r: Resettlement,
  watched: boolean,
  settings: AlertSettings,
  ctx: SettlementWordsContext = {},
): AlertDecision {
  if (!settlementInScope(r.to, watched, settings) || isMuted(settings, r.eventId)) return NONE;
  const title = resettlementTitle(r);
  const body = settlementBody(r.to, ctx);
  return {
    alert: {
      kind: 'resettled',
      eventId: r.eventId,
      message: body ? `${title}\n${body}` : title,
      data: {
        revision: r.revision,
        from: { score_home: r.from.scoreHome, score_away: r.from.scoreAway, status: r.from.status },
        score_home: r.to.score_home,
        score_away: r.to.score_away,
        status: r.to.status,
        watched,
        sport_id: r.to.sport_id,
        league_id: r.to.league_id,
      },
    },
    notify:
      settings.notifySettlements && !settings.doNotDisturb ? { title, body, sound: settings.settlementSound } : null,
  };
}
