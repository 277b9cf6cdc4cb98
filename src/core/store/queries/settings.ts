// The key-value settings (JSON values by name), kept in memory once read, and the rule that keeps credentials out.
import type Database from 'better-sqlite3';
import { looksLikeSecretName } from './sqlFunctions';

export interface SettingsStore {
  getSetting<T = unknown>(name: string): T | undefined;
  /** Refuses a name that looks like a key, secret or token: the API key lives in the OS keychain, never here. */
  setSetting(name: string, value: unknown): void;
  deleteSetting(name: string): void;
  listSettings(): Record<string, unknown>;
}

export class SecretSettingError extends Error {
  constructor(name: string) {
    super(`Setting "${name}" looks like a credential; the store never holds keys, secrets or tokens.`);
    this.name = 'SecretSettingError';
  }
}

export function createSettings(db: Database.Database, clock: () => number): SettingsStore {
  const getSetting = db.prepare<[string], string>(`SELECT value FROM settings WHERE name = ?`).pluck();
  const setSetting = db.prepare<[string, string, number]>(`
    INSERT INTO settings (name, value, updated_at) VALUES (?, ?, ?)
    ON CONFLICT(name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`);
  const deleteSetting = db.prepare<[string]>(`DELETE FROM settings WHERE name = ?`);
  const allSettings = db.prepare<[], { name: string; value: string }>(`SELECT name, value FROM settings ORDER BY name`);
  /**
   * Settings as last read (raw JSON text; null = not set): the price rules read an event's overrides on every odds
   * batch, and a query per read was 2% of the host's CPU at 2,000 updates/s. This connection is the only writer of
   * the table; a write forgets the name, so the next read goes to the database.
   */
  const settingsRead = new Map<string, string | null>();

  return {
    getSetting<T>(name: string) {
      let v = settingsRead.get(name);
      if (v === undefined) {
        v = getSetting.get(name) ?? null;
        // Only committed values are kept: a value read inside a transaction may yet be rolled back.
        if (!db.inTransaction) settingsRead.set(name, v);
      }
      return v === null ? undefined : (JSON.parse(v) as T);
    },
    setSetting(name, value) {
      if (looksLikeSecretName(name)) throw new SecretSettingError(name);
      if (value === undefined) throw new Error(`setting "${name}": value is undefined (use deleteSetting)`);
      settingsRead.delete(name);
      setSetting.run(name, JSON.stringify(value), clock());
    },
    deleteSetting: (name) => {
      settingsRead.delete(name);
      deleteSetting.run(name);
    },
    listSettings() {
      const out: Record<string, unknown> = {};
      for (const r of allSettings.all()) out[r.name] = JSON.parse(r.value);
      return out;
    },
  };
}
