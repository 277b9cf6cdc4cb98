// One event id, one match (issue 34, class 2). The service keys events by id, and nothing in the specification lets an
// id name another match later; yet a restarted book (the demo's world, an upstream reset) can. So an id's match is
// what we first stored of it, and a later description that names another match is not an update of it: another sport,
// other teams, or a start moved more than MAX_START_MOVE_MS. Such a description is never merged into the stored match
// (its names, settlement, snooze and bets stay its own); the watched row is flagged and shows nothing of the other
// match but its name in the flag. Names compare without case and spacing; a field either side leaves out (a stream's
// bare id) is no evidence either way. The core judges it once (the store's Ingest.namesAnotherMatch, which keeps the
// flag for good; the monitor stops the id's stream); the page only shows the flag it is given.

/** A kick-off moved further than this is another match (postponements of a day or two are the same match). */
export const MAX_START_MOVE_MS = 3 * 24 * 3600_000;

export interface EventIdentity {
  sportId: number | null;
  runnerHome: string | null;
  runnerAway: string | null;
  /** Unix ms. */
  starts: number | null;
}

const fold = (s: string) => s.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
const differ = <T>(a: T | null, b: T | null, same: (x: T, y: T) => boolean) => a !== null && b !== null && !same(a, b);

/** Whether `incoming` describes another match than `stored` (same id): the rule above. */
export function describesAnotherMatch(stored: EventIdentity, incoming: EventIdentity): boolean {
  return (
    differ(stored.sportId, incoming.sportId, (x, y) => x === y) ||
    differ(stored.runnerHome, incoming.runnerHome, (x, y) => fold(x) === fold(y)) ||
    differ(stored.runnerAway, incoming.runnerAway, (x, y) => fold(x) === fold(y)) ||
    differ(stored.starts, incoming.starts, (x, y) => Math.abs(x - y) <= MAX_START_MOVE_MS)
  );
}

/** The other match as the watched row's flag names it: "Oakton Pilots v Redford Owls (Baseball)". */
export function otherMatchName(m: {
  runnerHome: string | null;
  runnerAway: string | null;
  sportName: string | null;
}): string {
  return `${m.runnerHome ?? '?'} v ${m.runnerAway ?? '?'}${m.sportName ? ` (${m.sportName})` : ''}`;
}
