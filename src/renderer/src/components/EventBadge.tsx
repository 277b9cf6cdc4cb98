// The one badge that says where an event stands, the same on the watchlist row and in the detail pane: FT once
// settled (or finished by the stream's end), REMOVED / ENDED when the stream said the event left the book, LIVE only
// while none of those is true. The service's live_status can still say 1 after the match ended: it never wins.
import { useStore } from '../store';
import { STREAM_GONE } from '../../../shared/ipc/contract';
import { isFullTime } from '../store/selectors';
import { endedOf } from '../store/watchlist';

export function eventBadge(
  settled: boolean,
  ended: string | null,
  live: boolean,
  fullTime = false,
): { text: string; cls: string; title: string } | null {
  if (settled) return { text: 'FT', cls: 'settled', title: 'Settled: the match has left the book' };
  if (ended === 'settled')
    return { text: 'FT', cls: 'settled', title: 'The match finished; its settlement follows from /api/settled' };
  if (ended === STREAM_GONE)
    return {
      text: 'GONE',
      cls: 'ended',
      title: 'The service no longer knows this event: no more prices, and no result unless its settlement comes',
    };
  if (fullTime)
    return { text: 'FT', cls: 'settled', title: 'Full time: the stream says play is over; the settlement follows' };
  if (ended === 'removed')
    return { text: 'REMOVED', cls: 'ended', title: 'The service removed this event from the book: no more prices' };
  if (ended) return { text: 'ENDED', cls: 'ended', title: `The stream ended (${ended}): no more prices` };
  if (live) return { text: 'LIVE', cls: 'live', title: 'In play' };
  return null;
}

export function EventBadge({
  eventId,
  settled,
  live,
  testId,
}: {
  eventId: number;
  settled: boolean;
  live: boolean;
  testId?: string;
}) {
  const ended = useStore((s) => endedOf(s, eventId));
  const storeSettled = useStore((s) => s.watchEvents[eventId]?.settled ?? false);
  const fullTime = useStore((s) => isFullTime(s.watchEvents[eventId]));
  const b = eventBadge(settled || storeSettled, ended, live, fullTime);
  if (!b) return null;
  return (
    <span className={`badge ${b.cls}`} title={b.title} data-testid={testId}>
      {b.text}
    </span>
  );
}
