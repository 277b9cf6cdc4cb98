// The cap on a stream's opens: at most `max` opens of one event in any rolling window (stream opens count against
// the hourly quota, so a flapping stream must not spend it). The ledger outlives an unwatch, so re-watching is no way
// round it; a stream over its cap rests as 'failing' until the window lets it try again (./eventStream.ts).
import type { AppError } from '../../shared/errors';
import type { Clock } from '../clock';

export interface OpenCap {
  max: number;
  windowMs: number;
}

export const DEFAULT_OPEN_CAP = { max: 30, windowMs: 3_600_000 } as const;

export interface OpenLedger {
  /** The earliest instant the cap lets this event open again (now, when it has room). */
  freeAt(eventId: number): number;
  /** An open of this event begins now. */
  record(eventId: number): void;
}

export function createOpenLedger(clock: Clock, cap: OpenCap): OpenLedger {
  /** Open instants per event within the cap's window. */
  const opensByEvent = new Map<number, number[]>();

  /** Opens of this event still inside the cap's window, oldest first. */
  function recentOpens(eventId: number): number[] {
    const since = clock.now() - cap.windowMs;
    const list = (opensByEvent.get(eventId) ?? []).filter((at) => at > since);
    if (list.length) opensByEvent.set(eventId, list);
    else opensByEvent.delete(eventId);
    return list;
  }

  return {
    freeAt(eventId) {
      const opens = recentOpens(eventId);
      if (opens.length < cap.max) return clock.now();
      return (opens[opens.length - cap.max] ?? clock.now()) + cap.windowMs;
    },
    record(eventId) {
      const opens = recentOpens(eventId);
      opens.push(clock.now());
      opensByEvent.set(eventId, opens);
    },
  };
}

/** Why a stream rests: it used up its opens for the window, and when it tries again. */
export function restingError(eventId: number, cap: OpenCap, restMs: number): AppError {
  const minutes = Math.max(1, Math.ceil(restMs / 60_000));
  return {
    kind: 'network',
    message: `The live odds stream of event ${eventId} keeps failing (${cap.max} connections within ${Math.round(cap.windowMs / 60_000)} min); it rests and tries again in ${minutes} min.`,
  };
}
