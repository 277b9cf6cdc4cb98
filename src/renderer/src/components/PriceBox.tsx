// The price box of the record-bet form, a bet's edit form and a price alert's threshold: the price in the trader's odds
// format only, read with the shared parser (src/shared/oddsInput.ts) into the decimal price kept. Filled by the app (the live price, a
// bet's price), the box keeps that exact decimal until the trader types: a fill written in a rounding format (-105,
// 10/11) is not read back from its words. Under the box, the price read back in words ("Draw at +300 (decimal
// 4.000)"), or what is wrong with what was typed. A fill followed while untouched is written again when the format changes.
// A typed price far from the live one is asked about once before it is kept (useFarAsk, FarAskQuestion).
import { useCallback, useEffect, useState, type KeyboardEvent, type ReactNode, type Ref, type RefObject } from 'react';
import { formatOdds, ODDS_FORMAT_NAMES, type OddsFormat } from '../../../shared/formats';
import {
  farFromLive,
  parseOddsInput,
  priceBoxText,
  priceInWords,
  TYPED_EXAMPLE,
  type ParsedPrice,
} from '../../../shared/oddsInput';

export interface PriceBoxState {
  text: string;
  /** The trader typed in the box since it was last filled. */
  edited: boolean;
  /** The decimal price the app last filled the box with. */
  filled: number | null;
  /** What the box holds: the filled decimal while untouched, else the typed text read in the format. */
  value: ParsedPrice;
  /** Fills the box with a decimal price (null empties it); what the trader typed is dropped. */
  fill(decimal: number | null): void;
  /** The trader's typing. */
  type(text: string): void;
}

export function usePriceBox(format: OddsFormat): PriceBoxState {
  const [s, set] = useState<{ text: string; edited: boolean; filled: number | null }>({
    text: '',
    edited: false,
    filled: null,
  });
  const fill = useCallback(
    (d: number | null) => set({ text: d === null ? '' : priceBoxText(d, format), edited: false, filled: d }),
    [format],
  );
  const type = useCallback((text: string) => set((p) => ({ ...p, text, edited: true })), []);
  useEffect(
    () => set((p) => (p.edited || p.filled === null ? p : { ...p, text: priceBoxText(p.filled, format) })),
    [format],
  );
  const value: ParsedPrice =
    !s.edited && s.filled !== null
      ? { ok: true, decimal: s.filled, shown: formatOdds(s.filled, format) }
      : parseOddsInput(s.text, format);
  return { ...s, value, fill, type };
}

/** The format's name without its example: "American", "Hong Kong". */
const formatName = (format: OddsFormat) => ODDS_FORMAT_NAMES[format].replace(/ \(.*\)$/, '');

export function PriceBox(p: {
  box: PriceBoxState;
  format: OddsFormat;
  invalid: boolean;
  testId: string;
  inputRef?: Ref<HTMLInputElement>;
  onType?: () => void;
  placeholder?: string;
}) {
  const { box, format } = p;
  return (
    <input
      aria-label={`Price (${formatName(format)})`}
      title={`The price in your odds format, ${formatName(format)}: ${TYPED_EXAMPLE[format]} (Settings changes the format)`}
      size={7}
      autoComplete="off"
      spellCheck={false}
      placeholder={p.placeholder}
      value={box.text}
      onChange={(e) => (box.type(e.target.value), p.onType?.())}
      aria-invalid={p.invalid || undefined}
      ref={p.inputRef}
      data-testid={p.testId}
    />
  );
}

/**
 * The box's price in words, `what` at it ("Draw at +300 (decimal 4.000)"; `link` instead of "at": "Home crosses
 * +150 (decimal 2.500)"), or why what was typed is not a price.
 */
export function PriceReadBack({
  what,
  box,
  format,
  testId,
  link,
  children,
}: {
  what: string;
  box: PriceBoxState;
  format: OddsFormat;
  testId: string;
  link?: string;
  children?: ReactNode;
}) {
  const v = box.value;
  return (
    <span className="price-readback" aria-live="polite">
      {v.ok ? (
        <span data-testid={testId}>{priceInWords(what, v.decimal, format, v.shown, link)}</span>
      ) : (
        box.edited && (
          <span className="warn-text" data-testid={`${testId}-problem`}>
            {v.message}
          </span>
        )
      )}
      {children}
    </span>
  );
}

/** The "asks once" rule for a form with a price box (docs/trading.md, "Far from the live price: asked once"). */
export interface FarAsk {
  /** The question is up: the box still holds the price it asked about, and there is a live price. */
  asking: boolean;
  /** Whether `price` must be asked about before it is kept (typed, far from `live`, not asked yet); if so, asks. */
  holds(price: number): boolean;
  /** The question withdrawn: the price, line or side changed, or the price was kept. */
  drop(): void;
  /** The question withdrawn, and the price box focused with its text selected (Change). */
  back(): void;
  /** The form's Esc: on the question, back to the price; otherwise `close`. */
  escape(e: KeyboardEvent, close: () => void): void;
}

export function useFarAsk(
  box: PriceBoxState,
  live: number | null,
  priceInput: RefObject<HTMLInputElement | null>,
): FarAsk {
  /** The far-from-live price the form asked about (submitted again, it is kept). */
  const [asked, setAsked] = useState<number | null>(null);
  const drop = useCallback(() => setAsked(null), []);
  const v = box.value;
  const asking = asked !== null && v.ok && v.decimal === asked && live !== null;
  const holds = (price: number) => {
    if (!box.edited || !farFromLive(price, live) || asked === price) return false;
    setAsked(price);
    return true;
  };
  const back = () => {
    drop();
    priceInput.current?.focus();
    priceInput.current?.select();
  };
  const escape = (e: KeyboardEvent, close: () => void) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    if (asking) back();
    else close();
  };
  return { asking, holds, drop, back, escape };
}

/** The question, in the form: "The live price is +210; keep +300?" Keep submits the form (Enter), Change goes back (Esc). */
export function FarAskQuestion({
  live,
  shown,
  format,
  testId,
  onChange,
}: {
  live: number;
  shown: string;
  format: OddsFormat;
  testId: string;
  onChange: () => void;
}) {
  return (
    <span className="form-confirm" role="alert" data-testid={`${testId}-confirm`}>
      The live price is {formatOdds(live, format)}; keep {shown}?{' '}
      <button type="submit" data-testid={`${testId}-keep`}>
        Keep {shown} (Enter)
      </button>{' '}
      <button type="button" onClick={onChange} data-testid={`${testId}-change`}>
        Change (Esc)
      </button>
    </span>
  );
}
