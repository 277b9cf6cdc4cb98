// The upstream service the contract suite's hosts are pointed at: the real simulator (manual clock, so prices move
// only when a test scripts them) behind a real HTTP front on 127.0.0.1 that can answer with redirects, and a second
// front standing for "another origin". Each front records every request it receives, with its X-API-Key, so "the other
// origin never sees the key" is checked on the wire.
import { request as httpRequest } from 'node:http';
import { startSimulator, type Simulator } from '../../src/sim';
import { listenLocal } from '../support/localServer';

export const SERVICE_KEY = 'contract-enterprise-key-0001';

export interface Seen {
  path: string;
  key: string | null;
}

export interface Front {
  url: string;
  seen: Seen[];
  /** Answers a request path with a redirect when it returns one; otherwise the simulator answers. */
  redirect: ((path: string) => { status: number; location: string } | null) | null;
  close(): Promise<void>;
}

async function startFront(sim: Simulator): Promise<Front> {
  const front: Omit<Front, 'url' | 'close'> = { seen: [], redirect: null };
  const server = await listenLocal((req, res) => {
    const path = req.url ?? '/';
    const key = req.headers['x-api-key'];
    front.seen.push({ path, key: typeof key === 'string' ? key : null });
    const r = front.redirect?.(path) ?? null;
    if (r) {
      res.writeHead(r.status, { Location: r.location, 'Content-Type': 'text/plain' });
      res.end('moved');
      return;
    }
    // A /moved prefix is where the same-origin redirects send requests: the simulator answers them too.
    const upstream = httpRequest(
      sim.url + path.replace(/^\/moved/, ''),
      { method: req.method, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    upstream.end();
  });
  return Object.assign(front, { url: server.url, close: () => server.close() });
}

export interface Service {
  sim: Simulator;
  /** The configured service address: the front the hosts talk to. */
  front: Front;
  /** Another origin, which must never receive anything. */
  other: Front;
  key: string;
  /** A watchable match before its start with a two-way moneyline (line id = event id × 10), opened at 2.00 / 1.90. */
  eventId: number;
  lineId: number;
  /** The match's handicap line, opened at 2.00 / 1.90 too: the line the suite moves (the moneyline stays put). */
  spreadLineId: number;
  close(): Promise<void>;
}

export async function startService(): Promise<Service> {
  const sim = await startSimulator({
    port: 0,
    seed: 11,
    clock: 'manual',
    events: 24,
    keys: [{ key: SERVICE_KEY, plan: 'enterprise' }],
  });
  const front = await startFront(sim);
  const other = await startFront(sim);
  const eventId = sim.truth.bookIds().find((id) => {
    const e = sim.truth.event(id);
    const ml = e?.markets.find((m) => m.line_id === id * 10);
    return e?.live_status !== 1 && ml?.prices && ml.prices.draw === undefined;
  });
  if (eventId === undefined) throw new Error('the seeded world has no pre-match two-way moneyline');
  sim.script.setMarket(eventId, eventId * 10, { home: 2.0, away: 1.9 });
  const spread = sim.truth.event(eventId)!.markets.find((m) => m.market === 'spread' && m.prices);
  if (!spread) throw new Error('the seeded match has no priced handicap line');
  sim.script.setMarket(eventId, spread.line_id, { home: 2.0, away: 1.9 });
  return {
    sim,
    front,
    other,
    key: SERVICE_KEY,
    eventId,
    lineId: eventId * 10,
    spreadLineId: spread.line_id,
    async close() {
      await front.close();
      await other.close();
      await sim.close();
    },
  };
}
