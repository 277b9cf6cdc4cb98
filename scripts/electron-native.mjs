#!/usr/bin/env node
// Runs before `npm start`, `npm run dev` and `npm run dist`: makes sure an Electron-ABI build of better-sqlite3
// exists beside (never instead of) the Node build that the tests load. It builds in a copy under .native/, so
// node_modules is never touched and `npm test` works in any order with `npm start` or `npm run dist`.
// The main process passes the result as better-sqlite3's `nativeBinding` (unpackaged: from .native/; packaged: the
// copy that `--stage` puts where electron-builder.yml's extraResources ships it). keytar is an N-API module: one
// build serves both runtimes. Any failure is a non-zero exit: `npm start` must not go on to a database that cannot
// open.
//
//   node scripts/electron-native.mjs                 build if missing
//   node scripts/electron-native.mjs --stage         also copy it to .native/stage/ for electron-builder
//   node scripts/electron-native.mjs --print-target  print where the binding goes, build nothing
// ODDSDESK_NATIVE_DIR replaces .native/ (tests).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** The path module of the given platform, so Windows paths can be checked on any OS. */
function pathFor(platform) {
  return platform === 'win32' ? path.win32 : path.posix;
}

/**
 * The file system path of a file: URL. `new URL(u).pathname` is wrong for this: it is `/C:/…` on Windows and keeps
 * `%20` for a space, so comparing it with a real path failed there and the script silently did nothing.
 */
export function scriptPath(moduleUrl, platform = process.platform) {
  return fileURLToPath(moduleUrl, { windows: platform === 'win32' });
}

/** Is this module the script node was started with (not an import from a test)? */
export function isEntryScript(moduleUrl, argv1, platform = process.platform) {
  if (!argv1) return false;
  const p = pathFor(platform);
  const a = p.resolve(scriptPath(moduleUrl, platform));
  const b = p.resolve(argv1);
  // Windows paths are case-insensitive (C:\ and c:\ are the same drive).
  return platform === 'win32' ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/** The project root: the folder above scripts/. */
export function projectRoot(moduleUrl = import.meta.url, platform = process.platform) {
  const p = pathFor(platform);
  return p.resolve(p.dirname(scriptPath(moduleUrl, platform)), '..');
}

function nativeDir(root = projectRoot()) {
  return process.env.ODDSDESK_NATIVE_DIR ? path.resolve(process.env.ODDSDESK_NATIVE_DIR) : path.join(root, '.native');
}

export function electronBindingPath(
  electronVersion,
  platform = process.platform,
  arch = process.arch,
  dir = nativeDir(),
) {
  return path.join(dir, `electron-${electronVersion}-${platform}-${arch}`, 'better_sqlite3.node');
}

/** Where `--stage` puts the binding for electron-builder (extraResources `from`). */
export function stagedBindingPath(dir = nativeDir()) {
  return path.join(dir, 'stage', 'better_sqlite3.node');
}

/** NODE_MODULE_VERSION of the installed Electron (the electron package records it), or null. */
function electronAbi() {
  try {
    return (
      readFileSync(path.join(path.dirname(require.resolve('electron/package.json')), 'abi_version'), 'utf8').trim() ||
      null
    );
  } catch {
    return null;
  }
}

/** The module versions a native binding registers for (`node_register_module_v<N>` symbols). */
export function bindingAbis(bytes) {
  return [...new Set([...bytes.toString('latin1').matchAll(/node_register_module_v(\d+)/g)].map((m) => m[1]))];
}

function fail(message) {
  console.error(message);
  process.exit(1);
}

function build(electronVersion, target) {
  const root = projectRoot();
  const source = path.dirname(require.resolve('better-sqlite3/package.json'));
  const work = path.join(path.dirname(path.dirname(target)), 'build-better-sqlite3');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  for (const entry of ['package.json', 'binding.gyp', 'src', 'deps', 'lib'])
    cpSync(path.join(source, entry), path.join(work, entry), { recursive: true });

  console.log(
    `Building better-sqlite3 for Electron ${electronVersion} (once; kept in ${path.relative(root, path.dirname(target)) || '.'})…`,
  );
  const bin = (name) => path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);
  // shell: a .cmd needs one on Windows; quoted, so a space in the project path survives it.
  const quote = (s) => (process.platform === 'win32' ? `"${s}"` : s);
  // npm passes its config down as npm_config_*: a `nodedir` there (set for offline Node builds) would make node-gyp
  // build against Node's headers while we ask for Electron's, and produce a binding Electron refuses to load.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^npm_config_(nodedir|target|runtime|disturl|dist_url)$/i.test(k)),
  );
  const run = (cmd, args) =>
    spawnSync(quote(cmd), args, {
      cwd: work,
      env,
      stdio: 'inherit',
      shell: process.platform === 'win32',
      timeout: 15 * 60_000,
    }).status === 0;
  const ok =
    run(bin('prebuild-install'), ['--runtime', 'electron', '--target', electronVersion, '--arch', process.arch]) ||
    run(bin('node-gyp'), [
      'rebuild',
      '--release',
      `--target=${electronVersion}`,
      `--arch=${process.arch}`,
      '--dist-url=https://electronjs.org/headers',
    ]);
  const built = path.join(work, 'build', 'Release', 'better_sqlite3.node');
  if (!ok || !existsSync(built)) {
    rmSync(work, { recursive: true, force: true });
    fail(
      `Could not build better-sqlite3 for Electron ${electronVersion}: it needs the network once (prebuilt binary or Electron headers) or a C++ toolchain (see README). Nothing in node_modules was changed.`,
    );
  }
  const abi = electronAbi();
  if (abi && !bindingAbis(readFileSync(built)).includes(abi)) {
    rmSync(work, { recursive: true, force: true });
    fail(
      `The better-sqlite3 build is not for Electron ${electronVersion} (module version ${abi}); found ${bindingAbis(readFileSync(built)).join(', ') || 'none'}. Nothing was kept.`,
    );
  }
  mkdirSync(path.dirname(target), { recursive: true });
  cpSync(built, target);
  rmSync(work, { recursive: true, force: true });
  console.log(`Electron build of better-sqlite3 ready: ${target}`);
}

function main(argv) {
  let electronVersion;
  try {
    electronVersion = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
  } catch {
    fail('electron is not installed: run npm install');
  }
  const target = electronBindingPath(electronVersion);
  if (argv.includes('--print-target')) {
    console.log(target);
    return;
  }
  if (!existsSync(target)) build(electronVersion, target);
  if (!existsSync(target)) fail(`The Electron build of better-sqlite3 is missing at ${target}.`);
  if (argv.includes('--stage')) {
    const staged = stagedBindingPath();
    mkdirSync(path.dirname(staged), { recursive: true });
    cpSync(target, staged);
    console.log(`Staged for packaging: ${staged}`);
  }
}

if (isEntryScript(import.meta.url, process.argv[1])) main(process.argv.slice(2));
