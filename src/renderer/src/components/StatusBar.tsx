// The status bar: each stream's state, plan, quota, last settlement sync, DEMO and OFFLINE badges, and a warning
// with the figure while the screen is over a second behind the newest prices the app has. The quota's
// tooltip (hover or keyboard focus) says where this hour's requests went, by purpose, and where the limit comes from.
import { useRef, useState, type CSSProperties } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { QuotaView, StreamState } from '../../../shared/ipc/contract';
import {
  describeSkew,
  HELD_BACK_WORDS,
  purposeSplit,
  quotaSourceWords,
  skewAmount,
  turnedAwayWords,
} from '../../../shared/requests';
import { countOf, zoneLabel } from '../../../shared/formats';
import { eventName, fmtShortDateTime, fmtTime, useTimeZone, utcTitle } from '../format';
import { useStore } from '../store';

const STATE_ORDER: StreamState[] = ['live', 'connecting', 'reconnecting', 'failing', 'restricted', 'failed', 'ended'];
/** A stream's state in a trader's words. */
const STATE_WORDS: Record<StreamState, string> = {
  live: 'live',
  connecting: 'connecting',
  reconnecting: 'reconnecting',
  failing: 'resting after repeated drops',
  restricted: 'not in your plan',
  failed: 'failed',
  ended: 'match over, no more prices',
};

export function StatusBar() {
  const status = useStore((s) => s.status);
  const behindMs = useStore((s) => s.screenBehindMs);
  const { demo, hostConnected, theme } = useStore(
    useShallow((s) => ({
      demo: s.info?.demo ?? s.status?.demo ?? false,
      hostConnected: s.hostConnected,
      theme: s.theme,
    })),
  );
  const names = useStore(
    useShallow((s) =>
      (s.status?.streams ?? []).map((st) =>
        eventName(s.watchEvents[st.eventId]?.runnerHome, s.watchEvents[st.eventId]?.runnerAway, st.eventId),
      ),
    ),
  );
  const offline = !hostConnected || status?.connection === 'offline';
  const streams = status?.streams ?? [];
  const counts = new Map<StreamState, number>();
  for (const st of streams) counts.set(st.state, (counts.get(st.state) ?? 0) + 1);
  const live = counts.get('live') ?? 0;
  const open = streams.filter((s) => s.state !== 'ended').length;
  const others = offline
    ? []
    : STATE_ORDER.filter((k) => k !== 'live' && counts.get(k)).map((k) =>
        // "4 matches over", not "4 match over": the one state named by its match agrees with its count.
        k === 'ended'
          ? `${countOf(counts.get(k)!, 'match', 'matches')} over, no more prices`
          : `${counts.get(k)} ${STATE_WORDS[k]}`,
      );
  // Every watched match over: nothing is live and nothing will be, said as it is rather than "stream 0/0 live".
  const allOver = streams.length > 0 && open === 0;
  const dotClass = offline
    ? 'offline'
    : streams.length === 0 || allOver
      ? 'idle'
      : live === open
        ? 'online'
        : 'degraded';
  const q = status?.quota;
  const paused = q?.pausedUntil && q.pausedUntil > Date.now() ? q.pausedUntil : null;
  const skew = describeSkew(q?.clockSkewMs);
  // Every time on screen is in this zone: said once, here, and in each time's hover.
  const zone = useTimeZone();

  return (
    <footer className="status-bar" role="status" data-testid="status-bar" aria-label="Status">
      <span
        className="seg"
        data-testid="status-streams"
        title={
          streams.length === 0
            ? 'No streams open'
            : offline
              ? 'Offline: no prices are coming in; the streams open again once the service answers'
              : streams.map((s, i) => `${names[i]}: ${STATE_WORDS[s.state]}`).join('\n')
        }
      >
        {/* Offline, no stream is live whatever it last said: none is claimed. */}
        <span className={`dot ${dotClass}`} aria-hidden />{' '}
        {streams.length === 0
          ? 'no streams'
          : allOver
            ? `no live streams: ${streams.length === 1 ? 'the watched match is' : 'every watched match is'} over`
            : offline
              ? `${countOf(open, 'stream')} waiting (offline)`
              : `stream ${live}/${open} live`}
        {others.length > 0 && !allOver && <span className="muted"> ({others.join(', ')})</span>}
      </span>
      <span className="seg" data-testid="status-plan">
        plan {status?.plan ?? '—'}
      </span>
      <QuotaSegment q={q} paused={paused} />
      {behindMs !== null && (
        <span
          className="seg status-warn"
          data-testid="status-behind"
          title="This screen shows prices older than the newest the app has received: it is catching up. Ages are measured from when the app received each price."
        >
          screen {(behindMs / 1000).toFixed(1)} s behind
        </span>
      )}
      {skew && (
        <span
          className="seg status-warn"
          data-testid="status-skew"
          title={`${skew}. Ages and reset times are shown on this machine's clock.`}
        >
          service clock {fmtSkew(status!.quota.clockSkewMs!)}
        </span>
      )}
      <span className="seg" data-testid="status-settled" title={utcTitle(status?.lastSettledSync)}>
        settled synced {fmtTime(status?.lastSettledSync)}
      </span>
      {status?.lastError && (
        <span className="seg status-error ellipsis" title={status.lastError.message}>
          {status.lastError.message}
        </span>
      )}
      <span className="spacer" />
      <span
        className="seg muted"
        data-testid="status-zone"
        title="Times are shown in this zone, on a 24-hour clock (Settings, Time zone)"
      >
        {zoneLabel(zone, Date.now())}
      </span>
      {demo && (
        <span className="badge demo" data-testid="badge-demo">
          DEMO
        </span>
      )}
      {offline && (
        <span className="badge offline" data-testid="badge-offline" title={utcTitle(status?.connectionSince)}>
          OFFLINE
          {status?.connection === 'offline' && status.connectionSince != null
            ? ` since ${fmtShortDateTime(status.connectionSince)}`
            : ''}
        </span>
      )}
      <span className="muted">{theme === 'dark' ? '◐' : '◑'} Ctrl+K</span>
    </footer>
  );
}

