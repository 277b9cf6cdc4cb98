// Browser mode host: runs the core under plain Node and serves the renderer through the WebSocket bridge, so the
// whole app can be used (and tested end to end) in a browser. Prints the URL to open. Like Electron's main process,
// it is the only place the key lives: read from the OS keychain, or from ODDSDESK_API_KEY for headless use.
import { mkdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCore } from '../core/app';
import { startBridge } from '../core/bridge/server';
import { PRIVATE_DIR_MODE } from '../core/fileModes';
import { createProxyFetch } from '../core/net/proxyFetch';
import { silentNotifier } from '../core/notifier';
import { createKeytarSecretStore } from '../core/secrets/keytar';
import { checkApiKey } from '../shared/apiKey';
import { startDemo } from '../sim/demo';

export interface WebOptions {
  port: number;
  baseUrl?: string;
  db?: string;
  staticDir?: string;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Browser mode's settings and profiles: `$XDG_DATA_HOME/oddsdesk` (or ODDSDESK_DATA_DIR). */
function dataDir(): string {
  const dataHome = process.env['XDG_DATA_HOME'] || path.join(os.homedir(), '.local', 'share');
  const dir = process.env['ODDSDESK_DATA_DIR'] || path.join(dataHome, 'oddsdesk');
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  return dir;
}

export async function runWeb(options: WebOptions): Promise<void> {
  const version = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
  const envKey = process.env['ODDSDESK_API_KEY'] || null;
  // Read once, then gone from the environment.
  delete process.env['ODDSDESK_API_KEY'];
  if (envKey !== null) {
    const checked = checkApiKey(envKey);
    if (!checked.ok) {
      // The rule, never the key.
      process.stderr.write(`web: ODDSDESK_API_KEY is not a usable key. ${checked.message}\n`);
      process.exitCode = 2;
      return;
    }
  }
  const core = await createCore({
    host: 'browser',
    version,
    dataDir: dataDir(),
    ...(options.db ? { serviceDb: path.resolve(options.db) } : {}),
    secrets: createKeytarSecretStore(),
    // Browser mode shows alerts as Web Notifications from the page itself.
    notifier: silentNotifier,
    // HTTPS_PROXY / NO_PROXY, as a desk behind a corporate proxy needs.
    fetch: createProxyFetch(process.env),
    startDemo: () => startDemo(),
    ...(options.baseUrl && envKey ? { envService: { baseUrl: options.baseUrl, key: envKey } } : {}),
    ...(options.baseUrl && !envKey ? { initialSettings: { baseUrl: options.baseUrl } } : {}),
  });
  await core.ready;
  const bridge = await startBridge({
    handlers: core.handlers,
    subscribe: core.subscribe,
    staticDir: options.staticDir ?? path.join(root, 'out/web'),
    port: options.port,
  });
  const info = await core.handlers['app:info']();
  process.stderr.write(`Oddsdesk browser mode on ${info.demo ? 'the built-in simulator (DEMO)' : info.baseUrl}\n`);
  process.stdout.write(`Open ${bridge.openUrl}\n`);

  const shutdown = async () => {
    await bridge.close();
    await core.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
}
