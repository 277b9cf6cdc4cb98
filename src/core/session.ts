// The session: which profile is open and which engine runs on it. Connects are serialised (a second request while
// one runs makes exactly one more pass, with the settings as they are then), and a replaced engine is stopped in
// full (requests aborted, streams closed, timers cleared, writes flushed) before its store closes and the next one
// opens. A stored key that cannot be read is an error with a retry, never a silent switch to demo.
import { errorMessage, type AppError } from '../shared/errors';
import type { Clock } from './clock';
import type { Engine } from './engine';
import { watchOnFirstRun } from './firstRun';
import { DEMO_PROFILE, openProfileStore, profileIdentity, type Profile, type ProfileLocator } from './profiles';
import type { SecretStore } from './secrets/types';
import type { Store } from './store';

export interface DemoService {
  baseUrl: string;
  key: string;
  close(): Promise<void>;
}

export interface Connection {
  profile: Profile | null;
  /** The open profile's history; an in-memory store when no profile is open. */
  store: Store;
  /** Null while the key cannot be read, or when nothing is configured. */
  engine: Engine | null;
  demo: boolean;
  /** Why there is no engine (keychain, a profile file that belongs elsewhere, a failed start). */
  problem: AppError | null;
}

export interface SessionDeps {
  clock: Clock;
  secrets: SecretStore;
  profiles: ProfileLocator;
  openStore(path: string): Store;
  /** The configured service, read at connect time. */
  targetBaseUrl(): string | null;
  /** A service and key given by the environment; the key stays in memory only. */
  envService?: { baseUrl: string; key: string };
  /** `idsAbove`: the highest event id the demo profile remembers; the demo world numbers its events above it. */
  startDemo?: (options: { idsAbove: number }) => Promise<DemoService>;
  createEngine(args: { baseUrl: string; key: string; store: Store }): Engine;
  /** Told after every switch, before the new engine starts. */
  onConnection(connection: Connection): void;
}

export interface Session {
  current(): Connection;
  /** Re-reads settings and keychain and switches if anything changed; resolves once the final state is in place. */
  reconnect(): Promise<void>;
  close(): Promise<void>;
}

type Target =
  | { kind: 'service'; profile: Profile; baseUrl: string; key: string }
  | { kind: 'demo' }
  | { kind: 'keychain_error'; profile: Profile; message: string }
  | { kind: 'none' };

/** The key of a target, for deciding whether anything changed; never leaves this module. */
const fingerprint = (t: Target): string =>
  t.kind === 'service'
    ? `service\n${t.baseUrl}\n${t.key}`
    : t.kind === 'keychain_error'
      ? `keychain\n${profileIdentity(t.profile)}`
      : t.kind;

/** What the settings and the keychain say to connect to now. */
async function resolveTarget(deps: SessionDeps): Promise<Target> {
  const baseUrl = deps.targetBaseUrl();
  if (baseUrl) {
    const profile: Profile = { kind: 'service', baseUrl };
    if (deps.envService && deps.envService.baseUrl === baseUrl)
      return { kind: 'service', profile, baseUrl, key: deps.envService.key };
    let key: string | null;
    try {
      const a = await deps.secrets.availability();
      if (!a.available)
        return { kind: 'keychain_error', profile, message: `The key for ${baseUrl} cannot be read: ${a.message}` };
      key = await deps.secrets.get(baseUrl);
    } catch (e) {
      return {
        kind: 'keychain_error',
        profile,
        message: `The key for ${baseUrl} cannot be read from the keychain (${errorMessage(e)}). Unlock it and retry.`,
      };
    }
    if (key) return { kind: 'service', profile, baseUrl, key };
  }
  return deps.startDemo ? { kind: 'demo' } : { kind: 'none' };
}

/** Opens the profile's history by the one policy (./profiles.ts); an in-memory store, and why, when it cannot. */
function openProfile(deps: SessionDeps, profile: Profile): { store: Store; problem: AppError | null } {
  const opened = openProfileStore(profile, deps.profiles.candidates(profile), deps.openStore);
  if (opened.ok) return { store: opened.store, problem: null };
  return {
    store: deps.openStore(':memory:'),
    problem: {
      kind: 'internal',
      message: `No history file could be opened for ${profileIdentity(profile)}: ${opened.problems.join('; ')}. Nothing is recorded this session.`,
    },
  };
}

