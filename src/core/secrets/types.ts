// Where the API key lives: the OS keychain on a desktop, injected by the host. The core asks for the key only when
// it is about to send a request; it never stores it, logs it or passes it on.

export type KeychainAvailability = { available: true } | { available: false; message: string };

export interface SecretStore {
  /** Whether a usable keychain exists; when not, the message says what the trader can do. */
  availability(): Promise<KeychainAvailability>;
  /** The key stored for `account` (the base URL), or null. */
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  /** True when something was removed. */
  delete(account: string): Promise<boolean>;
  /**
   * Removes every key Oddsdesk stored, for every service it was ever used with (every account under the keychain
   * service), and says how many were removed. Other applications' entries are never touched.
   */
  deleteAll(): Promise<number>;
}

/** Keychain service name under which every key is stored; the account is the base URL. */
export const KEYCHAIN_SERVICE = 'oddsdesk';
