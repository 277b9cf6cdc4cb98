// What the monitor tells its host (./events.ts), through one emitter: domain events, and every error and problem its
// parts report, scrubbed by the governor (no key in any message) and counted. A stopped monitor says nothing more:
// its host may already be talking to the next one.
import type { AppError } from '../../shared/errors';
import { Emitter, type Event } from '../../shared/event';
import type { BadRecord } from '../api/types';
import type { MonitorEvent } from './events';

export interface Reporter {
  emit(event: MonitorEvent): void;
  /** Subscribe to the monitor's events. */
  on: Event<[MonitorEvent]>;
  reportError(error: AppError): void;
  /** An internal fault, in words. */
  internal(message: string): void;
  /** Bad records of the service: each reported, all counted. */
  reportProblems(problems: readonly BadRecord[]): void;
  badRecords(): number;
}

export function createReporter(o: { scrubError(error: AppError): AppError; stopped(): boolean }): Reporter {
  const listeners = new Emitter<[MonitorEvent]>({ name: 'the monitor' });
  let badRecords = 0;
  const emit = (event: MonitorEvent) => {
    if (!o.stopped()) listeners.fire(event);
  };
  const reportError = (error: AppError) => emit({ type: 'error', error: o.scrubError(error) });
  return {
    emit,
    on: listeners.event,
    reportError,
    internal: (message) => reportError({ kind: 'internal', message }),
    reportProblems(problems) {
      badRecords += problems.length;
      for (const p of problems) reportError(p);
    },
    badRecords: () => badRecords,
  };
}
