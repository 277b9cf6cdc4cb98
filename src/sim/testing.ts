// Test helpers for talking to the simulator over real HTTP: a small server-sent events reader (tests only; the app
// itself parses with `eventsource-parser`) and a keyed GET.

export interface SseMessage {
  id: string | null;
  event: string;
  data: string;
}

/** Incremental parser of the text/event-stream format: feed chunks, get whole messages and comments out. */
export class SseParser {
  private buffer = '';
  private id: string | null = null;
  private event = '';
  private data: string[] = [];
  retry: number | null = null;
  readonly comments: string[] = [];

  feed(chunk: string): SseMessage[] {
    this.buffer += chunk;
    const out: SseMessage[] = [];
    let nl: number;
    while ((nl = this.buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + (this.buffer.startsWith('\r\n', nl) ? 2 : 1));
      if (line === '') {
        if (this.data.length || this.event)
          out.push({ id: this.id, event: this.event || 'message', data: this.data.join('\n') });
        this.event = '';
        this.data = [];
        continue;
      }
      if (line.startsWith(':')) {
        this.comments.push(line.slice(1).trim());
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') this.id = value;
      else if (field === 'event') this.event = value;
      else if (field === 'data') this.data.push(value);
      else if (field === 'retry') this.retry = Number(value);
    }
    return out;
  }
}

export interface SseConnection {
  status: number;
  headers: Headers;
  messages: SseMessage[];
  parser: SseParser;
  /** Resolves when `count` messages in total arrived (or the stream ended); rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<SseMessage[]>;
  /** Resolves when the server closed the stream. */
  closed: Promise<void>;
  close(): void;
}

export async function openSse(url: string, key: string, lastEventId?: string): Promise<SseConnection> {
  const ctrl = new AbortController();
  const headers: Record<string, string> = { 'X-API-Key': key, Accept: 'text/event-stream' };
  if (lastEventId !== undefined) headers['Last-Event-ID'] = lastEventId;
  const res = await fetch(url, { headers, signal: ctrl.signal });
  const parser = new SseParser();
  const messages: SseMessage[] = [];
  let wake: () => void = () => {};
  let ended = false;
  const decoder = new TextDecoder();
  const closed = (async () => {
    if (!res.body) return;
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        messages.push(...parser.feed(decoder.decode(value, { stream: true })));
        wake();
      }
    } catch {
      // aborted or dropped: the test decides whether that was expected
    } finally {
      ended = true;
      wake();
    }
  })();
  return {
    status: res.status,
    headers: res.headers,
    messages,
    parser,
    closed,
    close: () => ctrl.abort(),
    waitFor: (count, timeoutMs = 2000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`timed out waiting for ${count} messages, got ${messages.length}`)),
          timeoutMs,
        );
        const check = () => {
          if (messages.length >= count || ended) {
            clearTimeout(timer);
            resolve(messages);
          }
        };
        wake = check;
        check();
      }),
  };
}

export async function get(
  base: string,
  path: string,
  key?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; text: string; json: unknown }> {
  const res = await fetch(new URL(path, base), {
    headers: key === undefined ? headers : { 'X-API-Key': key, ...headers },
  });
  const text = await res.text();
  let json: unknown = undefined;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: callers asserting on shape will fail on `json` being undefined
  }
  return { status: res.status, headers: res.headers, text, json };
}
