// Issue 12: `--base-url` of record and web is held to checkBaseUrl before anything runs; the CLI exits 2 with a
// message that says why, and never repeats credentials found in the URL. Real child processes (tsx, as npm runs it).
import { describe, expect, it } from 'vitest';
import { runCli } from './cliHarness';

describe('cli --base-url', () => {
  it('record and web refuse http:// to a non-loopback host with exit code 2 and the reason', async () => {
    const record = runCli(['record', '--base-url', 'http://example.com', '--duration', '1'], {
      ODDSDESK_API_KEY: 'cli-test-key-0001',
    });
    const web = runCli(['web', '--port', '0', '--base-url', 'http://example.com']);
    expect(await record.exited).toBe(2);
    expect(await web.exited).toBe(2);
    for (const run of [record, web]) {
      expect(run.stderr()).toMatch(
        /Plain http:\/\/ is refused for example\.com: the API key would cross the network unencrypted/,
      );
      expect(run.stdout()).toBe('');
    }
  }, 60_000);

  it('refuses other schemes and user-info without repeating the password; loopback http passes on to the key check', async () => {
    const ftp = runCli(['record', '--base-url', 'ftp://odds.example']);
    const creds = runCli(['record', '--base-url', 'https://trader:pasted-key-Zq7X@odds.example']);
    const loopback = runCli(['record', '--base-url', 'http://127.0.0.2:9', '--duration', '1'], {
      ODDSDESK_API_KEY: '',
    });
    expect(await ftp.exited).toBe(2);
    expect(ftp.stderr()).toMatch(/must start with https:\/\/ \(not ftp:\)/);
    expect(await creds.exited).toBe(2);
    expect(creds.stderr()).toMatch(/must not contain a user name or password/);
    expect(creds.stderr()).not.toContain('pasted-key-Zq7X');
    // Past the base URL check, record stops at the missing key instead.
    expect(await loopback.exited).toBe(2);
    expect(loopback.stderr()).toMatch(/ODDSDESK_API_KEY/);
    expect(loopback.stderr()).not.toMatch(/refused|https:\/\//);
  }, 60_000);
});
