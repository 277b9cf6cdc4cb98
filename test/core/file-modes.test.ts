// Owner-only files (security issue): the browser-mode host, run in demo with a data folder of its own, leaves
// nothing under it that another user of the computer could read: every file 0600 (settings, the demo profile's
// SQLite database and its -wal/-shm files), every folder 0700, whatever umask it was started with. Files and folders
// that existed before with wider modes (a `--db` file another tool made, an older data folder) are brought to
// 0600/0700 when opened, journals included, with a warning (issue 36, "Why" 5).
import Database from 'better-sqlite3';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, startWebHost, type WebHost } from '../e2e/helpers';
import { runCli } from '../monitor/cliHarness';

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = path.join(dir, d.name);
    return d.isDirectory() ? [full, ...walk(full)] : [full];
  });
}

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** SIGTERM to the host's process group, then wait for it to be gone (it may exit by the signal: no exit code). */
async function stop(host: WebHost): Promise<void> {
  const { child } = host;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
}

/** Every file and folder under `parent` (relative path, with a trailing / for a folder) → its mode in octal. */
function snapshot(parent: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const full of walk(parent)) {
    try {
      const st = lstatSync(full);
      out[path.relative(parent, full) + (st.isDirectory() ? '/' : '')] = (st.mode & 0o777).toString(8).padStart(4, '0');
    } catch {
      /* gone between the listing and the stat (a temporary file renamed into place) */
    }
  }
  return out;
}

const mode = (file: string) => (statSync(file).mode & 0o777).toString(8).padStart(4, '0');

const expectedFor = (modes: Record<string, string>) =>
  Object.fromEntries(Object.keys(modes).map((name) => [name, name.endsWith('/') ? '0700' : '0600']));

describe.skipIf(process.platform === 'win32')('file modes', () => {
  let host: WebHost | null = null;
  let dataDir: string | null = null;
  afterEach(async () => {
    if (host) await stop(host);
    host = null;
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    dataDir = null;
  });

  it('the browser-mode host in demo writes only 0600 files and 0700 folders under its data folder', async () => {
    const parent = mkdtempSync(path.join(tmpdir(), 'oddsdesk-modes-'));
    dataDir = parent;
    // A folder the host creates itself, so its mode is the host's doing too.
    const data = path.join(parent, 'data');
    // The child inherits this process's umask: a permissive one, as many desktops have, so the test shows the host
    // restricting it rather than the test runner's own umask.
    const previous = process.umask(0o022);
    try {
      host = await startWebHost(cli('web', '--port', '0'), { ODDSDESK_DATA_DIR: data, ODDSDESK_API_KEY: '' });
    } finally {
      process.umask(previous);
    }
    const db = path.join(data, 'profiles', 'demo.db');
    await until(() => existsSync(db) && existsSync(`${db}-wal`), 20_000);
    // While it runs: the database with its -wal and -shm files.
    const running = snapshot(parent);
    expect(Object.keys(running)).toEqual(expect.arrayContaining([path.join('data', 'profiles', 'demo.db-wal')]));
    expect(running).toEqual(expectedFor(running));
    await stop(host);
    host = null;

    // And after it stopped: everything it left.
    const left = snapshot(parent);
    expect(Object.keys(left)).toContain(path.join('data', 'profiles', 'demo.db'));
    expect(left).toEqual(expectedFor(left));
  });

  it('an existing 0755 data folder, 0644 settings and a 0644 demo database with its journals end 0700/0600, with a warning', async () => {
    const parent = mkdtempSync(path.join(tmpdir(), 'oddsdesk-modes-'));
    dataDir = parent;
    const data = path.join(parent, 'data');
    const profiles = path.join(data, 'profiles');
    const db = path.join(profiles, 'demo.db');
    const previous = process.umask(0o022);
    let holder: Database.Database | null = null;
    try {
      mkdirSync(profiles, { recursive: true, mode: 0o755 });
      const settings = path.join(data, 'settings.json');
      writeFileSync(settings, '{}', { mode: 0o644 });
      // A database another process still holds open: SQLite gave its -wal and -shm the database's 0644.
      holder = new Database(db);
      holder.pragma('journal_mode = WAL');
      holder.exec('CREATE TABLE other_tool (x)');
      expect(mode(db)).toBe('0644');
      expect(mode(`${db}-wal`)).toBe('0644');
      expect(mode(`${db}-shm`)).toBe('0644');
      holder.close();
      holder = null;
      chmodSync(data, 0o755);
      chmodSync(profiles, 0o755);
      host = await startWebHost(cli('web', '--port', '0'), { ODDSDESK_DATA_DIR: data, ODDSDESK_API_KEY: '' });
    } finally {
      holder?.close();
      process.umask(previous);
    }
    await until(() => existsSync(`${db}-wal`), 20_000);
    const settings = path.join(data, 'settings.json');
    expect({
      data: mode(data),
      profiles: mode(profiles),
      settings: mode(settings),
      db: mode(db),
      wal: mode(`${db}-wal`),
      shm: mode(`${db}-shm`),
    }).toEqual({ data: '0700', profiles: '0700', settings: '0600', db: '0600', wal: '0600', shm: '0600' });
    const said = host.output();
    for (const [what, was] of [
      [data, '0755'],
      [profiles, '0755'],
      [settings, '0644'],
      [db, '0644'],
    ] as const) {
      expect(said).toContain(`${what} could be read by other accounts on this computer (mode ${was})`);
    }
  });

  it('`--db` naming an existing 0644 database whose journals are 0644 (it is open elsewhere): all three end 0600, with a warning', async () => {
    const parent = mkdtempSync(path.join(tmpdir(), 'oddsdesk-modes-'));
    dataDir = parent;
    const db = path.join(parent, 'recorded.db');
    const previous = process.umask(0o022);
    let holder: Database.Database | null = null;
    try {
      holder = new Database(db);
      holder.pragma('journal_mode = WAL');
      holder.exec('CREATE TABLE other_tool (x)');
    } finally {
      process.umask(previous);
    }
    try {
      expect([mode(db), mode(`${db}-wal`), mode(`${db}-shm`)]).toEqual(['0644', '0644', '0644']);
      const run = runCli(['export', 'settlements', '--db', db]);
      expect(await run.exited, run.stderr()).toBe(0);
      expect([mode(db), mode(`${db}-wal`), mode(`${db}-shm`)]).toEqual(['0600', '0600', '0600']);
      for (const file of [db, `${db}-wal`, `${db}-shm`])
        expect(run.stderr()).toContain(
          `${file} could be read by other accounts on this computer (mode 0644); it is now 0600`,
        );
    } finally {
      holder.close();
    }
    // Made private once: opening it again says nothing.
    const again = runCli(['export', 'settlements', '--db', db]);
    expect(await again.exited, again.stderr()).toBe(0);
    expect(again.stderr()).not.toContain('could be read by other accounts');
  });
});
