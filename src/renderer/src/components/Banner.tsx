// The one banner above every view: a rejected key, a missing key, or no connection to the host / the service.
// Each carries a calm message and the one action that helps.
import { useStore } from '../store';

export function Banner() {
  const auth = useStore((s) => s.status?.auth ?? 'ok');
  const connection = useStore((s) => s.status?.connection ?? 'unknown');
  const hostConnected = useStore((s) => s.hostConnected);
  const setView = useStore((s) => s.setView);
  if (!hostConnected)
    return (
      <div className="banner warn" role="alert" data-testid="banner-host">
        Lost the connection to the Oddsdesk host. Reconnecting by itself; cached data stays on screen. If the host was
        started again, open the new address it printed.
      </div>
    );
  if (auth === 'rejected')
    return (
      <div className="banner error" role="alert" data-testid="banner-key-rejected">
        The key was rejected (regenerated or revoked). Live data is paused until a new key is entered.
        <button onClick={() => setView('settings')} data-testid="banner-open-settings">
          Open Settings
        </button>
      </div>
    );
  if (auth === 'missing')
    return (
      <div className="banner warn" role="alert" data-testid="banner-key-missing">
        No API key is stored yet. Enter one to start monitoring.
        <button onClick={() => setView('settings')}>Open Settings</button>
      </div>
    );
  if (connection === 'offline')
    return (
      <div className="banner warn" role="status" data-testid="banner-offline">
        The odds service cannot be reached. Everything cached can still be browsed; live data resumes by itself.
        <button onClick={() => setView('settlements')}>Browse settlements</button>
      </div>
    );
  return null;
}
