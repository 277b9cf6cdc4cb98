// Reads a large JSON page without one long step of the event loop (issue 36). JSON.parse of a 2 MB list of a million
// zeros takes 30 to 140 ms in one go, and a 32 MiB body many times that; the desktop's windows share that loop. So a
// page whose records sit in one array member (`events` of /api/settled) is scanned in slices, with a turn of the loop
// between them, its first `maxElements` records parsed one by one and the rest only counted; the envelope without the
// array is parsed on its own.

/** Characters scanned (or records parsed) between two turns of the loop: a few ms of work on a slow machine. */
const SLICE_CHARS = 256 * 1024;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface PagedJson {
  /** The body with the array member holding only the records read. */
  body: unknown;
  /** How many records the array held in all (read or not). */
  total: number;
}

/**
 * Parses `text`, a JSON object whose member `member` is an array, reading at most `maxElements` of that array's
 * records. Throws a SyntaxError on text that is not JSON, as JSON.parse does. When the object has no such member
 * (or the text is not an object), it is parsed whole.
 */
export async function parsePagedJson(
  text: string,
  member: string,
  maxElements: number,
): Promise<PagedJson | { body: unknown; total: null }> {
  const span = text.trimStart().startsWith('{') ? await findArray(text, member, maxElements) : null;
  if (!span) return { body: JSON.parse(text) as unknown, total: null };
  const head = JSON.parse(`${text.slice(0, span.start)}[]${text.slice(span.end)}`) as Record<string, unknown>;
  const records: unknown[] = [];
  let since = 0;
  for (const [from, to] of span.elements) {
    records.push(JSON.parse(text.slice(from, to)) as unknown);
    since += to - from;
    if (since > SLICE_CHARS) {
      since = 0;
      await turn();
    }
  }
  head[member] = records;
  return { body: head, total: span.total };
}

interface ArraySpan {
  start: number;
  end: number;
  /** [from, to) of each of the first maxElements records. */
  elements: Array<[number, number]>;
  total: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** The array value of `member` at the top level of the object in `text`, found by a scan that yields; null if none. */
async function findArray(text: string, member: string, maxElements: number): Promise<ArraySpan | null> {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let stringStart = -1;
  let lastKey: string | null = null;
  let valueOf: string | null = null;
  let span: ArraySpan | null = null;
  let elementStart = -1;
  let nextTurn = SLICE_CHARS;
  const close = (at: number, last: boolean) => {
    const from = elementStart;
    elementStart = at + 1;
    if (text.slice(from, at).trim() === '') {
      // Only `[]` has no record; `[1,,2]` and `[1,]` are not JSON.
      if (last && from === span!.start + 1) return;
      throw new SyntaxError(`Unexpected token at position ${at}`);
    }
    if (span!.elements.length < maxElements) span!.elements.push([from, at]);
    span!.total++;
  };
  for (let i = 0; i < text.length; i++) {
    if (i >= nextTurn) {
      nextTurn = i + SLICE_CHARS;
      await turn();
    }
    const c = text.charCodeAt(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (c === BACKSLASH) escaped = true;
      else if (c === QUOTE) {
        inString = false;
        // A member name at the object's top level is short; a long string there is a value, never compared.
        if (depth === 1 && i - stringStart <= member.length + 1) lastKey = text.slice(stringStart + 1, i);
        else if (depth === 1) lastKey = null;
      }
      continue;
    }
    if (c === QUOTE) {
      inString = true;
      stringStart = i;
    } else if (c === COLON && depth === 1) valueOf = lastKey;
    else if (c === COMMA) {
      if (depth === 1) valueOf = null;
      else if (depth === 2 && span && span.end < 0) close(i, false);
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (depth === 1 && c === OPEN_BRACKET && valueOf === member && span === null) {
        span = { start: i, end: -1, elements: [], total: 0 };
        elementStart = i + 1;
      }
      depth++;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      if (depth === 1 && span && span.end < 0) {
        close(i, true);
        span.end = i + 1;
      }
      if (depth < 0) return null;
    }
  }
  return span && span.end >= 0 ? span : null;
}
