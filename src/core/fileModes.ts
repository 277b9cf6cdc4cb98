// Owner-only files: settings, histories (SQLite databases with their -wal and -shm files) and logs hold the trader's
// bets, limits and what the service showed them, so nothing the app writes may be readable by other users of the
// computer. Every host (Electron's main process, the CLI's web, record, export and sim commands) calls
// restrictFileModes() first thing, so files that libraries create (SQLite's journal files, electron-log's file)
// are 0600 and folders 0700 whatever the user's umask; the explicit mkdirSync/writeFileSync calls in the core pass
// the same modes too, so they hold for a host or test that never set the umask. Files and folders that existed
// before are brought to the same modes when opened (makePrivate, makeDatabasePrivate), with a warning.
import { chmodSync, statSync, type Stats } from 'node:fs';
import { errorMessage } from '../shared/errors';

/** Folders the app creates: owner only. */
export const PRIVATE_DIR_MODE = 0o700;
/** Files the app creates: owner read and write only. */
export const PRIVATE_FILE_MODE = 0o600;

/** Sets the process umask to 077 (no group or other bits on anything created from now on); returns the old one. */
export function restrictFileModes(): number {
  return process.umask(0o077);
}

/** What a warning calls a file or folder it made private. */
const describeMode = (mode: number) => (mode & 0o777).toString(8).padStart(4, '0');

/**
 * The umask covers only what the app creates: a file or folder that already existed (a `--db` file made by another
 * tool, a data folder from an older version) keeps its mode, and SQLite gives a database's -wal and -shm files the
 * database's own mode. So what the app opens is brought to owner-only here, with a warning when others could read
 * it. Missing paths are left to be created private; on Windows modes do not apply.
 */
export function makePrivate(target: string, warn: (message: string) => void): void {
  if (process.platform === 'win32') return;
  let st: Stats;
  try {
    st = statSync(target);
  } catch {
    return;
  }
  if ((st.mode & 0o077) === 0) return;
  const folder = st.isDirectory();
  const wanted = folder ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE;
  try {
    chmodSync(target, wanted);
    warn(
      `The ${folder ? 'folder' : 'file'} ${target} could be read by other accounts on this computer (mode ${describeMode(st.mode)}); it is now ${describeMode(wanted)}.`,
    );
  } catch (e) {
    warn(
      `The ${folder ? 'folder' : 'file'} ${target} can be read by other accounts on this computer (mode ${describeMode(st.mode)}) and could not be made private: ${errorMessage(e)}. chmod ${describeMode(wanted).slice(1)} it.`,
    );
  }
}

/** A SQLite database and the journals beside it (which SQLite creates with the database's mode), owner-only. */
export function makeDatabasePrivate(file: string, warn: (message: string) => void): void {
  if (file === '' || file === ':memory:' || file.startsWith('file:')) return;
  for (const suffix of ['', '-wal', '-shm', '-journal']) makePrivate(`${file}${suffix}`, warn);
}
