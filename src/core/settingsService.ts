// The settings service: ONE set of defaults, one place that persists the trader's settings, and the projections
// that feed the monitor and the store. App-wide settings (which service, thresholds, theme, retention) live in
// `settings.json` beside the profiles, not in any one profile's history, so switching service or demo keeps them.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SettingsPatch, SettingsSnapshot } from '../shared/ipc/contract';
import { checkBaseUrl } from '../shared/baseUrl';
import {
  DROP_ALERT_PHASES,
  SETTLEMENT_ALERT_SCOPES,
  type DropAlertPhase,
  type SettlementAlertScope,
} from '../shared/domain';
import { AppErrorException } from '../shared/errors';
import { Emitter } from '../shared/event';
import { canonicalTimeZone, DEFAULT_ODDS_FORMAT, isOddsFormat, systemTimeZone } from '../shared/formats';
import { DEFAULT_QUOTA_PER_HOUR } from '../shared/requests';
import type { MonitorSettings } from './monitor';
import { DEFAULT_RAW_TICK_HOURS } from './store';
import { makePrivate, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './fileModes';

/** The app's settings (settings.json): what the view shows less the keychain, the mode and what each profile keeps. */
export type AppSettings = Omit<
  SettingsSnapshot,
  'hasKey' | 'keychain' | 'demo' | 'mutedEvents' | 'snoozedEvents' | 'gridLayout'
>;

export const DEFAULT_SETTINGS: AppSettings = {
  baseUrl: null,
  devigModel: 'MPTO',
  maxWinThresholdPct: 10,
  notifySettlements: true,
  settlementAlerts: 'watched',
  settlementSports: [],
  settlementLeagues: [],
  // The window's sounds per kind: settlements on, the frequent kinds off.
  settlementSound: true,
  maxWinSound: false,
  priceSound: false,
  notifyMaxWin: true,
  doNotDisturb: false,
  retentionDays: 30,
  rawTickHours: DEFAULT_RAW_TICK_HOURS,
  settledEverySeconds: 60,
  quotaPerHour: DEFAULT_QUOTA_PER_HOUR,
  theme: 'dark',
  dropAlertPct: 5,
  dropWindowMinutes: 15,
  // Drops alert before kick-off and in play, in every sport: the scope narrows it, never by default.
  dropAlertPhase: 'both',
  dropAlertSports: [],
  priceAlertHysteresisPct: 1,
  notifyPriceAlerts: true,
  moneyUnit: '',
  oddsFormat: DEFAULT_ODDS_FORMAT,
  // The OS zone when this module loads; a host started under another TZ (a test) gets that one.
  timeZone: systemTimeZone(),
};

export interface SettingsService {
  get(): AppSettings;
  /** Applies a validated patch, persists it, and tells subscribers what changed. */
  update(patch: SettingsPatch): AppSettings;
  subscribe(listener: (next: AppSettings, previous: AppSettings) => void): () => void;
  /** What the monitor reads, given the profile's muted events. */
  monitorSettings(mutedEvents: ReadonlySet<number>): MonitorSettings;
}

export interface SettingsServiceOptions {
  /** Folder of settings.json; null keeps settings in memory (tests, throwaway runs). */
  dataDir: string | null;
  /** Settings to start from when nothing is saved yet (a host's flags). */
  initial?: Partial<AppSettings>;
  /** Where a warning goes when an existing settings.json could be read by others (it is made private). */
  warn?: (message: string) => void;
}

/**
 * Base URLs are kept in checkBaseUrl's normal form, so one service is one key in the keychain and one profile; a
 * URL the key may not go to (plain http to a non-loopback host, another scheme) is never kept.
 */
export function normaliseBaseUrl(url: string): string {
  const r = checkBaseUrl(url);
  if (!r.ok) throw new AppErrorException({ kind: 'validation', message: r.message });
  return r.url;
}

function load(file: string | null): Partial<AppSettings> {
  if (file === null) return {};
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (!raw || typeof raw !== 'object') return {};
    // Only known names with the default's type survive: a hand-edited or older file cannot inject anything else.
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(raw)) {
      if (!(k in DEFAULT_SETTINGS)) continue;
      const d = (DEFAULT_SETTINGS as unknown as Record<string, unknown>)[k];
      if (v === null ? k === 'baseUrl' : typeof v === typeof d || (d === null && typeof v === 'string')) out[k] = v;
    }
    // Lists and choices are checked by content, not just by type.
    for (const k of ['settlementSports', 'settlementLeagues', 'dropAlertSports'] as const) {
      if (
        k in out &&
        !(Array.isArray(out[k]) && (out[k] as unknown[]).every((n) => Number.isSafeInteger(n) && (n as number) > 0))
      )
        delete out[k];
    }
    if ('settlementAlerts' in out && !SETTLEMENT_ALERT_SCOPES.includes(out['settlementAlerts'] as SettlementAlertScope))
      delete out['settlementAlerts'];
    if ('dropAlertPhase' in out && !DROP_ALERT_PHASES.includes(out['dropAlertPhase'] as DropAlertPhase))
      delete out['dropAlertPhase'];
    if ('oddsFormat' in out && !isOddsFormat(out['oddsFormat'])) delete out['oddsFormat'];
    if ('timeZone' in out) {
      const zone = canonicalTimeZone(String(out['timeZone']));
      if (zone) out['timeZone'] = zone;
      else delete out['timeZone'];
    }
    // A saved address the key may no longer go to (an older app accepted plain http anywhere) is set aside.
    if (typeof out['baseUrl'] === 'string') {
      const checked = checkBaseUrl(out['baseUrl']);
      out['baseUrl'] = checked.ok ? checked.url : null;
    }
    return out as Partial<AppSettings>;
  } catch {
    return {};
  }
}

