// "Forget all keys" (settings:forgetAllKeys): every service's key leaves the keychain, not only the current one's,
// and the app lands in the same no-key state "Clear key" leaves it in (here: the demo, with the service still set).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core/core';
import { createKeytarSecretStore } from '../../src/core/secrets/keytar';
import { createMemorySecretStore } from '../../src/core/secrets/memory';
import type { SecretStore } from '../../src/core/secrets/types';
import { parseServiceTime } from '../../src/shared/api';
import { dispatch, type Channel, type RequestArgs, type ResponseMap } from '../../src/shared/ipc/contract';
import { startSimulator, type Simulator } from '../../src/sim';
import { createManualClock } from '../support/manualClock';

const T0 = '2026-11-20T12:00:00';
const DEMO_KEY = 'forget-keys-demo-key';
const KEY_A = 'service-a-key-0123456789';
const EARLIER = 'https://odds-earlier.example';

const cores: Core[] = [];
const dirs: string[] = [];
let sim: Simulator | null = null;
afterEach(async () => {
  for (const c of cores.splice(0)) await c.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  await sim?.close();
  sim = null;
});

/** A core on `secrets`, whose demo and whose service A are both the simulator (each with its own key). */
async function openCore(secrets: SecretStore) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-forget-keys-'));
  dirs.push(dataDir);
  const core = await createCore({
    host: 'browser',
    version: 'test',
    dataDir,
    secrets,
    logger: () => undefined,
    notifier: { notify: () => undefined },
    clock: createManualClock(parseServiceTime(T0)!),
    startDemo: async () => ({ baseUrl: sim!.url, key: DEMO_KEY, close: async () => undefined }),
  });
  cores.push(core);
  await core.ready;
  // Through the contract, as the page and the desktop IPC reach it.
  const call = async <C extends Channel>(channel: C, ...args: RequestArgs<C>): Promise<ResponseMap[C]> => {
    const r = await dispatch(core.handlers, channel, args);
    if (!r.ok) throw new Error(`${channel}: ${r.error.kind}: ${r.error.message}`);
    return r.value as ResponseMap[C];
  };
  return { core, call };
}

/** A trader who once used another service, now connected to service A with its key. */
async function traderWithTwoKeys() {
  const secrets = createMemorySecretStore({ [EARLIER]: 'earlier-service-key-987' });
  const { call, core } = await openCore(secrets);
  const connected = await call('settings:setApiKey', KEY_A, sim!.url);
  expect(connected).toMatchObject({ baseUrl: sim!.url, hasKey: true, demo: false });
  return { secrets, call, core };
}

describe('settings:forgetAllKeys', () => {
  it('removes the current and the earlier service keys, says how many, and leaves the state "Clear key" leaves', async () => {
    sim = await startSimulator({
      port: 0,
      seed: 5,
      clock: 'manual',
      startTime: T0,
      keys: [
        { key: DEMO_KEY, plan: 'enterprise' },
        { key: KEY_A, plan: 'enterprise' },
      ],
      historyHours: 1,
    });

    const forgot = await traderWithTwoKeys();
    const result = await forgot.call('settings:forgetAllKeys');
    expect(result.removed).toBe(2);
    expect(await forgot.secrets.get(sim.url)).toBeNull();
    expect(await forgot.secrets.get(EARLIER)).toBeNull();
    // No key for the configured service: the app falls back to the demo, the service stays set for a new key.
    expect(result.settings).toMatchObject({ baseUrl: sim.url, hasKey: false, demo: true });
    expect(await forgot.call('settings:get')).toEqual(result.settings);
    expect((await forgot.call('app:info')).demo).toBe(true);

    // "Clear key" from the same starting point: the same settings and connection, but the earlier key stays.
    const cleared = await traderWithTwoKeys();
    const afterClear = await cleared.call('settings:clearApiKey');
    expect(result.settings).toEqual(afterClear);
    expect((await cleared.call('app:info')).demo).toBe(true);
    expect(await cleared.secrets.get(EARLIER)).toBe('earlier-service-key-987');

    // Nothing left: a second forget removes nothing.
    expect((await forgot.call('settings:forgetAllKeys')).removed).toBe(0);
  });

  it('a keychain that cannot be used is an error the trader sees, saying why', async () => {
    sim = await startSimulator({
      port: 0,
      seed: 6,
      clock: 'manual',
      startTime: T0,
      keys: [{ key: DEMO_KEY, plan: 'enterprise' }],
      historyHours: 1,
    });
    const unusable = createKeytarSecretStore({
      load: () => Promise.reject(new Error('libsecret-1.so.0: cannot open shared object file')),
    });
    const { core } = await openCore(unusable);
    const r = await dispatch(core.handlers, 'settings:forgetAllKeys', []);
    expect(r).toMatchObject({
      ok: false,
      error: { kind: 'keychain', message: expect.stringMatching(/^No usable OS keychain: .*keytar could not load/) },
    });
  });
});
