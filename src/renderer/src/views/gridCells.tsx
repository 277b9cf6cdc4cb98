// The watchlist grid's live cells besides the prices (components/PriceCell.tsx): a spread's or total's line, a fair
// price, the max stake, the score and the price's age. React renders each once, for its place in the row; after
// that a listener on its own market or event (store/marketBus.ts) writes its text into the DOM, so a tick costs
// work only in the cells whose market moved, and never a render of the row. Ages move with time as well as with
// prices: one shared one-second clock repaints the ages on screen (rows outside the virtualised window hold none).
import { memo, useLayoutEffect, useRef } from 'react';
import { formatOdds, formatOddsWithDecimal, type OddsFormat } from '../../../shared/formats';
import type { DevigModel } from '../../../shared/api';
import { fairPrices, lineNumber, sideName } from '../../../shared/trading';
import { eventBadge } from '../components/EventBadge';
import { noteFit } from '../components/fitText';
import { fmtLine, fmtMoney, fmtScore } from '../format';
import { useStore } from '../store';
import { countListeners } from '../listenerCounts';
import { marketBus } from '../store/marketBus';
import { latestPriceTime } from '../store/selectors';
import { marketKey } from '../store/watchlist';

/** "now", "12s", "4m", "3h": how long ago a price was last set. */
export function fmtAge(ms: number): string {
  if (ms < 1500) return 'now';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  return `${Math.floor(s / 3600)}h`;
}

/** Writes only what differs: a text node the same as before costs nothing, not even a style recalculation. */
function setText(el: HTMLElement, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}
function setTitle(el: HTMLElement, title: string | null): void {
  if (title === null) el.removeAttribute('title');
  else if (el.title !== title) el.title = title;
}

/**
 * Keeps `el` written from the store: now, and after each change of this market. `lineId` null: no line in this place,
 * written once as such.
 */
function followMarket(eventId: number, lineId: number | null, write: (key: string | null) => void): () => void {
  const key = lineId === null ? null : marketKey(eventId, lineId);
  write(key);
  return key === null ? () => undefined : marketBus.onMarket(key, () => write(key));
}

/** A spread's home handicap is signed ("+0.5", "-1.25"); a total never is ("2.5"), as everywhere else. */
export const LineCell = memo(function LineCell({
  eventId,
  lineId,
  signed,
}: {
  eventId: number;
  lineId: number | null;
  signed: boolean;
}) {
  const cell = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const el = cell.current!;
    return followMarket(eventId, lineId, (key) => {
      const line = key === null ? null : (useStore.getState().markets[key]?.line ?? null);
      const text = signed ? fmtLine(line) : line === null ? '' : lineNumber(line);
      setText(el, text);
      noteFit('line', text);
    });
  }, [eventId, lineId, signed]);
  return <span ref={cell} className="cell num line" />;
});

/** The moneyline's fair (no-vig) price of one side, under the trader's model, in their odds format. */
export const FairCell = memo(function FairCell({
  eventId,
  lineId,
  side,
  format,
  model,
}: {
  eventId: number;
  lineId: number | null;
  side: 'home' | 'draw' | 'away';
  format: OddsFormat;
  model: DevigModel;
}) {
  const cell = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const el = cell.current!;
    return followMarket(eventId, lineId, (key) => {
      const m = key === null ? undefined : useStore.getState().markets[key];
      const fair = m ? (fairPrices(m.prices, model)?.[side] ?? null) : null;
      const text = fair === null ? '—' : formatOdds(fair, format);
      setText(el, text);
      noteFit(`fair:${format}`, text);
      setTitle(
        el,
        fair === null
          ? null
          : `Fair ${sideName(side).toLowerCase()} under ${model}: ${formatOddsWithDecimal(fair, format)}`,
      );
    });
  }, [eventId, lineId, side, format, model]);
  return <span ref={cell} className="cell num fair-cell" data-testid={`fair-${eventId}-${side}`} />;
});

