// The host kit's rules, one by one: where the key is taken from (and that it leaves the environment), that the
// scrubber learns it however it was read, the log's levels, and one shutdown with one deadline.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../secrets/memory';
import { API_KEY_ENV, createHostKit, stderrSink } from './kit';

const KEY = 'Kx9-host-kit-key-0001';
const dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-kit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function kitWithLines(
  options: {
    level?: 'debug' | 'info' | 'warn' | 'error';
    deadlineMs?: number;
    setTimer?: (fn: () => void, ms: number) => unknown;
  } = {},
) {
  const lines: string[] = [];
  const kit = createHostKit({ sink: (level, line) => lines.push(`${level} ${line}`), ...options });
  return { kit, lines };
}

describe('key intake', () => {
  it('takes ODDSDESK_API_KEY once, removes it from the environment, and the scrubber knows it from then on', () => {
    const { kit, lines } = kitWithLines();
    const env: NodeJS.ProcessEnv = { [API_KEY_ENV]: KEY, OTHER: 'x' };
    expect(kit.takeKey({ env })).toEqual({ ok: true, key: KEY, from: 'environment' });
    expect(env).toEqual({ OTHER: 'x' });
    kit.log('warn', `the service answered: unknown key ${KEY}`);
    expect(lines).toEqual(['warn the service answered: unknown key [redacted]']);
  });

  it("a key file wins over the environment (which is still cleared); one trailing line break is the editor's", () => {
    const file = path.join(dir, 'key.txt');
    writeFileSync(file, `${KEY}\n`, { mode: 0o600 });
    const { kit, lines } = kitWithLines();
    const env: NodeJS.ProcessEnv = { [API_KEY_ENV]: 'env-key-not-this-one' };
    expect(kit.takeKey({ env, file })).toEqual({ ok: true, key: KEY, from: 'file' });
    expect(env[API_KEY_ENV]).toBeUndefined();
    expect(lines).toEqual([]);
  });

  it('`-` reads standard input', () => {
    const { kit } = kitWithLines();
    expect(kit.takeKey({ env: {}, file: '-', readStdin: () => `${KEY}\r\n` })).toEqual({
      ok: true,
      key: KEY,
      from: 'stdin',
    });
  });

  it('a key file other accounts can read is used, with a warning to chmod it', () => {
    const file = path.join(dir, 'open-key.txt');
    writeFileSync(file, KEY);
    chmodSync(file, 0o644);
    const { kit, lines } = kitWithLines();
    expect(kit.takeKey({ env: {}, file })).toMatchObject({ ok: true, key: KEY });
    expect(lines.join('\n')).toMatch(/can be read by other accounts.*chmod 600/);
  });

  it('a bad key is refused with the rule and never echoed; a missing file says so', () => {
    const { kit } = kitWithLines();
    const bad = kit.takeKey({ env: { [API_KEY_ENV]: `${KEY}\r\nX-Injected: 1` } });
    expect(bad.ok).toBe(false);
    const message = bad.ok ? '' : bad.message;
    expect(message).toMatch(/ODDSDESK_API_KEY is not a usable key\. The API key may contain only printable ASCII/);
    expect(message).not.toContain('Kx9');
    const missing = kit.takeKey({ env: {}, file: path.join(dir, 'nope.txt') });
    expect(missing).toEqual({ ok: false, message: expect.stringMatching(/nope\.txt could not be read \(ENOENT\)/) });
  });

  it('no key anywhere is not an error: the host decides (demo, keychain, or a usage message)', () => {
    expect(kitWithLines().kit.takeKey({ env: {} })).toEqual({ ok: true, key: null });
  });
});

describe('the keychain through the kit', () => {
  it('after a restart the key read back from the keychain is scrubbed from every line', async () => {
    const keychain = createMemorySecretStore();
    // First run: the trader enters the key; it is stored.
    await createHostKit({ sink: () => undefined })
      .secrets(keychain)
      .set('https://odds.example', KEY);
    // Second run: a fresh kit knows nothing until the session reads the key back.
    const { kit, lines } = kitWithLines();
    kit.log('warn', `before: ${KEY}`);
    expect(await kit.secrets(keychain).get('https://odds.example')).toBe(KEY);
    kit.log('warn', `after: ${KEY}`);
    expect(lines).toEqual([`warn before: ${KEY}`, 'warn after: [redacted]']);
  });
});

describe('the log', () => {
  it('drops lines below the level and survives a sink that throws', () => {
    const { kit, lines } = kitWithLines({ level: 'warn' });
    kit.log('info', 'progress');
    kit.log('debug', 'detail');
    kit.log('error', 'broken');
    expect(lines).toEqual(['error broken']);
    const throwing = createHostKit({
      sink: () => {
        throw new Error('EPIPE');
      },
    });
    expect(() => throwing.log('error', 'x')).not.toThrow();
  });

  it('stderr lines carry the time and the level (none for info)', () => {
    const out: string[] = [];
    const sink = stderrSink(
      (t) => out.push(t),
      () => Date.UTC(2026, 10, 23, 21, 5, 9),
    );
    sink('info', 'recording');
    sink('warn', 'stream 7: silent');
    expect(out).toEqual(['21:05:09 recording\n', '21:05:09 warn: stream 7: silent\n']);
  });
});

describe('shutdown', () => {
  it('closes every part in order, once, however often it is asked', async () => {
    const { kit } = kitWithLines();
    const order: string[] = [];
    kit.onShutdown('bridge', () => void order.push('bridge'));
    kit.onShutdown('core', async () => void order.push('core'));
    const [a, b] = await Promise.all([kit.shutdown('SIGINT'), kit.shutdown('SIGTERM')]);
    expect([a, b]).toEqual(['closed', 'closed']);
    expect(order).toEqual(['bridge', 'core']);
  });

  it('one deadline for all parts: a stuck part ends the wait at the deadline, a failing one is logged and the rest still close', async () => {
    let fire: () => void = () => undefined;
    const { kit, lines } = kitWithLines({ deadlineMs: 5000, setTimer: (fn) => (fire = fn) });
    const closed: string[] = [];
    kit.onShutdown('bridge', () => {
      throw new Error('port busy');
    });
    kit.onShutdown('core', () => void closed.push('core'));
    kit.onShutdown('stuck', () => new Promise<void>(() => undefined));
    const outcome = kit.shutdown('quit');
    await new Promise((r) => setTimeout(r, 0));
    expect(closed).toEqual(['core']);
    fire();
    expect(await outcome).toBe('timeout');
    expect(lines.join('\n')).toMatch(/bridge did not close cleanly: port busy[\s\S]*did not finish within 5 s/);
  });

  it('a failing part makes the outcome "failed" once the others are closed', async () => {
    const { kit } = kitWithLines();
    kit.onShutdown('bridge', () => Promise.reject(new Error('x')));
    expect(await kit.shutdown('quit')).toBe('failed');
  });
});
