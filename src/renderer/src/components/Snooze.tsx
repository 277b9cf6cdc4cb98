// Snooze an event's alerts for a while (15 min, 1 hour, until tomorrow in the trader's zone): from an alert row, the
// event detail and the palette. The core keeps the snooze and holds back the OS notifications; the window plays no
// sound and flashes no row for the event meanwhile. Alerts are still listed.
import { useEffect, useReducer } from 'react';
import { dayStartIn, formatDay, resolveTimeZone } from '../../../shared/formats';
import { fmtShortDateTime } from '../format';
import { useStore } from '../store';

export interface SnoozeChoice {
  id: string;
  label: string;
  until(now: number, zone: string): number;
}

export const SNOOZE_CHOICES: readonly SnoozeChoice[] = [
  { id: '15m', label: '15 min', until: (now) => now + 15 * 60_000 },
  { id: '1h', label: '1 hour', until: (now) => now + 60 * 60_000 },
  // Midnight in the trader's zone (Settings), not the machine's.
  {
    id: 'tomorrow',
    label: 'until tomorrow',
    until: (now, zone) => dayStartIn(formatDay(now, zone), zone, 1) ?? now + 24 * 3_600_000,
  },
];

/** Snoozes (or, with null, wakes) an event's alerts, saying so in a toast; the choice's instant is taken now. */
export async function snooze(eventId: number, choice: SnoozeChoice | null): Promise<void> {
  const s = useStore.getState();
  const until = choice ? choice.until(Date.now(), resolveTimeZone(s.settings?.timeZone)) : null;
  const err = await s.snoozeEvent(eventId, until);
  if (err) s.toast(`Could not snooze: ${err.message}`, 'error');
  else
    s.toast(
      until === null
        ? 'Alerts back on'
        : `Snoozed until ${fmtShortDateTime(until)}: listed, but no notification, sound or flash`,
    );
}

/** When the event's snooze ends (epoch ms), or null when it is not snoozed; re-renders as it ends. */
export function useSnoozedUntil(eventId: number): number | null {
  const until = useStore((s) => s.settings?.snoozedEvents.find((x) => x.eventId === eventId)?.until ?? null);
  const [, tick] = useReducer((n: number) => n + 1, 0);
  const left = until === null ? 0 : until - Date.now();
  useEffect(() => {
    if (left <= 0) return;
    const t = setTimeout(tick, Math.min(left + 50, 2 ** 31 - 1));
    return () => clearTimeout(t);
  }, [left]);
  return left > 0 ? until : null;
}

/** A small menu: snooze for one of the choices, or end the snooze. */
export function SnoozeSelect({ eventId, className }: { eventId: number; className?: string }) {
  const until = useSnoozedUntil(eventId);
  return (
    <select
      className={`snooze${until !== null ? ' on' : ''}${className ? ` ${className}` : ''}`}
      value=""
      aria-label={until !== null ? `Snoozed until ${fmtShortDateTime(until)}` : 'Snooze alerts'}
      title={
        until !== null
          ? `Snoozed until ${fmtShortDateTime(until)}: alerts are listed, but no notification, sound or flash`
          : 'Snooze this event: alerts listed, but no notification, sound or flash'
      }
      data-testid={`snooze-${eventId}`}
      data-snoozed={until !== null ? 'true' : 'false'}
      onClick={(e) => e.stopPropagation()}
      onChange={(e) => {
        const id = e.target.value;
        e.target.blur();
        if (id === 'off') void snooze(eventId, null);
        else {
          const choice = SNOOZE_CHOICES.find((c) => c.id === id);
          if (choice) void snooze(eventId, choice);
        }
      }}
    >
      <option value="">{until !== null ? `Snoozed to ${fmtShortDateTime(until)}` : 'Snooze…'}</option>
      {SNOOZE_CHOICES.map((c) => (
        <option key={c.id} value={c.id}>
          {c.label}
        </option>
      ))}
      {until !== null && <option value="off">End snooze</option>}
    </select>
  );
}
