// The button that opens a view (or an event's detail) in a window of its own: a second monitor. On the desktop a
// window the desktop shell makes; in browser mode a new tab.
import { sameWindowTarget, windowTitle, type WindowTarget } from '../../../shared/ipc/windowRoute';
import { host } from '../host';
import { openInNewWindow, pinned, windowViewOf } from '../route';
import { useStore } from '../store';

/** `target`, or the view on screen; nothing where the window already shows just that. */
export function OpenInWindowButton({ target, className }: { target?: WindowTarget; className?: string }) {
  const view = useStore((s) => windowViewOf(s.view));
  const shown: WindowTarget | null = target ?? (view ? { view } : null);
  if (!shown || (pinned && sameWindowTarget(pinned, shown))) return null;
  const what = shown.view === 'event' ? 'this event' : windowTitle(shown);
  const label = `Open ${what} in a new ${host.desktop ? 'window' : 'tab'} (Shift+Enter)`;
  return (
    <button
      className={`open-window${className ? ` ${className}` : ''}`}
      data-testid={shown.view === 'event' ? 'open-event-window' : 'open-window'}
      title={label}
      aria-label={label}
      onClick={(e) => {
        e.currentTarget.blur();
        void openInNewWindow(shown);
      }}
    >
      {/* Drawn, not a character: the glyph is missing from many fonts. */}
      <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
        <path
          d="M9.5 2H14v4.5M14 2 7.5 8.5M12 9.5V13a1 1 0 0 1-1 1H3a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1h3.5"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.5"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    </button>
  );
}

/** The button for the view on screen, at the top right of its header. */
export function ViewWindowCorner() {
  return (
    <div className="open-window-corner">
      <OpenInWindowButton />
    </div>
  );
}
