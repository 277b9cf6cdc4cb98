// SQL functions the store registers on every connection, and the rule that keeps secrets out of settings.
// Both the schema (CHECK, backfill) and the TypeScript side use these, so the rule lives once.
import type Database from 'better-sqlite3';

/** SQLite's lower() folds ASCII only; team search must fold "Ö" too, the same way at write and at query time. */
export const FOLD_TEXT_SQL_FUNCTION = 'oddsdesk_fold';

export function foldText(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

export function registerSqlFunctions(db: Database.Database): void {
  db.function(FOLD_TEXT_SQL_FUNCTION, { deterministic: true }, (s: unknown) =>
    typeof s === 'string' ? foldText(s) : s,
  );
}

/**
 * Setting names that look like a credential. The store never holds the API key (it lives in the OS keychain);
 * refusing these names catches a caller that tries. Deliberately broad: a false refusal costs a rename, a leak
 * costs the account.
 */
export const SECRET_NAME_GLOBS = [
  '*key*',
  '*secret*',
  '*token*',
  '*passw*',
  '*credential*',
  '*bearer*',
  '*auth*',
] as const;

const SECRET_NAME = /key|secret|token|passw|credential|bearer|auth/i;

export function looksLikeSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}
