#!/usr/bin/env node
// Builds the renderer for browser mode into out/web (vite.web.config.ts): the first half of `npm run web`.
//
// ODDSDESK_BUNDLES_BUILT=1 says this run's bundles were just built (by `npm test`, or Playwright's global set-up),
// so the build is skipped when out/web is there: a test that starts `npm run web` does not build the renderer a
// second time in the same run. Without it (a user's `npm run web`) it always builds.
import { existsSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const webDir = path.join(root, 'out', 'web');

export async function buildWeb() {
  // Built beside out/web and swapped in whole, so a host serving the old one meanwhile (another test run) never
  // finds it half written. A failed build removes the old one: nothing can serve a stale renderer.
  const next = `${webDir}.${process.pid}.tmp`;
  const old = `${webDir}.${process.pid}.old`;
  try {
    const { build } = await import('vite');
    await build({ configFile: path.join(root, 'vite.web.config.ts'), logLevel: 'warn', build: { outDir: next, emptyOutDir: true } });
    if (existsSync(webDir)) renameSync(webDir, old);
    renameSync(next, webDir);
  } catch (e) {
    rmSync(webDir, { recursive: true, force: true });
    throw e;
  } finally {
    rmSync(next, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.env.ODDSDESK_BUNDLES_BUILT === '1' && existsSync(path.join(webDir, 'index.html'))) process.exit(0);
  buildWeb().then(
    () => undefined,
    (e) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
