// What the monitor tells its host: domain events in the trader's terms. The CLI prints them as JSON lines, the
// desktop and browser hosts turn them into pushed IPC events and notifications.
import type { SettledEvent } from '../../shared/api';
import type { AlertRecord } from '../../shared/domain';
import type { AppError } from '../../shared/errors';
import type { CoalescedEvent } from './coalescer';

/** One max_win change: of a market line (lineId) or of a special contestant (specialId, contestantId). */
export interface MaxWinChange {
  eventId: number | null;
  specialId: number | null;
  contestantId: number | null;
  lineId: number | null;
  from: number;
  to: number;
  /** The service's time of the change (its own text, UTC without zone). */
  at: string;
}

export type MonitorEvent =
  /** A settlement stored for the first time, or (`resettled`: the result it replaced) one sent again with another result. */
  | {
      type: 'settlement';
      settlement: SettledEvent;
      watched: boolean;
      resettled?: { scoreHome: number; scoreAway: number; status: string };
    }
  | ({ type: 'max_win'; watched: boolean } & MaxWinChange)
  /**
   * What the streams delivered since the last batch, coalesced (./coalescer.ts): per event, its markets' latest values
   * (`replace`: a snapshot replaced the event's state, `snapshot` its header), then its latest score, then its end
   * (the event left the book: `ended`, the reason as the service gave it, e.g. 'settled', 'removed'). One per flush.
   */
  | { type: 'batch'; events: readonly CoalescedEvent[] }
  /**
   * The service now uses this event's id for another match (./otherMatches.ts): the id is flagged for good, its stream
   * stopped, and nothing it sends is taken any more.
   */
  | { type: 'other_match'; eventId: number; watched: boolean }
  | { type: 'alert'; alert: AlertRecord }
  | { type: 'error'; error: AppError };

export type MonitorListener = (event: MonitorEvent) => void;
