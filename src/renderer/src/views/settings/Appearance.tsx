// Settings, Appearance: the theme, the odds format every price reads in and the time zone every time is shown in.
import { useMemo } from 'react';
import type { SettingsPatch } from '../../../../shared/ipc/contract';
import {
  formatClock,
  formatOdds,
  ODDS_FORMAT_NAMES,
  ODDS_FORMATS,
  systemTimeZone,
  timeZoneNames,
  zoneLabel,
  type OddsFormat,
} from '../../../../shared/formats';
import { useStore } from '../../store';
import { Row, type SettingsSectionProps } from './Row';

export function AppearanceSection({ settings }: Pick<SettingsSectionProps, 'settings'>) {
  const theme = useStore((s) => s.theme);
  return (
    <>
      <h2>Appearance</h2>
      <Row label="Theme">
        <select
          value={theme}
          onChange={(e) => changeSetting({ theme: e.target.value as 'dark' | 'light' }, 'Theme')}
          data-testid="theme-select"
        >
          <option value="dark">Dark</option>
          <option value="light">Light</option>
        </select>
      </Row>
      <OddsAndClock settings={settings} />
    </>
  );
}

// ---- odds format and time zone (issue 25): how every price reads and which clock every time is on ----

const EXAMPLE_PRICE = 1.952;

/** A setting changed as Settings changes it (the command palette's too): saved, and a toast if it was not. */
export function changeSetting(patch: SettingsPatch, what: string): void {
  const { updateSettings, toast } = useStore.getState();
  void updateSettings(patch).then((err) => err && toast(`${what} not saved: ${err.message}`, 'error'));
}

/** Settings opened at the time zone, its list focused (the palette's "Time zone"). */
export function openTimeZoneSetting(): void {
  useStore.getState().setView('settings');
  // After Settings is on screen: two frames, so its rows are drawn.
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      const select = document.querySelector<HTMLSelectElement>('[data-testid="time-zone-select"]');
      select?.scrollIntoView({ block: 'center' });
      select?.focus();
    }),
  );
}

function OddsAndClock({ settings }: Pick<SettingsSectionProps, 'settings'>) {
  const system = systemTimeZone();
  const zone = settings?.timeZone ?? system;
  const format = settings?.oddsFormat ?? 'decimal';
  const zones = useMemo(() => timeZoneNames([zone, system]), [zone, system]);
  return (
    <>
      <Row
        label="Odds format"
        hint="How every price on screen reads: the grid, the detail, charts, Top movers, bets, specials and the alert list. CSV exports keep the decimal price and add this one beside it; desktop notifications stay decimal."
      >
        <select
          value={format}
          disabled={!settings}
          onChange={(e) => changeSetting({ oddsFormat: e.target.value as OddsFormat }, 'Odds format')}
          aria-label="Odds format"
          data-testid="odds-format-select"
        >
          {ODDS_FORMATS.map((f) => (
            <option key={f} value={f}>
              {ODDS_FORMAT_NAMES[f]}
            </option>
          ))}
        </select>{' '}
        <span className="muted small-text" data-testid="odds-format-example">
          {formatOdds(EXAMPLE_PRICE, 'decimal')} reads {formatOdds(EXAMPLE_PRICE, format)}
        </span>
      </Row>
      <Row
        label="Time zone"
        hint="Every time is shown in this zone, on a 24-hour clock; the status bar names it. Date filters take YYYY-MM-DD days from midnight in it. Default: this computer's zone."
      >
        <select
          value={zone}
          disabled={!settings}
          onChange={(e) => changeSetting({ timeZone: e.target.value }, 'Time zone')}
          aria-label="Time zone"
          data-testid="time-zone-select"
        >
          {zones.map((z) => (
            <option key={z} value={z}>
              {z === system ? `${z} (this computer)` : z}
            </option>
          ))}
        </select>{' '}
        <span className="muted small-text" data-testid="time-zone-now">
          {zoneLabel(zone, Date.now())}, now {formatClock(Date.now(), zone)}
        </span>
      </Row>
    </>
  );
}
