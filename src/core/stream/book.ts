// The book of one event's live odds stream: the odds as the stream's messages build them (a snapshot replaces them,
// an odds message changes markets by line, a score message the score, an end closes the book), the id of the last
// message applied and the counts of what was applied, replayed or skipped. Pure: `applyMessage` takes the book and
// one message as the parser read it and returns the next book and what to tell listeners, in order. No I/O, no clock
// (the caller passes the instant), no mutation of the book it was given: the connection (./client.ts) owns the socket
// and feeds this. The odds it holds are never handed out: every emitted value is a copy.
import {
  EndMessageSchema,
  EventOddsSchema,
  OddsMessageSchema,
  ScoreMessageSchema,
  parseMarkets,
  type EndMessage,
  type EventOdds,
  type Market,
  type ScoreMessage,
  type StreamEventName,
} from '../../shared/api';
import type { BadRecord } from '../api/types';

/** The counts the book keeps (the connection adds its own: connections, watchdog trips). */
export interface BookStats {
  applied: number;
  /** Messages whose id was at or below the last applied one: replays we must not apply twice. */
  duplicates: number;
  unknownEvents: number;
  badRecords: number;
}

export interface Book {
  readonly eventId: number;
  /** The event's odds, or null before the first snapshot. Markets with `prices: null` are offline. */
  readonly odds: EventOdds | null;
  /** line_id -> index in odds.markets: built with each snapshot, so an update costs no index of its own. */
  readonly lineIndex: ReadonlyMap<number, number>;
  /** Id of the last message applied; sent as Last-Event-ID on reconnect. */
  readonly lastEventId: number | null;
  /** When the last message (not a ping) arrived, ms since epoch on the caller's clock. */
  readonly lastEventAt: number | null;
  readonly stats: Readonly<BookStats>;
}

/** One message as the SSE parser gives it: its event name ('' or 'message' when none), its data, its id ('' when none). */
export interface StreamMessage {
  event: string;
  data: string;
  id: string;
}

/** What applying a message has to tell, in the order it must be told. */
export type BookEffect =
  | { type: 'problem'; problem: BadRecord }
  | { type: 'applied'; id: number | null; event: StreamEventName }
  | { type: 'snapshot'; odds: EventOdds }
  | { type: 'markets'; markets: Market[] }
  | { type: 'score'; score: ScoreMessage }
  /** The event left the book: the connection is to stop, and the stream has ended. */
  | { type: 'end'; end: EndMessage };

export interface BookStep {
  book: Book;
  effects: BookEffect[];
}

export function emptyBook(eventId: number): Book {
  return {
    eventId,
    odds: null,
    lineIndex: new Map(),
    lastEventId: null,
    lastEventAt: null,
    stats: { applied: 0, duplicates: 0, unknownEvents: 0, badRecords: 0 },
  };
}

/** A copy of odds that shares nothing a listener could change with the book. */
export function cloneOdds(o: EventOdds): EventOdds {
  return { ...o, markets: o.markets.map((m) => ({ ...m, prices: m.prices ? { ...m.prices } : null })) };
}

/** Collects one message's effects and counts; `done` returns the next book. */
class Step {
  readonly effects: BookEffect[] = [];
  private readonly stats: BookStats;
  private lastEventId: number | null;

  constructor(
    private readonly book: Book,
    private readonly now: number,
  ) {
    this.stats = { ...book.stats };
    this.lastEventId = book.lastEventId;
  }

  problem(path: string, message: string): void {
    this.stats.badRecords++;
    this.effects.push({
      type: 'problem',
      problem: { kind: 'bad_payload', path, message: `Live odds stream of event ${this.book.eventId}: ${message}` },
    });
  }

  count(what: 'duplicates' | 'unknownEvents'): void {
    this.stats[what]++;
  }

  /** One applied message: the id moves forward and the audit hook hears of it. */
  applied(id: number | null, event: StreamEventName): void {
    if (id !== null) this.lastEventId = id;
    this.stats.applied++;
    this.effects.push({ type: 'applied', id, event });
  }

  done(change: Partial<Pick<Book, 'odds' | 'lineIndex'>> = {}): BookStep {
    const book: Book = {
      ...this.book,
      ...change,
      lastEventId: this.lastEventId,
      lastEventAt: this.now,
      stats: this.stats,
    };
    return { book, effects: this.effects };
  }
}

function parseData(step: Step, name: string, data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    step.problem(name, 'a message that is not JSON was skipped');
    return undefined;
  }
}

