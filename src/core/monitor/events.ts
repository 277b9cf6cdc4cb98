// What the monitor tells its host: domain events in the trader's terms. The CLI prints them as JSON lines, the
// desktop and browser hosts turn them into pushed IPC events and notifications.
import type { Market, SettledEvent } from '../../shared/api';
import type { AlertRecord } from '../../shared/domain';
import type { AppError } from '../../shared/errors';
import type { SnapshotHeader } from './coalescer';

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
  | { type: 'settlement'; settlement: SettledEvent; watched: boolean }
  | ({ type: 'max_win'; watched: boolean } & MaxWinChange)
  /** `snapshot`: with `replace`, the snapshot's header (teams, league, start, score). */
  | { type: 'odds'; eventId: number; markets: Market[]; replace: boolean; snapshot?: SnapshotHeader }
  | { type: 'score'; eventId: number; liveStatus: number; scoreHome: number | null; scoreAway: number | null }
  /** The stream's `end`: the event left the book (reason as the service gave it, e.g. 'settled', 'removed'). */
  | { type: 'end'; eventId: number; reason: string }
  | { type: 'alert'; alert: AlertRecord }
  | { type: 'error'; error: AppError };

export type MonitorListener = (event: MonitorEvent) => void;
