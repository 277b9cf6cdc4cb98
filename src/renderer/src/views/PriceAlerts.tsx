// Per-event price alerts in the event detail: the drop rule's overrides (blank = the Settings default) and price
// thresholds on a line's side ("alert when Home crosses 1.90"). Saved to this profile through priceAlerts:set; the
// alerts go through the same log, gating and notifications as the others. Lines, sides and periods read in words
// (the line's id only on hover); a threshold is typed in the trader's odds format only, in the shared price box
// (../components/PriceBox.tsx), read back in words under it ("Home crosses +150 (decimal 2.500)") and kept in decimal,
// as the service quotes. What is wrong with an entry is said beside it, and goes with the next change.
import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { countOf } from '../../../shared/formats';
import { priceInWords } from '../../../shared/oddsInput';
import { labelPeriod } from '../../../shared/periods';
import { lineWords, pricedSides, sideName, sideWords } from '../../../shared/trading';
import type { MarketView, PriceAlertOverrides, PriceSide } from '../../../shared/domain';
import { api } from '../api';
import { PriceBox, PriceReadBack, usePriceBox } from '../components/PriceBox';
import { useOddsFormat } from '../format';
import { usePeriodNames } from '../hooks';
import { useStore } from '../store';
import { marketKey } from '../store/watchlist';

/** A line in words with its period: "Home team total 1.5 · 1st half". */
export function lineLabel(
  m: Pick<MarketView, 'market' | 'line' | 'side' | 'period'>,
  sport: string,
  names: ReturnType<typeof usePeriodNames>,
): string {
  return `${lineWords(m.market, m.line, { team: m.side })} · ${labelPeriod(sport, m.period, names)}`;
}

