// The widest texts the watchlist's live cells have written, by kind ("price:decimal", "line", "score", ...), so the
// grid sizes each column from what it shows (views/GridSizer.tsx measures them). A cell writes its text straight into
// the DOM on a tick (PriceCell, gridCells); it tells this module too, which costs a length comparison: digits count as
// one shape ("12.500" and "10.750" are both "00.000"; digits are tabular), and only a longer shape, or another shape
// of the same length, is kept and announced. So a column grows when a wider price first shows ("501.000") and is
// never narrowed under the trader's eyes while the session lasts.

import { Emitter } from '../../../shared/event';

const MAX_SHAPES = 4;
const widest = new Map<string, string[]>();
const fits = new Emitter<[]>({ name: "the grid's widest texts" });
let version = 0;
let announcing = false;

function announce(): void {
  version++;
  if (announcing) return;
  announcing = true;
  // Once for a burst of writes (a snapshot writes every cell at once), after them.
  queueMicrotask(() => {
    announcing = false;
    fits.fire();
  });
}

/** A cell of `kind` shows `text` now. */
export function noteFit(kind: string, text: string): void {
  const kept = widest.get(kind);
  const length = kept?.[0]?.length ?? -1;
  // A shape is as long as its text: the common write (no wider than what is kept) ends here, with no string made.
  if (text.length < length) return;
  const shape = text.replace(/\d/g, '0');
  if (shape.length === length) {
    if (kept!.includes(shape) || kept!.length >= MAX_SHAPES) return;
    kept!.push(shape);
  } else widest.set(kind, [shape]);
  announce();
}

/** The widest shapes written for `kind` so far (digits as 0). */
export const fitShapes = (kind: string): readonly string[] => widest.get(kind) ?? [];

/** The kinds written so far that start with `prefix` ("score:" gives one per badge). */
export const fitKinds = (prefix: string): string[] => [...widest.keys()].filter((k) => k.startsWith(prefix));

/** For useSyncExternalStore: a number that changes when a kind's widest shapes do. */
export const fitVersion = (): number => version;
export function onFit(listener: () => void): () => void {
  return fits.event(listener);
}
