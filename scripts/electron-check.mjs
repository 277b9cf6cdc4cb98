#!/usr/bin/env node
// First step of `npm start` / `npm run dev`: is Electron's binary there? Without it electron-vite ends with a
// cryptic `Error: Electron uninstall`; this stops at once with one line saying what is missing, how to fetch it and
// that browser mode runs the same app. Exit 0 when the binary is present.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { isEntryScript } from './electron-native.mjs';

/**
 * Why Electron cannot start from `electronDir` (the electron package folder), or null when it can. Mirrors what the
 * electron package itself does: path.txt names the binary inside dist/ (ELECTRON_OVERRIDE_DIST_PATH replaces dist/).
 */
export function electronProblem(
  electronDir,
  env = process.env,
  exists = existsSync,
  read = (f) => readFileSync(f, 'utf8'),
) {
  const fetch =
    'fetch it with `node node_modules/electron/install.js` (needs the network once; or set ELECTRON_OVERRIDE_DIST_PATH)';
  const browser = 'or run the same app in a browser with `npm run web`';
  if (!electronDir) return `Electron is not installed: run \`npm install\`, ${browser}.`;
  let name;
  try {
    name = read(path.join(electronDir, 'path.txt')).trim();
  } catch {
    name = '';
  }
  if (!name) return `Electron's binary is missing (its download did not run or failed): ${fetch}, ${browser}.`;
  const binary = env.ELECTRON_OVERRIDE_DIST_PATH
    ? path.join(env.ELECTRON_OVERRIDE_DIST_PATH, name)
    : path.join(electronDir, 'dist', name);
  if (!exists(binary)) return `Electron's binary is missing (${binary}): ${fetch}, ${browser}.`;
  return null;
}

function electronDir() {
  try {
    return path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return null;
  }
}

if (isEntryScript(import.meta.url, process.argv[1])) {
  const problem = electronProblem(electronDir());
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}
