// The contract suite (./suite.ts) through browser mode: the core composed as `npm run web` composes it (host kit,
// keychain, demo on a fresh profile), its bridge (src/core/bridge/server.ts) on a real port, and the page's own client
// (createBridgeClient from src/renderer/src/host/bridgeClient.ts) talking to it over a WebSocket from the page's
// origin, so whatever handshake the page does is the one tested. The desktop wiring runs the same suite through
// Electron's IPC (test/shell/desktop-wiring.test.ts).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll } from 'vitest';
import { createCore, type Core } from '../../src/core/core';
import { startBridge, type BridgeServer } from '../../src/core/bridge/server';
import { createHostKit, type HostKit } from '../../src/core/host/kit';
import { createKeytarSecretStore } from '../../src/core/secrets/keytar';
import type { Result } from '../../src/shared/errors';
import type { OddsdeskApi } from '../../src/shared/ipc/contract';
import { startDemo } from '../../src/sim/demo';
import { KEYRING, NO_KEYRING, keychainForTests, testKeychainService } from './keychain';
import { startService, type Service } from './service';
import { contractSuite, type ContractHost } from './suite';

const root = path.resolve(__dirname, '../..');
// Through a computed path: the page's module is checked with the renderer's (DOM) types, not this project's.
const PAGE_CLIENT = path.join(root, 'src/renderer/src/host/bridgeClient.ts');
/** The parts of the page's `location` the client reads. */
type PageLocation = { protocol: string; host: string; hash: string; pathname: string; search: string };
type PageClientModule = { createBridgeClient(location: PageLocation): OddsdeskApi & { close?(): void } };

/**
 * The browser's WebSocket, as the page uses it, over `ws`: it sends the Origin a page served by the host sends (the
 * host refuses any other), and reports open, message, close (with its code) and error the DOM way.
 */
class PageWebSocket {
  static readonly OPEN = 1;
  onopen: ((e: object) => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: ((e: { code: number; reason: string; wasClean: boolean }) => void) | null = null;
  onerror: ((e: object) => void) | null = null;
  private readonly ws: WebSocket;

  constructor(url: string) {
    this.ws = new WebSocket(url, { origin: `http://${new URL(url).host}` });
    this.ws.on('open', () => this.onopen?.({}));
    this.ws.on('message', (data) => this.onmessage?.({ data: data.toString() }));
    this.ws.on('close', (code, reason) => this.onclose?.({ code, reason: reason.toString(), wasClean: code === 1000 }));
    this.ws.on('error', () => this.onerror?.({}));
  }

  get readyState(): number {
    return this.ws.readyState;
  }

  send(text: string): void {
    this.ws.send(text);
  }

  close(): void {
    this.ws.close();
  }
}

let service: Service;
let kit: HostKit;
let core: Core;
let bridge: BridgeServer;
let page: (OddsdeskApi & { close?(): void }) | null = null;
const dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-contract-bridge-'));
const keychainService = testKeychainService();
const keychain = keychainForTests(keychainService, createKeytarSecretStore);
const globals = globalThis as unknown as Record<string, unknown>;
const saved = { window: globals['window'], WebSocket: globals['WebSocket'] };
const hostLog: string[] = [];

beforeAll(async () => {
  if (!KEYRING) console.log(`contract suite through the bridge: ${NO_KEYRING}`);
  service = await startService();
  const version = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
  kit = createHostKit({ sink: (level, line) => void hostLog.push(`${level} ${line}`) });
  core = await createCore({
    host: 'browser',
    version,
    dataDir: path.join(dir, 'data'),
    secrets: kit.secrets(keychain),
    logger: kit.log,
    startDemo: () => startDemo(),
  });
  await core.ready;
  const staticDir = path.join(dir, 'web');
  mkdirSync(staticDir, { recursive: true });
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Oddsdesk</title>');
  bridge = await startBridge({ handlers: core.handlers, subscribe: core.subscribe, staticDir, port: 0 });
  kit.onShutdown('the bridge', () => bridge.close());
  kit.onShutdown('the core', () => core.close());

  // The page: opened at the address the host printed, with the browser's WebSocket, history and sessionStorage.
  const storage = new Map<string, string>();
  globals['window'] = {
    history: { state: null, replaceState: () => undefined },
    sessionStorage: {
      getItem: (k: string) => storage.get(k) ?? null,
      setItem: (k: string, v: string) => void storage.set(k, v),
    },
  };
  globals['WebSocket'] = PageWebSocket;
  const open = new URL(bridge.openUrl);
  const { createBridgeClient } = (await import(/* @vite-ignore */ PAGE_CLIENT)) as PageClientModule;
  page = createBridgeClient({
    protocol: open.protocol,
    host: open.host,
    hash: open.hash,
    pathname: open.pathname,
    search: open.search,
  });
}, 60_000);

afterAll(async () => {
  page?.close?.();
  await kit?.shutdown('the test ended');
  globals['window'] = saved.window;
  globals['WebSocket'] = saved.WebSocket;
  await service?.close();
  if (KEYRING) await keychain.deleteAll().catch(() => 0);
  rmSync(dir, { recursive: true, force: true });
});

contractSuite("browser mode's bridge", (): ContractHost => ({
  host: 'browser',
  invoke: (channel, ...args) =>
    (page!.invoke as (c: string, ...a: unknown[]) => Promise<Result<unknown>>)(channel, ...args),
  service,
  scratch: dir,
}));
