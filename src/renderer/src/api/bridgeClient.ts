// The renderer's side of the browser bridge: the same OddsdeskApi that Electron's preload exposes, carried over a
// WebSocket to the Node host. The token comes from the URL fragment the host printed and leaves the address bar as
// soon as it is read.
import type { Result } from '../../../shared/errors';
import type { OddsdeskApi, PushPayloads } from '../../../shared/ipc/contract';
import type { PushEventName } from '../../../shared/ipc/channels';

type Pending = (result: Result<unknown>) => void;
type Listener = (payload: unknown) => void;

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

export function createBridgeClient(location: Location): OddsdeskApi {
  const token = takeToken({ location, history: window.history, session: sessionStore() });
  const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/bridge?token=${encodeURIComponent(token)}`;
  const pending = new Map<number, Pending>();
  const listeners = new Map<string, Set<Listener>>();
  let nextId = 1;
  let socket: WebSocket | null = null;
  let opened: Promise<WebSocket> | null = null;
  let retryMs = 250;

  const emitLocal = (event: string, payload: unknown) => {
    for (const l of listeners.get(event) ?? []) l(payload);
  };

  function connect(): Promise<WebSocket> {
    if (opened) return opened;
    opened = new Promise((resolve, reject) => {
      const ws = new WebSocket(wsUrl);
      ws.onopen = () => {
        socket = ws;
        retryMs = 250;
        emitLocal('onBridge', { connected: true });
        resolve(ws);
      };
      ws.onmessage = (ev) => {
        let msg: { type: 'result'; id: number; result: Result<unknown> } | { type: 'push'; event: string; payload: unknown } | { type: 'error' };
        try {
          msg = JSON.parse(String(ev.data)) as typeof msg;
        } catch {
          return;
        }
        // {type:'error'} answers a frame the host could not read; a page built from the contract never sends one.
        if (msg.type === 'result') {
          pending.get(msg.id)?.(msg.result);
          pending.delete(msg.id);
        } else if (msg.type === 'push') {
          emitLocal(msg.event, msg.payload);
        }
      };
      ws.onclose = () => {
        socket = null;
        opened = null;
        for (const [, settle] of pending) {
          settle({ ok: false, error: { kind: 'network', message: 'Lost the connection to the Oddsdesk host' } });
        }
        pending.clear();
        emitLocal('onBridge', { connected: false });
        reject(new Error('bridge closed'));
        // The host may be restarting: come back by ourselves, without hammering it.
        setTimeout(() => void connect().catch(() => undefined), retryMs);
        retryMs = Math.min(retryMs * 2, 5000);
      };
    });
    return opened;
  }
  void connect().catch(() => undefined);

  return {
    async invoke(channel, ...args) {
      let ws: WebSocket;
      try {
        ws = socket ?? (await connect());
      } catch {
        return { ok: false, error: { kind: 'network', message: 'The Oddsdesk host is not reachable' } };
      }
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve as Pending);
        ws.send(JSON.stringify({ type: 'invoke', id, channel, args }));
      });
    },
    on<E extends PushEventName>(event: E, listener: (payload: PushPayloads[E]) => void) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener as Listener);
      return () => set.delete(listener as Listener);
    },
  };
}
