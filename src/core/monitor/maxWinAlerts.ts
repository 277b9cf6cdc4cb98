// The limits' alert bases: for each market line and special contestant of a watched event, the max_win (maximum stake
// accepted) its next alert is measured from: the value that last alerted, or the first value seen before any alert.
// The rule itself is pure (alertRules.maxWinDecision); this keeps its state. Memory is bounded by the watched events:
// an event's bases go when it is unwatched or leaves the book, as the odds pipeline's baselines do.
import { maxWinDecision, type AlertDecision, type AlertSettings } from './alertRules';
import type { MaxWinChange } from './events';

export interface MaxWinAlerts {
  /** Decides on one change of a limit and moves that limit's base when it alerts. */
  decide(c: MaxWinChange & { label: string }, watched: boolean, settings: AlertSettings): AlertDecision;
  /** The event is no longer followed: its limits' bases go. */
  forget(eventId: number): void;
  /** Events whose bases are held (for the memory bound test). */
  held(): number;
}

/** A line by its id, a special contestant by special and contestant (a line id and a special id may be equal). */
const keyOf = (c: MaxWinChange): string => (c.lineId !== null ? `l${c.lineId}` : `s${c.specialId}:${c.contestantId}`);

export function createMaxWinAlerts(): MaxWinAlerts {
  /** eventId -> limit key -> base; keyed by event so forgetting one is one delete. */
  const bases = new Map<number, Map<string, number>>();
  return {
    decide(c, watched, settings) {
      // Nothing is kept for an event that is not watched (a tournament future has no event): it cannot alert.
      if (!watched || c.eventId === null) return maxWinDecision(c, watched, settings);
      let limits = bases.get(c.eventId);
      if (!limits) bases.set(c.eventId, (limits = new Map()));
      const key = keyOf(c);
      const decision = maxWinDecision(c, watched, settings, limits.get(key) ?? c.from);
      limits.set(key, decision.base);
      return decision;
    },
    forget: (eventId) => void bases.delete(eventId),
    held: () => bases.size,
  };
}
