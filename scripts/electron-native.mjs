#!/usr/bin/env node
// Runs before `npm start`: makes sure an Electron-ABI build of better-sqlite3 exists beside (not instead of) the
// Node build that the tests load. The main process passes its path as better-sqlite3's `nativeBinding`, so
// `npm start` and `npm test` both work in either order with no manual step. keytar is an N-API module: one build
// serves both runtimes.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

export function electronBindingPath(electronVersion, platform = process.platform, arch = process.arch) {
  return path.join(root, '.native', `electron-${electronVersion}-${platform}-${arch}`, 'better_sqlite3.node');
}

function main() {
  let electronVersion;
  try {
    electronVersion = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
  } catch {
    console.error('electron is not installed: run npm install');
    process.exit(1);
  }
  const target = electronBindingPath(electronVersion);
  if (existsSync(target)) return;

  const source = path.dirname(require.resolve('better-sqlite3/package.json'));
  const work = path.join(root, '.native', 'build-better-sqlite3');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  for (const entry of ['package.json', 'binding.gyp', 'src', 'deps', 'lib']) cpSync(path.join(source, entry), path.join(work, entry), { recursive: true });

  console.log(`Building better-sqlite3 for Electron ${electronVersion} (once; kept in .native/)…`);
  const bin = (name) => path.join(root, 'node_modules', '.bin', name);
  const run = (cmd, args) => spawnSync(cmd, args, { cwd: work, stdio: 'inherit', shell: process.platform === 'win32' }).status === 0;
  const ok =
    run(bin('prebuild-install'), ['--runtime', 'electron', '--target', electronVersion, '--arch', process.arch]) ||
    run(bin('node-gyp'), ['rebuild', '--release', `--target=${electronVersion}`, `--arch=${process.arch}`, '--dist-url=https://electronjs.org/headers']);
  const built = path.join(work, 'build', 'Release', 'better_sqlite3.node');
  if (!ok || !existsSync(built)) {
    console.error('Could not build better-sqlite3 for Electron. Install a C++ toolchain (see README) and retry.');
    process.exit(1);
  }
  mkdirSync(path.dirname(target), { recursive: true });
  cpSync(built, target);
  rmSync(work, { recursive: true, force: true });
  console.log(`Electron build of better-sqlite3 ready: ${path.relative(root, target)}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) main();
