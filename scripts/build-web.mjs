#!/usr/bin/env node
// Builds the renderer for browser mode into out/web (vite.web.config.ts): the first half of `npm run web`.
//
// ODDSDESK_BUNDLES_BUILT=1 says this run's bundles were just built (by `npm test`, or Playwright's global set-up),
// so the build is skipped when out/web is there: a test that starts `npm run web` does not build the renderer a
// second time in the same run. Without it (a user's `npm run web`) it always builds.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const webDir = path.join(root, 'out', 'web');

export async function buildWeb() {
  // Built beside out/web and moved in file by file, each file by one rename (the assets before the index.html that
  // names them), so a host serving out/web meanwhile (another test run in this checkout) never finds it missing or a
  // file half written: out/web itself is never moved away. Files of the build before that this one has not made are
  // removed after. A failed build removes out/web: nothing can serve a stale renderer.
  const next = `${webDir}.${process.pid}.tmp`;
  try {
    const { build } = await import('vite');
    await build({
      configFile: path.join(root, 'vite.web.config.ts'),
      logLevel: 'warn',
      build: { outDir: next, emptyOutDir: true },
    });
    const made = readdirSync(next, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.relative(next, path.join(e.parentPath, e.name)))
      .sort((a, b) => Number(a === 'index.html') - Number(b === 'index.html'));
    for (const file of made) {
      mkdirSync(path.dirname(path.join(webDir, file)), { recursive: true });
      renameSync(path.join(next, file), path.join(webDir, file));
    }
    const keep = new Set(made);
    for (const e of readdirSync(webDir, { recursive: true, withFileTypes: true })) {
      const file = path.relative(webDir, path.join(e.parentPath, e.name));
      if (e.isFile() && !keep.has(file)) rmSync(path.join(webDir, file), { force: true });
    }
  } catch (e) {
    rmSync(webDir, { recursive: true, force: true });
    throw e;
  } finally {
    rmSync(next, { recursive: true, force: true });
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
