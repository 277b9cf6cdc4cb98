// The bare reader of the tick-to-screen bench: the least a process can do with the same stream messages the host
// gets. `node:http` GETs of the same event streams, SSE line parsing and `JSON.parse` of each message's data, nothing
// else (no validation, no state, no store, no push). The bench measures this process's CPU time beside the host's
// over the same window, so the ratio of the two is the host's cost per message, whatever else loads the machine.
//
// Usage: tsx bench/bareReader.ts <base-url> <event-id>... with the key in ODDSDESK_API_KEY. It prints
// `ready <n>` once every stream answered 200, and then `count <messages>` whenever its stdin gets a line; it stops
// when its stdin ends.
import { createInterface } from 'node:readline';
import { readEventStreams } from './bareSse';

const [base, ...ids] = process.argv.slice(2);
const key = process.env['ODDSDESK_API_KEY'] ?? '';
if (!base || !ids.length || !key)
  throw new Error('usage: bareReader <base-url> <event-id>... (key in ODDSDESK_API_KEY)');

let messages = 0;
let parsed = 0;

readEventStreams(
  base,
  key,
  ids.map(Number),
  (_eventId, _event, data) => {
    // Each message's data is one JSON value.
    const value: unknown = JSON.parse(data);
    if (value !== null) parsed++;
    messages++;
  },
  () => console.log(`ready ${ids.length}`),
);
// A line on stdin asks for the counts; its end (the bench that started it is gone) stops the reader.
createInterface({ input: process.stdin })
  .on('line', () => console.log(`count ${messages} ${parsed}`))
  .on('close', () => process.exit(0));
