// One live price. React renders the cell once; after that a listener on its own market (store/marketBus.ts) writes
// the price, the arrow and the flash straight into the DOM. At 2,000 updates/s a React render per change (two, with
// the flash's end) and a timer per flash were most of the grid's cost, and a store subscription per cell still ran
// every cell on every update; here a tick costs a few DOM writes for the cells whose market moved. The arrow stays
// after the 600 ms flash: colour is never the only signal. The price reads in the trader's odds format; a change of
// format rewrites the cells (no flash: the price did not move).
import { memo, useLayoutEffect, useRef, type AnimationEvent } from 'react';
import type { MarketView } from '../../../shared/domain';
import { formatOdds, type OddsFormat } from '../../../shared/formats';
import { useOddsFormat } from '../format';
import { useStore } from '../store';
import { marketBus } from '../store/marketBus';
import { marketKey } from '../store/watchlist';

export type PriceSide = 'home' | 'draw' | 'away' | 'over' | 'under';

/**
 * Starts (or restarts) the cell's flash. Its length is the CSS animation's (600 ms, styles.css), and `animationend`
 * ends it: no timer per flash. A change during a flash switches the animation's name (the `again` class), which
 * restarts it without forcing a style and layout flush.
 */
function flash(el: HTMLElement): void {
  if (el.classList.contains('flash')) el.classList.toggle('again');
  else el.classList.add('flash');
}

function endFlash(ev: AnimationEvent<HTMLSpanElement>): void {
  ev.currentTarget.classList.remove('flash', 'again');
}

const LivePrice = memo(function LivePrice({ eventId, lineId, side, format }: { eventId: number; lineId: number; side: PriceSide; format: OddsFormat }) {
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
        const up = next > price;
        el.classList.toggle('up', up);
        el.classList.toggle('down', !up);
        el.dataset['dir'] = up ? 'up' : 'down';
        arrowEl.textContent = up ? '▲' : '▼';
        arrowEl.setAttribute('aria-label', up ? 'up' : 'down');
        flash(el);
      }
      if (next !== price || first) text.nodeValue = offline ? 'off' : formatOdds(next, format);
      price = next;
    };
    show(useStore.getState().markets[key]);
    return marketBus.onMarket(key, () => show(useStore.getState().markets[key]));
  }, [eventId, lineId, side, format]);
  return (
    <span ref={cell} className="cell num price" data-testid={`price-${eventId}-${lineId}-${side}`} onAnimationEnd={endFlash}>
      <span ref={arrow} className="arrow" />
      <span ref={value} />
    </span>
  );
});

export const PriceCell = memo(function PriceCell({ eventId, lineId, side }: { eventId: number; lineId: number | null; side: PriceSide }) {
  return <FormattedPriceCell eventId={eventId} lineId={lineId} side={side} format={useOddsFormat()} />;
});

/** A PriceCell given the odds format by its caller: the grid reads the format once, not once per cell. */
export const FormattedPriceCell = memo(function FormattedPriceCell({ eventId, lineId, side, format }: { eventId: number; lineId: number | null; side: PriceSide; format: OddsFormat }) {
  if (lineId === null) return <span className="cell num price empty">—</span>;
  // Keyed by line: another line in this place is another price, with no arrow from the last one.
  return <LivePrice key={lineId} eventId={eventId} lineId={lineId} side={side} format={format} />;
});
