import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkBaseUrl, isLoopbackHost } from './baseUrl';

function accepted(text: string): string {
  const r = checkBaseUrl(text);
  if (!r.ok) throw new Error(`refused ${text}: ${r.message}`);
  return r.url;
}

function refusal(text: string): string {
  const r = checkBaseUrl(text);
  if (r.ok) throw new Error(`accepted ${text} as ${r.url}`);
  return r.message;
}

describe('checkBaseUrl', () => {
  it('accepts https anywhere and normalises case, default port and trailing slashes', () => {
    expect(accepted('https://odds.example')).toBe('https://odds.example');
    expect(accepted('  HTTPS://Odds.Example:443///  ')).toBe('https://odds.example');
    expect(accepted('https://odds.example:8443/v1/')).toBe('https://odds.example:8443/v1');
    expect(accepted('https://203.0.113.9')).toBe('https://203.0.113.9');
  });

  it('accepts http only for loopback hosts: localhost, 127.0.0.0/8 and [::1]', () => {
    expect(accepted('http://127.0.0.2:8080')).toBe('http://127.0.0.2:8080');
    expect(accepted('http://[::1]:1')).toBe('http://[::1]:1');
    expect(accepted('http://localhost:8787/')).toBe('http://localhost:8787');
    expect(accepted('http://127.255.255.254')).toBe('http://127.255.255.254');
    // The URL parser's own spellings of loopback addresses.
    expect(accepted('http://127.1:9')).toBe('http://127.0.0.1:9');
    expect(accepted('http://[0:0:0:0:0:0:0:1]')).toBe('http://[::1]');
  });

  it('refuses plain http to any other host, naming the host and why', () => {
    const message = refusal('http://example.com');
    expect(message).toContain('example.com');
    expect(message).toMatch(/https:\/\//);
    expect(message).toMatch(/unencrypted/);
    for (const text of [
      'http://10.0.0.1',
      'http://192.168.1.20:8787',
      'http://128.0.0.1',
      'http://localhost.',
      'http://localhost.evil.example',
      'http://127.0.0.1.nip.io',
      'http://[::2]',
      'http://[::ffff:127.0.0.1]',
      'http://0.0.0.0',
    ]) {
      expect(refusal(text), text).toMatch(/http:\/\/ is refused/);
    }
  });

  it('refuses every other scheme', () => {
    for (const text of [
      'ftp://odds.example',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'ws://127.0.0.1:1',
      'data:text/plain,x',
    ]) {
      expect(refusal(text), text).toMatch(/must start with https:\/\//);
    }
  });

  it('refuses credentials without repeating them, and any query or fragment', () => {
    const message = refusal('https://trader:s3cret-pass@odds.example');
    expect(message).toMatch(/user name or password/);
    expect(message).not.toContain('s3cret-pass');
    expect(refusal('https://only-user@odds.example')).toMatch(/user name or password/);
    expect(refusal('https://odds.example/?key=abc')).toMatch(/"\?" or "#"/);
    expect(refusal('https://odds.example/?')).toMatch(/"\?" or "#"/);
    expect(refusal('https://odds.example/#x')).toMatch(/"\?" or "#"/);
  });

  it('refuses what is not an address at all', () => {
    expect(refusal('')).toMatch(/Enter the service address/);
    expect(refusal('   ')).toMatch(/Enter the service address/);
    expect(refusal('odds.example')).toMatch(/not a URL/);
    expect(refusal('not a url')).toMatch(/not a URL/);
  });

  it('is idempotent, and whatever it accepts is https or loopback http with no query, fragment or credentials', () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (text) => {
        const r = checkBaseUrl(text);
        if (!r.ok) return;
        const u = new URL(r.url);
        expect(u.protocol === 'https:' || (u.protocol === 'http:' && isLoopbackHost(u.hostname))).toBe(true);
        expect(u.search + u.hash + u.username + u.password).toBe('');
        expect(r.url.endsWith('/')).toBe(false);
        expect(checkBaseUrl(r.url)).toEqual(r);
      }),
    );
  });
});
