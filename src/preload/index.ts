// The renderer's only door to the app: the OddsdeskApi of the IPC contract, built from its channel lists.
// ipcRenderer itself is never exposed, and only contract channels pass.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { PUSH_CHANNEL, isChannel, isDesktopChannel } from '../shared/ipc/channels';
import type { OddsdeskApi } from '../shared/ipc/contract';

const api: OddsdeskApi = {
  invoke(channel, ...args) {
    if (!isChannel(channel)) {
      return Promise.resolve({ ok: false, error: { kind: 'validation', message: `Unknown channel ${String(channel)}` } });
    }
    return ipcRenderer.invoke(channel, args);
  },
  on(event, listener) {
    const handler = (_e: IpcRendererEvent, message: { event: string; payload: unknown }) => {
      if (message?.event === event) listener(message.payload as never);
    };
    ipcRenderer.on(PUSH_CHANNEL, handler);
    return () => ipcRenderer.removeListener(PUSH_CHANNEL, handler);
  },
  desktop: {
    invoke(channel, ...args) {
      if (!isDesktopChannel(channel)) {
        return Promise.resolve({ ok: false, error: { kind: 'validation', message: `Unknown channel ${String(channel)}` } });
      }
      return ipcRenderer.invoke(channel, args);
    },
  },
};

contextBridge.exposeInMainWorld('oddsdesk', api);
