// Browser mode host: runs the core under plain Node and serves the renderer through the WebSocket bridge, so the
// whole app can be used (and tested end to end) in a browser. Prints the URL to open.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCore } from '../core/app';
import { startBridge } from '../core/bridge/server';
import { startDemo } from '../sim/demo';

export interface WebOptions {
  port: number;
  baseUrl?: string;
  staticDir?: string;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export async function runWeb(options: WebOptions): Promise<void> {
  const version = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
  const envKey = process.env['ODDSDESK_API_KEY'] || null;
  const useDemo = !options.baseUrl;
  const demo = useDemo ? await startDemo() : null;
  const baseUrl = demo?.baseUrl ?? options.baseUrl!;
  const core = createCore({
    baseUrl,
    keyProvider: () => demo?.key ?? envKey,
    host: 'browser',
    demo: useDemo,
    version,
  });
  const bridge = await startBridge({
    handlers: core.handlers,
    subscribe: core.subscribe,
    staticDir: options.staticDir ?? path.join(root, 'out/web'),
    port: options.port,
  });
  process.stderr.write(`Oddsdesk browser mode on ${useDemo ? 'the built-in simulator (DEMO)' : baseUrl}\n`);
  process.stdout.write(`Open ${bridge.openUrl}\n`);

  const shutdown = async () => {
    await bridge.close();
    await core.close();
    await demo?.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
}
