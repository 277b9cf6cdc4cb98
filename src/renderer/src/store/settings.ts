// Settings slice: what the core holds (settings:get, and onSettings after a change from any window or tab), and the
// write paths. Theme and de-vig model also live in the UI slice and localStorage, so switching them is instant and
// survives a core that cannot store them yet.
import type { StateCreator } from 'zustand';
import type { AppError } from '../../../shared/errors';
import type { SettingsPatch, SettingsSnapshot } from '../../../shared/ipc/contract';
import { host } from '../host';
import type { StoreState } from './index';

export interface SettingsSlice {
  settings: SettingsSnapshot | null;
  settingsError: AppError | null;
  loadSettings(): Promise<void>;
  updateSettings(patch: SettingsPatch): Promise<AppError | null>;
  /** Stores the key for `baseUrl` (the service the trader sees beside the key field). */
  setApiKey(key: string, baseUrl?: string): Promise<AppError | null>;
  clearApiKey(): Promise<AppError | null>;
  /** Removes every service's key from the keychain; how many, or why not. */
  forgetAllKeys(): Promise<{ removed: number } | { error: AppError }>;
  /** The settings the core pushed after a change from any window or tab (a second monitor's, or this one's). */
  settingsPushed(settings: SettingsSnapshot): void;
}

const remember = (key: string, value: string) => {
  try {
    localStorage.setItem(key, value);
  } catch {
    // private mode: the choice lasts for the session only
  }
};

export const createSettingsSlice: StateCreator<StoreState, [], [], SettingsSlice> = (set, get) => {
  const adopt = (settings: SettingsSnapshot) => {
    remember('oddsdesk.theme', settings.theme);
    remember('oddsdesk.devigModel', settings.devigModel);
    set({ settings, settingsError: null, theme: settings.theme, devigModel: settings.devigModel });
  };
  // This window's own changes under way: while one is, a push is older than the choice already shown (the core
  // answers changes in order, so the change's own answer, adopted when it comes, holds every earlier one too).
  let own = 0;
  const change = async <T>(run: () => Promise<T>): Promise<T> => {
    own++;
    try {
      return await run();
    } finally {
      own--;
    }
  };
  return {
    settings: null,
    settingsError: null,
    async loadSettings() {
      const r = await host.invoke('settings:get');
      if (r.ok) adopt(r.value);
      else set({ settingsError: r.error });
    },
    async updateSettings(patch) {
      // Local first: the choice shows at once; the core's answer confirms it.
      if (patch.theme) {
        remember('oddsdesk.theme', patch.theme);
        set({ theme: patch.theme });
      }
      if (patch.devigModel) {
        remember('oddsdesk.devigModel', patch.devigModel);
        set({ devigModel: patch.devigModel });
      }
      const cur = get().settings;
      if (cur)
        set({ settings: { ...cur, ...patch, baseUrl: patch.baseUrl === undefined ? cur.baseUrl : patch.baseUrl } });
      const r = await change(() => host.invoke('settings:update', patch));
      if (r.ok) {
        adopt(r.value);
        return null;
      }
      return r.error;
    },
    async setApiKey(key, baseUrl) {
      const r = await change(() =>
        baseUrl ? host.invoke('settings:setApiKey', key, baseUrl) : host.invoke('settings:setApiKey', key),
      );
      if (r.ok) adopt(r.value);
      return r.ok ? null : r.error;
    },
    async clearApiKey() {
      const r = await change(() => host.invoke('settings:clearApiKey'));
      if (r.ok) adopt(r.value);
      return r.ok ? null : r.error;
    },
    async forgetAllKeys() {
      const r = await change(() => host.invoke('settings:forgetAllKeys'));
      if (!r.ok) return { error: r.error };
      adopt(r.value.settings);
      return { removed: r.value.removed };
    },
    settingsPushed(settings) {
      if (own === 0) adopt(settings);
    },
  };
};
