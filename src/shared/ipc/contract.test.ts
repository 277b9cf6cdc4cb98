// The contract is where an untrusted renderer (or a page on the browser bridge) meets the core: a base URL the key
// must not go to is refused there, before any handler runs, and an accepted one reaches the handler normalised.
import { describe, expect, it } from 'vitest';
import { dispatch, requestSchemas, type CoreHandlers, type SettingsPatch } from './contract';

function settingsHost() {
  const patches: SettingsPatch[] = [];
  const handlers = {
    'settings:update': (patch: SettingsPatch) => {
      patches.push(patch);
      return {};
    },
  } as unknown as CoreHandlers;
  return { patches, update: (patch: unknown) => dispatch(handlers, 'settings:update', [patch]) };
}

describe('settings:update baseUrl', () => {
  it('refuses http:// to a non-loopback host, and other schemes, before the handler runs', async () => {
    const host = settingsHost();
    for (const baseUrl of [
      'http://example.com',
      'http://192.168.1.5:8787',
      'ftp://odds.example',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'https://u:p@odds.example',
      '',
    ]) {
      const r = await host.update({ baseUrl });
      expect(r.ok, baseUrl).toBe(false);
      if (!r.ok) expect(r.error.kind).toBe('validation');
    }
    const r = await host.update({ baseUrl: 'http://example.com' });
    expect(!r.ok && r.error.message).toMatch(/http:\/\/ is refused for example\.com/);
    expect(host.patches).toEqual([]);
  });

  it('passes https anywhere and http on loopback to the handler in normalised form; null clears it', async () => {
    const host = settingsHost();
    for (const baseUrl of [
      'HTTPS://Odds.Example:443/',
      'http://127.0.0.2:8080/',
      'http://[::1]:1',
      'http://localhost:8787',
      null,
    ]) {
      expect((await host.update({ baseUrl })).ok, String(baseUrl)).toBe(true);
    }
    expect(host.patches.map((p) => p.baseUrl)).toEqual([
      'https://odds.example',
      'http://127.0.0.2:8080',
      'http://[::1]:1',
      'http://localhost:8787',
      null,
    ]);
  });

  it('the schema alone says the same (for any other transport built from it)', () => {
    expect(requestSchemas['settings:update'].safeParse([{ baseUrl: 'http://example.com' }]).success).toBe(false);
    expect(requestSchemas['settings:update'].safeParse([{ baseUrl: 'https://odds.example' }]).success).toBe(true);
  });
});

describe('settings:setApiKey key', () => {
  function keyHost() {
    const keys: string[] = [];
    const handlers = {
      'settings:setApiKey': (key: string) => {
        keys.push(key);
        return {};
      },
    } as unknown as CoreHandlers;
    return { keys, set: (key: unknown) => dispatch(handlers, 'settings:setApiKey', [key]) };
  }

  const GOOD = 'k3y-ABC_def.0123~!';

  it('refuses keys with a line break, a tab, a space, a control or non-ASCII character, before the handler runs; the refusal never repeats the key', async () => {
    const host = keyHost();
    const bad = {
      'CR LF': `${GOOD}\r\nX-Injected: 1`,
      'LF only': `${GOOD}\n`,
      tab: `${GOOD}\tmore`,
      'space inside': 'abcd efgh1234',
      'leading space': ` ${GOOD}`,
      NUL: `${GOOD}\u0000`,
      DEL: `${GOOD}\u007f`,
      'non-ASCII': `${GOOD}é`,
      'non-breaking space': `abcd\u00a0efgh1234`,
      'too short': 'Ab3$xyz',
      'too long': 'a'.repeat(513),
    };
    for (const [what, key] of Object.entries(bad)) {
      const r = await host.set(key);
      expect(r.ok, what).toBe(false);
      if (!r.ok) {
        expect(r.error.kind, what).toBe('validation');
        expect(r.error.message, what).toMatch(/API key/);
        expect(r.error.message, what).not.toContain(key.trim().slice(0, 8));
        expect(r.error.message, what).not.toContain(GOOD);
      }
      expect(requestSchemas['settings:setApiKey'].safeParse([key]).success, what).toBe(false);
    }
    expect(host.keys).toEqual([]);
  });

  it('passes a printable-ASCII key of 8-512 characters to the handler unchanged', async () => {
    const host = keyHost();
    for (const key of [GOOD, 'a'.repeat(8), 'Z'.repeat(512), '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~']) {
      expect((await host.set(key)).ok, key).toBe(true);
    }
    expect(host.keys).toEqual([GOOD, 'a'.repeat(8), 'Z'.repeat(512), '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~']);
  });
});

describe('settings:forgetAllKeys', () => {
  it('takes no arguments: a page cannot aim it (or anything else) at a chosen entry; the handler runs only when called bare', async () => {
    let calls = 0;
    const handlers = {
      'settings:forgetAllKeys': () => {
        calls++;
        return { removed: 0, settings: {} };
      },
    } as unknown as CoreHandlers;
    for (const args of [['https://odds.example'], [{ service: 'other-app' }], [null]]) {
      const r = await dispatch(handlers, 'settings:forgetAllKeys', args);
      expect(r.ok, JSON.stringify(args)).toBe(false);
      if (!r.ok) expect(r.error.kind).toBe('validation');
    }
    expect(calls).toBe(0);
    expect(await dispatch(handlers, 'settings:forgetAllKeys', [])).toMatchObject({ ok: true, value: { removed: 0 } });
    expect(calls).toBe(1);
  });
});
