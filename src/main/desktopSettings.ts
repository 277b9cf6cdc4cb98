// The desktop shell's own settings (close to tray, whether the tray notice was shown): a small JSON file in
// userData beside the window state. Not the core's settings: browser mode and the CLI have no window or tray.
// A missing, corrupt or hand-edited file means the defaults, never a failed start.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../core/fileModes';

export interface DesktopSettings {
  closeToTray: boolean;
  closeNoticeShown: boolean;
}

export const DESKTOP_SETTINGS_FILE = 'desktop-settings.json';
export const DEFAULT_DESKTOP_SETTINGS: DesktopSettings = { closeToTray: true, closeNoticeShown: false };

export function parseDesktopSettings(raw: unknown): DesktopSettings {
  const r = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  return {
    closeToTray: typeof r['closeToTray'] === 'boolean' ? r['closeToTray'] : DEFAULT_DESKTOP_SETTINGS.closeToTray,
    closeNoticeShown: r['closeNoticeShown'] === true,
  };
}

export function loadDesktopSettings(dir: string): DesktopSettings {
  try {
    return parseDesktopSettings(JSON.parse(readFileSync(path.join(dir, DESKTOP_SETTINGS_FILE), 'utf8')));
  } catch {
    return { ...DEFAULT_DESKTOP_SETTINGS };
  }
}

/** Written whole through a temporary file, so a crash mid-write leaves the old file. */
export function saveDesktopSettings(dir: string, settings: DesktopSettings): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const file = path.join(dir, DESKTOP_SETTINGS_FILE);
  writeFileSync(`${file}.tmp`, JSON.stringify(settings), { mode: PRIVATE_FILE_MODE });
  renameSync(`${file}.tmp`, file);
}