export function createSettingsService(options: SettingsServiceOptions): SettingsService {
  const file = options.dataDir === null ? null : path.join(options.dataDir, 'settings.json');
  // A save writes a fresh 0600 file, but one that existed (an older version's) keeps its mode until then.
  if (file) makePrivate(file, options.warn ?? ((message) => process.stderr.write(`${message}\n`)));
  const initial = options.initial?.baseUrl
    ? { ...options.initial, baseUrl: normaliseBaseUrl(options.initial.baseUrl) }
    : options.initial;
  let settings: AppSettings = { ...DEFAULT_SETTINGS, ...initial, ...load(file) };
  const changed = new Emitter<[next: AppSettings, previous: AppSettings]>({ name: 'the settings' });

  const save = () => {
    if (file === null) return;
    mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
    // Write then rename: a crash mid-write never leaves half a settings file.
    const tmp = `${file}.tmp`;
    // The OS zone is the default, not a choice: it is not written, so the clock follows the machine (a trader who
    // travels) until the trader picks another zone.
    const { timeZone, ...rest } = settings;
    const kept = timeZone === systemTimeZone() ? rest : settings;
    writeFileSync(tmp, JSON.stringify(kept, null, 2), { mode: PRIVATE_FILE_MODE });
    renameSync(tmp, file);
  };

  return {
    get: () => settings,
    update(patch) {
      const previous = settings;
      const { baseUrl, ...rest } = patch;
      // Checked before anything changes: a refused address leaves every setting as it was.
      const next = baseUrl === undefined ? {} : { baseUrl: baseUrl ? normaliseBaseUrl(baseUrl) : null };
      settings = { ...settings, ...rest, ...next };
      save();
      changed.fire(settings, previous);
      return settings;
    },
    subscribe: changed.event,
    monitorSettings: (mutedEvents) => monitorSettingsFrom(settings, mutedEvents),
  };
}

/** How often the specials of watched events are refreshed (within their share of the quota). */
const SPECIALS_EVERY_SECONDS = 300;

/** The monitor's view of the trader's settings: one projection of the one set of defaults. */
export function monitorSettingsFrom(
  settings: AppSettings,
  mutedEvents: ReadonlySet<number> = new Set(),
): MonitorSettings {
  return {
    devigModel: settings.devigModel,
    maxWinThresholdPct: settings.maxWinThresholdPct,
    settledEverySeconds: settings.settledEverySeconds,
    specialsEverySeconds: SPECIALS_EVERY_SECONDS,
    notifySettlements: settings.notifySettlements,
    settlementAlerts: settings.settlementAlerts,
    settlementSports: settings.settlementSports,
    settlementLeagues: settings.settlementLeagues,
    // The sound is the window's, per kind, from the alert stream: OS notifications stay silent, so one alert is
    // never heard twice (and a window hidden to the tray still plays it).
    settlementSound: false,
    notifyMaxWin: settings.notifyMaxWin,
    doNotDisturb: settings.doNotDisturb,
    mutedEvents,
    price: {
      dropPct: settings.dropAlertPct,
      dropWindowMinutes: settings.dropWindowMinutes,
      hysteresisPct: settings.priceAlertHysteresisPct,
      notify: settings.notifyPriceAlerts,
      phase: settings.dropAlertPhase,
      sports: settings.dropAlertSports,
    },
  };
}

/** The monitor's settings with every default (the recorder and tests start from here). */
export const DEFAULT_MONITOR_SETTINGS: MonitorSettings = monitorSettingsFrom(DEFAULT_SETTINGS);
