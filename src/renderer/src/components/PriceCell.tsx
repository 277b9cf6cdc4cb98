// One live price. React renders the cell once; after that a listener on its own market (store/marketBus.ts) writes
// the price, the arrow and the flash straight into the DOM. At 2,000 updates/s a React render per change (two, with
// the flash's end) and a timer per flash were most of the grid's cost, and a store subscription per cell still ran
// every cell on every update; here a tick costs a few DOM writes for the cells whose market moved. The arrow stays
// after the 600 ms flash (one clock for every cell's flash, no CSS animation): colour is never the only signal. The price reads in the trader's odds format; a change of
// format rewrites the cells (no flash: the price did not move).
import { memo, useLayoutEffect, useRef } from 'react';
import type { MarketView } from '../../../shared/domain';
import { formatOdds, type OddsFormat } from '../../../shared/formats';
import { useOddsFormat } from '../format';
import { noteFit } from './fitText';
import { useStore } from '../store';
import { marketBus } from '../store/marketBus';
import { marketKey } from '../store/watchlist';

export type PriceSide = 'home' | 'draw' | 'away' | 'over' | 'under';

/** How long a price's colour flash lasts (ms); the arrow stays after it. */
export const PRICE_FLASH_MS = 600;
/** How often the one flash clock ends the flashes that are due: a flash lasts 600-700 ms. */
const FLASH_TICK_MS = 100;

/**
 * The flashing cells and when each flash ends, kept by one clock for every cell. A CSS animation per flash (its
 * `animationend` ending it) cost two DOM events per flash, each dispatched through React's root listeners: under a
 * stress load that was about a second of a 20-second window's main thread in event dispatch alone, and the class
 * toggles that restarted it a style recalculation each. Here a flash is one class on, its end a time in this map, and
 * a move during a flash only pushes its end back.
 */
const flashing = new Map<HTMLElement, number>();
let flashClock: ReturnType<typeof setInterval> | null = null;

function endDueFlashes(): void {
  const now = performance.now();
  for (const [el, until] of flashing) {
    if (until > now) continue;
    flashing.delete(el);
    el.classList.remove('flash');
  }
  if (flashing.size === 0 && flashClock !== null) {
    clearInterval(flashClock);
    flashClock = null;
  }
}

/** Starts the cell's flash, or keeps it on for another PRICE_FLASH_MS if it is flashing. */
function flash(el: HTMLElement): void {
  if (!flashing.has(el)) el.classList.add('flash');
  flashing.set(el, performance.now() + PRICE_FLASH_MS);
  flashClock ??= setInterval(endDueFlashes, FLASH_TICK_MS);
}

/** A cell that leaves the screen leaves the clock. */
function forgetFlash(el: HTMLElement): void {
  flashing.delete(el);
}

const LivePrice = memo(function LivePrice({
  eventId,
  lineId,
  side,
  format,
}: {
  eventId: number;
  lineId: number;
  side: PriceSide;
  format: OddsFormat;
}) {
  const cell = useRef<HTMLSpanElement>(null);
  const arrow = useRef<HTMLSpanElement>(null);
  const value = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const el = cell.current!;
    const arrowEl = arrow.current!;
    const text = value.current!.firstChild ?? value.current!.appendChild(document.createTextNode(''));
    const key = marketKey(eventId, lineId);
    let market: MarketView | undefined | null = null; // null: nothing shown yet
    let price: number | undefined;
    let offline = false;
    const show = (m: MarketView | undefined) => {
      if (m === market) return; // applyOdds replaces only the markets that moved
      const first = market === null;
      market = m;
      const nextOffline = m?.prices === null;
      const next = m?.prices?.[side];
      if (nextOffline !== offline || first) {
        offline = nextOffline;
        el.classList.toggle('offline', offline);
        if (offline) el.title = 'Market offline';
        else el.removeAttribute('title');
      }
      if (!first && price != null && next != null && next !== price) {
        // Up as the trader reads the figure: in implied-% mode a shorter price is a higher probability.
        const up = format === 'implied' ? next < price : next > price;
        el.classList.toggle('up', up);
        el.classList.toggle('down', !up);
        el.dataset['dir'] = up ? 'up' : 'down';
        arrowEl.textContent = up ? '▲' : '▼';
        arrowEl.setAttribute('aria-label', up ? 'up' : 'down');
        flash(el);
      }
      if (next !== price || first) {
        text.nodeValue = offline ? 'off' : formatOdds(next, format);
        noteFit(`price:${format}:${side}`, text.nodeValue);
      }
      price = next;
    };
    show(useStore.getState().markets[key]);
    const off = marketBus.onMarket(key, () => show(useStore.getState().markets[key]));
    return () => {
      off();
      forgetFlash(el);
    };
  }, [eventId, lineId, side, format]);
  return (
    <span ref={cell} className="cell num price" data-testid={`price-${eventId}-${lineId}-${side}`}>
      <span ref={arrow} className="arrow" />
      <span ref={value} />
    </span>
  );
});

export const PriceCell = memo(function PriceCell({
  eventId,
  lineId,
  side,
}: {
  eventId: number;
  lineId: number | null;
  side: PriceSide;
}) {
  return <FormattedPriceCell eventId={eventId} lineId={lineId} side={side} format={useOddsFormat()} />;
});

/** A PriceCell given the odds format by its caller: the grid reads the format once, not once per cell. */
export const FormattedPriceCell = memo(function FormattedPriceCell({
  eventId,
  lineId,
  side,
  format,
}: {
  eventId: number;
  lineId: number | null;
  side: PriceSide;
  format: OddsFormat;
}) {
  if (lineId === null) return <span className="cell num price empty">—</span>;
  // Keyed by line: another line in this place is another price, with no arrow from the last one.
  return <LivePrice key={lineId} eventId={eventId} lineId={lineId} side={side} format={format} />;
});
