// Settings: base URL, the key (write-only: we only ever learn whether one is stored), de-vig model, notification
// rules, alert threshold, history retention and the history file's size, theme, do-not-disturb and the hourly quota
// of the trader's plan; in the desktop app also close-to-tray, the log folder and diagnostics, and updates.
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { DEVIG_MODELS, type DevigModel } from '../../../shared/api';
import type { StorageKind } from '../../../shared/domain';
import type {
  DesktopApi,
  DesktopView,
  SettingsPatch,
  SettingsView as SettingsValues,
} from '../../../shared/ipc/contract';
import type { AppError } from '../../../shared/errors';
import type { DropAlertPhase, SettlementAlertScope } from '../../../shared/domain';
import { DEFAULT_QUOTA_PER_HOUR, QUOTA_PER_HOUR_RANGE } from '../../../shared/requests';
import {
  formatClock,
  formatOdds,
  ODDS_FORMAT_NAMES,
  ODDS_FORMATS,
  systemTimeZone,
  timeZoneNames,
  zoneLabel,
  type OddsFormat,
} from '../../../shared/formats';
import { api } from '../api';
import { Time } from '../components/Time';
import { useQuery, useSports } from '../hooks';
import { askNotificationPermission, notificationPermission } from '../notify';
import { AlertSoundsSetting } from '../components/AlertSoundsSetting';
import { useStore } from '../store';

const MODEL_NAMES: Record<DevigModel, string> = {
  LOG: 'LOG: power (logarithmic)',
  EM: 'EM: multiplicative (equal margin)',
  MPTO: 'MPTO: margin proportional to odds',
  SHIN: 'SHIN: Shin (insider trading)',
  OR: 'OR: odds ratio',
};

