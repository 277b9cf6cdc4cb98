// "Record a bet" from the event detail, in a few keys: R opens the form on the event's first priced line with the
// current price filled in; type the stake (the last one is remembered), Enter records, Esc cancels. The bet goes to
// this profile's history through bets:add and nowhere else. The price is shown and typed in the trader's odds format
// only (../components/PriceBox.tsx) and read back in words under the box ("Draw at +300 (decimal 4.000)") before it is
// kept. The filled-in price follows the market until the trader types in the box, and says when it moved; a typed
// price more than 20% from the live one (docs/trading.md, "Typing a price") asks once before it is kept. What is wrong
// with the bet is said in the form, beside the field, and goes when the bet is recorded or the field is changed: never
// left beside "Bet recorded". The form's state and its rules are useRecordBet; RecordBet draws it.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { formatOddsPair, type OddsFormat } from '../../../shared/formats';
import { priceInWords } from '../../../shared/oddsInput';
import { formatMoney, pricedSides, sideName, sideWords } from '../../../shared/trading';
import type { MarketView, PriceSide } from '../../../shared/domain';
import { host } from '../host';
import {
  FarAskQuestion,
  PriceBox,
  PriceReadBack,
  useFarAsk,
  usePriceBox,
  type PriceBoxState,
} from '../components/PriceBox';
import { useOddsFormat } from '../format';
import { RECORD_BET_EVENT } from '../keys';
import { useStore } from '../store';
import { LineOptions, SideOptions, usePricedLines } from './eventLines';

const STAKE_KEY = 'oddsdesk.lastStake';

/** R in the event detail (or the palette's "Record a bet") asks this event's form to open: `onRecord` opens it. */
function useRecordBetKey(eventId: number, onRecord: () => void) {
  useEffect(() => {
    const listener = (e: Event) => {
      if ((e as CustomEvent<{ eventId: number }>).detail.eventId !== eventId) return;
      onRecord();
    };
    window.addEventListener(RECORD_BET_EVENT, listener);
    return () => window.removeEventListener(RECORD_BET_EVENT, listener);
  });
}

/** The record-a-bet form's state: the line and side chosen, the price box, the stake, and what stops the bet. */
function useRecordBet(eventId: number, format: OddsFormat) {
  const toast = useStore((s) => s.toast);
  const unit = useStore((s) => s.settings?.moneyUnit ?? '');
  const lines = usePricedLines(eventId);
  const [open, setOpen] = useState(false);
  const [lineId, setLineId] = useState<number | null>(null);
  const [side, setSide] = useState<PriceSide>('home');
  const box = usePriceBox(format);
  const { edited, filled, fill } = box;
  /** The live price when the line and side were chosen: a later one says the market moved. */
  const [chosenAt, setChosenAt] = useState<number | null>(null);
  const [stake, setStake] = useState(() => localStorage.getItem(STAKE_KEY) ?? '');
  /** What stops the bet, said in the form (which field, and why); cleared by a change or a recorded bet. */
  const [problem, setProblem] = useState<{ field: 'price' | 'stake' | 'line' | null; text: string } | null>(null);
  const stakeInput = useRef<HTMLInputElement>(null);
  const priceInput = useRef<HTMLInputElement>(null);
  const line = useMemo(() => lines.find((m) => m.lineId === lineId) ?? lines[0], [lines, lineId]);
  const sides = pricedSides(line?.prices);
  const live = line?.prices?.[side] ?? null;
  /** A typed price far from the live one is asked about once; Enter again (or Keep) keeps it. */
  const ask = useFarAsk(box, live, priceInput);
  const { drop } = ask;

  const choose = useCallback(
    (m: MarketView | undefined, s?: PriceSide) => {
      if (!m) return;
      const next = s && pricedSides(m.prices).includes(s) ? s : pricedSides(m.prices)[0]!;
      const live = m.prices?.[next] ?? null;
      setLineId(m.lineId);
      setSide(next);
      fill(live);
      setChosenAt(live);
      drop();
      setProblem(null);
    },
    [fill, drop],
  );
  // The filled-in price follows the market until the trader types in the box.
  useEffect(() => {
    if (open && !edited && live !== null && live !== filled) fill(live);
  }, [open, edited, filled, fill, live]);

  // Drawn and focused before this key's handler returns: R opens the form, and the stake typed straight after it
  // lands in the stake field however busy the page is (a render left to the scheduler let the first digits fall
  // on the page, where they are shortcuts).
  useRecordBetKey(eventId, () =>
    flushSync(() => {
      setOpen(true);
      choose(lines[0]);
    }),
  );
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
  }, [open, lineId, first, choose]);

  const words = line ? sideWords(line.market, line.line, side, { team: line.side }) : sideName(side);
  const typed = box.value;
  const submit = async () => {
    const st = Number(stake);
    if (!line) return setProblem({ field: 'line', text: 'Choose a line to bet on.' });
    if (!typed.ok) return setProblem({ field: 'price', text: typed.message });
    if (stake.trim() === '' || !(st > 0))
      return setProblem({ field: 'stake', text: 'The stake must be a number above 0.' });
    const p = typed.decimal;
    if (ask.holds(p)) return;
    const r = await host.invoke('bets:add', { eventId, lineId: line.lineId, side, price: p, stake: st });
    if (!r.ok) {
      setProblem({ field: null, text: `The bet was not recorded: ${r.error.message}` });
      return;
    }
    localStorage.setItem(STAKE_KEY, stake);
    setProblem(null);
    drop();
    setOpen(false);
    toast(`Bet recorded: ${priceInWords(words, p, format, typed.shown)} for ${formatMoney(st, unit)}`, 'info');
  };
  return {
    lines,
    line,
    side,
    sides,
    live,
    chosenAt,
    words,
    box,
    typed,
    ask,
    problem,
    setProblem,
    open,
    setOpen,
    choose,
    stake,
    setStake,
    stakeInput,
    priceInput,
    submit,
  };
}

