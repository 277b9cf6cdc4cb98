// Security issue: ODDSDESK_API_KEY is held to the key rule (src/shared/apiKey.ts: printable ASCII, no spaces or
// control characters, 8-512 long) before anything runs; record and web exit 2 with the rule, never the key.
import { describe, expect, it } from 'vitest';
import { runCli } from './cliHarness';

const SECRET = 'Zq7Xsecret-key-0001';

describe('cli ODDSDESK_API_KEY', () => {
  it('record and web refuse a key with a line break, a space or a non-ASCII character, without echoing it', async () => {
    const runs = [`${SECRET}\r\nX: 1`, `${SECRET} tail`, `${SECRET}é`].flatMap((key) => [
      runCli(['record', '--base-url', 'http://127.0.0.2:9', '--duration', '1', '--db', ':memory:'], { ODDSDESK_API_KEY: key }),
      runCli(['web', '--port', '0', '--base-url', 'http://127.0.0.2:9'], { ODDSDESK_API_KEY: key, ODDSDESK_DATA_DIR: '/nonexistent/oddsdesk-test' }),
    ]);
    for (const run of runs) {
      expect(await run.exited).toBe(2);
      expect(run.stderr()).toMatch(/ODDSDESK_API_KEY is not a usable key\. The API key may contain only printable ASCII characters/);
      expect(run.stderr()).not.toContain('Zq7X');
      expect(run.stdout()).toBe('');
    }
  }, 60_000);
});
