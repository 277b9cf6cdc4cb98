// Drop episodes: what a trader reads of a burst of drops on one event. The per-line drop rule (./priceRules.ts) is
// the detector; this groups its drops per event into one alert that names the lines and their moves, and grows in
// place (same alert, same number) while the burst lasts. An episode opens on the event's first drop, stays open while
// further drops on the event come within the quiet gap, and ends after the gap or at its maximum length; a drop after
// that opens a new one. Its updates are given out at most once per `updateMs` per event at first, less often as it
// lasts (updateGap), the latest state each time.
// No I/O and no clock: the caller passes the time in and writes what take() gives out (docs/trading.md, "Drop
// episodes").
import type { AlertRecord, NewAlert, PriceSide } from '../../shared/domain';
import { lineKey } from '../../shared/trading';
import { formatPct } from './alertRules';

export interface EpisodeRules {
  /** An episode ends once its event has had no drop for this long. */
  quietMs: number;
  /** ... or once it has lasted this long, however busy (a new one opens on the next drop). */
  maxMs: number;
  /** An open episode's alert is written and pushed again at most this often (the latest state each time) ... */
  updateMs: number;
  /**
   * ... and, as it lasts, at most once per this share of its age, up to maxUpdateMs: a goal's burst reads line by
   * line as it happens, while a storm that goes on for minutes (every event of a busy afternoon at once) costs the
   * host, the bridge and the page a few rewrites a minute per event, not one a second.
   */
  updateAgeShare: number;
  maxUpdateMs: number;
}

/**
 * 10 s quiet: a goal moves every line of a match within a few seconds, and a second goal 10 s later is rare; 5 min at
 * most, so that under a constant storm an event's record still starts anew and stays readable; one update a second.
 */
export const EPISODE_RULES: EpisodeRules = {
  quietMs: 10_000,
  maxMs: 300_000,
  updateMs: 1_000,
  updateAgeShare: 1 / 3,
  maxUpdateMs: 10_000,
};

/** How long an open episode's next update waits after its last one: a second at first, a third of its age later, 10 s at most. */
export function updateGap(rules: EpisodeRules, startedAt: number, givenAt: number): number {
  return Math.min(rules.maxUpdateMs, Math.max(rules.updateMs, (givenAt - startedAt) * rules.updateAgeShare));
}

/** The lines an episode's words name; the rest are counted ("and 12 more"), and all are in its data. */
export const EPISODE_LINES_IN_WORDS = 5;

/** One line's drop, as the per-line rule saw it. */
export interface LineDrop {
  lineId: number;
  /** The line's handicap or total: a line is its id and value (a handicap moved under its id is another line). */
  line?: number | null;
  /** The side that fell most. */
  side: PriceSide;
  /** The line and side in words, with its period: "Over 2.5 · Full match". */
  words: string;
  from: number;
  to: number;
  /** The fair price's change in percent (negative: it shortened). */
  pct: number;
  basis: 'open' | 'window' | 'alert';
  model: string;
  /** The per-line alert's own words: an episode of one line reads exactly as that alert. */
  message: string;
}

/** A line of an episode, as its data lists it. */
export interface EpisodeLine {
  lineId: number;
  side: PriceSide;
  from: number;
  to: number;
  pct: number;
  basis: LineDrop['basis'];
}

/** An episode's alert data: the largest move's line at the top (as a single drop alert's), every line in `lines`. */
export interface EpisodeData extends EpisodeLine {
  model: string;
  /** When the episode began (its first drop). */
  at: number;
  /** Its latest drop. */
  until: number;
  /** Lines in the episode, largest fall first. */
  lines: EpisodeLine[];
  count: number;
}

export interface OpenedEpisode {
  eventId: number;
  /** The event in words ("A v B"), for a notification's title. */
  name: string;
  alert: NewAlert;
  /** The alert as numbered and stored: its later updates keep its number. */
  bind(record: AlertRecord): void;
}

export interface DropEpisodes {
  /** A line's drop: it joins its event's open episode, or opens one. */
  add(eventId: number, name: string, drop: LineDrop, now: number): void;
  /**
   * What to write now: the episodes opened since the last call (to be numbered, once each), and the updates due (an
   * open episode that grew, at most once per updateMs; an ended one's last state). Ended episodes are let go.
   */
  take(now: number): { opened: OpenedEpisode[]; updated: AlertRecord[] };
  /** When take() will have something due, if anything waits (the caller's timer; a time past means now); else null. */
  nextAt(): number | null;
  forget(eventId: number): void;
  /** Episodes held now (bounded by the events with drops in the last quiet gap or the last episode's length). */
  held(): number;
}

interface Episode {
  eventId: number;
  name: string;
  startedAt: number;
  lastAt: number;
  /** By lineKey (line id and value). */
  lines: Map<string, LineDrop>;
  /** 'new': not given out yet; 'clean': its alert holds its state; 'dirty': it grew since it was last given out. */
  state: 'new' | 'clean' | 'dirty';
  givenAt: number;
  record: AlertRecord | null;
}

const fall = (from: number, to: number) => ((to - from) / from) * 100;

/** An episode's lines, largest fall first (ties by line id, so the order is stable). */
function ordered(lines: ReadonlyMap<string, LineDrop>): LineDrop[] {
  return [...lines.values()].sort((a, b) => a.pct - b.pct || a.lineId - b.lineId);
}

