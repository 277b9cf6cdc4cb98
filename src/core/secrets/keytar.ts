// The desktop SecretStore: the API key in the OS keychain through keytar (service `oddsdesk`, account = base URL);
// "forget all keys" removes every account under that service.
// keytar is loaded lazily, so the core still loads where the native module cannot (no libsecret, wrong ABI); then
// availability() says why. There is deliberately no plain-text fallback: without a keychain the key is not stored.
import { AppErrorException, errorMessage } from '../../shared/errors';
import type { KeychainAvailability, SecretStore } from './types';
import { KEYCHAIN_SERVICE } from './types';

/** The part of keytar this store uses; injectable so tests can stand in a module that fails to load. */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  /** Every entry under `service` (keytar reads the passwords too; only the accounts are used). */
  findCredentials(service: string): Promise<Array<{ account: string; password: string }>>;
}

export interface KeytarStoreOptions {
  service?: string;
  load?: () => Promise<KeytarLike>;
  /** How long a keychain call may take before it counts as unusable (an unanswered unlock prompt, a hung daemon). */
  timeoutMs?: number;
  platform?: NodeJS.Platform;
}

/** Account used only by the availability probe; never holds a real key. */
const PROBE_ACCOUNT = 'oddsdesk-availability-probe';

async function loadKeytar(): Promise<KeytarLike> {
  // keytar is CommonJS: under ESM its functions sit on `default`.
  const mod = (await import('keytar')) as unknown as KeytarLike & { default?: KeytarLike };
  return mod.default ?? mod;
}

/** What the trader can do about a missing keychain, in the words of their OS. */
export function keychainAdvice(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'unlock the login keychain in Keychain Access';
  if (platform === 'win32') return 'make sure Windows Credential Manager is running for this user';
  return 'install/unlock gnome-keyring or KWallet (any Secret Service provider; on a headless session start one under dbus-run-session)';
}

function reasonOf(e: unknown): string {
  const text = errorMessage(e);
  return text.replace(/\s+/g, ' ').trim().slice(0, 300) || 'unknown error';
}

export function createKeytarSecretStore(options: KeytarStoreOptions = {}): SecretStore {
  const service = options.service ?? KEYCHAIN_SERVICE;
  const load = options.load ?? loadKeytar;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const platform = options.platform ?? process.platform;
  let keytar: Promise<KeytarLike> | null = null;
  // Only success is remembered: a keychain that was locked may be unlocked a minute later.
  let known: KeychainAvailability | null = null;

  const unusable = (detail: string) => `No usable OS keychain: ${keychainAdvice(platform)}. Detail: ${detail}.`;

  function keytarModule(): Promise<KeytarLike> {
    keytar ??= load().catch((e: unknown) => {
      keytar = null;
      throw new AppErrorException({ kind: 'keychain', message: unusable(`keytar could not load: ${reasonOf(e)}`) });
    });
    return keytar;
  }

  /**
   * Runs one keychain call with a deadline, turning every failure into a `keychain` AppError. The secret being
   * written is scrubbed from the message in case a backend ever echoes it.
   */
  async function call<T>(what: string, run: (k: KeytarLike) => Promise<T>, secret?: string): Promise<T> {
    const k = await keytarModule();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `the keychain did not answer within ${Math.round(timeoutMs / 1000)} s (locked, or an unlock prompt is waiting)`,
            ),
          ),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([run(k), deadline]);
    } catch (e) {
      known = null;
      let detail = `${what}: ${reasonOf(e)}`;
      if (secret) detail = detail.split(secret).join('***');
      throw new AppErrorException({ kind: 'keychain', message: unusable(detail) });
    } finally {
      clearTimeout(timer);
    }
  }

  async function probe(): Promise<KeychainAvailability> {
    try {
      // A read alone is not enough: with a Secret Service but no unlocked collection, reads answer null while
      // every write fails. So the probe writes and removes a throwaway value under its own account.
      const value = `probe-${Date.now()}`;
      await call('reading', (k) => k.getPassword(service, PROBE_ACCOUNT));
      await call('writing', (k) => k.setPassword(service, PROBE_ACCOUNT, value));
      await call('removing', (k) => k.deletePassword(service, PROBE_ACCOUNT));
      known = { available: true };
      return known;
    } catch (e) {
      return { available: false, message: e instanceof AppErrorException ? e.error.message : unusable(reasonOf(e)) };
    }
  }
  // One probe at a time: two at once write and remove the same entry, and the slower one then finds its item gone
  // ("No such interface org.freedesktop.Secret.Item") and calls a working keychain unusable.
  let probing: Promise<KeychainAvailability> | null = null;

  return {
    availability() {
      if (known?.available) return Promise.resolve(known);
      probing ??= probe().finally(() => (probing = null));
      return probing;
    },
    get: (account) => call('reading the key', (k) => k.getPassword(service, account)),
    // keytar replaces an existing entry for the same service and account, so set is also "replace".
    set: (account, secret) => call('storing the key', (k) => k.setPassword(service, account, secret), secret),
    delete: (account) => call('removing the key', (k) => k.deletePassword(service, account)),
    async deleteAll() {
      // Only the account names leave this call: the passwords keytar read along with them are dropped at once.
      // (On Windows keytar lists by prefix, `oddsdesk*`; deletePassword then removes exactly `oddsdesk/<account>`, so
      // another application's entry is never removed, nor counted.)
      const accounts = (await call('listing the keys', (k) => k.findCredentials(service))).map((c) => c.account);
      let removed = 0;
      for (const account of accounts) {
        const gone = await call('removing a key', (k) => k.deletePassword(service, account));
        // The availability probe's throwaway entry (left by an interrupted probe) is cleared but is no key.
        if (gone && account !== PROBE_ACCOUNT) removed++;
      }
      return removed;
    },
  };
}
