// Shared setup of the client tests: a simulator on a manual clock with short pings and a short `retry:` (the stream
// client honours it as a floor of every reconnect), and clients with short backoffs so the whole suite stays fast.
import { createApiClient, type ApiClient } from '../../src/core/api';
import { startSimulator } from '../../src/sim';

export const ENT = 'test-enterprise-key-0001';
export const STARTER = 'test-starter-key-0002';
export const PING_MS = 250;

export type Sim = Awaited<ReturnType<typeof startSimulator>>;

export async function startTestSim(extra: Partial<Parameters<typeof startSimulator>[0]> = {}): Promise<Sim> {
  return startSimulator({
    port: 0,
    seed: 42,
    clock: 'manual',
    events: 24,
    keys: [
      { key: ENT, plan: 'enterprise' },
      { key: STARTER, plan: 'starter' },
    ],
    pingIntervalMs: PING_MS,
    retryMs: 50,
    ...extra,
  });
}

export interface KeyBox {
  key: string | null;
}

export function makeClient(baseUrl: string, box: KeyBox, extra: { maxAttempts?: number } = {}): ApiClient {
  return createApiClient({
    baseUrl,
    keyProvider: () => box.key,
    governor: {
      retry: { maxAttempts: extra.maxAttempts ?? 3, baseMs: 20, maxMs: 100 },
      keyPollMs: 50,
      timeoutMs: 5_000,
    },
  });
}

export const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `check` until it holds or `ms` passes. */
export async function until(check: () => boolean, ms: number, stepMs = 20): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await delay(stepMs);
  }
  return check();
}
