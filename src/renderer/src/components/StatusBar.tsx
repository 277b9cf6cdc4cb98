// The status bar: each stream's state, plan, quota, last settlement sync, DEMO and OFFLINE badges.
import { useShallow } from 'zustand/react/shallow';
import type { StreamState } from '../../../shared/ipc/contract';
import { fmtTime, utcTitle } from '../format';
import { useStore } from '../store';

const STATE_ORDER: StreamState[] = ['live', 'connecting', 'reconnecting', 'failing', 'restricted', 'failed', 'ended'];

export function StatusBar() {
  const status = useStore((s) => s.status);
  const { demo, hostConnected, theme } = useStore(useShallow((s) => ({ demo: s.info?.demo ?? s.status?.demo ?? false, hostConnected: s.hostConnected, theme: s.theme })));
  const offline = !hostConnected || status?.connection === 'offline';
  const streams = status?.streams ?? [];
  const counts = new Map<StreamState, number>();
  for (const st of streams) counts.set(st.state, (counts.get(st.state) ?? 0) + 1);
  const live = counts.get('live') ?? 0;
  const open = streams.filter((s) => s.state !== 'ended').length;
  const others = STATE_ORDER.filter((k) => k !== 'live' && counts.get(k)).map((k) => `${counts.get(k)} ${k}`);
  const dotClass = offline ? 'offline' : streams.length === 0 ? 'idle' : live === open ? 'online' : 'degraded';
  const q = status?.quota;
  const paused = q?.pausedUntil && q.pausedUntil > Date.now() ? q.pausedUntil : null;

  return (
    <footer className="status-bar" role="status" data-testid="status-bar" aria-label="Status">
      <span className="seg" data-testid="status-streams" title={streams.map((s) => `#${s.eventId} ${s.state}`).join('\n') || 'No streams open'}>
        <span className={`dot ${dotClass}`} aria-hidden /> {streams.length === 0 ? 'no streams' : `stream ${live}/${open} live`}
        {others.length > 0 && <span className="muted"> ({others.join(', ')})</span>}
      </span>
      <span className="seg" data-testid="status-plan">
        plan {status?.plan ?? '—'}
      </span>
      <span className="seg" data-testid="status-quota" title={q?.resetAt ? `resets ${fmtTime(q.resetAt)}` : undefined}>
        quota {q ? `${q.used.toLocaleString('en-US')}${q.limit != null ? `/${q.limit.toLocaleString('en-US')}` : ''} this hour` : '—'}
        {q?.remaining != null && <span className="muted"> · {q.remaining.toLocaleString('en-US')} left</span>}
        {paused && <span className="status-error"> · paused until {fmtTime(paused)}</span>}
      </span>
      <span className="seg" data-testid="status-settled" title={utcTitle(status?.lastSettledSync)}>
        settled synced {fmtTime(status?.lastSettledSync)}
      </span>
      {status?.lastError && (
        <span className="seg status-error ellipsis" title={status.lastError.message}>
          {status.lastError.message}
        </span>
      )}
      <span className="spacer" />
      {demo && (
        <span className="badge demo" data-testid="badge-demo">
          DEMO
        </span>
      )}
      {offline && (
        <span className="badge offline" data-testid="badge-offline">
          OFFLINE
        </span>
      )}
      <span className="muted">{theme === 'dark' ? '◐' : '◑'} Ctrl+K</span>
    </footer>
  );
}
