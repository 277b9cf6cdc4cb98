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
import { pricedSides, sideName, sideWords } from '../../../shared/trading';
import type { MarketView, PriceAlertOverrides, PriceSide } from '../../../shared/domain';
import { host } from '../host';
import { PriceBox, PriceReadBack, usePriceBox } from '../components/PriceBox';
import { useOddsFormat } from '../format';
import { usePeriodNames } from '../hooks';
import { useStore } from '../store';
import { marketKey } from '../store/watchlist';
import { lineLabel, LineOptions, SideOptions, usePricedLines } from './eventLines';

export { lineLabel };

type Threshold = PriceAlertOverrides['thresholds'][number];
/** What is wrong, said beside the entry it is about; the next change or a save clears it. */
type Problem = { at: 'rule' | 'threshold'; text: string } | null;

/** The event's saved overrides, and `store`, which saves a new set and says whether it was kept. */
function usePriceAlertOverrides(eventId: number) {
  const toast = useStore((s) => s.toast);
  const [saved, setSaved] = useState<PriceAlertOverrides | null>(null);
  const [problem, setProblem] = useState<Problem>(null);
  const store = async (next: PriceAlertOverrides, what: string, at: 'rule' | 'threshold'): Promise<boolean> => {
    const r = await host.invoke('priceAlerts:set', eventId, next);
    if (!r.ok) {
      setProblem({ at, text: `${what} not saved: ${r.error.message}` });
      return false;
    }
    setSaved(r.value);
    setProblem(null);
    toast(`${what} saved`, 'info');
    return true;
  };
  return { saved, setSaved, problem, setProblem, store };
}

export function PriceAlerts({ eventId }: { eventId: number }) {
  const sport = useStore((s) => s.watchEvents[eventId]?.sportName ?? '');
  const lines = usePricedLines(eventId);
  const { saved, setSaved, problem, setProblem, store } = usePriceAlertOverrides(eventId);
  const [pct, setPct] = useState('');
  const [minutes, setMinutes] = useState('');

  useEffect(() => {
    let alive = true;
    void host.invoke('priceAlerts:get', eventId).then((r) => {
      if (!alive || !r.ok) return;
      setSaved(r.value);
      setPct(r.value.dropPct === undefined ? '' : String(r.value.dropPct));
      setMinutes(r.value.dropWindowMinutes === undefined ? '' : String(r.value.dropWindowMinutes));
    });
    return () => {
      alive = false;
    };
  }, [eventId, setSaved]);

  const thresholds = saved?.thresholds ?? [];
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
  const addThreshold = (t: Threshold) => store({ ...saved, thresholds: [...thresholds, t] }, 'Threshold', 'threshold');
  const remove = (i: number) =>
    void store({ ...saved, thresholds: thresholds.filter((_, j) => j !== i) }, 'Threshold removal', 'threshold');

  return (
    <details className="price-alerts" data-testid="price-alerts">
      <summary>Price alerts{thresholds.length ? ` · ${countOf(thresholds.length, 'threshold')}` : ''}</summary>
      <DropRuleForm
        pct={pct}
        minutes={minutes}
        onPct={(v) => (setPct(v), setProblem(null))}
        onMinutes={(v) => (setMinutes(v), setProblem(null))}
        onSave={saveRule}
        problem={problem?.at === 'rule' ? problem.text : null}
      />
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
      <ThresholdForm
        lines={lines}
        sport={sport}
        problem={problem?.at === 'threshold' ? problem.text : null}
        setProblem={(text) => setProblem(text === null ? null : { at: 'threshold', text })}
        onAdd={addThreshold}
      />
    </details>
  );
}

/** The drop rule's overrides for this event: blank keeps the Settings default, shown as the placeholder. */
function DropRuleForm({
  pct,
  minutes,
  onPct,
  onMinutes,
  onSave,
  problem,
}: {
  pct: string;
  minutes: string;
  onPct(text: string): void;
  onMinutes(text: string): void;
  onSave(): void;
  problem: string | null;
}) {
  const defaults = useStore(
    useShallow((s) => ({ pct: s.settings?.dropAlertPct ?? null, minutes: s.settings?.dropWindowMinutes ?? null })),
  );
  return (
    <div className="row-form">
      <label>
        Drop ≥{' '}
        <input
          size={4}
          value={pct}
          placeholder={defaults.pct === null ? '' : String(defaults.pct)}
          onChange={(e) => onPct(e.target.value)}
          aria-invalid={problem !== null || undefined}
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
          onChange={(e) => onMinutes(e.target.value)}
          aria-invalid={problem !== null || undefined}
          data-testid="drop-minutes-input"
        />{' '}
        min
      </label>
      <button onClick={onSave} data-testid="drop-save">
        Save
      </button>
      {problem !== null && (
        <span className="form-error" role="alert" data-testid="drop-error">
          {problem}
        </span>
      )}
    </div>
  );
}

/**
 * A new threshold: a line, a side and a price in the trader's odds format; the box empties once it is saved. Nothing
 * while the event has no priced line (its choice and box are kept for when one comes back).
 */
function ThresholdForm({
  lines,
  sport,
  problem,
  setProblem,
  onAdd,
}: {
  lines: MarketView[];
  sport: string;
  problem: string | null;
  setProblem(text: string | null): void;
  onAdd(threshold: Threshold): Promise<boolean>;
}) {
  const format = useOddsFormat();
  const [lineId, setLineId] = useState<number | null>(null);
  const [side, setSide] = useState<PriceSide>('home');
  const box = usePriceBox(format);
  const line = lines.find((m) => m.lineId === lineId) ?? lines[0];
  const sides = pricedSides(line?.prices);
  const chosenSide = sides.includes(side) ? side : (sides[0] ?? side);
  const typed = box.value;
  const addThreshold = async () => {
    if (!line) return setProblem('Choose a line for the threshold.');
    if (!typed.ok) return setProblem(typed.message);
    if (await onAdd({ lineId: line.lineId, side: chosenSide, price: typed.decimal })) box.fill(null);
  };
  const sideSaid = line ? sideWords(line.market, line.line, chosenSide, { team: line.side }) : sideName(chosenSide);
  if (lines.length === 0) return null;
  return (
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
        <LineOptions lines={lines} sport={sport} />
      </select>
      <select
        value={chosenSide}
        onChange={(e) => (setSide(e.target.value as PriceSide), setProblem(null))}
        aria-label="Side"
        data-testid="threshold-side"
      >
        <SideOptions line={line} sides={sides} />
      </select>
      <PriceBox
        box={box}
        format={format}
        placeholder="price"
        invalid={problem !== null || (box.edited && !typed.ok)}
        testId="threshold-price-input"
        onType={() => setProblem(null)}
      />
      <button type="submit" data-testid="threshold-add">
        Add threshold
      </button>
      {box.edited && (
        <PriceReadBack what={sideSaid} link="crosses" box={box} format={format} testId="threshold-readback" />
      )}
      {problem !== null && (
        <span className="form-error" role="alert" data-testid="threshold-error">
          {problem}
        </span>
      )}
    </form>
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
