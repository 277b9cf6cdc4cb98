// The log scrubber: feed it a key in every shape a careless line could carry it, and through the real electron-log
// file transport the app uses, and the key must never be in what is written.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NodeLogger } from 'electron-log';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { configureLog } from '../../src/main/log';
import { createScrubber, REDACTED, scrubText } from '../../src/core/log/scrub';

const KEY = 'sk_live_9f8A7b6C5d4E3f2G1h0JkLmN';
const tmp = mkdtempSync(path.join(tmpdir(), 'oddsdesk-log-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Lines that carry the key the ways a log line could, with no prior knowledge of it. */
const SHAPES = (k: string): unknown[] => [
  `GET https://odds.example/api/fixtures?key=${k}&sport=1`,
  `http://127.0.0.1:5185/#token=${encodeURIComponent(k)}`,
  `X-API-Key: ${k}`,
  `request headers {"X-API-Key":"${k}","Accept":"application/json"}`,
  `{'x-api-key': '${k}'}`,
  `Authorization: Bearer ${k}`,
  `proxy http://trader:${k}@proxy.corp:3128 refused`,
  { headers: { 'X-API-Key': k, accept: 'application/json' } },
  { apiKey: k, nested: { token: k, list: [{ password: k }] } },
  new Headers({ 'x-api-key': k }),
  new Error(`upstream said: invalid key ${k}?key=${k}`, { cause: { key: k } }),
];

describe('log scrubber', () => {
  it('redacts a key it has never been told about, in every shape a line could carry it', () => {
    const s = createScrubber();
    for (const shape of SHAPES(KEY)) {
      const out = JSON.stringify(s.value(shape));
      expect(out, JSON.stringify(String(shape))).not.toContain(KEY);
      expect(out).not.toContain(encodeURIComponent(KEY));
    }
  });

  it('redacts a key it was told about wherever it stands, even in free text', () => {
    const s = createScrubber();
    s.addSecret(KEY);
    expect(s.text(`the service rejected ${KEY} (regenerate it)`)).toBe(
      `the service rejected ${REDACTED} (regenerate it)`,
    );
    expect(s.text(`wrapped:${KEY}:${KEY}`)).toBe(`wrapped:${REDACTED}:${REDACTED}`);
  });

  it('never lets any told secret through, whatever surrounds it (property)', () => {
    const secret = fc.string({ minLength: 8, maxLength: 40 }).filter((x) => x.trim() === x && x.trim().length >= 8);
    fc.assert(
      fc.property(secret, fc.string(), fc.string(), (k, before, after) => {
        const s = createScrubber([k]);
        expect(s.text(before + k + after)).not.toContain(k);
      }),
      { numRuns: 300 },
    );
  });

  it('leaves ordinary lines alone', () => {
    const line = 'stream 123 live · quota 42/1000 · settled walk added 7 (monkey: ok)';
    expect(scrubText(line)).toBe(line);
  });

  it('writes no key to the log file, through the real electron-log file transport', () => {
    const electronLog = createRequire(import.meta.url)('electron-log/node') as NodeLogger;
    const logger = electronLog.create({ logId: 'scrub-test' }) as NodeLogger;
    logger.transports.console.level = false;
    const scrubber = createScrubber();
    const log = configureLog(logger, { dir: path.join(tmp, 'logs'), scrubber, maxBytes: 4096 });
    // One the scrubber learns as the trader enters it (main sees settings:setApiKey pass by), and one it never hears of.
    const told = 'told-key-0123456789abcdef';
    scrubber.addSecret(told);
    for (let i = 0; i < 40; i++) {
      for (const shape of [...SHAPES(KEY), ...SHAPES(told)]) logger.info('line', i, shape);
      logger.warn(`key rejected: ${told}`);
      logger.error(new Error(`fetch failed for ${told}`));
    }
    const files = readdirSync(path.dirname(log.file));
    // It rotated (4 KB here, 2 MB in the app) and kept the old file beside the current one.
    expect(files.sort()).toEqual(['main.log', 'main.old.log']);
    for (const f of files) {
      const text = readFileSync(path.join(path.dirname(log.file), f), 'utf8');
      expect(text.length).toBeGreaterThan(100);
      expect(text).toContain(REDACTED);
      for (const k of [KEY, told]) {
        expect(text).not.toContain(k);
        expect(text).not.toContain(encodeURIComponent(k));
      }
    }
    expect(log.recentLines(5)).toHaveLength(5);
  });
});
