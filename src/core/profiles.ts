// Profiles: each service (its base URL) keeps its history in its own database, and demo mode is a profile like any
// other, so no row or cursor can leak from one into another by construction. This module says where each profile's
// file lives and stamps every file with the profile it belongs to.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Store } from './store';
import { makePrivate, PRIVATE_DIR_MODE } from './fileModes';
import { errorMessage } from '../shared/errors';

export type Profile = { kind: 'demo' } | { kind: 'service'; baseUrl: string };

export const DEMO_PROFILE: Profile = { kind: 'demo' };

/** The identity written into a profile's database. */
export const profileIdentity = (p: Profile): string => (p.kind === 'demo' ? 'demo' : p.baseUrl);

export const sameProfile = (a: Profile | null, b: Profile | null): boolean =>
  a !== null && b !== null && profileIdentity(a) === profileIdentity(b);

export interface ProfileLocatorOptions {
  /** Where profile files live (`<dataDir>/profiles/`); null keeps every profile in memory (tests, throwaway runs). */
  dataDir: string | null;
  /** A file the trader named for the real service's history (`--db FILE`); demo never writes into it. */
  serviceDb?: string;
  /** Where a warning goes when an existing data or profiles folder could be read by others (it is made private). */
  warn?: (message: string) => void;
}

export interface ProfileLocator {
  /**
   * Where a profile's history may live, best first: the file the trader named for the real service, then the
   * profile's own file. The first one that is empty or already this profile's is used.
   */
  candidates(profile: Profile): string[];
  /** Every place a profile may live, for the README and diagnostics. */
  describe(): string;
}

/** A readable, collision-free file name for a service: host and port, then a short hash of the whole base URL. */
export function serviceFileName(baseUrl: string): string {
  let label = 'service';
  try {
    const u = new URL(baseUrl);
    label = `${u.hostname}${u.port ? `-${u.port}` : ''}`.replace(/[^a-zA-Z0-9.-]+/g, '_').slice(0, 60);
  } catch {
    /* the hash alone still separates it */
  }
  const hash = createHash('sha256').update(baseUrl).digest('hex').slice(0, 12);
  return `service-${label}-${hash}.db`;
}

export function createProfileLocator(options: ProfileLocatorOptions): ProfileLocator {
  const dir = options.dataDir === null ? null : path.join(options.dataDir, 'profiles');
  const warn = options.warn ?? ((message: string) => process.stderr.write(`${message}\n`));
  const inDir = (name: string) => {
    if (dir === null || options.dataDir === null) return ':memory:';
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    // mkdirSync's mode is only for folders it creates: ones that existed (an older version's) keep theirs.
    makePrivate(options.dataDir, warn);
    makePrivate(dir, warn);
    return path.join(dir, name);
  };
  return {
    candidates(profile) {
      if (profile.kind === 'demo') return [inDir('demo.db')];
      const own = inDir(serviceFileName(profile.baseUrl));
      return options.serviceDb ? [options.serviceDb, own] : [own];
    },
    describe: () =>
      dir === null
        ? 'in memory'
        : `${options.serviceDb ? `service: ${options.serviceDb}; ` : ''}${path.join(dir, options.serviceDb ? 'demo.db' : '{demo.db,service-<host>-<port>-<hash>.db}')}`,
  };
}

export const PROFILE_SETTING = 'profile.identity';

/**
 * Stamps a fresh file with its profile, or checks the stamp of an existing one. One policy for every host: a file
 * holds one profile's history only. Demo never takes a service's history nor the reverse, and a file stamped for
 * another service is refused too (recording a second service into it would mix two books' lines, cursors and
 * closes beyond repair).
 */
export function claimProfile(
  store: Pick<Store, 'path' | 'settings'>,
  profile: Profile,
): { ok: true; fresh: boolean } | { ok: false; message: string } {
  const identity = profileIdentity(profile);
  const stamped = store.settings.getSetting<string>(PROFILE_SETTING) ?? null;
  if (stamped === null) {
    store.settings.setSetting(PROFILE_SETTING, identity);
    return { ok: true, fresh: true };
  }
  if (stamped === identity) return { ok: true, fresh: false };
  const holds = stamped === 'demo' ? 'demo data' : `the history of ${stamped}`;
  const wanted = identity === 'demo' ? 'demo mode' : identity;
  return {
    ok: false,
    message: `${store.path} holds ${holds}; it is not opened for ${wanted}. Name another file for it.`,
  };
}

/**
 * Opens the first of `candidates` that is empty or already this profile's (the policy above), or says why none
 * could be: a file that cannot be opened, or one that belongs to another profile.
 */
export function openProfileStore(
  profile: Profile,
  candidates: readonly string[],
  open: (path: string) => Store,
): { ok: true; store: Store } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  for (const file of candidates) {
    let store: Store;
    try {
      store = open(file);
    } catch (e) {
      problems.push(`${file}: ${errorMessage(e)}`);
      continue;
    }
    const claim = claimProfile(store, profile);
    if (claim.ok) return { ok: true, store };
    problems.push(claim.message);
    store.close();
  }
  return { ok: false, problems };
}
