// The watchlist grid's columns sized from their content (issue 34, class 5): a hidden row of samples in the grid's
// own fonts and classes, measured once whenever a sample changes. The samples: the longest names, leagues and start
// times of the watched matches (read from the store), the widest prices, lines, fair prices, max stakes and scores the
// live cells have written (components/fitText.ts), and every header's label. Nothing here runs on a price tick
// unless that tick wrote a wider text than any before it.
import { useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import type { OddsFormat } from '../../../shared/formats';
import type { GridSortKey } from '../../../shared/gridLayout';
import { fitKinds, fitShapes, fitVersion, onFit } from '../components/fitText';
import { fmtShortDateTime, useTimeZone } from '../format';
import { useStore, type StoreState } from '../store';
import { COLUMN_CELLS, type ContentWidths } from './gridColumns';

/** How many of the longest texts (by characters) are measured: a name of fewer but wider letters is among them. */
const TOP = 12;
/** An arrow (▲ ▼) is always room kept in a price cell: it shows once the price moves. */
const ARROW = '▲';
const SIDES = ['home', 'draw', 'away', 'over', 'under'] as const;

function longest(texts: Iterable<string | null | undefined>): string[] {
  const unique = [...new Set([...texts].filter((t): t is string => !!t))];
  return unique.sort((a, b) => b.length - a.length).slice(0, TOP);
}

/** Which texts of each kind a header cell's column shows. */
const KIND_OF: Partial<Record<GridSortKey, string>> = {
  league: 'league',
  start: 'start',
  score: 'score',
  // By side: the moneyline's and the spread's home prices are one kind (a long shot's 501.000 widens its own side).
  home: 'price:home',
  draw: 'price:draw',
  away: 'price:away',
  spreadHome: 'price:home',
  spreadAway: 'price:away',
  over: 'price:over',
  under: 'price:under',
  fairHome: 'fair',
  fairDraw: 'fair',
  fairAway: 'fair',
  spreadLine: 'line',
  totalLine: 'line',
  maxWin: 'maxWin',
};

interface Candidates {
  names: string[];
  leagues: string[];
  starts: string[];
  /** A flag is drawn beside the names of a row (muted, snoozed). */
  flags: string[];
}

let last: { ids: unknown; events: unknown; settings: unknown; zone: string; out: Candidates; key: string } | null =
  null;
/** The longest names, leagues and start times of the watched matches; worked out again only when they may differ. */
function candidates(s: StoreState, zone: string): { out: Candidates; key: string } {
  if (
    last &&
    last.ids === s.watchIds &&
    last.events === s.watchEvents &&
    last.settings === s.settings &&
    last.zone === zone
  )
    return last;
  const events = s.watchIds.map((id) => s.watchEvents[id]).filter((e) => e !== undefined);
  const watched = new Set(s.watchIds);
  const flags = [
    ...(s.settings?.mutedEvents.some((id) => watched.has(id)) ? ['muted'] : []),
    ...(s.settings?.snoozedEvents.some((x) => watched.has(x.eventId)) ? ['snoozed'] : []),
  ];
  const out: Candidates = {
    names: longest(events.flatMap((e) => [e.runnerHome, e.runnerAway])),
    leagues: longest(events.map((e) => e.leagueName)),
    starts: longest(events.map((e) => fmtShortDateTime(e.starts, zone))),
    flags,
  };
  last = { ids: s.watchIds, events: s.watchEvents, settings: s.settings, zone, out, key: JSON.stringify(out) };
  return last;
}

/** Texts of one kind, each in a cell of the grid's classes. */
function Samples(kind: string, className: string, texts: readonly string[]) {
  return texts.map((t) => (
    <span key={`${kind}:${t}`} className={className} data-w={kind}>
      {t}
    </span>
  ));
}

/**
 * Hidden samples of what the grid shows, measured; `onMeasure` gets the widths whenever they change. Placed inside the
 * grid, so its fonts are the grid's.
 */
export function GridSizer({ format, onMeasure }: { format: OddsFormat; onMeasure: (fit: ContentWidths) => void }) {
  const zone = useTimeZone();
  const key = useStore((s) => candidates(s, zone).key);
  const { names, leagues, starts, flags } = JSON.parse(key) as Candidates;
  const version = useSyncExternalStore(onFit, fitVersion);
  const box = useRef<HTMLDivElement>(null);
  const shapes = (kind: string) => fitShapes(kind);
  const scores = fitKinds('score:').flatMap((k) => {
    const [cls, text] = k.slice('score:'.length).split('\t');
    return fitShapes(k).map((s) => ({ cls: cls ?? '', badge: text ?? '', s }));
  });

  useLayoutEffect(() => {
    const widths = new Map<string, number>();
    for (const el of box.current!.children) {
      const kind = (el as HTMLElement).dataset['w']!;
      widths.set(kind, Math.max(widths.get(kind) ?? 0, Math.ceil(el.getBoundingClientRect().width)));
    }
    const cells: ContentWidths['cells'] = {};
    for (const h of Object.values(COLUMN_CELLS).flat()) {
      const kind = KIND_OF[h.key];
      // A column with nothing written yet (no price so far, or not shown) keeps its width from gridColumns.
      cells[h.key] = Math.max(widths.get(`h:${h.key}`) ?? 0, (kind && widths.get(kind)) || h.width);
    }
    const flag = widths.get('flag');
    onMeasure({ event: (widths.get('name') ?? 0) + (flag ? flag + 4 : 0), cells });
    // Measured again when a sample changes: the watched matches' texts, a wider live text, the format.
  }, [key, version, format, onMeasure]);

  return (
    <div className="wsizer" aria-hidden="true" ref={box}>
      {Samples('name', 'cell', names)}
      {Samples('flag', 'flag', flags)}
      {Samples('league', 'cell league-cell', leagues)}
      {Samples('start', 'cell', starts)}
      {scores.map(({ cls, badge, s }) => (
        <span key={`sc${cls}${s}`} className="cell score" data-w="score">
          {badge && <span className={`badge ${cls}`}>{badge}</span>} {s}
        </span>
      ))}
      {SIDES.flatMap((side) =>
        shapes(`price:${format}:${side}`).map((t) => (
          <span key={`p${side}${t}`} className="cell num price" data-w={`price:${side}`}>
            <span className="arrow">{ARROW}</span>
            {t}
          </span>
        )),
      )}
      {Samples('fair', 'cell num fair-cell', shapes(`fair:${format}`))}
      {Samples('line', 'cell num line', shapes('line'))}
      {Samples('maxWin', 'cell num maxwin', shapes('maxWin'))}
      {Object.values(COLUMN_CELLS)
        .flat()
        .map((h) => (
          // The label with the sort's arrow: a header keeps its width when it is sorted by.
          <span key={`h${h.key}`} className="th" data-w={`h:${h.key}`}>
            {h.label} ↓
          </span>
        ))}
    </div>
  );
}
