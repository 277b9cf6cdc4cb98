// The keytar SecretStore against a real Secret Service (gnome-keyring under dbus-run-session, set up by `npm test`),
// "forget all keys" there, and its answer where no keychain is usable: a clear message, nothing stored anywhere else.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createKeytarSecretStore } from '../../src/core/secrets/keytar';
import { createMemorySecretStore } from '../../src/core/secrets/memory';
import { AppErrorException } from '../../src/shared/errors';

const root = path.resolve(__dirname, '../..');
const keyring = Boolean(process.env['ODDSDESK_KEYRING']);
const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
if (!keyring) {
  console.log(
    'skipped: keychain tests need a real Secret Service: run `npm test` (it starts dbus-run-session with an unlocked gnome-keyring), or set ODDSDESK_KEYRING=1 inside such a session',
  );
}

/** Runs the availability probe in a child process with `env` laid over ours; returns its parsed answer. */
function probeInChild(env: Record<string, string | undefined>, wrap: string[] = []) {
  const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
  const script = path.join(__dirname, 'fixtures', 'availability.ts');
  const [cmd, ...args] = [...wrap, tsx, script];
  const r = spawnSync(cmd!, args, { cwd: root, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
  const line = r.stdout.trim().split('\n').pop() ?? '';
  expect(line, `probe printed nothing; stderr: ${r.stderr.slice(-500)}`).not.toBe('');
  return JSON.parse(line) as { available: boolean; message?: string };
}

// A fresh account per run, so a crashed earlier run cannot leave a key that makes this one pass.
const account = `https://test.invalid/oddsdesk-${process.pid}-${Date.now()}`;

describe('keytar SecretStore on a real Secret Service', () => {
  const store = createKeytarSecretStore();
  afterAll(async () => {
    if (keyring) await store.delete(account).catch(() => undefined);
  });

  it.skipIf(!keyring)('is available', async () => {
    expect(await store.availability()).toEqual({ available: true });
  });

  it.skipIf(!keyring)('sets, reads, replaces and clears the key for a base URL', async () => {
    expect(await store.get(account)).toBeNull();
    await store.set(account, 'first-key-0123456789');
    expect(await store.get(account)).toBe('first-key-0123456789');
    await store.set(account, 'second-key-9876543210');
    expect(await store.get(account)).toBe('second-key-9876543210');
    // Keys are per base URL: another account does not see this one.
    expect(await store.get(`${account}/other`)).toBeNull();
    expect(await store.delete(account)).toBe(true);
    expect(await store.get(account)).toBeNull();
    expect(await store.delete(account)).toBe(false);
  });

  it.skipIf(!keyring)(
    'answers "available" to several screens asking at once (their probes do not trip over each other)',
    async () => {
      for (let round = 0; round < 5; round++) {
        const fresh = createKeytarSecretStore({ service: `oddsdesk-test-probe-${process.pid}-${round}` });
        const answers = await Promise.all(Array.from({ length: 6 }, () => fresh.availability()));
        expect(answers, `round ${round}`).toEqual(Array.from({ length: 6 }, () => ({ available: true })));
      }
    },
  );

  it.skipIf(!keyring)('a second store instance (a restarted app) reads what the first stored', async () => {
    await store.set(account, 'persisted-key-abcdef');
    expect(await createKeytarSecretStore().get(account)).toBe('persisted-key-abcdef');
    await store.delete(account);
  });
});

describe('forget all keys on a real Secret Service', () => {
  // A keychain service of this run's own, so forgetting everything here can never touch a real Oddsdesk key, and a
  // second one standing for another application, whose entry must survive.
  const service = `oddsdesk-test-${process.pid}-${Date.now()}`;
  const store = createKeytarSecretStore({ service });
  const bystander = createKeytarSecretStore({ service: `${service}-other-app` });
  afterAll(async () => {
    if (!keyring) return;
    await store.deleteAll().catch(() => undefined);
    await bystander.deleteAll().catch(() => undefined);
  });

  it.skipIf(!keyring)(
    'removes the keys saved for two services (and a stray probe entry, not counted); nothing of ours is left, others stay',
    async () => {
      const keytar = (await import('keytar')) as unknown as { default?: KeytarModule } & KeytarModule;
      const k = keytar.default ?? keytar;
      await store.set('https://odds-a.example', 'key-for-service-a-123');
      await store.set('https://odds-b.example', 'key-for-service-b-456');
      // What an availability probe interrupted between its write and its removal leaves behind.
      await k.setPassword(service, 'oddsdesk-availability-probe', 'probe-1');
      await bystander.set('https://odds-a.example', 'another-apps-secret');
      expect((await k.findCredentials(service)).length).toBe(3);

      expect(await store.deleteAll()).toBe(2);
      expect(await store.get('https://odds-a.example')).toBeNull();
      expect(await store.get('https://odds-b.example')).toBeNull();
      expect(await k.findCredentials(service)).toEqual([]);
      // A restarted app finds nothing either.
      expect(await createKeytarSecretStore({ service }).get('https://odds-a.example')).toBeNull();
      expect(await bystander.get('https://odds-a.example')).toBe('another-apps-secret');
      // Nothing left: forgetting again removes nothing.
      expect(await store.deleteAll()).toBe(0);
    },
  );
});

type KeytarModule = {
  setPassword(service: string, account: string, password: string): Promise<void>;
  findCredentials(service: string): Promise<Array<{ account: string; password: string }>>;
};

describe('keytar SecretStore without a usable keychain', () => {
  it.skipIf(process.platform !== 'linux')('says so clearly when no D-Bus session is reachable', () => {
    const answer = probeInChild({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/oddsdesk-test-bus' });
    expect(answer.available).toBe(false);
    expect(answer.message).toMatch(/^No usable OS keychain: install\/unlock gnome-keyring or KWallet/);
    expect(answer.message).toMatch(/Detail: reading: Could not connect/);
  });

  it.skipIf(process.platform !== 'linux' || !has('dbus-run-session') || !has('gnome-keyring-daemon'))(
    'says so when a Secret Service answers but has no unlocked collection to write to',
    () => {
      // A private bus where gnome-keyring is activated on demand but never unlocked: reads answer null, writes fail.
      // Its own XDG dirs, so the probe never touches the keyrings of the session running the tests.
      const dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-nokeyring-'));
      try {
        const answer = probeInChild({ XDG_DATA_HOME: dir, XDG_RUNTIME_DIR: dir, DISPLAY: '' }, [
          'dbus-run-session',
          '--',
        ]);
        expect(answer.available).toBe(false);
        expect(answer.message).toMatch(/^No usable OS keychain/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('reports a keytar that cannot load instead of failing to start, and refuses to store', async () => {
    const store = createKeytarSecretStore({
      load: () => Promise.reject(new Error('libsecret-1.so.0: cannot open shared object file')),
    });
    const answer = await store.availability();
    expect(answer.available).toBe(false);
    expect(!answer.available && answer.message).toMatch(
      /No usable OS keychain: .*keytar could not load: libsecret-1\.so\.0/,
    );
    const err = await store.set('https://x.invalid', 'a-secret-key-123').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppErrorException);
    expect((err as AppErrorException).error.kind).toBe('keychain');
  });

  it('never echoes the key in an error message, even if the backend does', async () => {
    const secret = 'leaky-secret-key-42';
    const store = createKeytarSecretStore({
      load: () =>
        Promise.resolve({
          getPassword: () => Promise.resolve(null),
          setPassword: (_s, _a, p) => Promise.reject(new Error(`refused to store ${p}`)),
          deletePassword: () => Promise.resolve(false),
          findCredentials: () => Promise.resolve([]),
        }),
    });
    const err = (await store.set('https://x.invalid', secret).catch((e: unknown) => e)) as AppErrorException;
    expect(err.error.kind).toBe('keychain');
    expect(err.message).not.toContain(secret);
    expect(err.error.message).toContain('***');
  });

  it('counts a keychain that never answers as unusable', async () => {
    const hung = new Promise<never>(() => undefined);
    const store = createKeytarSecretStore({
      timeoutMs: 50,
      load: () =>
        Promise.resolve({
          getPassword: () => hung,
          setPassword: () => hung,
          deletePassword: () => hung,
          findCredentials: () => hung,
        }),
    });
    const answer = await store.availability();
    expect(answer.available).toBe(false);
    expect(!answer.available && answer.message).toMatch(/did not answer/);
  });
});

describe('memory SecretStore (CLI and tests)', () => {
  it('sets, replaces and clears per account', async () => {
    const store = createMemorySecretStore();
    expect(await store.availability()).toEqual({ available: true });
    await store.set('a', 'k1');
    await store.set('a', 'k2');
    expect(await store.get('a')).toBe('k2');
    expect(await store.get('b')).toBeNull();
    expect(await store.delete('a')).toBe(true);
    expect(await store.delete('a')).toBe(false);
  });

  it('forgets every key at once and says how many', async () => {
    const store = createMemorySecretStore({ 'https://a.example': 'k-a', 'https://b.example': 'k-b' });
    expect(await store.deleteAll()).toBe(2);
    expect(await store.get('https://a.example')).toBeNull();
    expect(await store.deleteAll()).toBe(0);
  });
});
