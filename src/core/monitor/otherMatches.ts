// One event id, one match, on the streams' side (../../shared/eventIdentity.ts): the gate every stream message of the
// monitor passes before anything of it is stored, judged or handed on. A snapshot is the stream's one description of
// its event: the store judges it (Store.namesAnotherMatch, which keeps the flag for good). Once an id names another
// match, nothing its stream sends is taken (prices, scores, ends: they are the other match's, and would land in the
// stored match's history, its close, its bets' CLV and its chart), its stream is stopped (no quota is spent on a match
// nobody watched), and it is never opened again, after a restart too.
import type { EventOdds } from '../../shared/api';
import { errorMessage, type AppError } from '../../shared/errors';
import type { Clock } from '../clock';
import type { Store } from '../store';

export interface OtherMatches {
  /** Whether the stream's messages for this id may be taken: false once the id names another match. */
  admits(eventId: number): boolean;
  /**
   * Whether a snapshot may be taken: false when its header names another match than the stored one (the id is then
   * flagged, and `onOtherMatch` told once) or the id was flagged before.
   */
  admitsSnapshot(eventId: number, snapshot: EventOdds): boolean;
}

export function createOtherMatches(o: {
  store: Pick<Store, 'odds' | 'history'>;
  clock: Clock;
  /** The id was found naming another match just now: stop following it, and say so. */
  onOtherMatch(eventId: number): void;
  reportError(error: AppError): void;
}): OtherMatches {
  const flagged = new Set(o.store.history.otherMatchIds());
  return {
    admits: (eventId) => !flagged.has(eventId),
    admitsSnapshot(eventId, snapshot) {
      if (flagged.has(eventId)) return false;
      let other: boolean;
      try {
        other = o.store.odds.namesAnotherMatch(snapshot, 'stream', o.clock.now());
      } catch (e) {
        // Not judged (the file is locked past its wait): the snapshot goes on as before, and its own write judges it.
        o.reportError({
          kind: 'internal',
          message: `Could not check the match of event ${eventId}: ${errorMessage(e)}`,
        });
        return true;
      }
      if (!other) return true;
      flagged.add(eventId);
      o.onOtherMatch(eventId);
      return false;
    },
  };
}
