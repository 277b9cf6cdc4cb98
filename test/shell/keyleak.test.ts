// Where the API key goes in a whole session: it is set through the contract, stored in the keychain, used against
// a real simulator (odds stream, settlements, status), then cleared. Afterwards the SQLite files, every message that
// crossed the bridge, every push, every notification and everything logged are scanned, and the key is in none of
// them. Electron IPC carries exactly the same dispatch results and pushes as the bridge (both are built from the
// contract's dispatch and the core's subscribe), so the bridge tap stands for both transports here.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type WebSocket from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/core/core';
import { startBridge } from '../../src/core/bridge/server';
import type { UserNotification } from '../../src/core/notifier';
import { createKeytarSecretStore } from '../../src/core/secrets/keytar';
import { createMemorySecretStore } from '../../src/core/secrets/memory';
import type { SettingsSnapshot, StatusView } from '../../src/shared/ipc/contract';
import { startSimulator } from '../../src/sim';
import { openBridgeSocket } from '../support/bridgeSocket';

const keyring = Boolean(process.env['ODDSDESK_KEYRING']);
if (!keyring)
  console.log(
    'note: key-leak scan runs with the in-memory SecretStore (no Secret Service: run `npm test` for gnome-keyring)',
  );

const KEY = `leakcheck-${Date.now().toString(36)}-Zq7XvB`;
const tmp = mkdtempSync(path.join(tmpdir(), 'oddsdesk-keyleak-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Every place the key could hide in a file: as UTF-8, UTF-16 and base64 text. */
function containsKey(bytes: Buffer): boolean {
  return [Buffer.from(KEY), Buffer.from(KEY, 'utf16le'), Buffer.from(Buffer.from(KEY).toString('base64'))].some(
    (needle) => bytes.includes(needle),
  );
}

describe(`the API key in a full session (${keyring ? 'gnome-keyring' : 'memory'} SecretStore)`, () => {
  it('is stored in the keychain only, and appears in no file, message, push, notification or log line', async () => {
    const logged: string[] = [];
    const originals = {
      log: console.log,
      info: console.info,
      warn: console.warn,
      error: console.error,
      debug: console.debug,
    };
    for (const name of Object.keys(originals) as Array<keyof typeof originals>) {
      console[name] = (...args: unknown[]) => {
        logged.push(args.map((a) => (typeof a === 'string' ? a : (JSON.stringify(a) ?? String(a)))).join(' '));
      };
    }
    const stderrWrite = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      logged.push(String(chunk));
      return (stderrWrite as (c: unknown, ...r: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stderr.write;

    const sim = await startSimulator({
      clock: 'real',
      speed: 120,
      seed: 11,
      keys: [{ key: KEY, plan: 'enterprise' }],
      pingIntervalMs: 500,
    });
    const secrets = keyring ? createKeytarSecretStore() : createMemorySecretStore();
    const notifications: UserNotification[] = [];
    const pushes: string[] = [];
    const wire: string[] = [];
    const staticDir = path.join(tmp, 'web');
    mkdirSync(staticDir);
    writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>t</title>');

    const core = await createCore({
      host: 'browser',
      version: 'test',
      dataDir: tmp,
      secrets,
      logger: (level, line) => void logged.push(`${level} ${line}`),
      notifier: { notify: (n) => void notifications.push(n) },
      pingIntervalMs: 500,
    });
    const unsubscribe = core.subscribe((event, payload) => pushes.push(`${event} ${JSON.stringify(payload)}`));
    const bridge = await startBridge({
      handlers: core.handlers,
      subscribe: core.subscribe,
      staticDir,
      port: 0,
      tap: (_d, text) => wire.push(text),
    });
    let ws: WebSocket | null = null;
    let account = '';
    try {
      ws = await openBridgeSocket(bridge.port, bridge.token);
      let nextId = 1;
      const waiting = new Map<number, (r: { ok: boolean; value?: unknown; error?: { message: string } }) => void>();
      ws.on('message', (data) => {
        const m = JSON.parse(String(data)) as { type: string; id?: number; result?: never };
        if (m.type === 'result') waiting.get(m.id!)?.(m.result!);
      });
      const invoke = <T>(channel: string, ...args: unknown[]) =>
        new Promise<T>((resolve, reject) => {
          const id = nextId++;
          waiting.set(id, (r) => (r.ok ? resolve(r.value as T) : reject(new Error(`${channel}: ${r.error?.message}`))));
          ws!.send(JSON.stringify({ type: 'invoke', id, channel, args }));
        });

      const configured = await invoke<SettingsSnapshot>('settings:update', { baseUrl: sim.url });
      account = configured.baseUrl!;
      const afterSet = await invoke<SettingsSnapshot>('settings:setApiKey', KEY);
      expect(afterSet.hasKey).toBe(true);
      expect(await secrets.get(account), 'the keychain holds the key').toBe(KEY);

      // A working session: fixtures, a few watched live events with their odds streams, a settled walk, status.
      const fixtures = await invoke<Array<{ event_id: number; live_status?: number | null }>>('fixtures:list', {});
      expect(fixtures.length).toBeGreaterThan(0);
      for (const f of fixtures.slice(0, 3)) await invoke('watch:add', f.event_id);
      await invoke('settlements:syncNow');
      const deadline = Date.now() + 20_000;
      while (!pushes.some((p) => p.startsWith('onOdds')) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 200));
      expect(
        pushes.some((p) => p.startsWith('onOdds')),
        'odds were pushed during the session',
      ).toBe(true);
      const status = await invoke<StatusView>('status:get');
      expect(status.auth).toBe('ok');
      await invoke('settings:get');
      await invoke('app:info');
      await invoke('settlements:exportCsv', {});

      const cleared = await invoke<SettingsSnapshot>('settings:clearApiKey');
      expect(cleared.hasKey).toBe(false);
      expect(await secrets.get(account), 'cleared from the keychain').toBeNull();
    } finally {
      ws?.close();
      unsubscribe();
      await bridge.close();
      await core.close();
      await sim.close();
      if (account) await secrets.delete(account).catch(() => undefined);
      Object.assign(console, originals);
      process.stderr.write = stderrWrite;
    }

    // The scan. The request that carried the key in is the one message allowed to contain it.
    const inbound = wire.filter((t) => t.includes('"settings:setApiKey"'));
    expect(inbound).toHaveLength(1);
    expect(inbound[0], 'the tap saw the key go in, so it would see it come out').toContain(KEY);
    const others = wire.filter((t) => !inbound.includes(t));
    expect(others.length).toBeGreaterThan(10);
    expect(
      others.filter((t) => t.includes(KEY)),
      'bridge messages',
    ).toEqual([]);
    expect(
      pushes.filter((t) => t.includes(KEY)),
      'pushed events',
    ).toEqual([]);
    expect(
      notifications.filter((n) => JSON.stringify(n).includes(KEY)),
      'notifications',
    ).toEqual([]);
    expect(
      logged.filter((l) => l.includes(KEY)),
      'log lines',
    ).toEqual([]);
    // Every file the core wrote: settings.json and each profile's database with its WAL.
    const written = readdirSync(tmp, { recursive: true, encoding: 'utf8' }).filter(
      (f) => f !== 'web' && !f.startsWith('web'),
    );
    expect(written).toContain('settings.json');
    expect(written.filter((f) => f.startsWith(path.join('profiles', 'service-')) && f.endsWith('.db'))).toHaveLength(1);
    for (const f of written) {
      const full = path.join(tmp, f);
      if (statSync(full).isFile()) expect(containsKey(readFileSync(full)), f).toBe(false);
    }
  }, 90_000);
});
