// The trader's window: navigation, the current view, and the status bar.
import { useStore } from './store';
import { CoverageView } from './views/CoverageView';

function StatusBar() {
  const status = useStore((s) => s.status);
  const info = useStore((s) => s.info);
  return (
    <footer className="status-bar" role="status">
      <span className={`dot ${status?.connection ?? 'unknown'}`} aria-hidden />
      <span>{status?.connection === 'offline' ? 'OFFLINE' : status?.connection === 'online' ? 'connected' : 'connecting…'}</span>
      {info?.demo && <span className="badge demo">DEMO</span>}
      {status?.lastError && <span className="status-error">{status.lastError.message}</span>}
    </footer>
  );
}

export function App() {
  return (
    <div className="app">
      <nav className="nav" aria-label="Views">
        <div className="brand">Oddsdesk</div>
        <button className="nav-item active">Coverage</button>
      </nav>
      <main className="main">
        <CoverageView />
      </main>
      <StatusBar />
    </div>
  );
}
