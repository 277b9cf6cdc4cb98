// The model scoreboard's sums kept per match (the store's model_score_matches, migration 012): the matches marked
// stale since their sums were kept (a close, a settlement or re-settlement arrived) are scored again from their lines
// and kept, a slice of matches at a time. A scoring run does it first (src/core/report/run.ts), so it reads one row
// per match and never every line; the host does it when it opens a history file (src/core/core.ts), so the first
// Models view after an upgrade (every match stale: migration 012) or a day's recording is as quick as the next one.
import type { Store } from '../store';
import { matchSums, packSums, type SettledClose } from './scoreboard';

export type KeptSumsStore = Pick<Store, 'scores'>;

export interface KeepOptions {
  /** Matches scored and kept in one transaction (default 200: about 8,000 lines). */
  sliceMatches?: number;
  /** Between two slices: the event loop's turn in the host (a scoring run); none at start-up. */
  between?: () => Promise<void> | void;
  /** Closed lines of the stale matches done of all of them, after each slice (and 0 of them first). */
  onProgress?: (done: number, total: number) => void;
}

/** Scores and keeps up to `slice` stale matches (the first in id order); returns them and their closed lines. */
function keepSlice(store: KeptSumsStore, slice: number): { matches: number; lines: number } {
  const stale = store.scores.scoreboardStale(slice);
  let lines = 0;
  const fresh = stale.map((m) => {
    const rows: SettledClose[] = [];
    const counts = store.scores.scoreboardMatchLines(m.eventId, (row) => rows.push({ ...row }));
    lines += counts.closed;
    const sums = counts.settled > 0 ? matchSums(rows) : null;
    return { ...m, ...counts, sums: sums && packSums(sums) };
  });
  if (fresh.length > 0) store.scores.keepScoreboardMatches(fresh);
  return { matches: fresh.length, lines };
}

/** Every stale match scored and kept, a slice at a time: yields after each slice how many matches were kept so far. */
function* keepAll(store: KeptSumsStore, o: Omit<KeepOptions, 'between'>): Generator<number, number> {
  const slice = o.sliceMatches ?? 200;
  const { matches, lines } = store.scores.scoreboardStaleCount();
  if (matches === 0) return 0;
  o.onProgress?.(0, lines);
  let done = 0;
  let kept = 0;
  for (;;) {
    // A match marked again while it was scored stays stale and is read again by the next slice.
    const k = keepSlice(store, slice);
    if (k.matches === 0) return kept;
    kept += k.matches;
    done += k.lines;
    o.onProgress?.(Math.min(done, lines), lines);
    yield kept;
  }
}

/** Scores and keeps every stale match, with `between` after each slice; returns how many were kept. */
export async function keepScoreSums(store: KeptSumsStore, o: KeepOptions = {}): Promise<number> {
  const run = keepAll(store, o);
  for (let step = run.next(); ; step = run.next()) {
    if (step.done) return step.value;
    await o.between?.();
  }
}

/** The same without a turn between slices (the host's start, before anything reads the store). */
export function keepScoreSumsNow(store: KeptSumsStore, o: Omit<KeepOptions, 'between'> = {}): number {
  const run = keepAll(store, o);
  for (let step = run.next(); ; step = run.next()) if (step.done) return step.value;
}
