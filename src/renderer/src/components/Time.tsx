// A time in the trader's zone (Settings; default the OS zone), on a 24-hour clock; hover shows the same instant in
// UTC and names the zone.
import { fmtDateTime, fmtShortDateTime, fmtTime, useTimeZone, utcTitle } from '../format';

/** `short`: time only for today, otherwise day, month and time; `withDate`: the full date and time. */
export function Time({ ms, withDate = false, short = false, className }: { ms: number | null | undefined; withDate?: boolean; short?: boolean; className?: string }) {
  const zone = useTimeZone();
  return (
    <time className={className} dateTime={ms == null ? undefined : new Date(ms).toISOString()} title={utcTitle(ms, zone)}>
      {short ? fmtShortDateTime(ms, zone) : withDate ? fmtDateTime(ms, zone) : fmtTime(ms, zone)}
    </time>
  );
}
