// The bare readers' stream reading (bench/bareReader.ts, bench/barePipeline.ts): `node:http` GETs of the event
// streams and SSE line parsing, nothing else (no reconnects, no Last-Event-ID, no watchdog): the least any reader of
// the same streams has to do.
import http from 'node:http';
import { API_KEY_HEADER, PARAMS, PATHS } from '../src/shared/api/spec';

/**
 * Opens one stream per event id; `onMessage` gets each message's event name and data text as they end, `onReady`
 * runs once every stream answered 200. A stream that fails or answers otherwise throws: a bare reader has no recovery.
 */
export function readEventStreams(
  base: string,
  key: string,
  ids: readonly number[],
  onMessage: (eventId: number, event: string, data: string) => void,
  onReady: () => void,
): void {
  let open = 0;
  for (const eventId of ids) {
    const url = new URL(PATHS.stream, base);
    url.searchParams.set(PARAMS.stream.eventId, String(eventId));
    const req = http.get(url, { headers: { [API_KEY_HEADER]: key, Accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) throw new Error(`stream ${eventId}: HTTP ${res.statusCode}`);
      if (++open === ids.length) onReady();
      res.setEncoding('utf8');
      let rest = '';
      let data = '';
      let event = 'message';
      res.on('data', (chunk: string) => {
        const text = rest + chunk;
        let start = 0;
        for (let nl = text.indexOf('\n', start); nl !== -1; nl = text.indexOf('\n', start)) {
          const line = text.charCodeAt(nl - 1) === 13 ? text.slice(start, nl - 1) : text.slice(start, nl);
          start = nl + 1;
          if (line === '') {
            // A blank line ends the message.
            if (data) onMessage(eventId, event, data);
            data = '';
            event = 'message';
          } else if (line.startsWith('data:')) {
            const v = line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5);
            data = data ? `${data}\n${v}` : v;
          } else if (line.startsWith('event:')) {
            event = line.charCodeAt(6) === 32 ? line.slice(7) : line.slice(6);
          }
          // id:, retry: and comments (pings) are read past: the bare readers keep no state.
        }
        rest = text.slice(start);
      });
    });
    req.on('error', (e) => {
      throw e;
    });
  }
}
