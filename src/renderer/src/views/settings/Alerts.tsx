// Settings, Alerts and notifications: when a max stake change, a drop or a settlement alerts, what notifies and
// sounds, the money unit, the price alerts' hysteresis and, in browser mode, the page's permission to notify.
import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { DropAlertPhase, SettlementAlertScope } from '../../../../shared/domain';
import { AlertSoundsSetting } from '../../components/AlertSoundsSetting';
import { useSports } from '../../hooks';
import { askNotificationPermission, notificationPermission } from '../../notify';
import { useStore } from '../../store';
import { NumberRow, Row, SettingNumber, useSaveSetting, type SettingsSectionProps } from './Row';

export function AlertsSection({
  settings,
  update,
  browserNotifications,
}: SettingsSectionProps & { browserNotifications: boolean }) {
  return (
    <>
      <h2>Alerts and notifications</h2>
      <NumberRow
        label="Max stake alert threshold"
        hint="Alert when a limit (the maximum stake accepted on a line or special) has moved by at least this share since its last alert."
        settings={settings}
        setting="maxWinThresholdPct"
      />
      <NotifyRow settings={settings} update={update} />
      <SettlementAlertsSetting settings={settings} update={update} />
      <AlertSoundsSetting />
      <DropRuleRow settings={settings} />
      <DropScopeSetting settings={settings} update={update} />
      <MoneyUnitRow settings={settings} />
      <NumberRow
        label="Price alert hysteresis"
        hint="A price must move back this far past a threshold before it can fire again, so a price flickering around it alerts once."
        settings={settings}
        setting="priceAlertHysteresisPct"
      />
      {browserNotifications && <BrowserNotificationsRow />}
    </>
  );
}

/** The switches of the Notify row, in order: the setting each turns on or off, its words and its test id. */
const NOTIFY_SWITCHES: ReadonlyArray<{
  key: 'notifySettlements' | 'notifyMaxWin' | 'notifyPriceAlerts' | 'doNotDisturb';
  words: string;
  testId?: string;
}> = [
  { key: 'notifySettlements', words: 'settlements' },
  { key: 'notifyMaxWin', words: 'max stake changes' },
  { key: 'notifyPriceAlerts', words: 'price and drop alerts', testId: 'notify-price-toggle' },
  { key: 'doNotDisturb', words: 'do not disturb', testId: 'dnd-toggle' },
];

/** Which kinds of alert become desktop notifications, and do-not-disturb over all of them. */
function NotifyRow({ settings, update }: SettingsSectionProps) {
  return (
    <Row label="Notify">
      {NOTIFY_SWITCHES.map(({ key, words, testId }) => (
        <label key={key} className="check">
          <input
            type="checkbox"
            checked={settings?.[key] ?? false}
            disabled={!settings}
            onChange={(e) => void update({ [key]: e.target.checked })}
            data-testid={testId}
          />{' '}
          {words}
        </label>
      ))}
    </Row>
  );
}

/** The default drop rule: how far a fair price shortens, and within how many minutes. */
function DropRuleRow({ settings }: Pick<SettingsSectionProps, 'settings'>) {
  return (
    <Row
      label="Drop alert"
      hint="Alert when a side's no-vig fair price shortens at least this much (and its fair probability rises at least 1 point) since the open or within the window; after an alert, again when it shortens this much from the price it alerted at. A drift is never a drop. Each event can override it in its detail."
    >
      <SettingNumber settings={settings} setting="dropAlertPct" />{' '}
      <SettingNumber settings={settings} setting="dropWindowMinutes" />
    </Row>
  );
}

function MoneyUnitRow({ settings }: Pick<SettingsSectionProps, 'settings'>) {
  const save = useSaveSetting();
  return (
    <Row
      label="Money unit"
      hint="The currency or unit of your stakes and P/L (EUR, USD, u). Every stake and P/L is shown with two decimals in it."
    >
      <input
        key={settings?.moneyUnit ?? ''}
        defaultValue={settings?.moneyUnit ?? ''}
        maxLength={8}
        size={8}
        disabled={!settings}
        aria-label="Money unit"
        data-testid="money-unit"
        onBlur={(e) =>
          e.target.value.trim() !== (settings?.moneyUnit ?? '') &&
          void save({ moneyUnit: e.target.value.trim() }, 'Money unit')
        }
        onKeyDown={(e) => e.key === 'Enter' && (e.target as HTMLInputElement).blur()}
      />
    </Row>
  );
}

