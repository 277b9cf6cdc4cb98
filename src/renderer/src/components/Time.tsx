// A time in the trader's local zone; hover shows the same instant in UTC.
import { fmtDateTime, fmtShortDateTime, fmtTime, utcTitle } from '../format';

/** `short`: time only for today, otherwise day, month and time; `withDate`: the full local date and time. */
export function Time({ ms, withDate = false, short = false, className }: { ms: number | null | undefined; withDate?: boolean; short?: boolean; className?: string }) {
  return (
    <time className={className} dateTime={ms == null ? undefined : new Date(ms).toISOString()} title={utcTitle(ms)}>
      {short ? fmtShortDateTime(ms) : withDate ? fmtDateTime(ms) : fmtTime(ms)}
    </time>
  );
}
