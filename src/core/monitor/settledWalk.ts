// Settlement discovery: the walk over /api/settled from the stored cursor. It is the only way to learn that a match
// settled, so it must never lose one and never store one twice. The consequences of the inclusive cursor:
// - the last second of a page comes again at the head of the next page: deduplicate on event_id;
// - a full page whose events all share the cursor's second cannot move the cursor: widen the page to the maximum,
//   and if even that is full, read that one second sport by sport before stepping past it;
// - a page with a malformed record is fetched again before the cursor moves past it, and if the record stays bad it
//   is asked for alone through /api/settlement; only if that fails too is it reported loudly (never dropped in
//   silence);
// - a fault (429, 5xx, network) while repairing a record or splitting a second stops the walk where it is: the
//   cursor stays before what is unread, and the next walk starts there again;
// - a line the schema does not know spoils that line only (the parser drops it and reports it);
// - the cursor moves in the same transaction as the settlements it covers, and whatever the caller writes for the
//   new ones (alerts, results owed) joins that transaction (`commitPage`);
// - what one page or one walk may cost is capped (RESPONSE_LIMITS, src/shared/api/limits.ts): a page's problems come
//   already bounded from the parser (a hostile page of a million bad records is refused after a few hundred, with one
//   summary problem), at most that many bad records of a page are asked for again, and the walk keeps its problems
//   within the same budget, so it goes on after such a page at the cost of a page, never of its contents.
import { problemBudget, problemCount, SETTLED_LIMIT, type SettledEvent, type SettledPage } from '../../shared/api';
import type { AppError } from '../../shared/errors';
import type { ApiClient } from '../api/client';
import type { BadRecord } from '../api/types';
import type { Store } from '../store';

export interface SettledWalkStore {
  settledCursor(): number | null;
  /**
   * Stores a page's events and moves the cursor to `newCursor` in one transaction; returns the events that were
   * not stored before (the caller adds their alerts inside the same transaction).
   */
  commitPage(events: readonly SettledEvent[], newCursor: number): SettledEvent[];
}

/** The walk's view of a store with nothing added to a page's transaction (tools and tests). */
export function plainWalkStore(store: Pick<Store, 'settlements' | 'transaction'>): SettledWalkStore {
  const { settlements } = store;
  return {
    settledCursor: () => settlements.settledCursor(),
    commitPage: (events, cursor) =>
      store.transaction(() => {
        const known = settlements.knownSettlements(events.map((e) => e.event_id));
        settlements.recordSettledPage(events, cursor);
        return events.filter((e) => !known.has(e.event_id));
      }),
  };
}

/** A fault that may pass: the walk stops and resumes from the same cursor next time. Only a record the service
 * itself says is gone or keeps malformed is given up on (loudly). */
export const isTransient = (e: AppError): boolean => e.kind !== 'not_found' && e.kind !== 'bad_payload';

/** Problems that spoil a whole record (and so are worth fetching again); a dropped line is not one of them. */
const recordLevel = (problems: readonly BadRecord[]) => problems.filter((p) => p.scope !== 'line');

export interface SettledWalkOptions {
  client: Pick<ApiClient, 'settled' | 'settlement'>;
  store: SettledWalkStore;
  /** Sport ids to split one overfull second by; an error stops the walk before that second. */
  sportIds: () => Promise<{ ok: true; value: number[] } | { ok: false; error: AppError }>;
  limit?: number;
  /** How often a page with a malformed record is fetched again before it is accepted as it is. */
  badPageRetries?: number;
  maxPages?: number;
}

export interface SettledWalkResult {
  /** Settlements stored for the first time by this walk, oldest first. */
  added: SettledEvent[];
  pages: number;
  cursor: number | null;
  problems: BadRecord[];
  error: AppError | null;
}

/** The walk's problems within the caps (src/shared/api/limits.ts). */
type ProblemBudget = ReturnType<typeof problemBudget>;

type PageResult = { ok: true; page: SettledPage; problems: BadRecord[] } | { ok: false; error: AppError };

