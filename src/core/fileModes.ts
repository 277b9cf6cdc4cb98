// Owner-only files: settings, histories (SQLite databases with their -wal and -shm files) and logs hold the trader's
// bets, limits and what the service showed them, so nothing the app writes may be readable by other users of the
// computer. Every host (Electron's main process, the CLI's web, record, export and sim commands) calls
// restrictFileModes() first thing, so files that libraries create (SQLite's journal files, electron-log's file)
// are 0600 and folders 0700 whatever the user's umask; the explicit mkdirSync/writeFileSync calls in the core pass
// the same modes too, so they hold for a host or test that never set the umask.

/** Folders the app creates: owner only. */
export const PRIVATE_DIR_MODE = 0o700;
/** Files the app creates: owner read and write only. */
export const PRIVATE_FILE_MODE = 0o600;

/** Sets the process umask to 077 (no group or other bits on anything created from now on); returns the old one. */
export function restrictFileModes(): number {
  return process.umask(0o077);
}
