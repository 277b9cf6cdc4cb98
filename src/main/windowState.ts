// The main window's remembered size and position: a small JSON file in userData, validated on load (a hand-edited
// or truncated file must never stop the app from starting) and fitted to the displays present now, so a window
// last seen on an unplugged monitor comes back where the trader can reach it.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../core/fileModes';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  width: number;
  height: number;
  /** Absent: let the OS place the window. */
  x?: number;
  y?: number;
  maximized: boolean;
}

export const WINDOW_STATE_FILE = 'window-state.json';
export const MIN_SIZE = { width: 960, height: 600 } as const;
/** How much of the window must lie on a display for the saved position to be kept (enough to grab the title bar). */
const MIN_VISIBLE = { width: 160, height: 60 } as const;
const LIMIT = 100_000;

const isInt = (v: unknown, lo: number, hi: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi;

/** The saved state if it is well formed, else null. */
export function parseWindowState(raw: unknown): WindowState | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  if (!isInt(r['width'], 1, LIMIT) || !isInt(r['height'], 1, LIMIT)) return null;
  const state: WindowState = { width: r['width'], height: r['height'], maximized: r['maximized'] === true };
  if (isInt(r['x'], -LIMIT, LIMIT) && isInt(r['y'], -LIMIT, LIMIT)) {
    state.x = r['x'];
    state.y = r['y'];
  }
  return state;
}

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)),
    height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)),
  };
}

/**
 * Fits a saved state to the work areas of the displays present now: the size shrinks to the display it is on, the
 * position moves fully onto it, and a window on no display (or barely on one) loses its position so the OS centres it.
 */
export function fitToDisplays(state: WindowState, workAreas: readonly Rect[]): WindowState {
  const clampSize = (area: Rect | undefined) => ({
    width: Math.max(
      Math.min(state.width, area?.width ?? state.width),
      Math.min(MIN_SIZE.width, area?.width ?? MIN_SIZE.width),
    ),
    height: Math.max(
      Math.min(state.height, area?.height ?? state.height),
      Math.min(MIN_SIZE.height, area?.height ?? MIN_SIZE.height),
    ),
  });
  if (state.x === undefined || state.y === undefined) return { ...clampSize(workAreas[0]), maximized: state.maximized };
  const rect = { x: state.x, y: state.y, width: state.width, height: state.height };
  let best: { area: Rect; size: number } | null = null;
  for (const area of workAreas) {
    const o = overlap(rect, area);
    if (o.width >= Math.min(MIN_VISIBLE.width, rect.width) && o.height >= Math.min(MIN_VISIBLE.height, rect.height)) {
      const size = o.width * o.height;
      if (!best || size > best.size) best = { area, size };
    }
  }
  if (!best) return { ...clampSize(workAreas[0]), maximized: state.maximized };
  const { area } = best;
  const size = clampSize(area);
  return {
    ...size,
    x: Math.min(Math.max(state.x, area.x), area.x + area.width - size.width),
    y: Math.min(Math.max(state.y, area.y), area.y + area.height - size.height),
    maximized: state.maximized,
  };
}

/** The saved state fitted to `workAreas`, or null when there is none or it is unreadable. */
export function loadWindowState(dir: string, workAreas: readonly Rect[]): WindowState | null {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path.join(dir, WINDOW_STATE_FILE), 'utf8'));
  } catch {
    return null;
  }
  const state = parseWindowState(raw);
  return state && workAreas.length > 0 ? fitToDisplays(state, workAreas) : state;
}

/** Writes through a temporary file and a rename, so a crash mid-write leaves the old state rather than half a file. */
export function saveWindowState(dir: string, state: WindowState): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const file = path.join(dir, WINDOW_STATE_FILE);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(state)}\n`, { mode: PRIVATE_FILE_MODE });
  renameSync(`${file}.tmp`, file);
}