export async function walkSettled(options: SettledWalkOptions): Promise<SettledWalkResult> {
  const { client, store } = options;
  const baseLimit = Math.min(options.limit ?? SETTLED_LIMIT.max, SETTLED_LIMIT.max);
  const retries = options.badPageRetries ?? 2;
  const maxPages = options.maxPages ?? 100_000;
  const added: SettledEvent[] = [];
  // The walk's problems within the caps: the first ones whole, the rest counted into one summary at the end.
  const budget = problemBudget('events');
  const problems = (): BadRecord[] =>
    budget
      .done()
      .map((p) =>
        'kind' in p
          ? (p as BadRecord)
          : { ...p, kind: 'bad_payload' as const, message: `Settled matches, this walk: ${p.message}` },
      );
  const seen = new Set<number>();
  let pages = 0;

  async function fetchPage(since: number | null, limit: number, sportId?: number): Promise<PageResult> {
    let last: PageResult | null = null;
    for (let attempt = 0; attempt <= retries; attempt++) {
      pages++;
      const r = await client.settled(
        { ...(since === null ? {} : { since }), limit, ...(sportId === undefined ? {} : { sportId }) },
        { priority: 'high', purpose: 'settled' },
      );
      if (!r.ok) return { ok: false, error: r.error };
      // Every bad record is reported, even one that a fetch again repaired: a trader should know the feed is ill.
      for (const p of r.problems) budget.add(p);
      last = { ok: true, page: r.value, problems: recordLevel(r.problems) };
      if (last.problems.length === 0) return last;
    }
    return last!;
  }

  /** Stores a page's events with the cursor; notes the ones never stored before. */
  function keep(events: readonly SettledEvent[], cursor: number): void {
    const unique = new Map<number, SettledEvent>();
    for (const e of events) unique.set(e.event_id, e);
    for (const e of store.commitPage([...unique.values()], cursor)) {
      if (seen.has(e.event_id)) continue;
      seen.add(e.event_id);
      added.push(e);
    }
  }

  /** Reads every event of one second (`second`) through per-sport pages; false when even that cannot finish. */
  async function readSecondBySport(
    second: number,
  ): Promise<{ ok: true; events: SettledEvent[] } | { ok: false; error: AppError }> {
    const events: SettledEvent[] = [];
    const sports = await options.sportIds();
    if (!sports.ok) return sports;
    if (sports.value.length === 0) {
      return {
        ok: false,
        error: {
          kind: 'bad_payload',
          message: `The service lists no sports to split the crowded second ${second} by; the walk waits before it.`,
        },
      };
    }
    for (const sportId of sports.value) {
      const r = await fetchPage(second, SETTLED_LIMIT.max, sportId);
      if (!r.ok) return r;
      const inSecond = r.page.events;
      if (r.page.count >= SETTLED_LIMIT.max && r.page.last === second) {
        return {
          ok: false,
          error: {
            kind: 'bad_payload',
            message: `More than ${SETTLED_LIMIT.max} settlements of one sport share one second (${second}); the service's cursor cannot page past it. Those beyond the first ${SETTLED_LIMIT.max} cannot be read.`,
          },
        };
      }
      for (const e of inSecond) events.push(e);
    }
    return { ok: true, events };
  }

  let since = store.settledCursor();
  let limit = baseLimit;
  while (pages < maxPages) {
    const r = await fetchPage(since, limit);
    if (!r.ok) return { added, pages, cursor: store.settledCursor(), problems: problems(), error: r.error };
    const { page } = r;
    // Records the page carried: the good ones and every bad one, a summary problem standing for many.
    const received = page.events.length + r.problems.reduce((n, p) => n + problemCount(p), 0);
    if (r.problems.length) {
      const fixed = await repair(client, budget, r.problems, page.events);
      if (!fixed.ok) return { added, pages, cursor: store.settledCursor(), problems: problems(), error: fixed.error };
      page.events = [...page.events, ...fixed.events].sort((a, b) => a.settled_at.localeCompare(b.settled_at));
    }
    if (since !== null && page.last < since) {
      return {
        added,
        pages,
        cursor: store.settledCursor(),
        problems: problems(),
        error: {
          kind: 'bad_payload',
          message: `The service moved the settled cursor backwards (${since} -> ${page.last}); the walk stopped and will try again.`,
        },
      };
    }
    const full = page.count >= limit || received >= limit;
    if (full && since !== null && page.last === since) {
      // Every event of this full page shares the cursor's second: the cursor cannot move.
      if (limit < SETTLED_LIMIT.max) {
        limit = SETTLED_LIMIT.max;
        continue;
      }
      const split = await readSecondBySport(since);
      if (!split.ok) return { added, pages, cursor: store.settledCursor(), problems: problems(), error: split.error };
      keep([...page.events, ...split.events], since + 1);
      since = since + 1;
      limit = baseLimit;
      continue;
    }
    keep(page.events, page.last);
    if (!full) break;
    since = page.last;
    limit = baseLimit;
  }
  return { added, pages, cursor: store.settledCursor(), problems: problems(), error: null };
}

/**
 * A record that stayed malformed in its page: fetch that one settlement alone. A transient fault stops the walk
 * (the page is not kept, so the cursor stays before it); only a record the service keeps malformed or says it does
 * not have is given up on, and that is reported loudly.
 */
async function repair(
  client: SettledWalkOptions['client'],
  budget: ProblemBudget,
  bad: readonly BadRecord[],
  have: readonly SettledEvent[],
): Promise<{ ok: true; events: SettledEvent[] } | { ok: false; error: AppError }> {
  const repaired: SettledEvent[] = [];
  for (const b of bad) {
    if (b.eventId === undefined) {
      const why =
        b.count === undefined
          ? 'the record carries no readable event_id, so it cannot be fetched again and is missing from the history.'
          : 'those records are not asked for again one by one, so they are missing from the history.';
      const gone: BadRecord = { ...b, message: `${b.message}; ${why}` };
      budget.add(gone);
      continue;
    }
    if (have.some((e) => e.event_id === b.eventId)) continue;
    const r = await client.settlement(b.eventId, { priority: 'high', purpose: 'repair' });
    if (!r.ok && isTransient(r.error)) return { ok: false, error: r.error };
    if (r.ok) {
      for (const p of r.problems) budget.add(p);
      repaired.push(r.value);
    } else {
      const gone: BadRecord = {
        kind: 'bad_payload',
        path: b.path,
        eventId: b.eventId,
        message: `The settlement of event ${b.eventId} arrived malformed and could not be fetched again (${r.error.message}); it is missing from the history.`,
      };
      budget.add(gone);
    }
  }
  return { ok: true, events: repaired };
}
