// One live price. It subscribes to its own market line and side only, and keeps its flash state locally (the
// previous price in a ref), so a tick re-renders this cell and nothing else. The arrow stays after the 600 ms
// flash: colour is never the only signal.
import { memo, useEffect, useRef, useState } from 'react';
import { fmtOdds } from '../format';
import { useStore } from '../store';
import { marketKey } from '../store/watchlist';

export type PriceSide = 'home' | 'draw' | 'away' | 'over' | 'under';
const FLASH_MS = 600;

export function usePriceMove(price: number | undefined, identity: string): { dir: 0 | 1 | -1; flash: boolean } {
  const prev = useRef<{ identity: string; price: number | undefined }>({ identity, price });
  const [move, setMove] = useState<{ dir: 0 | 1 | -1; flash: boolean }>({ dir: 0, flash: false });
  useEffect(() => {
    const p = prev.current;
    prev.current = { identity, price };
    if (p.identity !== identity) {
      setMove({ dir: 0, flash: false });
      return;
    }
    if (p.price == null || price == null || p.price === price) return;
    setMove({ dir: price > p.price ? 1 : -1, flash: true });
    const t = setTimeout(() => setMove((m) => ({ ...m, flash: false })), FLASH_MS);
    return () => clearTimeout(t);
  }, [price, identity]);
  return move;
}

export const PriceCell = memo(function PriceCell({ eventId, lineId, side }: { eventId: number; lineId: number | null; side: PriceSide }) {
  const price = useStore((s) => (lineId === null ? undefined : s.markets[marketKey(eventId, lineId)]?.prices?.[side]));
  const offline = useStore((s) => lineId !== null && s.markets[marketKey(eventId, lineId)]?.prices === null);
  const { dir, flash } = usePriceMove(price, `${lineId}`);
  if (lineId === null) return <span className="cell num price empty">—</span>;
  return (
    <span
      className={`cell num price${dir > 0 ? ' up' : dir < 0 ? ' down' : ''}${flash ? ' flash' : ''}${offline ? ' offline' : ''}`}
      data-testid={`price-${eventId}-${lineId}-${side}`}
      data-dir={dir > 0 ? 'up' : dir < 0 ? 'down' : undefined}
      title={offline ? 'Market offline' : undefined}
    >
      <span className="arrow" aria-label={dir > 0 ? 'up' : dir < 0 ? 'down' : undefined}>
        {dir > 0 ? '▲' : dir < 0 ? '▼' : ''}
      </span>
      {offline ? 'off' : fmtOdds(price)}
    </span>
  );
});
