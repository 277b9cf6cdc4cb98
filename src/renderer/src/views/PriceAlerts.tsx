// Per-event price alerts in the event detail: the drop rule's overrides (blank = the Settings default) and price
// thresholds on a line's side ("alert when home crosses 1.90"). Saved to this profile through priceAlerts:set; the
// alerts go through the same log, gating and notifications as the others.
import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { pricedSides } from '../../../shared/trading';
import type { MarketView, PriceAlertOverrides, PriceSide } from '../../../shared/domain';
import { api } from '../api';
import { fmtLine } from '../format';
import { useStore } from '../store';
import { marketKey } from '../store/watchlist';

export function PriceAlerts({ eventId }: { eventId: number }) {
  const toast = useStore((s) => s.toast);
  const defaults = useStore(useShallow((s) => ({ pct: s.settings?.dropAlertPct ?? null, minutes: s.settings?.dropWindowMinutes ?? null })));
  const lines = useStore(
    useShallow((s) => (s.lineIdsByEvent[eventId] ?? []).map((id) => s.markets[marketKey(eventId, id)]).filter((m): m is MarketView => !!m && pricedSides(m.prices).length > 0)),
  );
  const [saved, setSaved] = useState<PriceAlertOverrides | null>(null);
  const [pct, setPct] = useState('');
  const [minutes, setMinutes] = useState('');
  const [lineId, setLineId] = useState<number | null>(null);
  const [side, setSide] = useState<PriceSide>('home');
  const [price, setPrice] = useState('');

  useEffect(() => {
    let alive = true;
    void api.invoke('priceAlerts:get', eventId).then((r) => {
      if (!alive || !r.ok) return;
      setSaved(r.value);
      setPct(r.value.dropPct === undefined ? '' : String(r.value.dropPct));
      setMinutes(r.value.dropWindowMinutes === undefined ? '' : String(r.value.dropWindowMinutes));
    });
    return () => {
      alive = false;
    };
  }, [eventId]);

  const store = async (next: PriceAlertOverrides, what: string) => {
    const r = await api.invoke('priceAlerts:set', eventId, next);
    if (!r.ok) return toast(`${what} not saved: ${r.error.message}`, 'error');
    setSaved(r.value);
    toast(`${what} saved`, 'info');
  };
  const thresholds = saved?.thresholds ?? [];
  const line = lines.find((m) => m.lineId === lineId) ?? lines[0];
  const saveRule = () => {
    const p = pct.trim() === '' ? undefined : Number(pct);
    const m = minutes.trim() === '' ? undefined : Number(minutes);
    if ((p !== undefined && !(p >= 0 && p <= 100)) || (m !== undefined && !(Number.isInteger(m) && m >= 1 && m <= 240))) {
      return toast('A drop is 0–100 % over 1–240 minutes (blank keeps the default).', 'error');
    }
    void store({ thresholds, ...(p === undefined ? {} : { dropPct: p }), ...(m === undefined ? {} : { dropWindowMinutes: m }) }, 'Drop rule');
  };
  const addThreshold = () => {
    const p = Number(price);
    if (!line || !(p > 1)) return toast('A threshold needs a line and a price above 1.', 'error');
    void store({ ...saved, thresholds: [...thresholds, { lineId: line.lineId, side, price: p }] }, 'Threshold');
    setPrice('');
  };
  const remove = (i: number) => void store({ ...saved, thresholds: thresholds.filter((_, j) => j !== i) }, 'Threshold removal');

  return (
    <details className="price-alerts" data-testid="price-alerts">
      <summary>Price alerts{thresholds.length ? ` · ${thresholds.length} threshold${thresholds.length === 1 ? '' : 's'}` : ''}</summary>
      <div className="row-form">
        <label>
          drop ≥ <input size={4} value={pct} placeholder={defaults.pct === null ? '' : String(defaults.pct)} onChange={(e) => setPct(e.target.value)} data-testid="drop-pct-input" /> %
        </label>
        <label>
          within <input size={4} value={minutes} placeholder={defaults.minutes === null ? '' : String(defaults.minutes)} onChange={(e) => setMinutes(e.target.value)} data-testid="drop-minutes-input" /> min
        </label>
        <button onClick={saveRule} data-testid="drop-save">Save</button>
      </div>
      <ul className="thresholds">
        {thresholds.map((t, i) => (
          <li key={`${t.lineId}:${t.side}:${t.price}`}>
            line {t.lineId} {t.side} crosses {t.price.toFixed(3)} <button onClick={() => remove(i)} aria-label="Remove threshold">×</button>
          </li>
        ))}
      </ul>
      {lines.length > 0 && (
        <div className="row-form">
          <select value={line?.lineId ?? ''} onChange={(e) => setLineId(Number(e.target.value))} aria-label="Line">
            {lines.map((m) => (
              <option key={m.lineId} value={m.lineId}>
                {m.market} {fmtLine(m.line)} (p{m.period})
              </option>
            ))}
          </select>
          <select value={side} onChange={(e) => setSide(e.target.value as PriceSide)} aria-label="Side">
            {pricedSides(line?.prices).map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
          <input size={6} value={price} placeholder="price" onChange={(e) => setPrice(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && addThreshold()} data-testid="threshold-price-input" />
          <button onClick={addThreshold} data-testid="threshold-add">Add threshold</button>
        </div>
      )}
    </details>
  );
}
