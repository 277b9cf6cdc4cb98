// The names of every request channel and pushed event of the IPC contract. Kept free of any library import so the
// sandboxed preload can bundle it alone; `contract.ts` types each name and validates its arguments.

export const REQUEST_CHANNELS = [
  'app:info',
  'app:reconnect',
  'status:get',
  'coverage:get',
  'sports:list',
  'periods:list',
  'fixtures:list',
  'watch:list',
  'watch:add',
  'watch:remove',
  'event:detail',
  'event:lineHistory',
  'specials:list',
  'specials:history',
  'outrights:list',
  'settlements:query',
  'settlements:detail',
  'settlements:syncNow',
  'settlements:exportCsv',
  'settlements:exportCsvToFile',
  'alerts:list',
  'alerts:mute',
  'alerts:snooze',
  'settings:get',
  'settings:update',
  'settings:setApiKey',
  'settings:clearApiKey',
  'settings:forgetAllKeys',
  'store:usage',
  'store:compact',
  'bets:add',
  'bets:remove',
  'bets:update',
  'bets:restore',
  'bets:history',
  'bets:list',
  'bets:exportCsv',
  'bets:settle',
  'bets:report',
  'movers:list',
  'lines:closing',
  'priceAlerts:get',
  'priceAlerts:set',
  'models:score',
  'models:progress',
  'lab:run',
  'lab:progress',
  'lab:cancel',
] as const;
export type Channel = (typeof REQUEST_CHANNELS)[number];

export const PUSH_EVENTS = [
  'onStatus',
  'onOdds',
  'onWatchlist',
  'onAlert',
  'onSettlement',
  'onNotification',
  'onFocusEvent',
  'onBridge',
  'onSettings',
] as const;
export type PushEventName = (typeof PUSH_EVENTS)[number];

/** Electron IPC channel that carries every pushed event: `{ event, payload }`. */
export const PUSH_CHANNEL = 'oddsdesk:push';
/**
 * Electron IPC channel (renderer to main, no payload) on which a window says it has taken in a PUSH_CHANNEL message
 * with odds: the main process keeps at most a couple of such messages on their way to it (src/shared/ipc/pushFrames.ts).
 */
export const ODDS_ACK_CHANNEL = 'oddsdesk:odds-taken';

export function isChannel(value: unknown): value is Channel {
  return typeof value === 'string' && (REQUEST_CHANNELS as readonly string[]).includes(value);
}

export function isPushEvent(value: unknown): value is PushEventName {
  return typeof value === 'string' && (PUSH_EVENTS as readonly string[]).includes(value);
}

/**
 * Requests only the desktop shell answers (Electron main): close-to-tray, the log folder, diagnostics, updates, a
 * window of its own for one view (a second monitor).
 * The core never sees them and browser mode has none; the renderer reaches them through `OddsdeskApi.desktop`,
 * which only Electron's preload provides.
 */
export const DESKTOP_CHANNELS = [
  'desktop:get',
  'desktop:update',
  'desktop:openLogFolder',
  'desktop:copyDiagnostics',
  'desktop:checkForUpdates',
  'desktop:installUpdate',
  'desktop:openWindow',
] as const;
export type DesktopChannel = (typeof DESKTOP_CHANNELS)[number];

export function isDesktopChannel(value: unknown): value is DesktopChannel {
  return typeof value === 'string' && (DESKTOP_CHANNELS as readonly string[]).includes(value);
}
