// An in-memory SecretStore for the CLI and tests: the key lives as long as the process and is never written
// anywhere. Not for the desktop app, where the key must survive a restart in the OS keychain.
import type { SecretStore } from './types';

export function createMemorySecretStore(initial: Record<string, string> = {}): SecretStore {
  const secrets = new Map(Object.entries(initial));
  return {
    availability: () => Promise.resolve({ available: true }),
    get: (account) => Promise.resolve(secrets.get(account) ?? null),
    set: (account, secret) => {
      secrets.set(account, secret);
      return Promise.resolve();
    },
    delete: (account) => Promise.resolve(secrets.delete(account)),
    deleteAll: () => {
      const removed = secrets.size;
      secrets.clear();
      return Promise.resolve(removed);
    },
  };
}
