// The pieces every Settings row is made of: a labelled row, a bounded number field, and the save that says in a
// toast whether a change was kept.
import { useEffect, useState, type ReactNode } from 'react';
import type { AppError } from '../../../../shared/errors';
import type { SettingsPatch, SettingsSnapshot as SettingsValues } from '../../../../shared/ipc/contract';
import { DEFAULT_QUOTA_PER_HOUR, QUOTA_PER_HOUR_RANGE } from '../../../../shared/requests';
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

/** The settings that are one bounded number: their range, unit, test id, name in the toast and value until loaded. */
type NumberSettingKey =
  | 'quotaPerHour'
  | 'maxWinThresholdPct'
  | 'dropAlertPct'
  | 'dropWindowMinutes'
  | 'priceAlertHysteresisPct'
  | 'retentionDays'
  | 'rawTickHours'
  | 'settledEverySeconds';
const NUMBER_SETTINGS: Record<
  NumberSettingKey,
  { fallback: number; min: number; max: number; suffix: string; testId: string; what: string; integer?: boolean }
> = {
  quotaPerHour: {
    fallback: DEFAULT_QUOTA_PER_HOUR,
    ...QUOTA_PER_HOUR_RANGE,
    integer: true,
    suffix: 'requests per hour',
    testId: 'quota-input',
    what: 'Hourly quota',
  },
  maxWinThresholdPct: { fallback: 0, min: 0, max: 1000, suffix: '%', testId: 'threshold-input', what: 'Threshold' },
  dropAlertPct: { fallback: 5, min: 0, max: 100, suffix: '%', testId: 'drop-pct-default', what: 'Drop alert' },
  dropWindowMinutes: {
    fallback: 15,
    min: 1,
    max: 240,
    suffix: 'minutes',
    testId: 'drop-window-default',
    what: 'Drop window',
  },
  priceAlertHysteresisPct: {
    fallback: 1,
    min: 0,
    max: 50,
    suffix: '%',
    testId: 'hysteresis-input',
    what: 'Hysteresis',
  },
  retentionDays: { fallback: 30, min: 1, max: 3650, suffix: 'days', testId: 'retention-input', what: 'Retention' },
  rawTickHours: {
    fallback: 1,
    min: 1,
    max: 168,
    suffix: 'hours',
    testId: 'raw-hours-input',
    what: 'Full-detail window',
  },
  settledEverySeconds: {
    fallback: 60,
    min: 10,
    max: 3600,
    suffix: 'seconds',
    testId: 'settled-every-input',
    what: 'Sync interval',
  },
};

/** One of the number settings, saved on Enter or blur with a toast naming it. */
export function SettingNumber({ settings, setting }: { settings: SettingsValues | null; setting: NumberSettingKey }) {
  const save = useSaveSetting();
  const { fallback, min, max, suffix, testId, what, integer } = NUMBER_SETTINGS[setting];
  return (
    <NumberSetting
      value={settings?.[setting] ?? fallback}
      min={min}
      max={max}
      integer={integer}
      suffix={suffix}
      testId={testId}
      onSave={(n) => void save({ [setting]: n }, what)}
    />
  );
}

/** A row of one number setting. */
export function NumberRow({
  label,
  hint,
  settings,
  setting,
}: {
  label: string;
  hint?: string;
  settings: SettingsValues | null;
  setting: NumberSettingKey;
}) {
  return (
    <Row label={label} hint={hint}>
      <SettingNumber settings={settings} setting={setting} />
    </Row>
  );
}
