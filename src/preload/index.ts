// The renderer's only door to the app: the OddsdeskApi of the IPC contract, built from its channel lists.
// ipcRenderer itself is never exposed, and only contract channels pass.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { ODDS_ACK_CHANNEL, PUSH_CHANNEL, isChannel, isDesktopChannel } from '../shared/ipc/channels';
import { unpackPushes } from '../shared/ipc/pushFrames';
import type { OddsdeskApi } from '../shared/ipc/contract';

/**
 * The page's push listeners by event name, behind one IPC listener: each message (one push, or the pushes of one turn
 * of the main process, src/shared/ipc/pushFrames.ts) is unpacked once and each push goes to its own listeners, in
 * order, instead of every listener unpacking every message.
 */
const listeners = new Map<string, Set<(payload: never) => void>>();
let listening = false;
const dispatch = (_e: IpcRendererEvent, message: unknown) => {
  let odds = false;
  for (const p of unpackPushes(message)) {
    const set = listeners.get(p.event);
    if (set) for (const l of [...set]) l(p.payload as never);
    if (p.event === 'onOdds') odds = true;
  }
  // Taken in (the store folds it): the main process may send this window the next odds.
  if (odds) ipcRenderer.send(ODDS_ACK_CHANNEL);
};

const api: OddsdeskApi = {
  invoke(channel, ...args) {
    if (!isChannel(channel)) {
      return Promise.resolve({
        ok: false,
        error: { kind: 'validation', message: `Unknown channel ${String(channel)}` },
      });
    }
    return ipcRenderer.invoke(channel, args);
  },
  on(event, listener) {
    if (!listening) {
      listening = true;
      ipcRenderer.on(PUSH_CHANNEL, dispatch);
    }
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    // A copy of the function per registration, so the same listener registered twice is called twice and each
    // unsubscribe removes its own (as ipcRenderer.on did).
    const own = (payload: never) => listener(payload);
    set.add(own);
    return () => void set.delete(own);
  },
  desktop: {
    invoke(channel, ...args) {
      if (!isDesktopChannel(channel)) {
        return Promise.resolve({
          ok: false,
          error: { kind: 'validation', message: `Unknown channel ${String(channel)}` },
        });
      }
      return ipcRenderer.invoke(channel, args);
    },
  },
};

contextBridge.exposeInMainWorld('oddsdesk', api);
