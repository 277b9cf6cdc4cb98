// The bare reader of the tick-to-screen bench: the least a process can do with the same stream messages the host
// gets. `node:http` GETs of the same event streams, SSE line parsing and `JSON.parse` of each message's data, nothing
// else (no validation, no state, no store, no push). The bench measures this process's CPU time beside the host's
// over the same window, so the ratio of the two is the host's cost per message, whatever else loads the machine.
//
// Usage: tsx bench/bareReader.ts <base-url> <event-id>... with the key in ODDSDESK_API_KEY. It prints
// `ready <n>` once every stream answered 200, and then `count <messages>` whenever its stdin gets a line.
import http from 'node:http';
import { createInterface } from 'node:readline';
import { API_KEY_HEADER, PARAMS, PATHS } from '../src/shared/api/spec';

const [base, ...ids] = process.argv.slice(2);
const key = process.env['ODDSDESK_API_KEY'] ?? '';
if (!base || !ids.length || !key) throw new Error('usage: bareReader <base-url> <event-id>... (key in ODDSDESK_API_KEY)');

let messages = 0;
let parsed = 0;
let open = 0;

function read(eventId: string): void {
  const url = new URL(PATHS.stream, base);
  url.searchParams.set(PARAMS.stream.eventId, eventId);
  const req = http.get(url, { headers: { [API_KEY_HEADER]: key, Accept: 'text/event-stream' } }, (res) => {
    if (res.statusCode !== 200) throw new Error(`stream ${eventId}: HTTP ${res.statusCode}`);
    if (++open === ids.length) console.log(`ready ${open}`);
    res.setEncoding('utf8');
    let rest = '';
    let data = '';
    res.on('data', (chunk: string) => {
      const text = rest + chunk;
      let start = 0;
      for (let nl = text.indexOf('\n', start); nl !== -1; nl = text.indexOf('\n', start)) {
        const line = text.charCodeAt(nl - 1) === 13 ? text.slice(start, nl - 1) : text.slice(start, nl);
        start = nl + 1;
        if (line === '') {
          // A blank line ends the message: its data is one JSON value.
          if (data) {
            const value: unknown = JSON.parse(data);
            if (value !== null) parsed++;
            messages++;
          }
          data = '';
        } else if (line.startsWith('data:')) {
          const v = line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5);
          data = data ? `${data}\n${v}` : v;
        }
        // id:, event:, retry: and comments (pings) are read past: the bare reader keeps no state.
      }
      rest = text.slice(start);
    });
  });
  req.on('error', (e) => {
    throw e;
  });
}

for (const id of ids) read(id);
createInterface({ input: process.stdin }).on('line', () => console.log(`count ${messages} ${parsed}`));