function Row({ label, hint, children }: { label: string; hint?: string; children: ReactNode }) {
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
function NumberSetting({
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

const UPDATE_TEXT: Record<DesktopView['update']['state'], string> = {
  off: 'Updates come with a new installer (no update feed in this build).',
  idle: 'Not checked yet.',
  checking: 'Checking…',
  latest: 'This is the latest version.',
  available: 'A new version is available.',
  downloading: 'Downloading…',
  ready: 'Downloaded: installs when you restart now.',
  manual: 'A new version is available to install by hand:',
  error: 'The update check failed.',
};

const FORGET_ALL_WARNING =
  'Forget all keys: removes the API key of every service from the OS keychain; you will need to enter it again.';

/** "Forget all keys", asked twice: every service's key leaves the keychain, not only the current one's. */
function ForgetAllKeys({ disabled }: { disabled: boolean }) {
  const forget = useStore((s) => s.forgetAllKeys);
  const toast = useStore((s) => s.toast);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    const r = await forget();
    setBusy(false);
    setAsking(false);
    if ('error' in r) toast(`No key was forgotten: ${r.error.message}`, 'error');
    else
      toast(
        r.removed === 0
          ? 'No keys were stored: nothing to forget'
          : `Forgot ${r.removed} ${r.removed === 1 ? 'key' : 'keys'}: removed from the OS keychain`,
        'info',
      );
  };
  if (!asking) {
    return (
      <button type="button" disabled={disabled} onClick={() => setAsking(true)} data-testid="forget-all-keys">
        Forget all keys…
      </button>
    );
  }
  return (
    <div className="calm-message" role="alertdialog" aria-label="Forget all keys" data-testid="forget-all-keys-confirm">
      {FORGET_ALL_WARNING}{' '}
      <button type="button" disabled={busy} onClick={() => void confirm()} data-testid="forget-all-keys-yes">
        Forget all keys
      </button>{' '}
      <button
        type="button"
        disabled={busy}
        onClick={() => setAsking(false)}
        data-testid="forget-all-keys-cancel"
        autoFocus
      >
        Cancel
      </button>
    </div>
  );
}

/** The desktop shell's own settings; Electron only (browser mode has no tray, log file or installer). */
function DesktopSection({ desktop }: { desktop: DesktopApi }) {
  const toast = useStore((s) => s.toast);
  const [view, setView] = useState<DesktopView | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let alive = true;
    const load = () => void desktop.invoke('desktop:get').then((r) => alive && r.ok && setView(r.value));
    load();
    // Update checks and downloads move on their own: follow them while Settings is open.
    const timer = setInterval(load, 2000);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, [desktop]);
  const run = async <T,>(
    work: () => Promise<{ ok: true; value: T } | { ok: false; error: { message: string } }>,
    done?: (v: T) => void,
  ) => {
    setBusy(true);
    const r = await work();
    setBusy(false);
    if (r.ok) done?.(r.value);
    else toast(r.error.message, 'error');
  };
  const update = view?.update;
  return (
    <>
      <h2>Desktop</h2>
      <Row
        label="Closing the window"
        hint="Oddsdesk keeps watching and notifying from the tray; quit from the tray menu or the app menu."
      >
        <label className="check">
          <input
            type="checkbox"
            checked={view?.closeToTray ?? true}
            disabled={!view}
            data-testid="close-to-tray-toggle"
            onChange={(e) =>
              void run(() => desktop.invoke('desktop:update', { closeToTray: e.target.checked }), setView)
            }
          />{' '}
          keeps Oddsdesk running in the tray
        </label>
        {view && !view.trayAvailable && (
          <div className="muted small-text">This desktop shows no tray icon: closing the window quits.</div>
        )}
      </Row>
      <Row
        label="When something goes wrong"
        hint="The log never contains your key. The summary lists versions, the connection state and recent log lines."
      >
        <button onClick={() => void run(() => desktop.invoke('desktop:openLogFolder'))} data-testid="open-log-folder">
          Open log folder
        </button>{' '}
        <button
          onClick={() =>
            void run(
              () => desktop.invoke('desktop:copyDiagnostics'),
              () => toast('Diagnostics copied to the clipboard', 'info'),
            )
          }
          data-testid="copy-diagnostics"
        >
          Copy diagnostics
        </button>
        {view && <div className="muted small-text">{view.logFolder}</div>}
      </Row>
      <Row label="Updates" hint={update ? `You have ${update.currentVersion}.` : undefined}>
        <span data-testid="update-state">
          {update ? UPDATE_TEXT[update.state] : ''}
          {update?.version && update.state !== 'latest'
            ? ` ${update.version}${update.state === 'manual' ? '.' : ''}`
            : ''}
          {update?.state === 'downloading' && update.percent !== null ? ` ${update.percent}%` : ''}
          {update?.message && (update.state === 'error' || update.state === 'manual') ? ` ${update.message}` : ''}
        </span>{' '}
        {update &&
          update.state !== 'off' &&
          (update.state === 'available' || update.state === 'ready' ? (
            <button
              disabled={busy}
              onClick={() =>
                void run(
                  () => desktop.invoke('desktop:installUpdate'),
                  (u) => setView((v) => (v ? { ...v, update: u } : v)),
                )
              }
              data-testid="install-update"
            >
              {update.state === 'ready' ? 'Restart and install' : 'Download, restart and install'}
            </button>
          ) : (
            <button
              disabled={busy || update.state === 'checking' || update.state === 'downloading'}
              onClick={() =>
                void run(
                  () => desktop.invoke('desktop:checkForUpdates'),
                  (u) => setView((v) => (v ? { ...v, update: u } : v)),
                )
              }
              data-testid="check-updates"
            >
              Check for updates
            </button>
          ))}
      </Row>
    </>
  );
}

const KIND_LABEL: Record<StorageKind, string> = {
  rawTicks: 'Odds ticks, full detail',
  bars: 'Odds history, one-minute bars',
  maxWinPoints: 'max stake change points',
  specials: 'Specials and outrights',
  settlements: 'Settlements and results',
  alerts: 'Alerts',
  other: 'Events, lines, settings',
  free: 'Free (reused before the file grows)',
};

function fmtBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[u]}`;
}

/** The history file's size, what each kind of history takes, and "compact now". */
function StorageUsage() {
  const toast = useStore((s) => s.toast);
  const { data: usage, error, reload } = useQuery('usage', () => api.invoke('store:usage'));
  const [busy, setBusy] = useState(false);
  const compact = async () => {
    setBusy(true);
    const r = await api.invoke('store:compact');
    setBusy(false);
    reload();
    if (!r.ok) return toast(`Compaction failed: ${r.error.message}`, 'error');
    const n = r.value.ticksCompacted.toLocaleString();
    toast(
      r.value.done
        ? `Compacted ${n} ticks; nothing older than the full-detail window is left raw`
        : `Compacted ${n} ticks; more remains and continues in the background`,
      'info',
    );
  };
  if (error) return <span className="status-error">The database size is not available: {error.message}</span>;
  if (!usage) return <span className="muted">Measuring…</span>;
  return (
    <div data-testid="storage-usage">
      <div>
        <strong data-testid="storage-total">{fmtBytes(usage.fileBytes + usage.walBytes)}</strong>
        {usage.walBytes > 0 && <span className="muted"> (of which {fmtBytes(usage.walBytes)} write-ahead log)</span>}
        {!usage.exact && <span className="muted"> · estimated</span>}
      </div>
      <table className="grid">
        <tbody>
          {usage.kinds
            .filter((k) => k.bytes > 0)
            .map((k) => (
              <tr key={k.kind} data-testid={`storage-${k.kind}`}>
                <td>{KIND_LABEL[k.kind]}</td>
                <td className="num">{fmtBytes(k.bytes)}</td>
              </tr>
            ))}
        </tbody>
      </table>
      {usage.oldestRawTickAt !== null && (
        <div className="muted small-text">
          Full tick detail since <Time ms={usage.oldestRawTickAt} withDate />
        </div>
      )}
      <button onClick={() => void compact()} disabled={busy} data-testid="compact-now">
        {busy ? 'Compacting…' : 'Compact now'}
      </button>{' '}
      <button onClick={reload} disabled={busy}>
        Refresh
      </button>
    </div>
  );
}

/** When and where drop alerts speak: before kick-off, in play or both, and in which sports (none chosen: all). */
function DropScopeSetting({
  settings,
  update,
}: {
  settings: SettingsValues | null;
  update: (p: SettingsPatch) => Promise<AppError | null>;
}) {
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
function SettlementAlertsSetting({
  settings,
  update,
}: {
  settings: SettingsValues | null;
  update: (p: SettingsPatch) => Promise<AppError | null>;
}) {
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

export function SettingsView() {
  const { settings, error, theme, model, info, quota } = useStore(
    useShallow((s) => ({
      settings: s.settings,
      error: s.settingsError,
      theme: s.theme,
      model: s.devigModel,
      info: s.info,
      quota: s.status?.quota,
    })),
  );
  const { update, setApiKey, clearApiKey, load, toast } = useStore(
    useShallow((s) => ({
      update: s.updateSettings,
      setApiKey: s.setApiKey,
      clearApiKey: s.clearApiKey,
      load: s.loadSettings,
      toast: s.toast,
    })),
  );
  const [baseUrl, setBaseUrl] = useState(settings?.baseUrl ?? '');
  const [key, setKey] = useState('');
  const [perm, setPerm] = useState<string>(notificationPermission());
  useEffect(() => setBaseUrl(settings?.baseUrl ?? ''), [settings?.baseUrl]);

  const save = async (patch: SettingsPatch, what: string) => {
    const err = await update(patch);
    toast(err ? `${what} not saved: ${err.message}` : `${what} saved`, err ? 'error' : 'info');
  };
  const saveKey = async () => {
    const err = await setApiKey(key, settings?.baseUrl ?? undefined);
    setKey('');
    toast(err ? `The key was not stored: ${err.message}` : 'Key stored', err ? 'error' : 'info');
  };

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

      <h2>Connection</h2>
      <Row label="Service base URL" hint="Where the odds service lives; the key is stored per base URL.">
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault();
            void save({ baseUrl: baseUrl.trim() || null }, 'Base URL');
          }}
        >
          <input
            type="url"
            value={baseUrl}
            onChange={(e) => setBaseUrl(e.target.value)}
            placeholder="https://…"
            size={40}
            data-testid="base-url-input"
            disabled={!settings}
          />
          <button type="submit" disabled={!settings || baseUrl.trim() === (settings.baseUrl ?? '')}>
            Save
          </button>
        </form>
      </Row>
      <Row label="API key" hint="Write-only: it goes to the OS keychain and is never shown again.">
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault();
            void saveKey();
          }}
        >
          <input
            type="password"
            autoComplete="off"
            value={key}
            onChange={(e) => setKey(e.target.value)}
            placeholder={settings?.hasKey ? '•••••••• (stored; type to replace)' : 'paste your key'}
            size={32}
            data-testid="api-key-input"
          />
          <button type="submit" disabled={key.length < 8} data-testid="api-key-save">
            Store key
          </button>
          <span className={settings?.hasKey ? 'ok-text' : 'muted'} data-testid="api-key-state">
            {settings ? (settings.hasKey ? '● a key is stored' : '○ no key stored') : ''}
          </span>
          {settings?.hasKey && (
            <button
              type="button"
              onClick={() =>
                void clearApiKey().then((err) => toast(err ? err.message : 'Key cleared', err ? 'error' : 'info'))
              }
              data-testid="api-key-clear"
            >
              Clear key
            </button>
          )}
        </form>
        {/* An error only where a key is needed (a service is set); demo mode with no key needs none, and says so calmly. */}
        {settings &&
          !settings.keychain.available &&
          (settings.baseUrl ? (
            <div className="status-error small-text">
              {settings.keychain.message ?? 'The OS keychain is not available.'}
            </div>
          ) : (
            <div
              className="muted small-text"
              title={settings.keychain.message ?? undefined}
              data-testid="keychain-note"
            >
              No OS keychain here, so a key cannot be stored yet; demo mode needs none.
            </div>
          ))}
        <div className="small-text">
          <ForgetAllKeys disabled={!settings || !settings.keychain.available} />
        </div>
        {settings?.demo && <div className="muted small-text">Demo mode: running on the built-in simulator.</div>}
      </Row>
      <Row
        label="Hourly quota"
        hint="Requests per hour your plan allows; the service does not publish it. Rate-limit headers from the service take precedence."
      >
        <NumberSetting
          value={settings?.quotaPerHour ?? DEFAULT_QUOTA_PER_HOUR}
          min={QUOTA_PER_HOUR_RANGE.min}
          max={QUOTA_PER_HOUR_RANGE.max}
          integer
          suffix="requests per hour"
          testId="quota-input"
          onSave={(n) => void save({ quotaPerHour: n }, 'Hourly quota')}
        />
        <span className="muted small-text" data-testid="quota-source-setting">
          {quota?.source === 'headers'
            ? `in use: ${quota.limit?.toLocaleString('en-US') ?? '?'} per hour, stated by the service's headers`
            : quota?.source === 'setting'
              ? 'in use: this figure (the service sends no rate-limit headers)'
              : ''}
        </span>
      </Row>

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

      <h2>Alerts and notifications</h2>
      <Row
        label="Max stake alert threshold"
        hint="Alert when a limit (the maximum stake accepted on a line or special) has moved by at least this share since its last alert."
      >
        <NumberSetting
          value={settings?.maxWinThresholdPct ?? 0}
          min={0}
          max={1000}
          suffix="%"
          testId="threshold-input"
          onSave={(n) => void save({ maxWinThresholdPct: n }, 'Threshold')}
        />
      </Row>
      <Row label="Notify">
        <label className="check">
          <input
            type="checkbox"
            checked={settings?.notifySettlements ?? false}
            disabled={!settings}
            onChange={(e) => void update({ notifySettlements: e.target.checked })}
          />{' '}
          settlements
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={settings?.notifyMaxWin ?? false}
            disabled={!settings}
            onChange={(e) => void update({ notifyMaxWin: e.target.checked })}
          />{' '}
          max stake changes
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={settings?.notifyPriceAlerts ?? false}
            disabled={!settings}
            onChange={(e) => void update({ notifyPriceAlerts: e.target.checked })}
            data-testid="notify-price-toggle"
          />{' '}
          price and drop alerts
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={settings?.doNotDisturb ?? false}
            disabled={!settings}
            onChange={(e) => void update({ doNotDisturb: e.target.checked })}
            data-testid="dnd-toggle"
          />{' '}
          do not disturb
        </label>
      </Row>
      <SettlementAlertsSetting settings={settings} update={update} />
      <AlertSoundsSetting />
      <Row
        label="Drop alert"
        hint="Alert when a side's no-vig fair price shortens at least this much (and its fair probability rises at least 1 point) since the open or within the window; after an alert, again when it shortens this much from the price it alerted at. A drift is never a drop. Each event can override it in its detail."
      >
        <NumberSetting
          value={settings?.dropAlertPct ?? 5}
          min={0}
          max={100}
          suffix="%"
          testId="drop-pct-default"
          onSave={(n) => void save({ dropAlertPct: n }, 'Drop alert')}
        />{' '}
        <NumberSetting
          value={settings?.dropWindowMinutes ?? 15}
          min={1}
          max={240}
          suffix="minutes"
          testId="drop-window-default"
          onSave={(n) => void save({ dropWindowMinutes: n }, 'Drop window')}
        />
      </Row>
      <DropScopeSetting settings={settings} update={update} />
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
      <Row
        label="Price alert hysteresis"
        hint="A price must move back this far past a threshold before it can fire again, so a price flickering around it alerts once."
      >
        <NumberSetting
          value={settings?.priceAlertHysteresisPct ?? 1}
          min={0}
          max={50}
          suffix="%"
          testId="hysteresis-input"
          onSave={(n) => void save({ priceAlertHysteresisPct: n }, 'Hysteresis')}
        />
      </Row>
      {info?.host !== 'electron' && (
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
      )}

      <h2>Data</h2>
      <Row
        label="Keep tick history for"
        hint="Older odds history is deleted; settlements, specials, alerts and max stake change points are kept."
      >
        <NumberSetting
          value={settings?.retentionDays ?? 30}
          min={1}
          max={3650}
          suffix="days"
          testId="retention-input"
          onSave={(n) => void save({ retentionDays: n }, 'Retention')}
        />
      </Row>
      <Row
        label="Full tick detail for"
        hint="Older odds ticks are compacted into one-minute bars (open, high, low, close); every max stake change is kept exactly."
      >
        <NumberSetting
          value={settings?.rawTickHours ?? 1}
          min={1}
          max={168}
          suffix="hours"
          testId="raw-hours-input"
          onSave={(n) => void save({ rawTickHours: n }, 'Full-detail window')}
        />
      </Row>
      <Row label="Database" hint="The history file on this computer and what each kind of history takes in it.">
        <StorageUsage />
      </Row>
      <Row label="Settlement sync every">
        <NumberSetting
          value={settings?.settledEverySeconds ?? 60}
          min={10}
          max={3600}
          suffix="seconds"
          testId="settled-every-input"
          onSave={(n) => void save({ settledEverySeconds: n }, 'Sync interval')}
        />
      </Row>

      {api.desktop && <DesktopSection desktop={api.desktop} />}

      <h2>Appearance</h2>
      <Row label="Theme">
        <select
          value={theme}
          onChange={(e) => void update({ theme: e.target.value as 'dark' | 'light' })}
          data-testid="theme-select"
        >
          <option value="dark">Dark</option>
          <option value="light">Light</option>
        </select>
      </Row>
      <OddsAndClock settings={settings} />
    </section>
  );
}

// ---- odds format and time zone (issue 25): how every price reads and which clock every time is on ----

const EXAMPLE_PRICE = 1.952;

function OddsAndClock({ settings }: { settings: SettingsValues | null }) {
  const update = useStore((s) => s.updateSettings);
  const toast = useStore((s) => s.toast);
  const system = systemTimeZone();
  const zone = settings?.timeZone ?? system;
  const format = settings?.oddsFormat ?? 'decimal';
  const zones = useMemo(() => timeZoneNames([zone, system]), [zone, system]);
  const change = (patch: SettingsPatch, what: string) =>
    void update(patch).then((err) => err && toast(`${what} not saved: ${err.message}`, 'error'));
  return (
    <>
      <Row
        label="Odds format"
        hint="How every price on screen reads: the grid, the detail, charts, Top movers, bets, specials and the alert list. CSV exports keep the decimal price and add this one beside it; desktop notifications stay decimal."
      >
        <select
          value={format}
          disabled={!settings}
          onChange={(e) => change({ oddsFormat: e.target.value as OddsFormat }, 'Odds format')}
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
          onChange={(e) => change({ timeZone: e.target.value }, 'Time zone')}
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