export function PriceAlerts({ eventId }: { eventId: number }) {
  const toast = useStore((s) => s.toast);
  const format = useOddsFormat();
  const periodNames = usePeriodNames();
  const sport = useStore((s) => s.watchEvents[eventId]?.sportName ?? '');
  const defaults = useStore(
    useShallow((s) => ({ pct: s.settings?.dropAlertPct ?? null, minutes: s.settings?.dropWindowMinutes ?? null })),
  );
  const lines = useStore(
    useShallow((s) =>
      (s.lineIdsByEvent[eventId] ?? [])
        .map((id) => s.markets[marketKey(eventId, id)])
        .filter((m): m is MarketView => !!m && pricedSides(m.prices).length > 0),
    ),
  );
  const [saved, setSaved] = useState<PriceAlertOverrides | null>(null);
  const [pct, setPct] = useState('');
  const [minutes, setMinutes] = useState('');
  const [lineId, setLineId] = useState<number | null>(null);
  const [side, setSide] = useState<PriceSide>('home');
  const box = usePriceBox(format);
  /** What is wrong, said beside the entry it is about; the next change or a save clears it. */
  const [problem, setProblem] = useState<{ at: 'rule' | 'threshold'; text: string } | null>(null);

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

  const store = async (next: PriceAlertOverrides, what: string, at: 'rule' | 'threshold'): Promise<boolean> => {
    const r = await api.invoke('priceAlerts:set', eventId, next);
    if (!r.ok) {
      setProblem({ at, text: `${what} not saved: ${r.error.message}` });
      return false;
    }
    setSaved(r.value);
    setProblem(null);
    toast(`${what} saved`, 'info');
    return true;
  };
  const thresholds = saved?.thresholds ?? [];
  const line = lines.find((m) => m.lineId === lineId) ?? lines[0];
  const sides = pricedSides(line?.prices);
  const chosenSide = sides.includes(side) ? side : (sides[0] ?? side);
  const saveRule = () => {
    const p = pct.trim() === '' ? undefined : Number(pct);
    const m = minutes.trim() === '' ? undefined : Number(minutes);
    if (p !== undefined && !(p >= 0 && p <= 100))
      return setProblem({ at: 'rule', text: 'The drop must be a number from 0 to 100 (%); blank keeps the default.' });
    if (m !== undefined && !(Number.isInteger(m) && m >= 1 && m <= 240))
      return setProblem({
        at: 'rule',
        text: 'The window must be a whole number of minutes from 1 to 240; blank keeps the default.',
      });
    void store(
      { thresholds, ...(p === undefined ? {} : { dropPct: p }), ...(m === undefined ? {} : { dropWindowMinutes: m }) },
      'Drop rule',
      'rule',
    );
  };
  const typed = box.value;
  const addThreshold = async () => {
    if (!line) return setProblem({ at: 'threshold', text: 'Choose a line for the threshold.' });
    if (!typed.ok) return setProblem({ at: 'threshold', text: typed.message });
    if (
      await store(
        { ...saved, thresholds: [...thresholds, { lineId: line.lineId, side: chosenSide, price: typed.decimal }] },
        'Threshold',
        'threshold',
      )
    )
      box.fill(null);
  };
  const remove = (i: number) =>
    void store({ ...saved, thresholds: thresholds.filter((_, j) => j !== i) }, 'Threshold removal', 'threshold');
  const sideSaid = line ? sideWords(line.market, line.line, chosenSide, { team: line.side }) : sideName(chosenSide);

  return (
    <details className="price-alerts" data-testid="price-alerts">
      <summary>Price alerts{thresholds.length ? ` · ${countOf(thresholds.length, 'threshold')}` : ''}</summary>
      <div className="row-form">
        <label>
          Drop ≥{' '}
          <input
            size={4}
            value={pct}
            placeholder={defaults.pct === null ? '' : String(defaults.pct)}
            onChange={(e) => (setPct(e.target.value), setProblem(null))}
            aria-invalid={problem?.at === 'rule' || undefined}
            data-testid="drop-pct-input"
          />{' '}
          %
        </label>
        <label>
          within{' '}
          <input
            size={4}
            value={minutes}
            placeholder={defaults.minutes === null ? '' : String(defaults.minutes)}
            onChange={(e) => (setMinutes(e.target.value), setProblem(null))}
            aria-invalid={problem?.at === 'rule' || undefined}
            data-testid="drop-minutes-input"
          />{' '}
          min
        </label>
        <button onClick={saveRule} data-testid="drop-save">
          Save
        </button>
        {problem?.at === 'rule' && (
          <span className="form-error" role="alert" data-testid="drop-error">
            {problem.text}
          </span>
        )}
      </div>
      <ul className="thresholds" data-testid="thresholds">
        {thresholds.map((t, i) => (
          <ThresholdItem
            key={`${t.lineId}:${t.side}:${t.price}`}
            eventId={eventId}
            sport={sport}
            threshold={t}
            onRemove={() => remove(i)}
          />
        ))}
      </ul>
      {lines.length > 0 && (
        <form
          className="row-form"
          onSubmit={(e) => {
            e.preventDefault();
            void addThreshold();
          }}
        >
          <select
            value={line?.lineId ?? ''}
            onChange={(e) => (setLineId(Number(e.target.value)), setProblem(null))}
            aria-label="Line"
            data-testid="threshold-line"
          >
            {lines.map((m) => (
              <option key={m.lineId} value={m.lineId}>
                {lineLabel(m, sport, periodNames)}
              </option>
            ))}
          </select>
          <select
            value={chosenSide}
            onChange={(e) => (setSide(e.target.value as PriceSide), setProblem(null))}
            aria-label="Side"
            data-testid="threshold-side"
          >
            {sides.map((s) => (
              <option key={s} value={s}>
                {line ? sideWords(line.market, line.line, s, { team: line.side }) : sideName(s)}
              </option>
            ))}
          </select>
          <PriceBox
            box={box}
            format={format}
            placeholder="price"
            invalid={problem?.at === 'threshold' || (box.edited && !typed.ok)}
            testId="threshold-price-input"
            onType={() => setProblem(null)}
          />
          <button type="submit" data-testid="threshold-add">
            Add threshold
          </button>
          {box.edited && (
            <PriceReadBack what={sideSaid} link="crosses" box={box} format={format} testId="threshold-readback" />
          )}
          {problem?.at === 'threshold' && (
            <span className="form-error" role="alert" data-testid="threshold-error">
              {problem.text}
            </span>
          )}
        </form>
      )}
    </details>
  );
}

/** One threshold in words: "Total 2.5 · Match: Over 2.5 crosses +150 (decimal 2.500)"; the line's id on hover. */
function ThresholdItem({
  eventId,
  sport,
  threshold,
  onRemove,
}: {
  eventId: number;
  sport: string;
  threshold: PriceAlertOverrides['thresholds'][number];
  onRemove: () => void;
}) {
  const format = useOddsFormat();
  const names = usePeriodNames();
  const m = useStore(
    useShallow((s) => {
      const x = s.markets[marketKey(eventId, threshold.lineId)];
      return x ? { market: x.market, line: x.line, side: x.side, period: x.period } : null;
    }),
  );
  const what = m
    ? `${lineLabel(m, sport, names)}: ${sideWords(m.market, m.line, threshold.side, { team: m.side })}`
    : `A line not offered now: ${sideName(threshold.side)}`;
  return (
    <li title={`Line id ${threshold.lineId}`} data-testid={`threshold-${threshold.lineId}-${threshold.side}`}>
      {priceInWords(what, threshold.price, format, undefined, 'crosses')}{' '}
      <button className="small" onClick={onRemove} aria-label="Remove threshold">
        ×
      </button>
    </li>
  );
}