/** Applies one message to the book; `now` is when it arrived. */
export function applyMessage(book: Book, message: StreamMessage, now: number): BookStep {
  const name = message.event || 'message';
  const id = message.id !== '' && Number.isFinite(Number(message.id)) ? Number(message.id) : null;
  const step = new Step(book, now);
  if (name !== 'snapshot' && name !== 'odds' && name !== 'score' && name !== 'end') {
    step.count('unknownEvents');
    return step.done();
  }
  const stale = id !== null && book.lastEventId !== null && id <= book.lastEventId;
  if (stale && name !== 'snapshot' && name !== 'end') {
    step.count('duplicates');
    return step.done();
  }
  const data = parseData(step, name, message.data);
  if (data === undefined) return step.done();
  if (name === 'snapshot') return applySnapshot(step, data, id);
  if (name === 'end') {
    const end = EndMessageSchema.safeParse(data);
    const message: EndMessage = end.success ? end.data : { event_id: book.eventId, reason: 'removed' };
    step.applied(id, 'end');
    step.effects.push({ type: 'end', end: message });
    return step.done();
  }
  if (!book.odds) {
    // Without a snapshot there is nothing to apply a change to; the service always starts with one.
    step.problem(name, 'an update arrived before any snapshot and was skipped');
    return step.done();
  }
  return name === 'odds' ? applyOdds(step, book, book.odds, data, id) : applyScore(step, book.odds, data, id);
}

/** What each kind of message is called when it does not match the contract. */
const KIND_WORDS = { snapshot: 'a snapshot', odds: 'an odds update', score: 'a score update' } as const;

/** The message's data as its schema reads it, or null (a problem told) when it does not match the contract. */
function readContract<T>(
  step: Step,
  kind: keyof typeof KIND_WORDS,
  schema: { safeParse(data: unknown): { success: true; data: T } | { success: false } },
  data: unknown,
): T | null {
  const r = schema.safeParse(data);
  if (r.success) return r.data;
  step.problem(kind, `${KIND_WORDS[kind]} that does not match the contract was skipped`);
  return null;
}

/** The message's markets that can be read; each one dropped is a problem told. */
function readMarkets(step: Step, kind: 'snapshot' | 'odds', raw: readonly unknown[]): Market[] {
  const markets = parseMarkets(raw);
  markets.problems.forEach((p) => step.problem(`${kind}.${p.path}`, `dropped a market: ${p.message}`));
  return markets.items;
}

function applySnapshot(step: Step, data: unknown, id: number | null): BookStep {
  const env = readContract(step, 'snapshot', EventOddsSchema, data);
  if (!env) return step.done();
  const markets = readMarkets(step, 'snapshot', env.markets);
  const odds: EventOdds = { ...env, markets };
  step.applied(id, 'snapshot');
  step.effects.push({ type: 'snapshot', odds: cloneOdds(odds) });
  return step.done({ odds, lineIndex: new Map(markets.map((m, i) => [m.line_id, i])) });
}

/** Changed markets replace theirs by line; a line not seen before is added at the end. */
function applyOdds(step: Step, book: Book, odds: EventOdds, data: unknown, id: number | null): BookStep {
  const env = readContract(step, 'odds', OddsMessageSchema, data);
  if (!env) return step.done();
  const changed = readMarkets(step, 'odds', env.markets);
  const markets = odds.markets.slice();
  /** The index is copied only when a line is new: most updates change prices of lines the book has. */
  let grown: Map<number, number> | null = null;
  for (const m of changed) {
    const i = (grown ?? book.lineIndex).get(m.line_id);
    if (i !== undefined) {
      markets[i] = m;
      continue;
    }
    grown ??= new Map(book.lineIndex);
    grown.set(m.line_id, markets.length);
    markets.push(m);
  }
  step.applied(id, 'odds');
  if (changed.length) step.effects.push({ type: 'markets', markets: changed.map((m) => ({ ...m })) });
  return step.done({ odds: { ...odds, markets }, lineIndex: grown ?? book.lineIndex });
}

function applyScore(step: Step, odds: EventOdds, data: unknown, id: number | null): BookStep {
  const score = readContract(step, 'score', ScoreMessageSchema, data);
  if (!score) return step.done();
  const next: EventOdds = {
    ...odds,
    live_status: score.live_status,
    score_home: score.score_home,
    score_away: score.score_away,
  };
  step.applied(id, 'score');
  step.effects.push({ type: 'score', score });
  return step.done({ odds: next });
}
