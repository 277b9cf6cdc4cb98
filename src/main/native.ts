// Where the main process finds better-sqlite3's Electron-ABI binding, which it hands to the core as
// `nativeBinding`. Unpackaged: `npm start`/`npm run dev` build it once into .native/ beside the Node build that the
// tests load (scripts/electron-native.mjs; the path rule here mirrors it). Packaged: the same build, staged by
// `npm run dist` and shipped by electron-builder.yml's extraResources as resources/native/better_sqlite3.node
// (electron-builder rebuilds nothing in node_modules). Without one the app must not start: the Node build in
// node_modules would fail to load, or worse, load in the wrong process later.
import { existsSync } from 'node:fs';
import path from 'node:path';

export function electronSqliteBindingPath(
  appRoot: string,
  electronVersion: string,
  platform: string,
  arch: string,
): string {
  return path.join(appRoot, '.native', `electron-${electronVersion}-${platform}-${arch}`, 'better_sqlite3.node');
}

export function packagedSqliteBindingPath(resourcesPath: string): string {
  return path.join(resourcesPath, 'native', 'better_sqlite3.node');
}

export interface BindingLookup {
  /** app.getAppPath(): the project root when unpackaged. */
  appRoot: string;
  isPackaged: boolean;
  electronVersion: string | undefined;
  /** process.resourcesPath: where extraResources land in a packaged app. */
  resourcesPath?: string;
  platform?: string;
  arch?: string;
  exists?: (file: string) => boolean;
}

/** The binding built for this exact Electron, platform and arch (or shipped with the package); otherwise undefined. */
export function findElectronSqliteBinding(lookup: BindingLookup): string | undefined {
  const exists = lookup.exists ?? existsSync;
  if (lookup.isPackaged) {
    if (!lookup.resourcesPath) return undefined;
    const file = packagedSqliteBindingPath(lookup.resourcesPath);
    return exists(file) ? file : undefined;
  }
  if (!lookup.electronVersion) return undefined;
  const file = electronSqliteBindingPath(
    lookup.appRoot,
    lookup.electronVersion,
    lookup.platform ?? process.platform,
    lookup.arch ?? process.arch,
  );
  return exists(file) ? file : undefined;
}

/** What to tell the trader (or developer) when there is none: one line, with the fix. */
export function missingBindingMessage(isPackaged: boolean): string {
  return isPackaged
    ? 'This installation is incomplete: its database engine (resources/native/better_sqlite3.node) is missing. Reinstall Oddsdesk.'
    : 'No Electron build of better-sqlite3 in .native/: run `node scripts/electron-native.mjs` (npm start does it first).';
}
