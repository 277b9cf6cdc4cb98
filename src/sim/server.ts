// The simulator's HTTP front: the request pipeline of the service (auth, hourly quota, faults, plan, validation,
// answer) for /api, the sim-only control routes under /__sim/, and the request log tests read.
// The control routes need no key and can issue keys, move the clock and switch faults on, so they are guarded: a
// simulator may be started without them (demo mode is: they answer 404), and where they are served they answer only
// a request whose Host names the loopback address the server listens on (127.0.0.1:PORT or localhost:PORT; a page a
// browser loaded from another name, DNS-rebound to 127.0.0.1, sends its own name and is refused with 421), and read
// a body of at most MAX_CONTROL_BODY_BYTES (413 beyond, the body not kept).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DevigModel, Plan } from '../shared/api';
import { errorMessage } from '../shared/errors';
import {
  API_KEY_HEADER,
  DEVIG_MODELS,
  ENTERPRISE_PATHS,
  PATHS,
  PLAN_RESTRICTED_STATUS,
  PLANS,
  RATE_LIMIT_HEADERS,
  PARAMS,
} from '../shared/api';
import type { Access, Faults, KeyRecord, QuotaVerdict } from './access';
import { Prng } from './prng';
import { ROUTES, type JsonAnswer } from './routes';
import type { StreamHub } from './stream';
import { QueryReader } from './validate';
import type { World } from './world';

export interface RequestLogEntry {
  /** Real ms since the epoch. */
  at: number;
  /** Simulated ms since the epoch. */
  simAt: number;
  method: string;
  path: string;
  query: string;
  /** Stable id of the key (never the key); null when none was sent, 'unknown' for a key the sim does not know. */
  keyId: string | null;
  status: number;
}

const LOG_CAP = 10_000;

/** The most a control request's body may carry: its bodies are a few small JSON fields. */
export const MAX_CONTROL_BODY_BYTES = 1024 * 1024;
/**
 * After a 413, the rest of the body is read and dropped up to this much in all, so that a client still sending can
 * read the answer (closing on unread bytes resets the connection, answer and all); a body longer still is cut.
 */
const DRAIN_CAP_BYTES = 8 * MAX_CONTROL_BODY_BYTES;

export interface ServerDeps {
  world: World;
  access: Access;
  streams: StreamHub;
  seed: number;
  rateLimitHeaders: boolean;
  simNow(): number;
  realNow(): number;
  /** Real seconds a client must wait for `simSeconds` of simulated time to pass. */
  realSecondsFor(simSeconds: number): number;
  /** Moves the manual clock; rejects on a real clock. */
  advance(seconds: number): Promise<void>;
  /** Serve the /__sim/ control routes; without them they answer 404 like any unknown path. */
  controlRoutes: boolean;
  /** The port the server listens on (on 127.0.0.1): control requests must name it in their Host. */
  port(): number;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

export class SimServer {
  private readonly log: RequestLogEntry[] = [];
  /** Fault dice have their own seed, so turning faults on never changes the world. */
  private readonly faultRng: Prng;

  constructor(private readonly deps: ServerDeps) {
    this.faultRng = new Prng(deps.seed ^ 0xfa017);
  }

  requestLog(): RequestLogEntry[] {
    return this.log.map((e) => ({ ...e }));
  }

  handle(req: IncomingMessage, res: ServerResponse): void {
    // The `Date` header is the simulated clock's, as a real service's is its own clock's (a client may measure a
    // Retry-After date against it); Node's own would be the real clock, and answers would not be byte-identical.
    res.sendDate = false;
    res.setHeader('Date', new Date(this.deps.simNow()).toUTCString());
    const url = new URL(req.url ?? '/', 'http://sim.local');
    const entry: RequestLogEntry = {
      at: this.deps.realNow(),
      simAt: this.deps.simNow(),
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.search,
      keyId: null,
      status: 0,
    };
    this.log.push(entry);
    if (this.log.length > LOG_CAP) this.log.splice(0, this.log.length - LOG_CAP);
    res.on('finish', () => (entry.status = res.statusCode));
    res.on('close', () => (entry.status ||= res.statusCode));
    const work = !url.pathname.startsWith('/__sim/')
      ? this.api(req, res, url, entry)
      : this.deps.controlRoutes
        ? this.control(req, res, url)
        : Promise.resolve(this.json(res, 404, { detail: 'Not Found' }));
    work.catch((e: unknown) => {
      const status = e instanceof HttpError ? e.status : 500;
      const detail = errorMessage(e);
      if (!res.headersSent) this.json(res, status, { detail });
      else res.destroy();
    });
  }

  // ---- the /api pipeline ----

