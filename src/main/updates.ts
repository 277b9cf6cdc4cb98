// Receiving a fixed version: electron-updater against the feed electron-builder's `publish` config wrote into the
// package (resources/app-update.yml). No feed (the default build, a development run): updates are 'off' and nothing
// ever touches the network for them. With one, Settings checks and offers; nothing downloads or installs unasked.
// Written against the slice of electron-updater's AppUpdater used here, so the state rules run without Electron.
import { existsSync, readFileSync } from 'node:fs';
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

/**
 * Why this app-update.yml's feed must not be used, or null when it may. Updates travel over the feed: one over plain
 * http would let anyone on the path serve a "new version", so a feed (`url`, or an S3-style `endpoint`) that is not
 * https is refused. Reads the flat `key: value` lines electron-builder writes; a generic feed without a url is refused.
 */
export function updateFeedProblem(appUpdateYml: string): string | null {
  const fields = new Map<string, string>();
  for (const line of appUpdateYml.split(/\r?\n/)) {
    const m = /^([A-Za-z][\w-]*):\s*(.*?)\s*$/.exec(line);
    if (m) fields.set(m[1]!, m[2]!.replace(/^(['"])(.*)\1$/, '$2'));
  }
  const provider = fields.get('provider');
  if (!provider) return 'the update feed names no provider';
  if (provider === 'generic' && !fields.get('url')) return 'the generic update feed has no url';
  for (const key of ['url', 'endpoint']) {
    const value = fields.get(key);
    if (value === undefined) continue;
    let protocol: string;
    try {
      protocol = new URL(value).protocol;
    } catch {
      return `the update feed's ${key} is not a URL`;
    }
    if (protocol !== 'https:') return `the update feed's ${key} is ${protocol.replace(/:$/, '')}, not https`;
  }
  return null;
}

const readOrNull = (f: string): string | null => {
  try {
    return readFileSync(f, 'utf8');
  } catch {
    return null;
  }
};

/**
 * Is a usable update feed configured in this build? (electron-builder writes app-update.yml only when `publish` is
 * set.) A feed that is not https, or a file that cannot be read, leaves updates off, with one log line saying why.
 */
export function updateFeedConfigured(
  isPackaged: boolean,
  resourcesPath: string | undefined,
  exists: (f: string) => boolean = existsSync,
  read: (f: string) => string | null = readOrNull,
  log: (line: string) => void = (line) => console.warn(line),
): boolean {
  if (!isPackaged || !resourcesPath) return false;
  const file = path.join(resourcesPath, 'app-update.yml');
  if (!exists(file)) return false;
  const text = read(file);
  const problem = text === null ? 'app-update.yml cannot be read' : updateFeedProblem(text);
  if (problem) {
    log(`Updates off: ${problem}.`);
    return false;
  }
  return true;
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
