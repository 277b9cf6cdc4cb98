// A time in the trader's zone (Settings; default the OS zone), on a 24-hour clock; hover shows the same instant in
// UTC and names the zone.
import { memo, useSyncExternalStore } from 'react';
import { Emitter } from '../../../shared/event';
import { fmtDateTime, fmtShortDateTime, fmtTime, useTimeZone, utcTitle } from '../format';

// A short time reads "14:05" today and "24 Nov 14:05" on another day, so it is drawn again when the day may have
// changed: one shared ticker every quarter of an hour (a zone's midnight falls on a quarter hour: +5:30, +5:45).
const QUARTER_MS = 15 * 60_000;
const quarter = new Emitter<[]>({ name: 'the quarter-hour clock' });
let quarterTimer: ReturnType<typeof setTimeout> | null = null;
function armQuarter() {
  quarterTimer = setTimeout(
    () => {
      quarterTimer = null;
      quarter.fire();
      if (quarter.size) armQuarter();
    },
    QUARTER_MS - (Date.now() % QUARTER_MS) + 50,
  );
}
function onQuarter(listener: () => void): () => void {
  const off = quarter.event(listener);
  if (quarterTimer === null) armQuarter();
  return off;
}
const quarterNow = () => Math.floor(Date.now() / QUARTER_MS);
const noSubscription = () => () => undefined;
const noQuarter = () => 0;

/**
 * `short`: time only for today, otherwise day, month and time; `withDate`: the full date and time. Memoised: a row
 * drawn again for a price keeps its times as they were (formatting in a zone is not free, and a grid has hundreds).
 */
export const Time = memo(function Time({
  ms,
  withDate = false,
  short = false,
  className,
}: {
  ms: number | null | undefined;
  withDate?: boolean;
  short?: boolean;
  className?: string;
}) {
  const zone = useTimeZone();
  useSyncExternalStore(short ? onQuarter : noSubscription, short ? quarterNow : noQuarter);
  return (
    <time
      className={className}
      dateTime={ms == null ? undefined : new Date(ms).toISOString()}
      title={utcTitle(ms, zone)}
    >
      {short ? fmtShortDateTime(ms, zone) : withDate ? fmtDateTime(ms, zone) : fmtTime(ms, zone)}
    </time>
  );
});
