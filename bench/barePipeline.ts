// The bare pipeline of the tick-to-screen bench: the least a stream-to-screen path can do, as the yardstick the app's
// latency is taken against in the same run (tick_to_screen_p99_ratio). A bare reader (`node:http`, SSE parsing,
// `JSON.parse`; bench/bareSse.ts) sends each message's prices over a WebSocket (`ws`) as it arrives, one frame per
// message, to a minimal page that writes the same price cells the app shows with `textContent`: no store, no state,
// no batching, no framework.
//
// Usage: tsx bench/barePipeline.ts <base-url> <event-id>... with the key in ODDSDESK_API_KEY. It serves the page on
// 127.0.0.1 and prints `ready <url>` once every stream answered and the page can be opened; it stops when its
// standard input ends (the bench that started it is gone). The bench then gives the
// page its cells (`setCells([...data-testid])`, the same `price-<event>-<line>-<side>` ids as the app's grid), and
// measures it with the same probe as the app's page (bench/web/probe.ts), and asks it for its event-loop delay over
// the window as it asks the host (SIGUSR2).
import http from 'node:http';
import { createInterface } from 'node:readline';
import { WebSocketServer, type WebSocket } from 'ws';
import { reportLoopDelayOnRequest } from '../src/cli/loopDelay';
import { readEventStreams } from './bareSse';

// Its event loop's delay, as the host reports its own (SIGUSR2 -> a `loop-delay {json}` line on stdout): the same
// machine's scheduling in the same window, beside the host's figure.
reportLoopDelayOnRequest(process.stdout);

const [base, ...ids] = process.argv.slice(2);
const key = process.env['ODDSDESK_API_KEY'] ?? '';
if (!base || !ids.length || !key)
  throw new Error('usage: barePipeline <base-url> <event-id>... (key in ODDSDESK_API_KEY)');

// The page: a grid of cells, each written only when its three-decimal text changes (as the app's cells).
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>bare pipeline</title>
<style>body{margin:0;font:13px system-ui,sans-serif}[data-testid="watch-grid"]{display:grid;grid-template-columns:repeat(9,80px);grid-auto-rows:30px}span{padding:6px;font-variant-numeric:tabular-nums}</style>
</head><body><div data-testid="watch-grid"></div><script>
const grid = document.querySelector('[data-testid="watch-grid"]');
const cells = new Map();
window.setCells = (ids) => {
  grid.textContent = '';
  cells.clear();
  for (const id of ids) {
    const cell = document.createElement('span');
    cell.setAttribute('data-testid', id);
    grid.appendChild(cell);
    cells.set(id, cell);
  }
};
const socket = new WebSocket('ws://' + location.host + '/');
socket.onmessage = (e) => {
  const [eventId, prices] = JSON.parse(e.data);
  for (const [lineId, side, price] of prices) {
    const cell = cells.get('price-' + eventId + '-' + lineId + '-' + side);
    if (!cell) continue;
    const text = price.toFixed(3);
    if (cell.textContent !== text) cell.textContent = text;
  }
};
window.socketOpen = new Promise((resolve) => socket.addEventListener('open', resolve));
</script></body></html>`;

const server = http.createServer((req, res) => {
  res.writeHead(req.url === '/' ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
  res.end(req.url === '/' ? PAGE : '');
});
const wss = new WebSocketServer({ server });
const pages = new Set<WebSocket>();
wss.on('connection', (ws) => {
  pages.add(ws);
  ws.on('close', () => pages.delete(ws));
});

interface Priced {
  markets?: Array<{ line_id: number; prices: Record<string, number> | null }>;
}

let streamsReady = false;
let listening = '';
const announce = () => {
  if (streamsReady && listening) console.log(`ready ${listening}`);
};
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') listening = `http://127.0.0.1:${address.port}/`;
  announce();
});

readEventStreams(
  base,
  key,
  ids.map(Number),
  (eventId, event, data) => {
    const value = JSON.parse(data) as Priced | null;
    // Snapshots and odds messages carry prices; scores, ends and the rest have none to show.
    if ((event !== 'odds' && event !== 'snapshot') || !value?.markets) return;
    const prices: Array<[number, string, number]> = [];
    for (const m of value.markets) {
      if (!m.prices) continue;
      for (const side in m.prices) prices.push([m.line_id, side, m.prices[side]!]);
    }
    if (!prices.length) return;
    const frame = JSON.stringify([eventId, prices]);
    for (const page of pages) page.send(frame);
  },
  () => {
    streamsReady = true;
    announce();
  },
);

createInterface({ input: process.stdin }).on('close', () => process.exit(0));
