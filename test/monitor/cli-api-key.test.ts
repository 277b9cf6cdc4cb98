// How the CLI takes the key (the host kit's key intake, src/core/host/kit.ts): ODDSDESK_API_KEY, or a key file
// (`--api-key-file FILE`, `-` for standard input) that leaves nothing in the process environment. Either way the key
// is held to the key rule (src/shared/apiKey.ts) before anything runs, and a refusal gives the rule, never the key.
// The --db file of `record` follows the one profile policy: another service's history is refused, as in the app.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claimProfile } from '../../src/core/profiles';
import { openStore } from '../../src/core/store';
import { startSimulator } from '../../src/sim';
import { runCli } from './cliHarness';

const SECRET = 'Zq7Xsecret-key-0001';
const dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-cli-key-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('cli key intake', () => {
  it('record and web refuse a key with a line break, a space or a non-ASCII character, without echoing it', async () => {
    const keyFile = path.join(dir, 'bad-key');
    writeFileSync(keyFile, `${SECRET} tail\n`, { mode: 0o600 });
    const runs = [`${SECRET}\r\nX: 1`, `${SECRET} tail`, `${SECRET}é`].flatMap((key) => [
      runCli(['record', '--base-url', 'http://127.0.0.2:9', '--duration', '1', '--db', ':memory:'], {
        ODDSDESK_API_KEY: key,
      }),
      runCli(['web', '--port', '0', '--base-url', 'http://127.0.0.2:9'], {
        ODDSDESK_API_KEY: key,
        ODDSDESK_DATA_DIR: '/nonexistent/oddsdesk-test',
      }),
    ]);
    for (const run of runs) {
      expect(await run.exited).toBe(2);
      expect(run.stderr()).toMatch(
        /ODDSDESK_API_KEY is not a usable key\. The API key may contain only printable ASCII characters/,
      );
      expect(run.stderr()).not.toContain('Zq7X');
      expect(run.stdout()).toBe('');
    }
    const fromFile = runCli([
      'record',
      '--base-url',
      'http://127.0.0.2:9',
      '--duration',
      '1',
      '--db',
      ':memory:',
      '--api-key-file',
      keyFile,
    ]);
    expect(await fromFile.exited).toBe(2);
    expect(fromFile.stderr()).toMatch(/The key from .*bad-key is not a usable key/);
    expect(fromFile.stderr()).not.toContain('Zq7X');
  }, 60_000);

  it('record takes the key from a file or from standard input, with nothing in its environment', async () => {
    const sim = await startSimulator({
      port: 0,
      seed: 3,
      clock: 'real',
      speed: 60,
      keys: [{ key: SECRET, plan: 'enterprise' }],
      events: 10,
    });
    try {
      const keyFile = path.join(dir, 'key');
      writeFileSync(keyFile, `${SECRET}\n`, { mode: 0o600 });
      const common = ['record', '--base-url', sim.url, '--duration', '2', '--settled-every', '600'];
      const runs = [
        runCli([...common, '--db', path.join(dir, 'file.db'), '--api-key-file', keyFile], { ODDSDESK_API_KEY: '' }),
        runCli(
          [...common, '--db', path.join(dir, 'stdin.db'), '--api-key-file', '-'],
          { ODDSDESK_API_KEY: '' },
          `${SECRET}\n`,
        ),
      ];
      for (const run of runs) {
        expect(await run.exited, run.stderr()).toBe(0);
        // The last line accounts every request: the key was accepted (no 401 would let the walk run).
        const last = run.lines().at(-1)!;
        expect(last['type']).toBe('requests');
        expect((last as { by_purpose?: Record<string, number> }).by_purpose?.['settled'] ?? 0).toBeGreaterThan(0);
        expect(run.stderr()).not.toMatch(/(?<!\d)401(?!\d)|rejected/i);
        expect(run.stderr() + run.stdout()).not.toContain(SECRET);
      }
    } finally {
      await sim.close();
    }
  }, 60_000);

  it("record refuses a --db file that holds another service's history, as the app does", async () => {
    const db = path.join(dir, 'other.db');
    const store = openStore({ path: db });
    expect(claimProfile(store, { kind: 'service', baseUrl: 'https://other.example' }).ok).toBe(true);
    store.close();
    const run = runCli(['record', '--base-url', 'http://127.0.0.2:9', '--duration', '1', '--db', db], {
      ODDSDESK_API_KEY: SECRET,
    });
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toMatch(
      /other\.db holds the history of https:\/\/other\.example; it is not opened for http:\/\/127\.0\.0\.2:9/,
    );
    expect(run.stdout()).toBe('');
  }, 30_000);
});
