// The renderer's side of the browser bridge: the same OddsdeskApi that Electron's preload exposes, carried over a
// WebSocket to the Node host (the session, with its proof of the token both ways, is src/shared/ipc/bridgeSession.ts).
// The token comes from the URL fragment the host printed and leaves the address bar as soon as it is read; it is
// never sent anywhere, not even to the host, which proves it knows it instead. A tab this page opens (a view of its
// own, for a second monitor) gets it the same way, in its address's fragment, and takes it out as it loads.
import {
  createBridgeSession,
  type BridgeEnd,
  type BridgeSession,
  type OpenBridgeSocket,
} from '../../../shared/ipc/bridgeSession';
import { Emitter, type Unsubscribe } from '../../../shared/event';
import { countListeners } from '../listenerCounts';

const TOKEN_KEY = 'oddsdesk.bridgeToken';

export interface TokenPlace {
  location: Pick<Location, 'hash' | 'pathname' | 'search'>;
  history: Pick<History, 'replaceState' | 'state'> | null;
  /** The tab's sessionStorage: lets a reload of this tab reconnect; gone when the tab closes. */
  session: Pick<Storage, 'getItem' | 'setItem'> | null;
}

/**
 * Reads the per-launch token from the fragment and removes it from the address bar, so it is not left in the
 * history list, a bookmark, a screenshot or a copied URL (other fragment parameters stay). A reload has no fragment
 * any more, so the token is also kept for this tab only; nothing else on 127.0.0.1:port can read it (only our page
 * is served there), and a new launch prints a new token anyway.
 */
export function takeToken({ location, history, session }: TokenPlace): string {
  const params = new URLSearchParams(location.hash.slice(1));
  const fromUrl = params.get('token');
  if (fromUrl === null) {
    try {
      return session?.getItem(TOKEN_KEY) ?? '';
    } catch {
      return '';
    }
  }
  params.delete('token');
  const rest = params.toString();
  try {
    history?.replaceState(history.state, '', `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`);
  } catch {
    // A sandboxed document may refuse; the token still works, it just stays visible.
  }
  try {
    session?.setItem(TOKEN_KEY, fromUrl);
  } catch {
    // Storage disabled: a reload will need the printed URL again.
  }
  return fromUrl;
}

const sessionStore = (): Storage | null => {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
};

/** The browser's WebSocket, reporting to the session. */
const browserSocket: OpenBridgeSocket = (url, on) => {
  const ws = new WebSocket(url);
  ws.onmessage = (ev) => on.message(typeof ev.data === 'string' ? ev.data : '');
  ws.onclose = (ev) => on.close(ev.code);
  return { send: (text) => ws.send(text), close: () => ws.close() };
};

// Why the page stopped talking to its host for good, for the banner (one bridge per page).
let ended: BridgeEnd | null = null;
const onEnded = new Emitter<[]>({ name: 'the bridge end' });
export const bridgeEnd = {
  get: (): BridgeEnd | null => ended,
  subscribe: (watcher: () => void): Unsubscribe => onEnded.event(watcher),
};
countListeners('bridgeEnd', () => onEnded.size);

/**
 * The address of a new tab of this app showing `hash` (`view=movers`), with the token in its fragment as the host's
 * printed address carries it: a new tab does not share this tab's session storage, and the fragment never leaves
 * the browser; the new tab takes it out of its address bar at once (takeToken).
 */
export function tabUrl(location: Pick<Location, 'pathname' | 'search'>, hash: string, token: string): string {
  const params = new URLSearchParams(hash);
  if (token) params.set('token', token);
  return `${location.pathname}${location.search}#${params.toString()}`;
}

/** This page's token, for the tabs it opens (openTab); never shown, logged or sent. */
let pageToken = '';

/** Opens this app in a new tab showing `hash`, with no handle between the two tabs (noopener). */
export function openTab(hash: string): void {
  window.open(tabUrl(window.location, hash, pageToken), '_blank', 'noopener');
}

export function createBridgeClient(location: Location): BridgeSession {
  const token = takeToken({ location, history: window.history, session: sessionStore() });
  pageToken = token;
  return createBridgeSession({
    url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/bridge`,
    token,
    openSocket: browserSocket,
    onEnd(end) {
      ended = end;
      onEnded.fire();
    },
  });
}
