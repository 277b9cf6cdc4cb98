// The one banner above every view: a rejected key, a missing key, a keychain that cannot be read, no connection to
// the host (or, in browser mode, a host gone for good) / the service (and since when), a plan that refuses parts of
// the service, or demo data. Each carries a calm message and the one action that helps.
import { useState, useSyncExternalStore } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { PATHS } from '../../../shared/api';
import type { StatusView } from '../../../shared/ipc/contract';
import { host } from '../host';
import { bridgeEnd } from '../host/bridgeClient';
import { fmtShortDateTime, utcTitle } from '../format';
import { useStore } from '../store';

/** What a refused path is to a trader. */
const PATH_WORDS: Record<string, string> = {
  [PATHS.stream]: 'live odds streams (the watchlist prices)',
  [PATHS.specialsOpening]: 'specials',
  [PATHS.specialsFixtures]: 'specials',
  [PATHS.specialsHistory]: 'specials',
  [PATHS.outrightMarkets]: 'outrights',
};

/** "live odds streams (…) and specials need enterprise": one phrase per required plan, in the trader's words. */
export function restrictedPhrase(restricted: StatusView['restricted']): string {
  const byPlan = new Map<string, string[]>();
  for (const r of restricted) {
    const words = PATH_WORDS[r.path] ?? r.path;
    const list = byPlan.get(r.requiredPlan) ?? [];
    if (!list.includes(words)) list.push(words);
    byPlan.set(r.requiredPlan, list);
  }
  const join = (xs: string[]) =>
    xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;
  return [...byPlan].map(([plan, words]) => `${join(words)} need the ${plan} plan`).join('; ');
}

function PlanBanner({ restricted }: { restricted: StatusView['restricted'] }) {
  const yourPlan = restricted[0]?.yourPlan ?? 'current';
  return (
    <div className="banner warn" role="status" data-testid="banner-plan">
      Your {yourPlan} key does not include everything: {restrictedPhrase(restricted)}. Watched events show their
      fixtures, scores and settlements; settlements, coverage and the recorded history work in full.
    </div>
  );
}

function KeychainBanner({ message }: { message: string }) {
  const [busy, setBusy] = useState(false);
  const setView = useStore((s) => s.setView);
  return (
    <div className="banner error" role="alert" data-testid="banner-keychain">
      {message} The history recorded so far stays browsable.
      <button
        disabled={busy}
        data-testid="banner-keychain-retry"
        onClick={() => {
          setBusy(true);
          void host.invoke('app:reconnect').finally(() => setBusy(false));
        }}
      >
        {busy ? 'Retrying…' : 'Retry'}
      </button>
      <button onClick={() => setView('settings')}>Open Settings</button>
    </div>
  );
}

export function Banner() {
  const keychainError = useStore((s) => (s.status?.lastError?.kind === 'keychain' ? s.status.lastError.message : null));
  const demo = useStore((s) => s.status?.demo ?? false);
  const auth = useStore((s) => s.status?.auth ?? 'ok');
  const connection = useStore((s) => s.status?.connection ?? 'unknown');
  const offlineSince = useStore((s) => s.status?.connectionSince ?? null);
  const restricted = useStore(useShallow((s) => s.status?.restricted ?? []));
  const hostConnected = useStore((s) => s.hostConnected);
  const setView = useStore((s) => s.setView);
  // Browser mode only: the page has stopped talking to its host for good (gone, or it could not prove itself).
  const hostEnd = useSyncExternalStore(bridgeEnd.subscribe, bridgeEnd.get);
  if (hostEnd)
    return (
      <div className="banner error" role="alert" data-testid="banner-host-gone" data-reason={hostEnd.reason}>
        {hostEnd.message}
      </div>
    );
  if (!hostConnected)
    return (
      <div className="banner warn" role="alert" data-testid="banner-host">
        Lost the connection to the Oddsdesk host. Reconnecting by itself; cached data stays on screen. If the host was
        started again, open the new address it printed.
      </div>
    );
  if (keychainError) return <KeychainBanner message={keychainError} />;
  if (auth === 'rejected')
    return (
      <div className="banner error" role="alert" data-testid="banner-key-rejected">
        The key was rejected (regenerated or revoked). Live data is paused until a new key is entered.
        <button onClick={() => setView('settings')} data-testid="banner-open-settings">
          Open Settings
        </button>
      </div>
    );
  if (auth === 'missing')
    return (
      <div className="banner warn" role="alert" data-testid="banner-key-missing">
        No API key is stored yet. Enter one to start monitoring.
        <button onClick={() => setView('settings')}>Open Settings</button>
      </div>
    );
  if (connection === 'offline')
    return (
      <div className="banner warn" role="status" data-testid="banner-offline">
        The odds service cannot be reached
        {offlineSince !== null && (
          <>
            {' '}
            since{' '}
            <time data-testid="offline-since" title={utcTitle(offlineSince)}>
              {fmtShortDateTime(offlineSince)}
            </time>
          </>
        )}
        . Everything cached can still be browsed; live data resumes by itself.
        <button onClick={() => setView('settlements')}>Browse settlements</button>
      </div>
    );
  if (restricted.length > 0) return <PlanBanner restricted={restricted} />;
  if (demo)
    return (
      <div className="banner demo" role="status" data-testid="banner-demo">
        DEMO: simulated matches from the built-in simulator, kept apart from any service's history. Enter a base URL and
        key to monitor your service.
        <button onClick={() => setView('settings')}>Open Settings</button>
      </div>
    );
  return null;
}
