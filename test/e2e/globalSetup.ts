// Playwright's global set-up: the CLI bundle that starts each browser-mode host, and the renderer it serves
// (see test/support/bundles.ts).
import { buildBundles } from '../support/bundles';

export default async function globalSetup(): Promise<void> {
  await buildBundles({ web: true });
}
