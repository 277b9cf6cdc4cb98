// A day as YYYY-MM-DD typed in a text field, from midnight in the trader's zone: the same on every machine (a native
// date field follows the browser's locale, mm/dd/yyyy in the US). The filter takes the text once it is a real day,
// or empty. Used by the Settlements filter and the Bets report's date range.
import { useEffect, useState } from 'react';
import { parseDay, zoneLabel } from '../../../shared/formats';

export function DayInput({
  value,
  onChange,
  label,
  testId,
  zone,
}: {
  value: string;
  onChange(day: string): void;
  label: string;
  testId: string;
  zone: string;
}) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const valid = text.trim() === '' || parseDay(text) !== null;
  return (
    <input
      type="text"
      inputMode="numeric"
      placeholder="YYYY-MM-DD"
      size={11}
      maxLength={10}
      value={text}
      aria-label={label}
      aria-invalid={!valid}
      title={`A day as YYYY-MM-DD, from midnight in ${zoneLabel(zone, Date.now())}`}
      data-testid={testId}
      onChange={(e) => {
        const t = e.target.value;
        setText(t);
        if (t.trim() === '' || parseDay(t)) onChange(t.trim());
      }}
    />
  );
}
