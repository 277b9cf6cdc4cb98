#!/usr/bin/env node
// Bundles the headless entry (src/cli/index.ts: record, export, sim, web) into out/cli/index.js, so tests start the
// CLI and the browser-mode host as plain `node out/cli/index.js …` instead of compiling TypeScript through tsx in
// every child (2-4 s each, dozens of times per `npm test`). `npm run cli` for users still runs the sources via tsx.
//
// Only our own sources are bundled: every package stays external and is loaded from node_modules at run time
// (better-sqlite3 and keytar are native; the rest start faster as they are than rebundled). The bundle sits two
// folders below the repository, as src/cli/index.ts does, so paths computed from import.meta.url (the web host's
// package.json and out/web) resolve the same. The store's threads, its checkpointer (src/core/store/threads/checkpointWorker.ts)
// and its writer (writerWorker.ts), are entries of their own, out/cli/checkpointWorker.js and writerWorker.js: the
// store starts them from beside the module that opens the store.
//
// `node scripts/build-cli.mjs` builds it; `import { buildCli }` does the same from the test runner and the vitest /
// Playwright global set-ups.
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const cliBundle = path.join(root, 'out', 'cli', 'index.js');
/** Each entry's bundle name in out/cli; the CLI's own last, so a new one never finds an old (or no) thread beside it. */
const ENTRIES = {
  checkpointWorker: path.join(root, 'src', 'core', 'store', 'threads', 'checkpointWorker.ts'),
  writerWorker: path.join(root, 'src', 'core', 'store', 'threads', 'writerWorker.ts'),
  index: path.join(root, 'src', 'cli', 'index.ts'),
};

export async function buildCli() {
  // Written beside the bundle and renamed over it: a test run that is starting children on the old one meanwhile
  // (another vitest or Playwright run) never finds it missing or half written. A failed build removes the old one,
  // so nothing can run a stale bundle.
  const dir = path.dirname(cliBundle);
  const nextDir = `${dir}.${process.pid}.tmp`;
  try {
    await build({
      entryPoints: ENTRIES,
      outdir: nextDir,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      sourcemap: 'linked',
      logLevel: 'warning',
    });
    mkdirSync(dir, { recursive: true });
    for (const name of Object.keys(ENTRIES)) {
      renameSync(path.join(nextDir, `${name}.js.map`), path.join(dir, `${name}.js.map`));
      renameSync(path.join(nextDir, `${name}.js`), path.join(dir, `${name}.js`));
    }
  } catch (e) {
    rmSync(cliBundle, { force: true });
    throw e;
  } finally {
    rmSync(nextDir, { recursive: true, force: true });
  }
  return cliBundle;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  buildCli().then(
    (file) => console.log(`built ${path.relative(root, file)}`),
    () => process.exit(1),
  );
}
