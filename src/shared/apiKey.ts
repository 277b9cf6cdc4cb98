// The one rule for an API key, shared by the IPC contract (settings:setApiKey) and the CLI (ODDSDESK_API_KEY): the
// key goes into an HTTP header on every request and into the OS keychain, so it must be printable ASCII with no
// spaces or control characters (a CR/LF would split the header; a tab, space or non-ASCII character is a paste
// gone wrong), 8 to 512 characters long. Messages never repeat the key, nor any part of it. Pure: the renderer may
// use it to explain a refusal too.

export const API_KEY_MIN_LENGTH = 8;
export const API_KEY_MAX_LENGTH = 512;

export type ApiKeyCheck = { ok: true; key: string } | { ok: false; message: string };

/** Printable ASCII, space excluded (0x21-0x7e). */
const PRINTABLE = /^[\x21-\x7e]*$/;

export function checkApiKey(key: unknown): ApiKeyCheck {
  if (typeof key !== 'string') return { ok: false, message: 'The API key must be text.' };
  if (key.length < API_KEY_MIN_LENGTH)
    return { ok: false, message: `The API key is too short (at least ${API_KEY_MIN_LENGTH} characters).` };
  if (key.length > API_KEY_MAX_LENGTH)
    return { ok: false, message: `The API key is too long (at most ${API_KEY_MAX_LENGTH} characters).` };
  if (!PRINTABLE.test(key)) {
    return {
      ok: false,
      message:
        'The API key may contain only printable ASCII characters: no spaces, tabs, line breaks, other control characters or non-ASCII characters.',
    };
  }
  return { ok: true, key };
}
