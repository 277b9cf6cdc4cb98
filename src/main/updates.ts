// Receiving a fixed version: electron-updater against the feed electron-builder's `publish` config wrote into the
// package (resources/app-update.yml). No feed (the default build, a development run): updates are 'off' and nothing
// ever touches the network for them. With one, Settings checks and offers; nothing downloads or installs unasked.
// Written against the slice of electron-updater's AppUpdater used here, so the state rules run without Electron.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { UpdateView } from '../shared/ipc/contract';

/** The part of electron-updater's AppUpdater used here. */
export interface UpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  on(event: 'checking-for-update' | 'update-not-available', listener: () => void): unknown;
  on(event: 'update-available' | 'update-downloaded', listener: (info: { version: string }) => void): unknown;
  on(event: 'download-progress', listener: (p: { percent: number }) => void): unknown;
  on(event: 'error', listener: (e: Error) => void): unknown;
  checkForUpdates(): Promise<unknown>;
  downloadUpdate(): Promise<unknown>;
  quitAndInstall(): void;
}

/** Is an update feed configured in this build? (electron-builder writes app-update.yml only when `publish` is set.) */
export function updateFeedConfigured(isPackaged: boolean, resourcesPath: string | undefined, exists: (f: string) => boolean = existsSync): boolean {
  return isPackaged && !!resourcesPath && exists(path.join(resourcesPath, 'app-update.yml'));
}

export interface Updates {
  view(): UpdateView;
  check(): Promise<UpdateView>;
  /** Downloads if needed, then `beforeInstall` (close the app cleanly), then installs and restarts. */
  install(beforeInstall: () => Promise<void>): Promise<UpdateView>;
}

export function createUpdates(currentVersion: string, updater: UpdaterLike | null, clean: (text: string) => string = (t) => t): Updates {
  let view: UpdateView = { state: updater ? 'idle' : 'off', currentVersion, version: null, percent: null, message: updater ? null : 'No update feed is configured in this build.' };
  const set = (patch: Partial<UpdateView>) => (view = { ...view, ...patch });
  let downloaded: Promise<unknown> | null = null;
  if (updater) {
    // Asked, never automatic: a trader's desk does not restart itself mid-session.
    updater.autoDownload = false;
    updater.autoInstallOnAppQuit = false;
    updater.on('checking-for-update', () => set({ state: 'checking', message: null }));
    updater.on('update-not-available', () => set({ state: 'latest', message: null }));
    updater.on('update-available', (info) => set({ state: 'available', version: info.version, message: null }));
    updater.on('download-progress', (p) => set({ state: 'downloading', percent: Math.round(p.percent) }));
    updater.on('update-downloaded', (info) => set({ state: 'ready', version: info.version, percent: 100 }));
    // The feed's errors can carry URLs with tokens: scrubbed, one line.
    updater.on('error', (e) => set({ state: 'error', message: clean(e.message.split('\n')[0] ?? 'update failed') }));
  }
  return {
    view: () => view,
    async check() {
      if (!updater) return view;
      await updater.checkForUpdates().catch((e: unknown) => set({ state: 'error', message: clean(String(e instanceof Error ? e.message : e).split('\n')[0]!) }));
      return view;
    },
    async install(beforeInstall) {
      if (!updater || (view.state !== 'available' && view.state !== 'ready' && view.state !== 'downloading')) return view;
      if (view.state !== 'ready') {
        downloaded ??= updater.downloadUpdate();
        try {
          await downloaded;
        } catch (e) {
          downloaded = null;
          set({ state: 'error', message: clean(String(e instanceof Error ? e.message : e).split('\n')[0]!) });
          return view;
        }
      }
      await beforeInstall();
      updater.quitAndInstall();
      return view;
    },
  };
}
