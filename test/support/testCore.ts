// A core for tests on real parts (a profile folder, the simulator): the memory keychain unless one is given, no log,
// no notifications, the test's clock, and the simulator's real-time pings kept out of a manual clock's way (the
// stream watchdog would otherwise see silence while the clock runs ahead). With a caller of its handlers, typed by
// the contract.
import { createCore, type Core, type CoreDeps } from '../../src/core/core';
import type { Clock } from '../../src/core/clock';
import { createMemorySecretStore } from '../../src/core/secrets/memory';
import type { SecretStore } from '../../src/core/secrets/types';
import type { Channel, RequestArgs, ResponseMap } from '../../src/shared/ipc/contract';

export type CoreCall = <C extends Channel>(channel: C, ...args: RequestArgs<C>) => Promise<ResponseMap[C]>;

/** The core's handlers as the contract types them (the handlers throw; the contract's dispatch makes that an {ok: false}). */
export const coreCaller =
  (c: Core): CoreCall =>
  async (channel, ...args) =>
    (c.handlers[channel] as (...a: unknown[]) => never)(...args);

/** A service at this address with this key: the real service's profile (`service`), or the demo's (`demo`). */
export interface TestCoreOptions {
  dataDir: string;
  clock: Clock;
  service?: { baseUrl: string; key: string };
  demo?: { baseUrl: string; key: string };
  secrets?: SecretStore;
}

export function testCoreDeps(o: TestCoreOptions): CoreDeps {
  const { demo } = o;
  return {
    host: 'browser',
    version: 'test',
    dataDir: o.dataDir,
    secrets: o.secrets ?? createMemorySecretStore(),
    logger: () => undefined,
    notifier: { notify: () => undefined },
    clock: o.clock,
    pingIntervalMs: 3_600_000,
    ...(o.service ? { envService: o.service } : {}),
    ...(demo ? { startDemo: async () => ({ ...demo, close: async () => undefined }) } : {}),
  };
}

/** Opens a core and waits until it is ready. */
export async function openTestCore(o: TestCoreOptions): Promise<{ core: Core; call: CoreCall }> {
  const core = await createCore(testCoreDeps(o));
  await core.ready;
  return { core, call: coreCaller(core) };
}
