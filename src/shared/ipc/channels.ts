// The names of every request channel and pushed event of the IPC contract. Kept free of any library import so the
// sandboxed preload can bundle it alone; `contract.ts` types each name and validates its arguments.

export const REQUEST_CHANNELS = [
  'app:info',
  'status:get',
  'coverage:get',
  'sports:list',
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
  'alerts:list',
  'alerts:mute',
  'settings:get',
  'settings:update',
  'settings:setApiKey',
  'settings:clearApiKey',
  'store:usage',
  'store:compact',
] as const;
export type Channel = (typeof REQUEST_CHANNELS)[number];

export const PUSH_EVENTS = ['onStatus', 'onOdds', 'onWatchlist', 'onAlert', 'onSettlement', 'onFocusEvent', 'onBridge'] as const;
export type PushEventName = (typeof PUSH_EVENTS)[number];

/** Electron IPC channel that carries every pushed event: `{ event, payload }`. */
export const PUSH_CHANNEL = 'oddsdesk:push';

export function isChannel(value: unknown): value is Channel {
  return typeof value === 'string' && (REQUEST_CHANNELS as readonly string[]).includes(value);
}

export function isPushEvent(value: unknown): value is PushEventName {
  return typeof value === 'string' && (PUSH_EVENTS as readonly string[]).includes(value);
}
