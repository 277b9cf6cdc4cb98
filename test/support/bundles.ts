// For vitest's and Playwright's global set-ups: the CLI bundle (and for Playwright the browser-mode renderer) built once
// before any test starts a child on it. `npm test` builds both itself, as steps it counts, and says so with
// ODDSDESK_BUNDLES_BUILT=1: then nothing is built here, and a bundle that failed to build stays missing (the tests
// that need it fail with that reason) instead of being built again.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function load<T>(script: string): Promise<T> {
  return (await import(pathToFileURL(path.join(root, 'scripts', script)).href)) as T;
}

export async function buildBundles(opts: { web: boolean }): Promise<void> {
  if (process.env['ODDSDESK_BUNDLES_BUILT'] === '1') return;
  const { buildCli } = await load<{ buildCli(): Promise<string> }>('build-cli.mjs');
  await buildCli();
  if (opts.web) {
    const { buildWeb } = await load<{ buildWeb(): Promise<void> }>('build-web.mjs');
    await buildWeb();
    if (!existsSync(path.join(root, 'out', 'web', 'index.html')))
      throw new Error('the renderer build wrote no out/web/index.html');
  }
  // Children (`npm run web` in coverage.spec) inherit it: they use these bundles instead of building again.
  process.env['ODDSDESK_BUNDLES_BUILT'] = '1';
}
