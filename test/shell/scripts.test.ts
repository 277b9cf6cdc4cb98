// The scripts `npm start` runs before Electron: the better-sqlite3 Electron build must run from any path on any OS
// (it used to compare `/C:/…` or `%20` with a real path and silently build nothing), and a missing Electron binary
// must stop `npm start` with one clear line instead of electron-vite's `Error: Electron uninstall`.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain .mjs scripts without types
import * as nativeScript from '../../scripts/electron-native.mjs';
// @ts-expect-error: plain .mjs scripts without types
import * as checkScript from '../../scripts/electron-check.mjs';

const { isEntryScript, projectRoot, scriptPath } = nativeScript as {
  isEntryScript: (url: string, argv1: string | undefined, platform?: string) => boolean;
  projectRoot: (url?: string, platform?: string) => string;
  scriptPath: (url: string, platform?: string) => string;
};
const { electronProblem } = checkScript as {
  electronProblem: (dir: string | null, env?: Record<string, string | undefined>) => string | null;
};

const root = path.resolve(__dirname, '../..');
const tmp = mkdtempSync(path.join(tmpdir(), 'oddsdesk-scripts-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const electronVersion = (
  JSON.parse(readFileSync(path.join(root, 'node_modules/electron/package.json'), 'utf8')) as { version: string }
).version;

describe('electron-native.mjs finds itself on every OS and path', () => {
  const winUrl = 'file:///C:/Users/Jane%20Doe/odds%20desk/scripts/electron-native.mjs';

  it('reads a Windows file URL as a Windows path, spaces decoded', () => {
    expect(scriptPath(winUrl, 'win32')).toBe('C:\\Users\\Jane Doe\\odds desk\\scripts\\electron-native.mjs');
    expect(projectRoot(winUrl, 'win32')).toBe('C:\\Users\\Jane Doe\\odds desk');
  });

  it('knows it was started as a script from a Windows path with spaces, in any letter case and relative form', () => {
    expect(isEntryScript(winUrl, 'C:\\Users\\Jane Doe\\odds desk\\scripts\\electron-native.mjs', 'win32')).toBe(true);
    expect(
      isEntryScript(winUrl, 'c:\\users\\jane doe\\odds desk\\scripts\\..\\scripts\\electron-native.mjs', 'win32'),
    ).toBe(true);
    expect(isEntryScript(winUrl, 'C:\\Users\\Jane Doe\\odds desk\\scripts\\electron-check.mjs', 'win32')).toBe(false);
    expect(isEntryScript(winUrl, undefined, 'win32')).toBe(false);
  });

  it('knows it on a POSIX path with spaces and percent signs', () => {
    const file = '/home/jane/odds desk/100% sure/scripts/electron-native.mjs';
    const url = pathToFileURL(file).href;
    expect(url).toContain('%20');
    expect(isEntryScript(url, file, 'linux')).toBe(true);
    expect(isEntryScript(url, '/home/jane/odds desk/other.mjs', 'linux')).toBe(false);
  });

  it('runs for real from a folder whose path has a space (before the fix it exited 0 having done nothing)', () => {
    const project = path.join(tmp, 'odds desk');
    mkdirSync(path.join(project, 'scripts'), { recursive: true });
    cpSync(path.join(root, 'scripts/electron-native.mjs'), path.join(project, 'scripts/electron-native.mjs'));
    symlinkSync(path.join(root, 'node_modules'), path.join(project, 'node_modules'), 'dir');
    const env = { ...process.env };
    delete env['ODDSDESK_NATIVE_DIR'];
    const r = spawnSync(process.execPath, [path.join(project, 'scripts/electron-native.mjs'), '--print-target'], {
      encoding: 'utf8',
      env,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(
      path.join(
        project,
        '.native',
        `electron-${electronVersion}-${process.platform}-${process.arch}`,
        'better_sqlite3.node',
      ),
    );
  });
});

describe('npm start without an Electron binary', () => {
  const pkg = (name: string, files: Record<string, string>) => {
    const dir = path.join(tmp, name);
    for (const [f, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      writeFileSync(path.join(dir, f), text);
    }
    return dir;
  };

  it('says what is missing, how to fetch it and that npm run web runs the same app', () => {
    for (const dir of [pkg('no-download', { 'package.json': '{}' }), pkg('no-binary', { 'path.txt': 'electron' })]) {
      const problem = electronProblem(dir, {})!;
      expect(problem).toMatch(/Electron's binary is missing/);
      expect(problem).toContain('node node_modules/electron/install.js');
      expect(problem).toContain('npm run web');
      expect(problem).not.toContain('\n');
    }
    expect(electronProblem(null, {})).toMatch(/npm install.*npm run web/);
  });

  it('lets a present binary through, also from ELECTRON_OVERRIDE_DIST_PATH', () => {
    expect(electronProblem(pkg('ok', { 'path.txt': 'electron', 'dist/electron': '' }), {})).toBeNull();
    const override = pkg('override', { 'bin/electron': '' });
    expect(
      electronProblem(pkg('ok-override', { 'path.txt': 'electron' }), {
        ELECTRON_OVERRIDE_DIST_PATH: path.join(override, 'bin'),
      }),
    ).toBeNull();
  });

  it('as npm start runs it here: one line and a failure exactly when the binary is absent', () => {
    const r = spawnSync(process.execPath, [path.join(root, 'scripts/electron-check.mjs')], {
      encoding: 'utf8',
      cwd: root,
    });
    const problem = electronProblem(path.join(root, 'node_modules/electron'), process.env);
    if (problem) {
      expect(r.status).toBe(1);
      expect(r.stderr.trim().split('\n')).toEqual([problem]);
    } else {
      expect(r.status, r.stderr).toBe(0);
    }
    const scripts = (
      JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts['prestart']).toMatch(/^node scripts\/electron-check\.mjs && node scripts\/electron-native\.mjs/);
    expect(scripts['dev']).toMatch(/^node scripts\/electron-check\.mjs && /);
  });
});
