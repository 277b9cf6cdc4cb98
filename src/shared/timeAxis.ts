// The chart's time axis labels in the trader's zone (pure, so the clock-change days are tested without a canvas).
import { formatClock, formatDay, formatDayMonth, formatHourMinute, formatUtcOffset, utcOffsetMinutes } from './formats';

/**
 * The time axis' labels in `zone`: "14:05" (with seconds when the ticks are seconds apart, and their tenths or
 * hundredths below a second), the day under the first label and under each one that starts a new day, "23 Nov"
 * alone when the ticks are days apart. Under the first label after a clock change, the zone's new offset ("01:00" then
 * "01:00 / UTC" on the autumn day in London), so a wall time the day has twice never reads as the axis going back.
 */
export function timeAxisLabels(splits: readonly number[], incrSeconds: number, zone: string): string[] {
  let lastDay = '';
  let lastOffset: number | null = null;
  const fraction = incrSeconds >= 1 ? 0 : incrSeconds >= 0.1 ? 1 : incrSeconds >= 0.01 ? 2 : 3;
  return splits.map((s) => {
    const ms = Math.round(s * 1000); // whole milliseconds: 16.9999999 s is 17.000
    if (incrSeconds >= 86_400) return formatDayMonth(ms, zone);
    const sub = fraction
      ? `.${String(((ms % 1000) + 1000) % 1000)
          .padStart(3, '0')
          .slice(0, fraction)}`
      : '';
    const time = incrSeconds < 60 ? `${formatClock(ms, zone)}${sub}` : formatHourMinute(ms, zone);
    const day = formatDay(ms, zone);
    const offset = utcOffsetMinutes(ms, zone);
    const label =
      day !== lastDay
        ? `${time}\n${formatDayMonth(ms, zone)}`
        : lastOffset !== null && offset !== lastOffset
          ? `${time}\n${formatUtcOffset(offset)}`
          : time;
    lastDay = day;
    lastOffset = offset;
    return label;
  });
}
