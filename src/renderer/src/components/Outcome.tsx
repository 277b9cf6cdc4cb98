// A settled outcome: colour AND a letter (W / ½W / P / ½L / L / V for void), never colour alone. A word the app does not know is
// shown as "?" with the word (or the reason it cannot settle) on hover: it is for the trader to settle by hand.
import type { BetResult } from '../../../shared/domain';
import { resultWords } from '../../../shared/trading';

const LETTER: Record<BetResult, string> = {
  win: 'W',
  half_win: '½W',
  push: 'P',
  half_loss: '½L',
  loss: 'L',
  void: 'V',
};
const CLASS: Record<BetResult, string> = {
  win: 'win',
  half_win: 'win half',
  push: 'push',
  half_loss: 'loss half',
  loss: 'loss',
  void: 'push void',
};

export function Outcome({
  value,
  label,
  testId,
  reason,
}: {
  value: string | null | undefined;
  label?: string;
  testId?: string;
  reason?: string;
}) {
  if (!value && !reason) return <span className="oc none">–</span>;
  // The service's words may come in another case ("WIN"); they mean the same.
  const word = value?.trim().toLowerCase();
  const known = word && word in LETTER ? (word as BetResult) : null;
  if (!known) {
    const why = reason ?? `the service said "${value}": settle by hand`;
    return (
      <span
        className="oc unknown"
        title={`${label ? `${label}: ` : ''}${why}`}
        data-testid={testId}
        data-outcome={value ?? 'by_hand'}
      >
        ?
      </span>
    );
  }
  return (
    <span
      className={`oc ${CLASS[known]}`}
      title={`${label ? `${label}: ` : ''}${resultWords(known)}`}
      data-testid={testId}
      data-outcome={known}
    >
      {LETTER[known]}
    </span>
  );
}