/** Browser mode: whether the page may show desktop notifications, and the button that asks. */
function BrowserNotificationsRow() {
  const [perm, setPerm] = useState<string>(notificationPermission());
  return (
    <Row label="Browser notifications" hint="Browser mode shows alerts as desktop notifications once allowed.">
      {perm === 'granted' ? (
        <span className="ok-text">allowed</span>
      ) : perm === 'unsupported' ? (
        <span className="muted">not supported by this browser</span>
      ) : perm === 'denied' ? (
        <span className="muted">blocked in the browser's site settings</span>
      ) : (
        <button onClick={() => void askNotificationPermission().then(setPerm)}>Allow notifications</button>
      )}
    </Row>
  );
}

/** When and where drop alerts speak: before kick-off, in play or both, and in which sports (none chosen: all). */
function DropScopeSetting({ settings, update }: SettingsSectionProps) {
  const sports = useSports();
  const chosen = settings?.dropAlertSports ?? [];
  const toggle = (id: number, on: boolean) => (on ? [...new Set([...chosen, id])] : chosen.filter((x) => x !== id));
  return (
    <Row
      label="Drop alerts when"
      hint="In play means the stream says the match is live. Choose sports to limit drop alerts to them; none chosen means every sport. Price thresholds are not limited."
    >
      <select
        value={settings?.dropAlertPhase ?? 'both'}
        disabled={!settings}
        aria-label="Drop alerts when"
        data-testid="drop-alert-phase"
        onChange={(e) => void update({ dropAlertPhase: e.target.value as DropAlertPhase })}
      >
        <option value="both">before kick-off and in play</option>
        <option value="prematch">before kick-off only</option>
        <option value="inplay">in play only</option>
      </select>
      <div className="chosen-scope" data-testid="drop-alert-sports">
        {sports.map((s) => (
          <label key={s.sport_id} className="check">
            <input
              type="checkbox"
              checked={chosen.includes(s.sport_id)}
              disabled={!settings}
              onChange={(e) => void update({ dropAlertSports: toggle(s.sport_id, e.target.checked) })}
            />{' '}
            {s.name}
          </label>
        ))}
        {chosen.length === 0 && <span className="muted"> every sport</span>}
      </div>
    </Row>
  );
}

/** Which settlements alert and notify: watched matches (default), all, or chosen sports and leagues (their sound is under Sounds). */
function SettlementAlertsSetting({ settings, update }: SettingsSectionProps) {
  const sports = useSports();
  const leagues = useStore(useShallow((s) => Object.values(s.leaguesSeen)));
  const scope = settings?.settlementAlerts ?? 'watched';
  const chosenSports = settings?.settlementSports ?? [];
  const chosenLeagues = settings?.settlementLeagues ?? [];
  const toggle = (list: number[], id: number, on: boolean) =>
    on ? [...new Set([...list, id])] : list.filter((x) => x !== id);
  return (
    <Row label="Settlement alerts" hint="Which settled matches alert (and notify, unless silenced above).">
      <select
        value={scope}
        disabled={!settings}
        aria-label="Settlement alerts for"
        data-testid="settlement-alerts-scope"
        onChange={(e) => void update({ settlementAlerts: e.target.value as SettlementAlertScope })}
      >
        <option value="watched">watched matches only</option>
        <option value="all">all settlements</option>
        <option value="chosen">watched, and chosen sports and leagues</option>
      </select>
      {scope === 'chosen' && (
        <div className="chosen-scope" data-testid="settlement-alerts-chosen">
          <div>
            {sports.map((s) => (
              <label key={s.sport_id} className="check">
                <input
                  type="checkbox"
                  checked={chosenSports.includes(s.sport_id)}
                  onChange={(e) =>
                    void update({ settlementSports: toggle(chosenSports, s.sport_id, e.target.checked) })
                  }
                />{' '}
                {s.name}
              </label>
            ))}
          </div>
          {leagues.length > 0 && (
            <div className="muted">
              Leagues seen in settlements:{' '}
              {leagues
                .sort((a, b) => a.leagueName.localeCompare(b.leagueName))
                .map((l) => (
                  <label key={l.leagueId} className="check">
                    <input
                      type="checkbox"
                      checked={chosenLeagues.includes(l.leagueId)}
                      onChange={(e) =>
                        void update({ settlementLeagues: toggle(chosenLeagues, l.leagueId, e.target.checked) })
                      }
                    />{' '}
                    {l.leagueName}
                  </label>
                ))}
            </div>
          )}
        </div>
      )}
    </Row>
  );
}
