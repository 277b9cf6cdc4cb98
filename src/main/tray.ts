// What the tray says about the connection: its icon state, tooltip and first menu line, from the core's onStatus
// pushes. Words as well as colour, because colour is never the only signal. Electron's Tray itself is built in
// index.ts; this module stays free of Electron so its wording can be tested without a binary.
import type { StatusView } from '../shared/ipc/contract';
import type { TrayState } from './icons';

export interface TrayView {
  state: TrayState;
  /** One line; Windows cuts tray tooltips at 127 characters. */
  tooltip: string;
  /** The same, for the tray menu's first (disabled) line. */
  label: string;
}

const TOOLTIP_MAX = 127;

export function trayView(status: StatusView | null, appName = 'Oddsdesk'): TrayView {
  let state: TrayState;
  let text: string;
  if (!status) {
    state = 'unknown';
    text = 'starting…';
  } else if (status.auth === 'rejected') {
    state = 'attention';
    text = 'the key was rejected (regenerated or revoked): enter a new one in Settings';
  } else if (status.auth === 'missing' && !status.demo) {
    state = 'attention';
    text = 'no API key: enter one in Settings';
  } else if (status.connection === 'offline') {
    state = 'offline';
    text = `offline${status.lastError ? `: ${status.lastError.message}` : ''}`;
  } else if (status.connection === 'online') {
    state = 'online';
    const live = status.streams.filter((s) => s.state === 'live').length;
    const parts = ['online'];
    if (status.streams.length > 0) parts.push(`stream ${live}/${status.streams.length} live`);
    if (status.quota.pausedUntil) parts.push('quota paused');
    text = parts.join(' · ');
  } else {
    state = 'unknown';
    text = 'connecting…';
  }
  const label = `${status?.demo ? 'DEMO · ' : ''}${text}`;
  const tooltip = `${appName} — ${label}`;
  return { state, label, tooltip: tooltip.length > TOOLTIP_MAX ? `${tooltip.slice(0, TOOLTIP_MAX - 1)}…` : tooltip };
}
