// Browser mode host: runs the core under plain Node and serves the renderer through the WebSocket bridge, so the
// whole app can be used (and tested end to end) in a browser. Prints the URL to open. Like Electron's main process,
// it is the only place the key lives: read from the OS keychain, or (with --base-url, for headless use) from
// --api-key-file or ODDSDESK_API_KEY. Composed with the host kit like the other hosts: the engine's warnings go to
// stderr scrubbed, notifications are the core's (the page only shows them), one bounded shutdown.
import { mkdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCore } from '../core/core';
import { startBridge } from '../core/bridge/server';
import { PRIVATE_DIR_MODE } from '../core/fileModes';
import { createHostKit, logLevelFrom, stderrSink } from '../core/host/kit';
import { createProxyFetch } from '../core/net/proxyFetch';
import { createKeytarSecretStore } from '../core/secrets/keytar';
import { startDemo } from '../sim/demo';
import { reportLoopDelayOnRequest } from './loopDelay';

export interface WebOptions {
  port: number;
  baseUrl?: string;
  db?: string;
  staticDir?: string;
  /** `--api-key-file`: the key for --base-url from a file, or `-` for standard input. */
  apiKeyFile?: string;
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
  if (process.env['ODDSDESK_BENCH_LOOP_DELAY'] === '1') reportLoopDelayOnRequest();
  const version = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
  const kit = createHostKit({ sink: stderrSink(), level: logLevelFrom(process.env) });
  // A crash is logged through the scrubber before the process goes (the key may be in an error's message).
  kit.catchCrashes();
  const intake = kit.takeKey({
    env: process.env,
    ...(options.apiKeyFile === undefined ? {} : { file: options.apiKeyFile }),
  });
  if (!intake.ok) {
    process.stderr.write(`web: ${intake.message}\n`);
    process.exitCode = 2;
    return;
  }
  const envKey = intake.key;
  if (envKey !== null && !options.baseUrl)
    kit.log(
      'warn',
      'The key given on the command line is used only with --base-url; without it the keychain (or demo) decides.',
    );
  const core = await createCore({
    host: 'browser',
    version,
    dataDir: dataDir(),
    ...(options.db ? { serviceDb: path.resolve(options.db) } : {}),
    secrets: kit.secrets(createKeytarSecretStore()),
    logger: kit.log,
    // No notifier: the core pushes each notification it decides on, and the page shows it as a Web Notification.
    // HTTPS_PROXY / NO_PROXY, as a desk behind a corporate proxy needs.
    fetch: createProxyFetch(process.env),
    startDemo: (o) => startDemo(o),
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
  // The bridge first, so no page request reaches a closing core; then the core flushes and closes its database.
  kit.onShutdown('the bridge', () => bridge.close());
  kit.onShutdown('the core', () => core.close());
  const info = await core.handlers['app:info']();
  process.stderr.write(`Oddsdesk browser mode on ${info.demo ? 'the built-in simulator (DEMO)' : info.baseUrl}\n`);
  process.stdout.write(`Open ${bridge.openUrl}\n`);

  const stop = (signal: string) =>
    void kit.shutdown(signal).then((outcome) => process.exit(outcome === 'closed' ? 0 : 1));
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}