  private async api(req: IncomingMessage, res: ServerResponse, url: URL, entry: RequestLogEntry): Promise<void> {
    const route = ROUTES[url.pathname];
    const isStream = url.pathname === PATHS.stream;
    const sentKey = req.headers[API_KEY_HEADER.toLowerCase()];
    const keyText = Array.isArray(sentKey) ? sentKey[0] : sentKey;
    const key = this.deps.access.get(keyText);
    entry.keyId = key ? key.id : keyText === undefined ? null : 'unknown';
    const faults = this.deps.access.faultsFor(key ? key.key : null);
    if (faults.latencyMs) await new Promise((r) => setTimeout(r, faults.latencyMs));
    if (req.method !== 'GET') return this.json(res, 405, { detail: 'Method Not Allowed' });
    if (url.pathname === PATHS.status) return this.answer(res, this.run(route, url, null), {}, faults);
    if (!key) return this.json(res, 401, { detail: 'Not authenticated' });

    const verdict = this.deps.access.count(key, this.deps.simNow());
    const headers = this.rateHeaders(verdict, faults.rateLimitHeaders ?? this.deps.rateLimitHeaders);
    const storm = faults.stormUntilRealMs !== undefined && this.deps.realNow() < faults.stormUntilRealMs;
    if (!verdict.allowed || storm) {
      const wait =
        faults.retryAfterS ??
        (storm && verdict.allowed
          ? Math.ceil(((faults.stormUntilRealMs ?? 0) - this.deps.realNow()) / 1000)
          : this.deps.realSecondsFor(verdict.secondsToReset));
      headers[RATE_LIMIT_HEADERS.retryAfter] = String(Math.max(1, Math.ceil(wait)));
      return this.json(res, 429, { detail: 'Hourly quota exceeded' }, headers);
    }
    if (faults.serverErrorRate && this.faultRng.chance(faults.serverErrorRate)) {
      const status = this.faultRng.pick([500, 502, 503]);
      return this.json(res, status, { detail: 'Upstream error (simulated)' }, headers);
    }
    if (!route && !isStream) return this.json(res, 404, { detail: 'Not Found' }, headers);
    if ((ENTERPRISE_PATHS as readonly string[]).includes(url.pathname) && key.plan !== 'enterprise') {
      const body = {
        detail: 'This endpoint is reserved to the enterprise plan',
        your_plan: key.plan,
        required_plan: 'enterprise',
      };
      return this.json(res, PLAN_RESTRICTED_STATUS, body, headers);
    }
    if (isStream) return this.stream(req, res, url, key, headers);
    return this.answer(res, this.run(route, url, key), headers, faults);
  }

  private run(route: (typeof ROUTES)[string] | undefined, url: URL, key: KeyRecord | null): JsonAnswer {
    if (!route) return { status: 404, body: { detail: 'Not Found' } };
    const q = new QueryReader(url.searchParams);
    const answer = route({ world: this.deps.world, q, key, simNowMs: this.deps.simNow() });
    return answer && !q.issues.length ? answer : { status: 422, body: { detail: q.issues } };
  }

  private stream(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    key: KeyRecord,
    headers: Record<string, string>,
  ): void {
    const q = new QueryReader(url.searchParams);
    const eventId = q.requiredInt(PARAMS.stream.eventId);
    if (eventId === null) return this.json(res, 422, { detail: q.issues }, headers);
    if (this.deps.world.streamState(eventId).kind === 'unknown') {
      return this.json(res, 404, { detail: `Event ${eventId} not found` }, headers);
    }
    this.deps.streams.open(req, res, eventId, key.key, headers);
  }

  private rateHeaders(v: QuotaVerdict, on: boolean): Record<string, string> {
    if (!on) return {};
    return {
      [RATE_LIMIT_HEADERS.limit]: String(v.limit),
      [RATE_LIMIT_HEADERS.remaining]: String(v.remaining),
      [RATE_LIMIT_HEADERS.reset]: String(v.resetSec),
    };
  }

  private answer(res: ServerResponse, answer: JsonAnswer, headers: Record<string, string>, faults: Faults): void {
    if (answer.status === 200 && faults.malformedRate && this.faultRng.chance(faults.malformedRate)) {
      return this.send(res, 200, this.malformed(answer.body), headers);
    }
    this.json(res, answer.status, answer.body, headers);
  }

  /** Either one record with a field of the wrong type (the client must drop just that one) or truncated JSON. */
  private malformed(body: unknown): string {
    const records = Array.isArray(body)
      ? body
      : body && typeof body === 'object' && Array.isArray((body as { events?: unknown }).events)
        ? (body as { events: unknown[] }).events
        : null;
    if (records && records.length && this.faultRng.chance(0.7)) {
      const copy = structuredClone(body) as unknown[] | { events: unknown[] };
      const list = Array.isArray(copy) ? copy : copy.events;
      const i = this.faultRng.int(0, list.length - 1);
      const record = list[i];
      if (record && typeof record === 'object') {
        const first = Object.keys(record)[0];
        if (first) (record as Record<string, unknown>)[first] = 'not-a-number';
      }
      return JSON.stringify(copy);
    }
    const text = JSON.stringify(body);
    return text.slice(0, Math.max(1, Math.floor(text.length / 2)));
  }

