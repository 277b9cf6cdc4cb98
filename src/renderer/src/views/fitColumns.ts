// Column widths from the content for the virtualised lists whose rows React draws (settlements, alerts): after each
// render, the content of every cell of the rows on screen (and of the header) is measured, and each column is made as
// wide as the widest seen since the list was opened (it never narrows under the pointer as rows scroll by). What the
// window has beyond that is left empty at the right; a list wider than its pane scrolls sideways, its first column
// kept in sight (styles.css). The watchlist sizes its columns its own way (GridSizer.tsx): its cells are written by
// listeners, not by renders.
import { useLayoutEffect, useState, type CSSProperties, type RefObject } from 'react';

/** The width of what `el` holds (its text, however it is clipped), with its own padding. */
function contentWidth(el: Element, range: Range): number {
  range.selectNodeContents(el);
  const inner = range.getBoundingClientRect().width;
  const css = getComputedStyle(el);
  return Math.ceil(
    inner +
      parseFloat(css.paddingLeft) +
      parseFloat(css.paddingRight) +
      parseFloat(css.borderLeftWidth) +
      parseFloat(css.borderRightWidth),
  );
}

/**
 * The grid template for the rows under `body` (`[role="row"]`, the header's too), as CSS variables: --fit-cols (each
 * column its widest content, then the room left) and --fit-min (the width under which the list scrolls sideways).
 * `floors`: each column's least width (a header with no label, an empty list).
 */
export function useFitColumns(body: RefObject<HTMLElement | null>, floors: readonly number[]): CSSProperties {
  const [widths, setWidths] = useState<readonly number[]>(floors);
  // After every render: the rows on screen change with the list's own renders (scrolled, filtered, a new row), and the
  // widths change only when a cell is wider than any before it, so this settles after one more render at most.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useLayoutEffect(() => {
    const el = body.current;
    if (!el) return;
    const range = document.createRange();
    const next = [...widths];
    for (const row of el.querySelectorAll('[role="row"]')) {
      const cells = row.children;
      for (let i = 0; i < cells.length && i < next.length; i++) {
        const cell = cells[i]!;
        if (cell.getClientRects().length === 0) continue;
        next[i] = Math.max(next[i]!, contentWidth(cell, range));
      }
    }
    if (next.some((w, i) => w !== widths[i])) setWidths(next);
  });
  const total = widths.reduce((a, b) => a + b, 0);
  return {
    '--fit-cols': [...widths.map((w) => `${w}px`), 'minmax(0, 1fr)'].join(' '),
    '--fit-min': `${total}px`,
  } as CSSProperties;
}
