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
    for (const baseUrl of ['http://example.com', 'http://192.168.1.5:8787', 'ftp://odds.example', 'file:///etc/passwd', 'javascript:alert(1)', 'https://u:p@odds.example', '']) {
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
    for (const baseUrl of ['HTTPS://Odds.Example:443/', 'http://127.0.0.2:8080/', 'http://[::1]:1', 'http://localhost:8787', null]) {
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
