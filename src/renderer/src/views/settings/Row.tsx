// The pieces every Settings row is made of: a labelled row, a bounded number field, and the save that says in a
// toast whether a change was kept.
import { useEffect, useState, type ReactNode } from 'react';
import type { AppError } from '../../../../shared/errors';
import type { SettingsPatch, SettingsView as SettingsValues } from '../../../../shared/ipc/contract';
import { useStore } from '../../store';

/** What a section of Settings reads and how it changes a setting without a word (the store's update). */
export interface SettingsSectionProps {
  settings: SettingsValues | null;
  update: (p: SettingsPatch) => Promise<AppError | null>;
}

/** Saves a change and says so in a toast: "Threshold saved", or "Threshold not saved: why". */
export function useSaveSetting(): (patch: SettingsPatch, what: string) => Promise<void> {
  const update = useStore((s) => s.updateSettings);
  const toast = useStore((s) => s.toast);
  return async (patch, what) => {
    const err = await update(patch);
    toast(err ? `${what} not saved: ${err.message}` : `${what} saved`, err ? 'error' : 'info');
  };
}

export function Row({ label, hint, children }: { label: string; hint?: string; children: ReactNode }) {
  return (
    <div className="set-row">
      <div className="set-label">
        {label}
        {hint && <div className="muted small-text">{hint}</div>}
      </div>
      <div className="set-control">{children}</div>
    </div>
  );
}

/** A number field that saves on Enter or blur, within bounds. */
export function NumberSetting({
  value,
  min,
  max,
  onSave,
  testId,
  suffix,
  integer = false,
}: {
  value: number;
  min: number;
  max: number;
  onSave: (n: number) => void;
  testId: string;
  suffix?: string;
  integer?: boolean;
}) {
  const [text, setText] = useState(String(value));
  useEffect(() => setText(String(value)), [value]);
  const n = Number(text);
  const valid = text.trim() !== '' && Number.isFinite(n) && n >= min && n <= max && (!integer || Number.isInteger(n));
  const save = () => valid && n !== value && onSave(n);
  return (
    <span>
      <input
        type="number"
        min={min}
        max={max}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={save}
        onKeyDown={(e) => e.key === 'Enter' && save()}
        aria-invalid={!valid}
        data-testid={testId}
        className="narrow"
      />
      {suffix && <span className="muted"> {suffix}</span>}
      {!valid && (
        <span className="status-error">
          {' '}
          {integer ? 'a whole number, ' : ''}
          {min.toLocaleString('en-US')}–{max.toLocaleString('en-US')}
        </span>
      )}
    </span>
  );
}
