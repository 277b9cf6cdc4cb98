// Settings of the desktop shell itself; Electron only: closing to the tray, the log folder and diagnostics, updates.
import { useEffect, useState } from 'react';
import type { DesktopApi, DesktopView } from '../../../../shared/ipc/contract';
import { useStore } from '../../store';
import { Row } from './Row';

const UPDATE_TEXT: Record<DesktopView['update']['state'], string> = {
  off: 'Updates come with a new installer (no update feed in this build).',
  idle: 'Not checked yet.',
  checking: 'Checking…',
  latest: 'This is the latest version.',
  available: 'A new version is available.',
  downloading: 'Downloading…',
  ready: 'Downloaded: installs when you restart now.',
  manual: 'A new version is available to install by hand:',
  error: 'The update check failed.',
};

/** The desktop shell's own settings; Electron only (browser mode has no tray, log file or installer). */
export function DesktopSection({ desktop }: { desktop: DesktopApi }) {
  const toast = useStore((s) => s.toast);
  const [view, setView] = useState<DesktopView | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let alive = true;
    const load = () => void desktop.invoke('desktop:get').then((r) => alive && r.ok && setView(r.value));
    load();
    // Update checks and downloads move on their own: follow them while Settings is open.
    const timer = setInterval(load, 2000);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, [desktop]);
  const run = async <T,>(
    work: () => Promise<{ ok: true; value: T } | { ok: false; error: { message: string } }>,
    done?: (v: T) => void,
  ) => {
    setBusy(true);
    const r = await work();
    setBusy(false);
    if (r.ok) done?.(r.value);
    else toast(r.error.message, 'error');
  };
  const update = view?.update;
  return (
    <>
      <h2>Desktop</h2>
      <Row
        label="Closing the window"
        hint="Oddsdesk keeps watching and notifying from the tray; quit from the tray menu or the app menu."
      >
        <label className="check">
          <input
            type="checkbox"
            checked={view?.closeToTray ?? true}
            disabled={!view}
            data-testid="close-to-tray-toggle"
            onChange={(e) =>
              void run(() => desktop.invoke('desktop:update', { closeToTray: e.target.checked }), setView)
            }
          />{' '}
          keeps Oddsdesk running in the tray
        </label>
        {view && !view.trayAvailable && (
          <div className="muted small-text">This desktop shows no tray icon: closing the window quits.</div>
        )}
      </Row>
      <Row
        label="When something goes wrong"
        hint="The log never contains your key. The summary lists versions, the connection state and recent log lines."
      >
        <button onClick={() => void run(() => desktop.invoke('desktop:openLogFolder'))} data-testid="open-log-folder">
          Open log folder
        </button>{' '}
        <button
          onClick={() =>
            void run(
              () => desktop.invoke('desktop:copyDiagnostics'),
              () => toast('Diagnostics copied to the clipboard', 'info'),
            )
          }
          data-testid="copy-diagnostics"
        >
          Copy diagnostics
        </button>
        {view && <div className="muted small-text">{view.logFolder}</div>}
      </Row>
      <Row label="Updates" hint={update ? `You have ${update.currentVersion}.` : undefined}>
        <span data-testid="update-state">
          {update ? UPDATE_TEXT[update.state] : ''}
          {update?.version && update.state !== 'latest'
            ? ` ${update.version}${update.state === 'manual' ? '.' : ''}`
            : ''}
          {update?.state === 'downloading' && update.percent !== null ? ` ${update.percent}%` : ''}
          {update?.message && (update.state === 'error' || update.state === 'manual') ? ` ${update.message}` : ''}
        </span>{' '}
        {update &&
          update.state !== 'off' &&
          (update.state === 'available' || update.state === 'ready' ? (
            <button
              disabled={busy}
              onClick={() =>
                void run(
                  () => desktop.invoke('desktop:installUpdate'),
                  (u) => setView((v) => (v ? { ...v, update: u } : v)),
                )
              }
              data-testid="install-update"
            >
              {update.state === 'ready' ? 'Restart and install' : 'Download, restart and install'}
            </button>
          ) : (
            <button
              disabled={busy || update.state === 'checking' || update.state === 'downloading'}
              onClick={() =>
                void run(
                  () => desktop.invoke('desktop:checkForUpdates'),
                  (u) => setView((v) => (v ? { ...v, update: u } : v)),
                )
              }
              data-testid="check-updates"
            >
              Check for updates
            </button>
          ))}
      </Row>
    </>
  );
}
