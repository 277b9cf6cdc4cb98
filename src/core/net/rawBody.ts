// A response body as plain callbacks, for the live odds streams: a host's fetch may hand the stream client the
// socket's chunks directly (a Node Readable's 'data' events) instead of a WHATWG ReadableStream, whose reader costs a
// few promises and a queue per chunk. At 2,000 stream messages a second the web stream's plumbing under the reader
// was about a fifth of the host's CPU. The Response still carries the status and headers (the governor and the
// redirect rules read those as before); its `body` is null and the chunks come from here.
// A fetch that attaches none (a test's, Node's own) still works: rawBodyOf falls back to reading `body`.

/** Where the chunks go: any number of data, then exactly one of end or error. */
export interface RawBodySink {
  data(chunk: Uint8Array): void;
  end(): void;
  error(error: unknown): void;
}

export interface RawBody {
  /** Starts the flow (once). Nothing is read before this. */
  start(sink: RawBodySink): void;
  /** Stops the transfer and closes the connection; no more callbacks after it. */
  cancel(): void;
}

const RAW_BODY = Symbol.for('oddsdesk.rawBody');

/** The response, with `body` handed over as callbacks. */
export function attachRawBody(response: Response, body: RawBody): Response {
  Object.defineProperty(response, RAW_BODY, { value: body });
  return response;
}

/** The parts of a Node Readable a raw body needs (undici's BodyReadable, Electron's IncomingMessage, http's). */
export interface ReadableLike {
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  destroy?(): unknown;
}

/** A Node Readable as a raw body; `abort` closes the request under it (default: destroy the readable). */
export function rawBodyFromReadable(readable: ReadableLike, abort?: () => void): RawBody {
  let sink: RawBodySink | null = null;
  let done = false;
  const finish = () => {
    done = true;
    sink = null;
  };
  return {
    start(s) {
      if (sink || done) return;
      sink = s;
      readable.on('data', (chunk) => {
        if (!done) sink?.data(chunk);
      });
      readable.on('end', () => {
        const to = sink;
        finish();
        to?.end();
      });
      readable.on('error', (e) => {
        const to = sink;
        finish();
        to?.error(e);
      });
    },
    cancel() {
      if (done) return;
      finish();
      if (abort) abort();
      else readable.destroy?.();
    },
  };
}

/** A WHATWG body read as a raw body (the fallback for a fetch that attached none). */
function rawBodyFromWeb(stream: ReadableStream<Uint8Array>): RawBody {
  const reader = stream.getReader();
  let done = false;
  return {
    start(sink) {
      const pump = (): void => {
        reader.read().then(
          (r) => {
            if (done) return;
            if (r.done) {
              done = true;
              sink.end();
              return;
            }
            sink.data(r.value);
            pump();
          },
          (e: unknown) => {
            if (done) return;
            done = true;
            sink.error(e);
          },
        );
      };
      pump();
    },
    cancel() {
      if (done) return;
      done = true;
      void reader.cancel().catch(() => undefined);
    },
  };
}

/** The response's body as callbacks: the one its fetch attached, else its web stream; null when it has none. */
export function rawBodyOf(response: Response): RawBody | null {
  const raw = (response as unknown as Record<symbol, RawBody | undefined>)[RAW_BODY];
  if (raw) return raw;
  return response.body ? rawBodyFromWeb(response.body) : null;
}
