// Vitest's global set-up: the CLI bundle that cliHarness.ts starts (see bundles.ts).
import { buildBundles } from './bundles';

export default async function setup(): Promise<void> {
  await buildBundles({ web: false });
}
