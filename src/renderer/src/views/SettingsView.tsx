// Settings: base URL, the key (write-only: we only ever learn whether one is stored), de-vig model, notification
// rules, alert threshold, history retention and the history file's size, theme, do-not-disturb and the hourly quota
// of the trader's plan; in the desktop app also close-to-tray, the log folder and diagnostics, and updates. Each
// section is its own component under ./settings/, built from the same rows (./settings/Row.tsx).
import { useShallow } from 'zustand/react/shallow';
import { DEVIG_MODELS, type DevigModel } from '../../../shared/api';
import { host } from '../host';
import { useStore } from '../store';
import { AlertsSection } from './settings/Alerts';
import { AppearanceSection } from './settings/Appearance';
import { ConnectionSection } from './settings/Connection';
import { DataSection } from './settings/Data';
import { DesktopSection } from './settings/Desktop';
import { Row, type SettingsSectionProps } from './settings/Row';

const MODEL_NAMES: Record<DevigModel, string> = {
  LOG: 'LOG: power (logarithmic)',
  EM: 'EM: multiplicative (equal margin)',
  MPTO: 'MPTO: margin proportional to odds',
  SHIN: 'SHIN: Shin (insider trading)',
  OR: 'OR: odds ratio',
};

export function SettingsView() {
  const { settings, error, info, update, load } = useStore(
    useShallow((s) => ({
      settings: s.settings,
      error: s.settingsError,
      info: s.info,
      update: s.updateSettings,
      load: s.loadSettings,
    })),
  );
  return (
    <section className="view settings" aria-labelledby="settings-title">
      <header className="view-header">
        <h1 id="settings-title">Settings</h1>
        {info && (
          <span className="muted">
            Oddsdesk {info.version} · {info.host} host
          </span>
        )}
      </header>
      {error && (
        <div className="calm-message" role="alert">
          The stored settings could not be read: {error.message}. Theme and de-vig model still apply on this screen.{' '}
          <button onClick={() => void load()}>Try again</button>
        </div>
      )}

      <ConnectionSection settings={settings} />

      <PricingSection update={update} />

      <AlertsSection settings={settings} update={update} browserNotifications={info?.host !== 'electron'} />

      <DataSection settings={settings} />

      {host.desktop && <DesktopSection desktop={host.desktop} />}

      <AppearanceSection settings={settings} />
    </section>
  );
}

function PricingSection({ update }: Pick<SettingsSectionProps, 'update'>) {
  const model = useStore((s) => s.devigModel);
  return (
    <>
      <h2>Pricing</h2>
      <Row
        label="De-vig model"
        hint="Fair probabilities in the event detail are computed locally from live prices with this model."
      >
        <select
          value={model}
          onChange={(e) => void update({ devigModel: e.target.value as DevigModel })}
          data-testid="devig-model-select"
        >
          {DEVIG_MODELS.map((m) => (
            <option key={m} value={m}>
              {MODEL_NAMES[m]}
            </option>
          ))}
        </select>
      </Row>
    </>
  );
}