/** The episode's words and data: one line reads as its own drop alert; more list the largest moves first. */
export function episodeWords(ep: {
  name: string;
  startedAt: number;
  lastAt: number;
  lines: ReadonlyMap<string, LineDrop>;
}): { message: string; data: EpisodeData } {
  const lines = ordered(ep.lines);
  const top = lines[0]!;
  const listed: EpisodeLine[] = lines.map((l) => ({
    lineId: l.lineId,
    side: l.side,
    from: l.from,
    to: l.to,
    pct: l.pct,
    basis: l.basis,
  }));
  const data: EpisodeData = {
    ...listed[0]!,
    model: top.model,
    at: ep.startedAt,
    until: ep.lastAt,
    lines: listed,
    count: lines.length,
  };
  if (lines.length === 1) return { message: top.message, data };
  const shown = lines
    .slice(0, EPISODE_LINES_IN_WORDS)
    .map((l) => `${l.words} fair ${l.from.toFixed(3)} → ${l.to.toFixed(3)} (${formatPct(l.pct)})`);
  const more = lines.length - shown.length;
  const message = `${lines.length} lines dropped on ${ep.name} (${top.model}): ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
  return { message, data };
}

export function createDropEpisodes(rules: EpisodeRules = EPISODE_RULES): DropEpisodes {
  const open = new Map<number, Episode>();
  /** Episodes that ended before take() gave out their last state. */
  let ended: Episode[] = [];

  const overAt = (ep: Episode) => Math.min(ep.lastAt + rules.quietMs, ep.startedAt + rules.maxMs);
  const isOver = (ep: Episode, now: number) => now >= overAt(ep);
  /** When an episode has output due: a new one at once, a grown one at its next update or its end, a clean one never. */
  const dueOf = (ep: Episode): number =>
    ep.state === 'new'
      ? ep.givenAt
      : ep.state === 'dirty'
        ? Math.min(ep.givenAt + updateGap(rules, ep.startedAt, ep.givenAt), overAt(ep))
        : Infinity;
  /**
   * No episode has output due before this (kept as adds and takes change them): take() runs on every coalesced batch,
   * and a walk over every open episode each time was work for nothing most of the time under a storm.
   */
  let dueAt = Infinity;

  const updateOf = (ep: Episode, now: number): AlertRecord => {
    const { message, data } = episodeWords(ep);
    return { ...ep.record!, message, data, updatedAt: now };
  };

  const opening = (ep: Episode): OpenedEpisode => {
    const { message, data } = episodeWords(ep);
    return {
      eventId: ep.eventId,
      name: ep.name,
      alert: { kind: 'drop', eventId: ep.eventId, at: ep.startedAt, message, data },
      bind: (record) => void (ep.record = record),
    };
  };

  /** An episode's output as it leaves (it ended): its opening if never given out, else its last state if it grew. */
  const last = (ep: Episode, now: number, out: { opened: OpenedEpisode[]; updated: AlertRecord[] }) => {
    if (ep.state === 'new') out.opened.push(opening(ep));
    else if (ep.state === 'dirty' && ep.record) out.updated.push(updateOf(ep, now));
  };

  return {
    add(eventId, name, drop, now) {
      let ep = open.get(eventId);
      if (ep && isOver(ep, now)) {
        open.delete(eventId);
        if (ep.state !== 'clean') ended.push(ep);
        ep = undefined;
      }
      if (!ep) {
        ep = { eventId, name, startedAt: now, lastAt: now, lines: new Map(), state: 'new', givenAt: now, record: null };
        open.set(eventId, ep);
      } else if (ep.state === 'clean') ep.state = 'dirty';
      ep.lastAt = now;
      ep.name = name;
      dueAt = Math.min(dueAt, dueOf(ep));
      // A line that drops again within the episode shows its whole move since the episode's first drop of that side
      // (the same line: the same id and value).
      const key = lineKey(drop.lineId, drop.line ?? null);
      const had = ep.lines.get(key);
      const from = had && had.side === drop.side ? had.from : drop.from;
      const basis = had && had.side === drop.side ? had.basis : drop.basis;
      ep.lines.set(key, { ...drop, from, basis, pct: from === drop.from ? drop.pct : fall(from, drop.to) });
    },

    take(now) {
      const out: { opened: OpenedEpisode[]; updated: AlertRecord[] } = { opened: [], updated: [] };
      if (ended.length === 0 && now < dueAt) return out;
      for (const ep of ended) last(ep, now, out);
      ended = [];
      // A clean episode that is over gives nothing out: it goes in this walk (or when its event drops again).
      dueAt = Infinity;
      for (const ep of [...open.values()]) {
        if (isOver(ep, now)) {
          open.delete(ep.eventId);
          last(ep, now, out);
          continue;
        }
        if (ep.state === 'new') out.opened.push(opening(ep));
        else if (ep.state === 'dirty' && ep.record && now - ep.givenAt >= updateGap(rules, ep.startedAt, ep.givenAt))
          out.updated.push(updateOf(ep, now));
        else {
          dueAt = Math.min(dueAt, dueOf(ep));
          continue;
        }
        ep.state = 'clean';
        ep.givenAt = now;
      }
      return out;
    },

    nextAt() {
      if (ended.length) return 0;
      return dueAt === Infinity ? null : dueAt;
    },

    forget(eventId) {
      open.delete(eventId);
      ended = ended.filter((ep) => ep.eventId !== eventId);
    },

    held: () => open.size + ended.length,
  };
}
