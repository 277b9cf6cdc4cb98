// The one rule for the upstream service's base URL, shared by the settings service, the IPC contract, the CLI and the
// API client: the API key travels with every request to this address, so it must be https (plain http only for
// this computer's own loopback addresses, where nothing is on the wire), must carry no credentials of its own, and
// no query or fragment that every request would drag along. Pure: the renderer can use it to explain a refusal too.

export type BaseUrlCheck = { ok: true; url: string } | { ok: false; message: string };

const EXAMPLE = 'https://odds.example';

/**
 * True for the hosts that never leave this computer: `localhost`, 127.0.0.0/8 and `[::1]`, as the URL parser
 * spells them (it has already turned `127.1` or `2130706433` into `127.0.0.1`, and `[0:0::1]` into `[::1]`).
 * `localhost.` (with the root dot) is a DNS name like any other and does not count.
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  if (h === 'localhost' || h === '[::1]') return true;
  const m = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  return m !== null && m.slice(1).every((part) => Number(part) <= 255);
}

/**
 * Checks a base URL typed by a trader (settings, CLI) or found in stored settings. On success `url` is the normalised
 * form: lower-case scheme and host, no default port, no trailing slash (an optional path prefix is kept).
 * Messages never repeat the whole input, which could hold a password or a pasted key.
 */
export function checkBaseUrl(text: string): BaseUrlCheck {
  const trimmed = typeof text === 'string' ? text.trim() : '';
  if (trimmed === '') return { ok: false, message: `Enter the service address, for example ${EXAMPLE}.` };
  let u: URL;
  try {
    u = new URL(trimmed);
  } catch {
    return { ok: false, message: `The service address is not a URL; enter it like ${EXAMPLE}.` };
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') {
    return { ok: false, message: `The service address must start with https:// (not ${u.protocol}).` };
  }
  if (u.host === '') return { ok: false, message: `The service address has no host name; enter it like ${EXAMPLE}.` };
  if (u.username !== '' || u.password !== '') {
    return {
      ok: false,
      message:
        'The service address must not contain a user name or password: the API key is the only credential, and it is entered separately.',
    };
  }
  if (u.search !== '' || u.hash !== '' || /[?#]/.test(trimmed)) {
    return {
      ok: false,
      message: `The service address must not contain "?" or "#"; enter only the address itself, like ${EXAMPLE}.`,
    };
  }
  if (u.protocol === 'http:' && !isLoopbackHost(u.hostname)) {
    return {
      ok: false,
      message:
        `Plain http:// is refused for ${u.hostname}: the API key would cross the network unencrypted. Use https://, ` +
        'or http:// only for this computer (localhost, 127.x.x.x or [::1]).',
    };
  }
  const path = u.pathname.replace(/\/+$/, '');
  return { ok: true, url: `${u.protocol}//${u.host}${path}` };
}
