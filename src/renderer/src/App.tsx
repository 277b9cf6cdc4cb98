// The trader's window: navigation (letter keys; the Alerts entry counts the alerts not seen yet), the current view,
// the event detail pane, the status bar, the command palette and toasts (one may carry an Undo).
import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Banner } from './components/Banner';
import { CommandPalette, VIEW_TITLES } from './components/CommandPalette';
import { ViewWindowCorner } from './components/OpenInWindow';
import { StatusBar } from './components/StatusBar';
import { VIEW_KEYS } from './keys';
import { pinned, pinnedEvent, pinnedView } from './route';
import { useStore } from './store';
import { VIEWS, type ViewName } from './store/ui';
import { AlertsView } from './views/AlertsView';
import { BetsView } from './views/BetsView';
import { CoverageView } from './views/CoverageView';
import { EventDetail } from './views/EventDetail';
import { ModelsView } from './views/ModelsView';
import { LabView } from './views/LabView';
import { OutrightsView } from './views/OutrightsView';
import { SettingsView } from './views/SettingsView';
import { SettlementsView } from './views/SettlementsView';
import { SpecialsView } from './views/SpecialsView';
import { TopMoversView } from './views/TopMoversView';
import { WatchlistView } from './views/WatchlistView';

const keyOf = (v: ViewName) =>
  Object.entries(VIEW_KEYS)
    .find(([, view]) => view === v)?.[0]
    ?.toUpperCase() ?? '';

function NavItem({ view }: { view: ViewName }) {
  const active = useStore((s) => s.view === view);
  const setView = useStore((s) => s.setView);
  const badge = useStore((s) => (view === 'alerts' ? s.unseenAlerts : view === 'watchlist' ? s.watchIds.length : 0));
  return (
    <button
      className={`nav-item${active ? ' active' : ''}`}
      onClick={(e) => {
        setView(view);
        // The keys go to the view's list, not to this button (Enter would only click it again).
        e.currentTarget.blur();
      }}
      aria-current={active ? 'page' : undefined}
      data-testid={`nav-${view}`}
      title={`${VIEW_TITLES[view]} (key ${keyOf(view)})`}
    >
      <span>{VIEW_TITLES[view]}</span>
      {badge > 0 &&
        (view === 'alerts' ? (
          <span
            className="count hot"
            data-testid="alerts-unread"
            aria-label={`${badge} unread`}
            title={`${badge} alert${badge === 1 ? '' : 's'} not seen yet`}
          >
            {badge > 999 ? '999+' : badge}
          </span>
        ) : (
          <span className="count">{badge}</span>
        ))}
      <kbd title={`key ${keyOf(view)}`}>{keyOf(view)}</kbd>
    </button>
  );
}

function Toasts() {
  const toasts = useStore(useShallow((s) => s.toasts));
  const dismiss = useStore((s) => s.dismissToast);
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((t) => (
        <div
          key={t.id}
          className={`toast ${t.tone}`}
          role={t.tone === 'error' ? 'alert' : 'status'}
          onClick={() => dismiss(t.id)}
          data-testid="toast"
        >
          {t.text}
          {t.action && (
            <button
              className="toast-action"
              data-testid="toast-action"
              onClick={(e) => {
                e.stopPropagation();
                t.action!.run();
              }}
            >
              {t.action.label}
            </button>
          )}
        </div>
      ))}
    </div>
  );
}

function CurrentView() {
  // A window of one view shows it whatever the store's view (an event opened from its list shows beside it).
  const view = useStore((s) => pinnedView ?? s.view);
  switch (view) {
    case 'watchlist':
      return <WatchlistView />;
    case 'specials':
      return <SpecialsView />;
    case 'outrights':
      return <OutrightsView />;
    case 'settlements':
      return <SettlementsView />;
    case 'alerts':
      return <AlertsView />;
    case 'coverage':
      return <CoverageView />;
    case 'settings':
      return <SettingsView />;
    case 'movers':
      return <TopMoversView />;
    case 'bets':
      return <BetsView />;
    case 'models':
      return <ModelsView />;
    case 'lab':
      return <LabView />;
  }
}

export function App() {
  const theme = useStore((s) => s.theme);
  const paletteOpen = useStore((s) => s.paletteOpen);
  const detailId = useStore((s) => pinnedEvent ?? (s.view === 'watchlist' && s.detailOpen ? s.selectedEventId : null));
  useEffect(() => {
    document.documentElement.dataset['theme'] = theme;
  }, [theme]);

  return (
    <div
      className={`app${detailId !== null ? ' with-detail' : ''}${pinned ? ` single${pinnedEvent !== null ? ' single-event' : ''}` : ''}`}
      data-window={pinned ? 'single' : 'main'}
    >
      {/* A window of one view or event (a second monitor) has no navigation: it shows that alone. */}
      {!pinned && (
        <nav className="nav" aria-label="Views">
          <div className="brand">Oddsdesk</div>
          {VIEWS.map((v) => (
            <NavItem key={v} view={v} />
          ))}
          <span className="spacer" />
          <button
            className="nav-item palette-hint"
            onClick={() => useStore.getState().setPaletteOpen(true)}
            data-testid="open-palette"
          >
            <span>Command</span>
            <kbd>Ctrl K</kbd>
          </button>
        </nav>
      )}
      <main className="main">
        <Banner />
        {!pinned && <ViewWindowCorner />}
        {pinnedEvent === null && <CurrentView />}
      </main>
      {detailId !== null && <EventDetail key={detailId} eventId={detailId} />}
      <StatusBar />
      {paletteOpen && <CommandPalette />}
      <Toasts />
    </div>
  );
}
