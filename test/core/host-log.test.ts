// Every engine gets the host kit's logger: a stream warning reaches the host's log, and after a restart (the key
// read back from the keychain, never typed in this run) the kit's scrubber knows the key, so no line carries it.
// The keychain is the real one under `npm test` (gnome-keyring), an in-memory one elsewhere: the learning happens
// in the kit's wrapper either way.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core/core';
import { createHostKit } from '../../src/core/host/kit';
import { createKeytarSecretStore } from '../../src/core/secrets/keytar';
import { createMemorySecretStore } from '../../src/core/secrets/memory';
import type { Channel, RequestArgs, ResponseMap } from '../../src/shared/ipc/contract';
import { startSimulator, type Simulator } from '../../src/sim';
import { createManualClock } from '../support/manualClock';

const KEY = 'hostlog-Zt4q-enterprise-key';
const PING_MS = 60_000;
const keychain = process.env['ODDSDESK_KEYRING'] === '1' ? createKeytarSecretStore() : createMemorySecretStore();

let sim: Simulator | null = null;
const cores: Core[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const c of cores.splice(0)) await c.close();
  if (sim) await keychain.delete(sim.url).catch(() => false);
  await sim?.close();
  sim = null;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function caller(c: Core) {
  return async <C extends Channel>(channel: C, ...args: RequestArgs<C>): Promise<ResponseMap[C]> =>
    (c.handlers[channel] as (...a: unknown[]) => ResponseMap[C] | Promise<ResponseMap[C]>)(...args);
}

describe('the host log', () => {
  it('a stream warning reaches the host log, and after a restart the key read from the keychain is scrubbed from it', async () => {
    sim = await startSimulator({
      port: 0,
      seed: 21,
      clock: 'manual',
      keys: [{ key: KEY, plan: 'enterprise' }],
      events: 20,
    });
    const clock = createManualClock(sim.now());
    const dataDir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-hostlog-'));
    dirs.push(dataDir);
    const start = async (lines: string[]) => {
      const kit = createHostKit({ sink: (level, line) => lines.push(`${level} ${line}`) });
      const core = await createCore({
        host: 'browser',
        version: 'test',
        dataDir,
        secrets: kit.secrets(keychain),
        logger: kit.log,
        clock,
        pingIntervalMs: PING_MS,
        initialSettings: { baseUrl: sim!.url },
      });
      cores.push(core);
      await core.ready;
      return { kit, core, call: caller(core) };
    };

    // First run: the trader enters the key in Settings; it goes to the keychain.
    const firstLines: string[] = [];
    const first = await start(firstLines);
    expect((await first.call('settings:setApiKey', KEY)).hasKey).toBe(true);
    await first.core.close();
    cores.splice(0);

    // Restart: a new kit whose scrubber has never seen the key; the session reads it from the keychain.
    const lines: string[] = [];
    const second = await start(lines);
    expect((await second.call('app:info')).demo).toBe(false);
    const eventId = sim.truth.bookIds()[0]!;
    await second.call('watch:add', eventId);
    for (
      let i = 0;
      i < 50 && !(await second.call('status:get')).streams.some((s) => s.eventId === eventId && s.state === 'live');
      i++
    ) {
      await clock.advance(100);
    }
    expect((await second.call('status:get')).streams.find((s) => s.eventId === eventId)?.state).toBe('live');

    // The service goes quiet for two ping intervals (the simulator's clock stands still): the stream client's
    // watchdog warns, and the warning is in the host's log.
    await clock.advance(2 * PING_MS + 1000);
    expect(
      lines.some(
        (l) => l.startsWith('warn ') && l.includes(`stream ${eventId}: silent for ${2 * PING_MS} ms, reconnecting`),
      ),
    ).toBe(true);

    // Whatever a line carries (an upstream echoing the key into an error, say), the key never reaches the log.
    second.kit.log('error', `the service said: key ${KEY} is throttled`);
    expect(lines.at(-1)).toBe('error the service said: key [redacted] is throttled');
    for (const line of [...firstLines, ...lines]) expect(line).not.toContain(KEY);
  }, 60_000);
});
