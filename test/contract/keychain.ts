// The keychain the contract suite's hosts store the key in. Under `npm test` a real Secret Service runs
// (gnome-keyring in a throwaway D-Bus session, ODDSDESK_KEYRING=1): the hosts use the real keytar store, under a
// keychain service of this run's own, because the suite's "Forget all keys" removes every key under its service and
// other test files (and, run by hand, the developer's own Oddsdesk) keep keys under `oddsdesk` at the same time.
// Without a Secret Service the in-memory store stands in, and the test says why.
import type { KeytarStoreOptions } from '../../src/core/secrets/keytar';
import { createMemorySecretStore } from '../../src/core/secrets/memory';
import type { SecretStore } from '../../src/core/secrets/types';

export const KEYRING = process.env['ODDSDESK_KEYRING'] === '1';
export const NO_KEYRING =
  'no Secret Service (ODDSDESK_KEYRING unset): the key is kept by the in-memory store instead of the OS keychain. `npm test` runs a real gnome-keyring; or run under `dbus-run-session` with an unlocked gnome-keyring-daemon and ODDSDESK_KEYRING=1.';

/** A keychain service of this test file's own. */
export function testKeychainService(): string {
  return `oddsdesk-contract-${process.pid}-${Date.now()}`;
}

/**
 * The store a host gets: the real keychain (keytar's store, `real`, under `service`) where there is one, else memory.
 * `real` is passed in, so a test that mocks src/core/secrets/keytar.ts can hand over the module's own.
 */
export function keychainForTests(service: string, real: (o: KeytarStoreOptions) => SecretStore): SecretStore {
  return KEYRING ? real({ service }) : createMemorySecretStore();
}
