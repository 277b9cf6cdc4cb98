// "Record a bet" from the event detail, in a few keys: R opens the form on the event's first priced line with the
// current price filled in; type the stake (the last one is remembered), Enter records, Esc cancels. The bet goes to
// this profile's history through bets:add and nowhere else. The price is typed in decimal (what the service quotes);
// beside it, and in the confirmation, it also reads in the trader's odds format. What is wrong with the bet is said in
// the form, beside the field, and goes when the bet is recorded or the field is changed: never left beside
// "Bet recorded".
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useShallow } from 'zustand/react/shallow';
import { formatOdds, formatOddsWithDecimal } from '../../../shared/formats';
import { formatMoney, lineWords, pricedSides, sideName, sideWords } from '../../../shared/trading';
import { labelPeriod } from '../../../shared/periods';
import type { MarketView, PriceSide } from '../../../shared/domain';
import { api } from '../api';
import { useOddsFormat } from '../format';
import { usePeriodNames } from '../hooks';
import { RECORD_BET_EVENT } from '../keys';
import { useStore } from '../store';
import { marketKey } from '../store/watchlist';

const STAKE_KEY = 'oddsdesk.lastStake';

export function RecordBet({ eventId }: { eventId: number }) {
  const toast = useStore((s) => s.toast);
  const format = useOddsFormat();
  const unit = useStore((s) => s.settings?.moneyUnit ?? '');
  const sport = useStore((s) => s.watchEvents[eventId]?.sportName ?? '');
  const periodNames = usePeriodNames();
  const lines = useStore(
    useShallow((s) => (s.lineIdsByEvent[eventId] ?? []).map((id) => s.markets[marketKey(eventId, id)]).filter((m): m is MarketView => !!m && pricedSides(m.prices).length > 0)),
  );
  const [open, setOpen] = useState(false);
  const [lineId, setLineId] = useState<number | null>(null);
  const [side, setSide] = useState<PriceSide>('home');
  const [price, setPrice] = useState('');
  const [stake, setStake] = useState(() => localStorage.getItem(STAKE_KEY) ?? '');
  /** What stops the bet, said in the form (which field, and why); cleared by a change or a recorded bet. */
  const [problem, setProblem] = useState<{ field: 'price' | 'stake' | 'line' | null; text: string } | null>(null);
  const stakeInput = useRef<HTMLInputElement>(null);
  const line = useMemo(() => lines.find((m) => m.lineId === lineId) ?? lines[0], [lines, lineId]);
  const sides = pricedSides(line?.prices);

  const choose = (m: MarketView | undefined, s?: PriceSide) => {
    if (!m) return;
    const next = s && pricedSides(m.prices).includes(s) ? s : pricedSides(m.prices)[0]!;
    setLineId(m.lineId);
    setSide(next);
    setPrice(String(m.prices?.[next] ?? ''));
    setProblem(null);
  };

  useEffect(() => {
    const onRecord = (e: Event) => {
      if ((e as CustomEvent<{ eventId: number }>).detail.eventId !== eventId) return;
      // Drawn and focused before this key's handler returns: R opens the form, and the stake typed straight after it
      // lands in the stake field however busy the page is (a render left to the scheduler let the first digits fall
      // on the page, where they are shortcuts).
      flushSync(() => {
        setOpen(true);
        choose(lines[0]);
      });
    };
    window.addEventListener(RECORD_BET_EVENT, onRecord);
    return () => window.removeEventListener(RECORD_BET_EVENT, onRecord);
  });
  // The stake is focused and selected: the last stake, remembered, is replaced by what is typed, or kept by Enter.
  useLayoutEffect(() => {
    if (!open) return;
    stakeInput.current?.focus();
    stakeInput.current?.select();
  }, [open]);
  // R pressed before the event's lines reached the page (just opened, a slow stream): the first priced line and its
  // price are filled in as soon as they arrive, rather than leaving an empty price.
  const first = lines[0];
  useEffect(() => {
    if (open && lineId === null && first) choose(first);
  }, [open, lineId, first]);

  const submit = async () => {
    const p = Number(price);
    const st = Number(stake);
    if (!line) return setProblem({ field: 'line', text: 'Choose a line to bet on.' });
    if (price.trim() === '' || !(p > 1)) return setProblem({ field: 'price', text: 'The price must be a decimal price above 1 (2.5 for +150).' });
    if (stake.trim() === '' || !(st > 0)) return setProblem({ field: 'stake', text: 'The stake must be a number above 0.' });
    const r = await api.invoke('bets:add', { eventId, lineId: line.lineId, side, price: p, stake: st });
    if (!r.ok) {
      setProblem({ field: null, text: `The bet was not recorded: ${r.error.message}` });
      return;
    }
    localStorage.setItem(STAKE_KEY, stake);
    setProblem(null);
    setOpen(false);
    toast(`Bet recorded: ${sideWords(line.market, line.line, side, { team: line.side })} at ${formatOddsWithDecimal(p, format)} for ${formatMoney(st, unit)}`, 'info');
  };
  const priceNumber = Number(price);
  const priceInFormat = format !== 'decimal' && priceNumber > 1 ? formatOdds(priceNumber, format) : null;

  if (!open) {
    return (
      <button onClick={() => (setOpen(true), choose(lines[0]))} disabled={lines.length === 0} data-testid="record-bet-open" title="Record a bet on a line (R)">
        Record bet (R)
      </button>
    );
  }
  return (
    <form
      className="record-bet"
      data-testid="record-bet"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          setProblem(null);
          setOpen(false);
        }
      }}
    >
      <select aria-label="Line" value={line?.lineId ?? ''} onChange={(e) => choose(lines.find((m) => m.lineId === Number(e.target.value)), side)} data-testid="record-bet-line">
        {lines.map((m) => (
          <option key={m.lineId} value={m.lineId}>
            {lineWords(m.market, m.line, { team: m.side })} · {labelPeriod(sport, m.period, periodNames)}
          </option>
        ))}
      </select>
      <select aria-label="Side" value={side} onChange={(e) => choose(line, e.target.value as PriceSide)} data-testid="record-bet-side">
        {sides.map((s) => (
          <option key={s} value={s}>
            {line ? sideWords(line.market, line.line, s, { team: line.side }) : sideName(s)}
          </option>
        ))}
      </select>
      <span className="field">
        <input
          aria-label="Price (decimal)"
          title="The price in decimal, as the service quotes it"
          inputMode="decimal"
          size={6}
          value={price}
          onChange={(e) => (setPrice(e.target.value), setProblem(null))}
          aria-invalid={problem?.field === 'price' || undefined}
          data-testid="record-bet-price"
        />
        {priceInFormat && (
          <span className="muted in-format" title={`The price in your odds format`} data-testid="record-bet-price-format">
            = {priceInFormat}
          </span>
        )}
      </span>
      <input
        aria-label="Stake"
        inputMode="decimal"
        size={7}
        placeholder="stake"
        value={stake}
        onChange={(e) => (setStake(e.target.value), setProblem(null))}
        aria-invalid={problem?.field === 'stake' || undefined}
        ref={stakeInput}
        data-testid="record-bet-stake"
      />
      <button type="submit" data-testid="record-bet-submit">
        Record (Enter)
      </button>
      <button type="button" onClick={() => (setProblem(null), setOpen(false))} data-testid="record-bet-cancel">
        Cancel (Esc)
      </button>
      {problem && (
        <span className="form-error" role="alert" data-testid="record-bet-error">
          {problem.text}
        </span>
      )}
    </form>
  );
}
