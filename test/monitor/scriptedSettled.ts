// A settled-matches service scripted straight from docs/service/assumptions.md (the inclusive cursor, sport filter, limit,
// /api/settlement, /api/sports), with hooks to spoil bodies and inject faults: the upstream our simulator is not.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { formatServiceTime, type SettledEvent } from '../../src/shared/api';

export const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

export function settled(id: number, second: number, sportId = 1): SettledEvent {
  return {
    event_id: id,
    sport_id: sportId,
    league_id: 10 + sportId,
    league_name: `League ${sportId}`,
    runner_home: `Home ${id}`,
    runner_away: `Away ${id}`,
    starts: formatServiceTime(T0 - 7_200_000),
    score_home: id % 4,
    score_away: (id + 1) % 3,
    status: 'ended',
    settled_at: formatServiceTime(T0 + second * 1000),
    settlement: [
      {
        line_id: id * 10,
        period: 0,
        market: 'moneyline',
        line: null,
        outcome_home: 'win',
        outcome_draw: 'loss',
        outcome_away: 'loss',
      },
      {
        line_id: id * 10 + 1,
        period: 0,
        market: 'totals',
        line: 3,
        outcome_home: 'push',
        outcome_draw: 'push',
        outcome_away: 'push',
      },
    ],
  };
}

export interface Scripted {
  url: string;
  events: SettledEvent[];
  calls: string[];
  /** Called before answering; may change the events or the body. */
  hook?: (query: URLSearchParams, body: { last: number; since: number; count: number; events: unknown[] }) => void;
  /** Called first for every request: a fault to answer with instead ('drop' closes the connection unanswered). */
  fault?: (path: string, query: URLSearchParams) => 'drop' | { status: number; retryAfter?: number } | undefined;
  /** Events whose body in /api/settled is replaced (a record spoilt only inside pages). */
  spoilInPages?: (e: SettledEvent) => unknown;
  /** Real ms to wait before each answer (so a child can be killed mid-walk). */
  delayMs?: number;
  close(): Promise<void>;
}

export async function scriptedService(events: SettledEvent[], serverLimitCap = 1000): Promise<Scripted> {
  const s: Partial<Scripted> & { events: SettledEvent[]; calls: string[] } = { events, calls: [] };
  const server = http.createServer((req, res) => {
    if (s.delayMs) setTimeout(() => answer(req, res), s.delayMs);
    else answer(req, res);
  });
  const answer = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url!, 'http://x');
    s.calls.push(url.pathname + url.search);
    const fault = s.fault?.(url.pathname, url.searchParams);
    if (fault === 'drop') {
      req.socket.destroy();
      return;
    }
    if (fault) {
      res.statusCode = fault.status;
      if (fault.retryAfter !== undefined) res.setHeader('retry-after', String(fault.retryAfter));
      res.end(JSON.stringify({ detail: fault.status === 429 ? 'Hourly quota exceeded' : 'Upstream fault' }));
      return;
    }
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/api/settlement') {
      const e = s.events.find((x) => x.event_id === Number(url.searchParams.get('event_id')));
      res.statusCode = e ? 200 : 404;
      res.end(JSON.stringify(e ?? { detail: 'Not settled' }));
      return;
    }
    if (url.pathname === '/api/sports') {
      res.end(JSON.stringify([1, 2, 3].map((id) => ({ sport_id: id, name: `Sport ${id}` }))));
      return;
    }
    const q = url.searchParams;
    const sinceText = q.get('since');
    const since = sinceText === null ? Math.floor(T0 / 1000) - 86_400 : Number(sinceText);
    const limit = Math.min(Number(q.get('limit') ?? 200), serverLimitCap);
    const sport = q.get('sport_id');
    const secs = (e: SettledEvent) => Math.floor(Date.parse(`${e.settled_at}Z`) / 1000);
    const page = s.events
      .filter((e) => secs(e) >= since && (sport === null || e.sport_id === Number(sport)))
      .sort((a, b) => secs(a) - secs(b) || a.event_id - b.event_id)
      .slice(0, limit);
    const events = s.spoilInPages ? page.map((e) => s.spoilInPages!(e)) : (page as unknown[]);
    const body = { last: page.length ? secs(page[page.length - 1]!) : since, since, count: page.length, events };
    s.hook?.(q, body);
    res.end(JSON.stringify(body));
  };
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  s.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  s.close = () => new Promise<void>((r) => server.close(() => r()));
  return s as Scripted;
}