  private json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    this.send(res, status, JSON.stringify(body), headers);
  }

  private send(res: ServerResponse, status: number, text: string, headers: Record<string, string>): void {
    res.writeHead(status, {
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(text)),
      ...headers,
    });
    res.end(text);
  }

  // ---- /__sim/ control ----

  /**
   * Whether a control request came from a client that addressed this server by its loopback address: the Host names
   * 127.0.0.1 or localhost with the port listened on, and the request target is a path (an absolute URL in the request
   * line would name a host of its own).
   */
  private loopbackHost(req: IncomingMessage): boolean {
    const host = (req.headers.host ?? '').toLowerCase();
    const port = this.deps.port();
    return (req.url ?? '').startsWith('/') && (host === `127.0.0.1:${port}` || host === `localhost:${port}`);
  }

  private async control(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const { access, world } = this.deps;
    if (!this.loopbackHost(req)) {
      const port = this.deps.port();
      throw new HttpError(421, `control routes answer only to Host 127.0.0.1:${port} or localhost:${port}`);
    }
    const route = `${req.method ?? 'GET'} ${url.pathname}`;
    if (route === 'GET /__sim/requests') return this.json(res, 200, this.requestLog());
    if (route === 'GET /__sim/truth/settled') return this.json(res, 200, world.allSettled());
    if (route === 'GET /__sim/truth/max-win-changes') return this.json(res, 200, world.maxWinChanges());
    if (route === 'GET /__sim/truth/scenarios') return this.json(res, 200, world.scenarios());
    if (route === 'GET /__sim/truth/event') {
      const odds = world.eventOdds(Number(url.searchParams.get('event_id')));
      return odds ? this.json(res, 200, odds) : this.json(res, 404, { detail: 'Event not in the book' });
    }
    if (req.method !== 'POST') throw new HttpError(404, 'Not Found');
    const body = await readJson(req);
    switch (url.pathname) {
      case '/__sim/keys': {
        const plan = body.plan;
        if (!(PLANS as readonly unknown[]).includes(plan))
          throw new HttpError(400, `plan must be one of ${PLANS.join(', ')}`);
        const model = body.model;
        if (model !== undefined && !(DEVIG_MODELS as readonly unknown[]).includes(model))
          throw new HttpError(400, 'unknown model');
        const record = access.add(plan as Plan, {
          ...(typeof body.quotaPerHour === 'number' ? { quotaPerHour: body.quotaPerHour } : {}),
          ...(typeof body.key === 'string' ? { key: body.key } : {}),
          model: (model as DevigModel | undefined) ?? null,
        });
        return this.json(res, 200, { key: record.key });
      }
      case '/__sim/keys/regenerate':
        return this.json(res, 200, { key: guard(() => access.regenerate(String(body.key))) });
      case '/__sim/keys/revoke':
        guard(() => access.revoke(String(body.key)));
        return this.json(res, 200, {});
      case '/__sim/advance': {
        const seconds = Number(body.seconds);
        if (!Number.isFinite(seconds) || seconds < 0) throw new HttpError(400, 'seconds must be a number >= 0');
        await this.deps.advance(seconds);
        return this.json(res, 200, { now: new Date(this.deps.simNow()).toISOString().slice(0, 19) });
      }
      case '/__sim/faults': {
        const { key, ...faults } = body;
        guard(() => access.setFaults(faults as Faults, typeof key === 'string' ? key : undefined, this.deps.realNow()));
        return this.json(res, 200, {});
      }
      default:
        throw new HttpError(404, 'Not Found');
    }
  }
}

function guard<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw new HttpError(400, errorMessage(e));
  }
}

/**
 * The request body as text, at most MAX_CONTROL_BODY_BYTES: a Content-Length over it is refused before a byte is read,
 * a body without one as soon as it passes it; either way with 413, keeping none of it.
 */
function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let over = false;
    let ended = false;
    const refuse = () => {
      over = true;
      chunks.length = 0;
      reject(new HttpError(413, `the body is larger than ${MAX_CONTROL_BODY_BYTES} bytes`));
    };
    if (Number(req.headers['content-length']) > MAX_CONTROL_BODY_BYTES) refuse();
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (over) {
        if (bytes > DRAIN_CAP_BYTES) req.socket.destroy();
        return;
      }
      if (bytes > MAX_CONTROL_BODY_BYTES) return refuse();
      chunks.push(chunk);
    });
    req.on('end', () => {
      ended = true;
      if (!over) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('close', () => {
      if (!ended && !over) reject(new HttpError(400, 'the body did not arrive whole'));
    });
  });
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const text = (await readBody(req)).trim();
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through to the 400 below
  }
  throw new HttpError(400, 'body must be a JSON object');
}
