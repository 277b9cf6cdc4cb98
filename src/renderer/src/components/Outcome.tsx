// A settled outcome: colour AND a letter (W / L / P), never colour alone.
import type { Outcome as OutcomeValue } from '../../../shared/api';

const LETTER: Record<OutcomeValue, string> = { win: 'W', loss: 'L', push: 'P' };

export function Outcome({ value, label, testId }: { value: OutcomeValue | null | undefined; label?: string; testId?: string }) {
  if (!value) return <span className="oc none">–</span>;
  return (
    <span className={`oc ${value}`} title={`${label ? `${label}: ` : ''}${value}`} data-testid={testId} data-outcome={value}>
      {LETTER[value]}
    </span>
  );
}
