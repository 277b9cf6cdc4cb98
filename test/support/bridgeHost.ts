// A bridge host in its own process, for tests that must see whether hostile input ends the process: an uncaught
// exception or unhandled rejection here exits the child (Node's default), which the test observes as an exit.
// Prints one JSON line `{ port, token, staticDir }` once listening. The handlers route two real channels and one
// that throws; the bridge itself only routes, so that is enough to exercise every path through it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startBridge } from '../../src/core/bridge/server';
import type { CoreHandlers, PushListener } from '../../src/shared/ipc/contract';

const handlers = {
  'app:info': () => ({
    version: 't',
    demo: true,
    host: 'browser',
    baseUrl: 'http://upstream',
    historyPath: ':memory:',
  }),
  'coverage:get': () => ({ sports: [{ sport: 'Tennis', events: 3 }], fetchedAt: 1, raw: { standard: { Tennis: 3 } } }),
  'status:get': () => {
    throw new Error('status is down');
  },
} as Partial<CoreHandlers> as CoreHandlers;

const staticDir = mkdtempSync(path.join(tmpdir(), 'bridge-host-'));
writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>oddsdesk</title>');
writeFileSync(path.join(staticDir, 'app.js'), 'console.log(1)');

const listeners = new Set<PushListener>();
const bridge = await startBridge({
  handlers,
  subscribe: (l) => {
    listeners.add(l);
    return () => listeners.delete(l);
  },
  staticDir,
  port: 0,
});
// A push every 50 ms, so frames from the page interleave with pushes from the host as in the app.
setInterval(() => {
  for (const l of listeners) l('onWatchlist', []);
}, 50);
process.stdout.write(JSON.stringify({ port: bridge.port, token: bridge.token, staticDir }) + '\n');
