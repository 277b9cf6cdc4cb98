// The renderer's only door to the app: the OddsdeskApi of the IPC contract, built from its channel lists.
// ipcRenderer itself is never exposed, and only contract channels pass.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { PUSH_CHANNEL, isChannel, isDesktopChannel } from '../shared/ipc/channels';
import { unpackPushes } from '../shared/ipc/pushFrames';
import type { OddsdeskApi } from '../shared/ipc/contract';

const api: OddsdeskApi = {
  invoke(channel, ...args) {
    if (!isChannel(channel)) {
      return Promise.resolve({ ok: false, error: { kind: 'validation', message: `Unknown channel ${String(channel)}` } });
    }
    return ipcRenderer.invoke(channel, args);
  },
  on(event, listener) {
    // One push, or the pushes of one turn of the main process (src/shared/ipc/pushFrames.ts), in their order.
    const handler = (_e: IpcRendererEvent, message: unknown) => {
      for (const p of unpackPushes(message)) if (p.event === event) listener(p.payload as never);
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
