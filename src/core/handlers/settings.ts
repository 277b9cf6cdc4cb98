// Settings and the key: the settings service persists, the session reconnects when the service or key changes, and
// the key goes from the trader straight into the keychain under the base URL it belongs to.
import { AppErrorException } from '../../shared/errors';
import type { CoreHandlers, PushListener, SettingsSnapshot } from '../../shared/ipc/contract';
import { readGridLayout, type GridLayout } from '../../shared/gridLayout';
import { normaliseBaseUrl } from '../settingsService';
import { conn, type CoreContext } from './context';
import { mutedEvents, snoozedEvents } from './settlements';

/**
 * The watchlist grid's columns and sort belong to the profile, as its watches do: another service's grid (another
 * book, other leagues) or the demo's keeps its own. Read back leniently (readGridLayout): a layout an older or newer
 * app wrote keeps what this one knows.
 */
export const GRID_LAYOUT_SETTING = 'grid.layout';
export const gridLayoutOf = (s: { getSetting<T>(name: string): T | undefined }): GridLayout =>
  readGridLayout(s.getSetting(GRID_LAYOUT_SETTING));

export function targetBaseUrl(ctx: Pick<CoreContext, 'settings' | 'envService'>): string | null {
  return ctx.settings.get().baseUrl ?? ctx.envService?.baseUrl ?? null;
}

export function settingsHandlers(
  ctx: CoreContext,
): Pick<
  CoreHandlers,
  | 'settings:get'
  | 'settings:update'
  | 'settings:setApiKey'
  | 'settings:clearApiKey'
  | 'settings:forgetAllKeys'
  | 'app:info'
  | 'app:reconnect'
  | 'status:get'
> {
  async function keychainStatus(): Promise<SettingsSnapshot['keychain']> {
    const a = await ctx.secrets
      .availability()
      .catch((e: unknown) => ({ available: false as const, message: String(e) }));
    return a.available ? { available: true, message: null } : { available: false, message: a.message };
  }

  async function hasKey(baseUrl: string | null): Promise<boolean> {
    if (!baseUrl) return false;
    if (ctx.envService?.baseUrl === baseUrl) return true;
    return (await ctx.secrets.get(baseUrl).catch(() => null)) !== null;
  }

  // Settings saves and key saves apply one at a time, in the order they arrived: a key is stored for the service
  // it was entered for, and the reconnect that follows sees both changes or neither.
  let queue: Promise<unknown> = Promise.resolve();
  function serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = queue.then(fn, fn);
    queue = run.catch(() => undefined);
    return run;
  }

  /** The same no-key state after "Clear key" and "Forget all keys": the session reconnects without the key. */
  async function afterKeyRemoved(): Promise<SettingsSnapshot> {
    await ctx.session.reconnect();
    return view();
  }

  async function view(): Promise<SettingsSnapshot> {
    const baseUrl = targetBaseUrl(ctx);
    const c = conn(ctx);
    return {
      ...ctx.settings.get(),
      baseUrl,
      hasKey: await hasKey(baseUrl),
      keychain: await keychainStatus(),
      demo: c.demo,
      mutedEvents: mutedEvents(c.store.settings),
      snoozedEvents: snoozedEvents(c.store.settings, ctx.clock.now()),
      gridLayout: gridLayoutOf(c.store.settings),
    };
  }

  return {
    'app:info': () => {
      const c = conn(ctx);
      return {
        version: ctx.version,
        demo: c.demo,
        host: ctx.host,
        baseUrl: c.engine?.baseUrl ?? '',
        historyPath: ctx.historyPath(),
      };
    },
    'app:reconnect': async () => {
      await ctx.session.reconnect();
      return ctx.pushes.status();
    },
    'status:get': () => ctx.pushes.status(),
    'settings:get': () => view(),
    'settings:update': (patch) =>
      serial(async () => {
        const before = targetBaseUrl(ctx);
        // The grid's layout is the profile's (its store), the rest the app's (settings.json).
        const { gridLayout, ...appPatch } = patch;
        if (gridLayout) conn(ctx).store.settings.setSetting(GRID_LAYOUT_SETTING, gridLayout);
        if (Object.keys(appPatch).length > 0) ctx.settings.update(appPatch);
        if (targetBaseUrl(ctx) !== before) await ctx.session.reconnect();
        return view();
      }),
    'settings:setApiKey': (key, forBaseUrl) =>
      serial(async () => {
        const baseUrl = forBaseUrl ? normaliseBaseUrl(forBaseUrl) : targetBaseUrl(ctx);
        if (!baseUrl)
          throw new AppErrorException({
            kind: 'validation',
            message: 'Enter the service base URL first: the key is stored for that address.',
          });
        const keychain = await keychainStatus();
        if (!keychain.available) {
          throw new AppErrorException({
            kind: 'keychain',
            message: `The key was not saved: ${keychain.message} Oddsdesk never stores keys in plain text.`,
          });
        }
        await ctx.secrets.set(baseUrl, key.trim());
        // A key for the service in use (or for the one named) takes effect at once.
        if (forBaseUrl && targetBaseUrl(ctx) !== baseUrl) ctx.settings.update({ baseUrl });
        await ctx.session.reconnect();
        return view();
      }),
    'settings:clearApiKey': () =>
      serial(async () => {
        const baseUrl = targetBaseUrl(ctx);
        if (baseUrl) await ctx.secrets.delete(baseUrl).catch(() => false);
        return afterKeyRemoved();
      }),
    // Every service's key, not only the current one's. A keychain that cannot be reached is an error the trader
    // sees (nothing was forgotten), unlike "Clear key", which carries on to the no-key state.
    'settings:forgetAllKeys': () =>
      serial(async () => {
        const removed = await ctx.secrets.deleteAll();
        return { removed, settings: await afterKeyRemoved() };
      }),
  };
}

/** The requests that change what settings:get answers (the settings, the key, the mutes and snoozes in force). */
export const SETTINGS_CHANGES = [
  'settings:update',
  'settings:setApiKey',
  'settings:clearApiKey',
  'settings:forgetAllKeys',
  'alerts:mute',
  'alerts:snooze',
] as const;

/**
 * `handlers` with every settings change announced to every window and tab (onSettings), before its answer, so a
 * second monitor shows what was changed on the first. A change that failed half-way (a key stored, the reconnect
 * failed) is announced too: what is stored is what every window shows.
 */
export function announcingSettings(handlers: CoreHandlers, push: PushListener): CoreHandlers {
  const out: Record<string, unknown> = { ...handlers };
  for (const channel of SETTINGS_CHANGES) {
    const run = handlers[channel] as (...args: unknown[]) => Promise<unknown> | unknown;
    out[channel] = async (...args: unknown[]) => {
      let answered: unknown = undefined;
      try {
        answered = await run(...args);
        return answered;
      } finally {
        // The settings requests answer with the view already; the others are asked for it.
        const view =
          answered === undefined || channel.startsWith('alerts:')
            ? await Promise.resolve(handlers['settings:get']()).catch(() => null)
            : channel === 'settings:forgetAllKeys'
              ? (answered as { settings: SettingsSnapshot }).settings
              : (answered as SettingsSnapshot);
        if (view) push('onSettings', view);
      }
    };
  }
  return out as CoreHandlers;
}