export function createSession(deps: SessionDeps): Session {
  let connection: Connection = {
    profile: null,
    store: deps.openStore(':memory:'),
    engine: null,
    demo: false,
    problem: null,
  };
  let demoService: DemoService | null = null;
  let currentFingerprint = 'none';
  let pass: Promise<void> | null = null;
  let dirty = false;
  let closed = false;

  async function teardown(): Promise<void> {
    const old = connection;
    await old.engine?.stop();
    const demo = demoService;
    demoService = null;
    await demo?.close();
    old.store.close();
  }

  async function switchTo(target: Target): Promise<void> {
    const fp = fingerprint(target);
    if (fp === currentFingerprint && connection.engine !== null) return;
    await teardown();
    // Nothing half-open is ever current: until the next connection stands, handlers see an empty in-memory store.
    connection = { profile: null, store: deps.openStore(':memory:'), engine: null, demo: false, problem: null };
    currentFingerprint = fp;
    let next: Connection;
    try {
      next = await build(target);
    } catch (e) {
      currentFingerprint = 'failed';
      next = {
        ...connection,
        problem: { kind: 'internal', message: `Could not connect: ${errorMessage(e)}` },
      };
    }
    if (next.store !== connection.store) connection.store.close();
    connection = next;
    // The host follows the new engine before it starts, so not even its first walk's settlements go unheard.
    deps.onConnection(next);
    if (next.engine) {
      try {
        await next.engine.start();
      } catch (e) {
        next.problem = { kind: 'internal', message: errorMessage(e) };
      }
    }
  }

  async function build(target: Target): Promise<Connection> {
    switch (target.kind) {
      case 'none':
        return connection;
      case 'keychain_error': {
        // The service's own history stays reviewable while its key cannot be read.
        const { store, problem } = openProfile(deps, target.profile);
        return {
          profile: target.profile,
          store,
          engine: null,
          demo: false,
          problem: problem ?? { kind: 'keychain', message: target.message },
        };
      }
      case 'demo': {
        // The profile first: its store remembers every id it has seen (watches, snoozes, bets), and a restarted demo
        // world numbers its events above them, so no remembered id ever names another match (issue 34).
        const { store, problem } = openProfile(deps, DEMO_PROFILE);
        let demo: DemoService;
        try {
          demo = await deps.startDemo!({ idsAbove: problem ? 0 : store.watchlist.maxEventId() });
        } catch (e) {
          store.close();
          throw e;
        }
        demoService = demo;
        const engine = deps.createEngine({ baseUrl: demo.baseUrl, key: demo.key, store });
        // A new demo profile watches a few matches, so the first screen moves. Through the monitor's watch, like
        // every watch, and before the host follows the engine: its first watchlist push and the engine's first
        // streams include them.
        if (!problem) {
          try {
            await watchOnFirstRun(
              store,
              { client: engine.client, watch: (id) => engine.monitor.watch(id) },
              deps.clock.now(),
            );
          } catch {
            // An empty first screen is no reason to refuse the demo.
          }
        }
        return { profile: DEMO_PROFILE, store, engine, demo: true, problem };
      }
      case 'service': {
        const { store, problem } = openProfile(deps, target.profile);
        return {
          profile: target.profile,
          store,
          engine: deps.createEngine({ baseUrl: target.baseUrl, key: target.key, store }),
          demo: false,
          problem,
        };
      }
    }
  }

  function reconnect(): Promise<void> {
    if (closed) return Promise.resolve();
    dirty = true;
    pass ??= (async () => {
      try {
        while (dirty && !closed) {
          dirty = false;
          await switchTo(await resolveTarget(deps));
        }
      } finally {
        pass = null;
      }
    })();
    return pass;
  }

  return {
    current: () => connection,
    reconnect,
    async close() {
      closed = true;
      await pass?.catch(() => undefined);
      await teardown();
    },
  };
}