export const MaxWinCell = memo(function MaxWinCell({ eventId, lineId }: { eventId: number; lineId: number | null }) {
  const cell = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const el = cell.current!;
    return followMarket(eventId, lineId, (key) => {
      const text = fmtMoney(key === null ? null : (useStore.getState().markets[key]?.maxWin ?? null));
      setText(el, text);
      noteFit('maxWin', text);
    });
  }, [eventId, lineId]);
  return <span ref={cell} className="cell num maxwin" data-testid={`maxwin-${eventId}`} />;
});

/** The badge (LIVE, FT, ENDED: the row's structure) and the score, written as the event's pushes change it. */
export const ScoreCell = memo(function ScoreCell({
  eventId,
  settled,
  ended,
  live,
}: {
  eventId: number;
  settled: boolean;
  ended: string | null;
  live: boolean;
}) {
  const b = eventBadge(settled, ended, live);
  // The score's width is kept by its badge ("score:live 000–000"): the badge is drawn smaller, in its own box.
  const badge = b ? `${b.cls}\t${b.text}` : '';
  const cell = useRef<HTMLSpanElement>(null);
  const score = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const el = cell.current!;
    const text = score.current!;
    const write = () => {
      const ev = useStore.getState().watchEvents[eventId];
      const s = fmtScore(ev?.scoreHome, ev?.scoreAway);
      setText(text, s);
      setTitle(el, s || null);
      noteFit(`score:${badge}`, s);
    };
    write();
    return marketBus.onEvent(eventId, write);
  }, [eventId, badge]);
  return (
    <span ref={cell} className="cell score" data-testid={`score-${eventId}`}>
      {b && (
        <span className={`badge ${b.cls}`} title={b.title} data-testid={`badge-${eventId}`}>
          {b.text}
        </span>
      )}{' '}
      <span ref={score} />
    </span>
  );
});

// ---- one shared one-second clock for the ages on screen (one interval, however many rows are shown) ----
type Paint = (now: number) => void;
const agePainters = new Set<Paint>();
countListeners('ageClock', () => agePainters.size);
let ageClock: ReturnType<typeof setInterval> | null = null;
function onAgeClock(paint: Paint): () => void {
  agePainters.add(paint);
  ageClock ??= setInterval(() => {
    const now = Date.now();
    for (const p of agePainters) p(now);
  }, 1000);
  return () => {
    agePainters.delete(paint);
    if (agePainters.size === 0 && ageClock !== null) {
      clearInterval(ageClock);
      ageClock = null;
    }
  };
}

/**
 * The age of the row's freshest main price. Read again when one of those markets changes, repainted by the shared
 * clock; the text is written only when it reads differently ("3s" to "4s"), so most seconds write nothing.
 */
export const AgeCell = memo(function AgeCell({
  eventId,
  ml,
  spread,
  total,
  stale,
}: {
  eventId: number;
  ml: number | null;
  spread: number | null;
  total: number | null;
  stale: boolean;
}) {
  const cell = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const el = cell.current!;
    const lines = { ml, spread, total };
    let at: number | null = null;
    const paint = (now: number) => {
      const age = at === null ? null : fmtAge(Math.max(0, now - at));
      setText(el, age ?? '—');
      const when = age === 'now' ? 'just now' : `${age} ago`; // not "now ago"
      setTitle(
        el,
        age === null
          ? 'No price'
          : `Price set ${when}${stale ? '; the feed is not live, so it may be out of date' : ''}`,
      );
    };
    const read = () => {
      at = latestPriceTime(useStore.getState(), eventId, lines);
      paint(Date.now());
    };
    read();
    const off = [ml, spread, total].flatMap((id) =>
      id === null ? [] : [marketBus.onMarket(marketKey(eventId, id), read)],
    );
    off.push(onAgeClock(paint));
    return () => off.forEach((f) => f());
  }, [eventId, ml, spread, total, stale]);
  return <span ref={cell} className={`cell num age${stale ? ' stale' : ''}`} data-testid={`age-${eventId}`} />;
});