const n = (x: number) => x.toLocaleString('en-US');
/** "+12 s", "-10 min": the service's clock against ours. */
const fmtSkew = (ms: number) => `${ms > 0 ? '+' : '-'}${skewAmount(ms)}`;

function QuotaSegment({ q, paused }: { q: QuotaView | undefined; paused: number | null }) {
  const [at, setAt] = useState<{ left: number; bottom: number } | null>(null);
  const ref = useRef<HTMLSpanElement>(null);
  const show = () => {
    const r = ref.current?.getBoundingClientRect();
    if (r) setAt({ left: Math.max(4, r.left), bottom: window.innerHeight - r.top + 4 });
  };
  const hide = () => setAt(null);
  return (
    <span
      ref={ref}
      className="seg quota-seg"
      data-testid="status-quota"
      tabIndex={0}
      aria-describedby={at ? 'quota-tooltip' : undefined}
      onMouseEnter={show}
      onMouseLeave={hide}
      onFocus={show}
      onBlur={hide}
      onKeyDown={(e) => e.key === 'Escape' && hide()}
    >
      quota {q ? `${n(q.used)}${q.limit != null ? `/${n(q.limit)}` : ''} this hour` : '—'}
      {q?.remaining != null && <span className="muted"> · {n(q.remaining)} left</span>}
      {paused && <span className="status-error"> · paused until {fmtTime(paused)}</span>}
      {at && q && <QuotaTooltip q={q} paused={paused} style={{ left: at.left, bottom: at.bottom }} />}
    </span>
  );
}

function QuotaTooltip({ q, paused, style }: { q: QuotaView; paused: number | null; style: CSSProperties }) {
  const split = purposeSplit(q.byPurpose ?? {}, true);
  const total = split.reduce((a, r) => a + r.count, 0);
  const refused = purposeSplit(q.refused ?? {}, true);
  const skew = describeSkew(q.clockSkewMs);
  return (
    <div role="tooltip" id="quota-tooltip" className="quota-tooltip" data-testid="quota-tooltip" style={style}>
      <div className="qt-head">
        Requests this hour: {n(total)}
        {q.rateLimited > 0 && <span className="status-error"> ({turnedAwayWords(q.rateLimited)})</span>}
      </div>
      {split.length === 0 ? (
        <div className="muted">none yet</div>
      ) : (
        <table data-testid="quota-split">
          <tbody>
            {split.map((r) => (
              <tr key={r.purpose} data-purpose={r.purpose}>
                <td>{r.label}</td>
                <td className="num" data-testid={`quota-purpose-${r.purpose}`}>
                  {n(r.count)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {refused.length > 0 && (
        <div data-testid="quota-refused">
          {HELD_BACK_WORDS}: {refused.map((r) => `${r.label} ${n(r.count)}`).join(', ')}
        </div>
      )}
      <div data-testid="quota-source">{quotaSourceWords(q.limit, q.source)}</div>
      {q.resetAt != null && <div className="muted">next request frees up {fmtTime(q.resetAt)}</div>}
      {paused && (
        <div className="status-error" data-testid="quota-paused">
          paused until {fmtTime(paused)}
          {q.retryAfterClampedFromS != null &&
            ` — the service asked to wait ${n(q.retryAfterClampedFromS)} s; cut to the quota's hour`}
        </div>
      )}
      {skew && (
        <div className="muted" data-testid="quota-skew">
          {skew}; reset times are shown on this machine's clock
        </div>
      )}
    </div>
  );
}