export function RecordBet({ eventId }: { eventId: number }) {
  const format = useOddsFormat();
  const sport = useStore((s) => s.watchEvents[eventId]?.sportName ?? '');
  const f = useRecordBet(eventId, format);
  const { lines, line, side, box, typed, ask, problem, setProblem, setOpen } = f;

  if (!f.open) {
    return (
      <button
        onClick={() => (setOpen(true), f.choose(lines[0]))}
        disabled={lines.length === 0}
        data-testid="record-bet-open"
        title="Record a bet on a line (R)"
      >
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
        void f.submit();
      }}
      // Esc on the question goes back to the price; otherwise it closes the form.
      onKeyDown={(e) => ask.escape(e, () => (setProblem(null), setOpen(false)))}
    >
      <select
        aria-label="Line"
        value={line?.lineId ?? ''}
        onChange={(e) =>
          f.choose(
            lines.find((m) => m.lineId === Number(e.target.value)),
            side,
          )
        }
        data-testid="record-bet-line"
      >
        <LineOptions lines={lines} sport={sport} />
      </select>
      <select
        aria-label="Side"
        value={side}
        onChange={(e) => f.choose(line, e.target.value as PriceSide)}
        data-testid="record-bet-side"
      >
        <SideOptions line={line} sides={f.sides} />
      </select>
      <PriceBox
        box={box}
        format={format}
        invalid={problem?.field === 'price' || (box.edited && !typed.ok)}
        testId="record-bet-price"
        inputRef={f.priceInput}
        onType={() => (setProblem(null), ask.drop())}
      />
      <input
        aria-label="Stake"
        inputMode="decimal"
        size={7}
        placeholder="stake"
        value={f.stake}
        onChange={(e) => (f.setStake(e.target.value), setProblem(null))}
        aria-invalid={problem?.field === 'stake' || undefined}
        ref={f.stakeInput}
        data-testid="record-bet-stake"
      />
      <button type="submit" data-testid="record-bet-submit">
        Record (Enter)
      </button>
      <button type="button" onClick={() => (setProblem(null), setOpen(false))} data-testid="record-bet-cancel">
        Cancel (Esc)
      </button>
      <PriceReadBack what={f.words} box={box} format={format} testId="record-bet-readback">
        <LiveMoved live={f.live} chosenAt={f.chosenAt} box={box} format={format} />
      </PriceReadBack>
      {ask.asking && typed.ok && f.live !== null && (
        <FarAskQuestion live={f.live} shown={typed.shown} format={format} testId="record-bet" onChange={ask.back} />
      )}
      {problem && (
        <span className="form-error" role="alert" data-testid="record-bet-error">
          {problem.text}
        </span>
      )}
    </form>
  );
}

/**
 * After the read-back, said once: the box follows the market, so the note names only where it moved from ("the live
 * price moved from 2.000"), the price it moved to being in the box and the read-back; a price the trader typed stays,
 * so a move after it names both ("the live price moved from 2.050 to 2.100") unless the typed price is the live one.
 * Gone: "no live price now".
 */
function LiveMoved({
  live,
  chosenAt,
  box,
  format,
}: {
  live: number | null;
  chosenAt: number | null;
  box: PriceBoxState;
  format: OddsFormat;
}) {
  if (chosenAt === null) return null;
  if (live === null)
    return (
      <span className="muted" data-testid="record-bet-moved">
        {' '}
        · no live price now
      </span>
    );
  // Typed: moved since the box last followed it (what the trader saw when typing), and not to the typed price.
  const was = box.edited ? (box.filled ?? chosenAt) : chosenAt;
  const held = box.value.ok ? box.value.decimal : null;
  if (live === was || (box.edited && held === live)) return null;
  const [from, to] = formatOddsPair(was, live, format);
  return (
    <span className="muted" data-testid="record-bet-moved">
      {' '}
      · the live price moved from {from}
      {box.edited ? ` to ${to}` : ''}
    </span>
  );
}
