// Issue 36, item 7: the key scrubber matches the key in any case, and every CLI host (record, web) has a last-resort
// handler that logs a crash through it: a child process running the CLI bundle throws an error carrying the key
// (in another case, too) after start-up, and its stderr says what happened without the key.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scrub } from '../../src/core/api/errors';
import { createScrubber, scrubText } from '../../src/core/log/scrub';
import { cliCommand, root } from '../monitor/cliHarness';

const KEY = 'Crash-Scrub-Key-9f8e7d6c';

describe('the key scrubber', () => {
  it('redacts the key whatever its case', () => {
    const text = `as typed ${KEY}, lower ${KEY.toLowerCase()}, upper ${KEY.toUpperCase()}`;
    for (const out of [scrubText(text, [KEY]), createScrubber([KEY]).text(text), scrub(text, [KEY])]) {
      expect(out.toLowerCase()).not.toContain(KEY.toLowerCase());
      expect(out).toMatch(/as typed \[redacted( key)?\], lower \[redacted( key)?\], upper \[redacted( key)?\]/);
    }
  });
});

/** Runs the CLI bundle with a preloaded module that throws (or rejects) with the key in its message once it runs. */
function crashingCli(args: string[], how: 'throw' | 'reject') {
  const [node, bundle, ...rest] = cliCommand(args);
  // It crashes once the host has put its handler in (not after a fixed wait, which a loaded machine can outrun).
  const event = how === 'throw' ? 'uncaughtException' : 'unhandledRejection';
  const crash = `const t = setInterval(() => { if (process.listenerCount('${event}') === 0) return; clearInterval(t); ${how === 'throw' ? 'throw' : 'void Promise.reject('} new Error('upstream said: key ${KEY} is bad (${KEY.toUpperCase()})')${how === 'throw' ? '' : ')'}; }, 20);`;
  const child = spawn(node!, ['--import', `data:text/javascript,${encodeURIComponent(crash)}`, bundle!, ...rest], {
    cwd: root,
    env: {
      ...process.env,
      ODDSDESK_API_KEY: KEY,
      ODDSDESK_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'oddsdesk-crash-')),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  child.stdout.resume();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return exited.then((code) => {
    clearTimeout(timer);
    return { code, err };
  });
}

describe('the CLI hosts log a crash through the scrubber', () => {
  it('record: an uncaught exception', async () => {
    const db = path.join(mkdtempSync(path.join(tmpdir(), 'oddsdesk-crash-db-')), 'r.db');
    const { code, err } = await crashingCli(
      ['record', '--base-url', 'http://127.0.0.1:9', '--db', db, '--duration', '30'],
      'throw',
    );
    expect(err).toMatch(/Uncaught exception: Error: upstream said: key \[redacted\] is bad \(\[redacted\]\)/);
    expect(err.toLowerCase()).not.toContain(KEY.toLowerCase());
    expect(code).toBe(1);
  }, 30_000);

  it('web: an unhandled rejection', async () => {
    const { code, err } = await crashingCli(['web', '--port', '0', '--base-url', 'http://127.0.0.1:9'], 'reject');
    expect(err).toMatch(/Unhandled promise rejection: Error: upstream said: key \[redacted\] is bad/);
    expect(err.toLowerCase()).not.toContain(KEY.toLowerCase());
    expect(code).toBe(1);
  }, 30_000);
});
