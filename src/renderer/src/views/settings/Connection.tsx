// Settings, Connection: where the service lives, its key (write-only: the page only ever learns whether one is
// stored), forgetting every service's key, and the hourly quota of the trader's plan.
import { useEffect, useState } from 'react';
import { useStore } from '../../store';
import { Row, SettingNumber, useSaveSetting, type SettingsSectionProps } from './Row';

export function ConnectionSection({ settings }: Pick<SettingsSectionProps, 'settings'>) {
  return (
    <>
      <h2>Connection</h2>
      <BaseUrlRow settings={settings} />
      <ApiKeyRow settings={settings} />
      <QuotaRow settings={settings} />
    </>
  );
}

function BaseUrlRow({ settings }: Pick<SettingsSectionProps, 'settings'>) {
  const save = useSaveSetting();
  const [baseUrl, setBaseUrl] = useState(settings?.baseUrl ?? '');
  useEffect(() => setBaseUrl(settings?.baseUrl ?? ''), [settings?.baseUrl]);
  return (
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
  );
}

function ApiKeyRow({ settings }: Pick<SettingsSectionProps, 'settings'>) {
  const setApiKey = useStore((s) => s.setApiKey);
  const clearApiKey = useStore((s) => s.clearApiKey);
  const toast = useStore((s) => s.toast);
  const [key, setKey] = useState('');
  const saveKey = async () => {
    const err = await setApiKey(key, settings?.baseUrl ?? undefined);
    setKey('');
    toast(err ? `The key was not stored: ${err.message}` : 'Key stored', err ? 'error' : 'info');
  };
  return (
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
          <div className="muted small-text" title={settings.keychain.message ?? undefined} data-testid="keychain-note">
            No OS keychain here, so a key cannot be stored yet; demo mode needs none.
          </div>
        ))}
      <div className="small-text">
        <ForgetAllKeys disabled={!settings || !settings.keychain.available} />
      </div>
      {settings?.demo && <div className="muted small-text">Demo mode: running on the built-in simulator.</div>}
    </Row>
  );
}

function QuotaRow({ settings }: Pick<SettingsSectionProps, 'settings'>) {
  const quota = useStore((s) => s.status?.quota);
  return (
    <Row
      label="Hourly quota"
      hint="Requests per hour your plan allows; the service does not publish it. Rate-limit headers from the service take precedence."
    >
      <SettingNumber settings={settings} setting="quotaPerHour" />
      <span className="muted small-text" data-testid="quota-source-setting">
        {quota?.source === 'headers'
          ? `in use: ${quota.limit?.toLocaleString('en-US') ?? '?'} per hour, stated by the service's headers`
          : quota?.source === 'setting'
            ? 'in use: this figure (the service sends no rate-limit headers)'
            : ''}
      </span>
    </Row>
  );
}

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
