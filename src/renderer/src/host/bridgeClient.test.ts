// The page takes the bridge token out of its address bar as soon as it has read it.
import { describe, expect, it } from 'vitest';
import { parseWindowHash } from '../../../shared/ipc/windowRoute';
import { tabUrl, takeToken, type TokenPlace } from './bridgeClient';

/** A tab: its address bar (what replaceState leaves there) and its sessionStorage. */
function tab(url: string) {
  const u = new URL(url);
  const bar = { href: u.href };
  const stored = new Map<string, string>();
  const place = (): TokenPlace => {
    const now = new URL(bar.href);
    return {
      location: { hash: now.hash, pathname: now.pathname, search: now.search },
      history: { state: null, replaceState: (_s, _t, next) => void (bar.href = new URL(String(next), bar.href).href) },
      session: { getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => void stored.set(k, v) },
    };
  };
  return { bar, place, stored };
}

describe('bridge token', () => {
  it('is read from the fragment and removed from the address bar, keeping the rest of the URL', () => {
    const t = tab('http://127.0.0.1:5185/?x=1#token=abc123&view=alerts');
    expect(takeToken(t.place())).toBe('abc123');
    expect(t.bar.href).toBe('http://127.0.0.1:5185/?x=1#view=alerts');
    expect(t.bar.href).not.toContain('abc123');
  });

  it('leaves no empty fragment behind, and a reload of the same tab still finds the token', () => {
    const t = tab('http://127.0.0.1:5185/#token=abc123');
    expect(takeToken(t.place())).toBe('abc123');
    expect(t.bar.href).toBe('http://127.0.0.1:5185/');
    expect(takeToken(t.place())).toBe('abc123'); // the reload: no fragment any more
  });

  it('a new printed URL replaces the token of an earlier launch', () => {
    const t = tab('http://127.0.0.1:5185/#token=old');
    takeToken(t.place());
    t.bar.href = 'http://127.0.0.1:5185/#token=new';
    expect(takeToken(t.place())).toBe('new');
    expect(takeToken(t.place())).toBe('new');
  });

  it('works when the page may not rewrite its URL or use storage', () => {
    const location = { hash: '#token=abc', pathname: '/', search: '' };
    const refuse = () => {
      throw new Error('SecurityError');
    };
    expect(
      takeToken({
        location,
        history: { state: null, replaceState: refuse },
        session: { getItem: refuse, setItem: refuse },
      }),
    ).toBe('abc');
    expect(takeToken({ location: { ...location, hash: '' }, history: null, session: null })).toBe('');
  });

  it('a tab opened for one view (a second monitor) gets the token in its fragment, takes it out as it loads, and shows that view', () => {
    const first = tab('http://127.0.0.1:5185/#token=abc123');
    const token = takeToken(first.place());
    const opened = tab(new URL(tabUrl(new URL(first.bar.href), 'view=movers', token), first.bar.href).href);
    // A new tab shares no session storage with the first: it reads the token from its own address.
    expect(opened.stored.size).toBe(0);
    expect(takeToken(opened.place())).toBe('abc123');
    expect(opened.bar.href).toBe('http://127.0.0.1:5185/#view=movers');
    expect(parseWindowHash(new URL(opened.bar.href).hash)).toEqual({ view: 'movers' });
    // Its reload still finds the token, and it is never in the first tab's address either.
    expect(takeToken(opened.place())).toBe('abc123');
    expect(first.bar.href).not.toContain('abc123');
  });
});
