// A bet changed in place from the bet log (E): its price in the trader's odds format, read back in words, its stake
// and note, with every change it has had listed under the form.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { BetRevision, BetView } from '../../../../shared/domain';
import { formatOdds, type OddsFormat } from '../../../../shared/formats';
import { formatMoney } from '../../../../shared/trading';
import { host } from '../../host';
import { FarAskQuestion, PriceBox, PriceReadBack, useFarAsk, usePriceBox } from '../../components/PriceBox';
import { fmtDateTime, useTimeZone } from '../../format';
import { useStore } from '../../store';
import { marketKey } from '../../store/watchlist';

const CHANGE_WORDS: Record<BetRevision['change'], string> = {
  recorded: 'Recorded',
  edited: 'Edited',
  removed: 'Removed',
  restored: 'Brought back',
};

/** What a revision changed from the one before it, in words: "price 2.000 → 2.100, stake 50.00 → 20.00". */
function changeWords(r: BetRevision, before: BetRevision | undefined, format: OddsFormat, unit: string): string {
  if (!before)
    return `${formatOdds(r.price, format)} for ${formatMoney(r.stake, unit)}${r.note ? `, note "${r.note}"` : ''}`;
  const parts: string[] = [];
  if (r.price !== before.price)
    parts.push(`price ${formatOdds(before.price, format)} → ${formatOdds(r.price, format)}`);
  if (r.stake !== before.stake) parts.push(`stake ${formatMoney(before.stake, unit)} → ${formatMoney(r.stake, unit)}`);
  if (r.note !== before.note) parts.push(r.note ? `note "${r.note}"` : 'note cleared');
  return parts.join(', ');
}

/**
 * A bet's price (in the trader's odds format, read back in words), stake and note, changed in place: Enter saves,
 * Esc leaves it as it was. A typed price far from the line's live one (when the event is watched and the side priced)
 * asks once, as recording does. Under it, every change the bet has had (bets:history), oldest first.
 */
export function BetEditForm({
  bet,
  format,
  unit,
  onDone,
}: {
  bet: BetView;
  format: OddsFormat;
  unit: string;
  onDone(saved: BetView | null): void;
}) {
  const zone = useTimeZone();
  const box = usePriceBox(format);
  const live = useStore((s) => s.markets[marketKey(bet.eventId, bet.lineId)]?.prices?.[bet.side] ?? null);
  const [stake, setStake] = useState(String(bet.stake));
  const [note, setNote] = useState(bet.note ?? '');
  const [problem, setProblem] = useState<{ field: 'price' | 'stake' | null; text: string } | null>(null);
  const [history, setHistory] = useState<BetRevision[]>([]);
  const priceInput = useRef<HTMLInputElement>(null);
  const ask = useFarAsk(box, live, priceInput);
  const { fill } = box;
  useLayoutEffect(() => {
    fill(bet.price);
    priceInput.current?.focus();
  }, [fill, bet.price]);
  useEffect(() => {
    void host.invoke('bets:history', bet.id).then((r) => r.ok && setHistory(r.value));
  }, [bet.id, bet.editedAt]);
  const typed = box.value;
  const save = async () => {
    if (!typed.ok) return setProblem({ field: 'price', text: typed.message });
    const st = Number(stake);
    if (stake.trim() === '' || !(st > 0))
      return setProblem({ field: 'stake', text: 'The stake must be a number above 0.' });
    if (ask.holds(typed.decimal)) return;
    const r = await host.invoke('bets:update', bet.id, { price: typed.decimal, stake: st, note: note.trim() });
    if (!r.ok) return setProblem({ field: null, text: `The bet was not changed: ${r.error.message}` });
    onDone(r.value);
  };
  return (
    <form
      className="bet-edit"
      data-testid="bet-edit"
      aria-label={`Edit the bet ${bet.sideWords}`}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
      // Esc on the question goes back to the price; otherwise it leaves the bet as it was.
      onKeyDown={(e) => ask.escape(e, () => onDone(null))}
    >
      <strong>{bet.label}</strong>
      <PriceBox
        box={box}
        format={format}
        invalid={problem?.field === 'price' || (box.edited && !typed.ok)}
        testId="bet-edit-price"
        inputRef={priceInput}
        onType={() => (setProblem(null), ask.drop())}
      />
      <input
        aria-label="Stake"
        inputMode="decimal"
        size={7}
        value={stake}
        onChange={(e) => (setStake(e.target.value), setProblem(null))}
        aria-invalid={problem?.field === 'stake' || undefined}
        data-testid="bet-edit-stake"
      />
      <input
        aria-label="Note"
        placeholder="note"
        maxLength={500}
        size={24}
        value={note}
        onChange={(e) => setNote(e.target.value)}
        data-testid="bet-edit-note"
      />
      <button type="submit" data-testid="bet-edit-save">
        Save (Enter)
      </button>
      <button type="button" onClick={() => onDone(null)} data-testid="bet-edit-cancel">
        Cancel (Esc)
      </button>
      <PriceReadBack what={bet.sideWords} box={box} format={format} testId="bet-edit-readback" />
      {ask.asking && typed.ok && live !== null && (
        <FarAskQuestion live={live} shown={typed.shown} format={format} testId="bet-edit" onChange={ask.back} />
      )}
      {problem && (
        <span className="form-error" role="alert" data-testid="bet-edit-error">
          {problem.text}
        </span>
      )}
      {history.length > 0 && (
        <ol className="bet-history muted small-text" data-testid="bet-history">
          {history.map((r, i) => (
            <li key={r.revision}>
              {CHANGE_WORDS[r.change]} {fmtDateTime(r.at, zone)}
              {r.change === 'recorded' || r.change === 'edited'
                ? `: ${changeWords(r, history[i - 1], format, unit)}`
                : ''}
            </li>
          ))}
        </ol>
      )}
    </form>
  );
}
