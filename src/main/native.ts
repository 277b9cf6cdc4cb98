// Where the main process finds better-sqlite3's Electron-ABI binding. `npm start`/`npm run dev` build it once into
// .native/ beside the Node build the tests load (scripts/electron-native.mjs; the path rule here mirrors it), and
// main hands it to the core as `nativeBinding`. Packaged builds carry electron-builder's own rebuilt module, so
// there the answer is undefined and better-sqlite3 finds its binding the usual way.
import { existsSync } from 'node:fs';
import path from 'node:path';

export function electronSqliteBindingPath(appRoot: string, electronVersion: string, platform: string, arch: string): string {
  return path.join(appRoot, '.native', `electron-${electronVersion}-${platform}-${arch}`, 'better_sqlite3.node');
}

export interface BindingLookup {
  /** app.getAppPath(): the project root when unpackaged. */
  appRoot: string;
  isPackaged: boolean;
  electronVersion: string | undefined;
  platform?: string;
  arch?: string;
  exists?: (file: string) => boolean;
}

/** The .native binding when one was built for this exact Electron, platform and arch; otherwise undefined. */
export function findElectronSqliteBinding(lookup: BindingLookup): string | undefined {
  if (lookup.isPackaged || !lookup.electronVersion) return undefined;
  const file = electronSqliteBindingPath(lookup.appRoot, lookup.electronVersion, lookup.platform ?? process.platform, lookup.arch ?? process.arch);
  return (lookup.exists ?? existsSync)(file) ? file : undefined;
}
