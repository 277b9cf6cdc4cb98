// Wire format of the browser bridge. Requests and pushes are the IPC contract's, framed as JSON over a WebSocket, after
// a handshake in which each side proves it knows the per-launch token (src/shared/ipc/bridgeSession.ts, where the
// page's end lives too).
export type {
  BridgeClientMessage,
  BridgeHandshakeClientMessage,
  BridgeHandshakeServerMessage,
  BridgeServerMessage,
} from '../../shared/ipc/bridgeSession';
export { BRIDGE_CLOSE_HANDSHAKE_TIMEOUT, BRIDGE_CLOSE_UNAUTHORIZED } from '../../shared/ipc/bridgeSession';

export const BRIDGE_PATH = '/bridge';

/** Largest frame the host accepts from a page: the biggest real request (a settlements query) is well under 2 KiB. */
export const BRIDGE_MAX_PAYLOAD = 64 * 1024;
/** Requests one connection may have in flight before further ones are refused (a page waits for its answers). */
export const BRIDGE_MAX_IN_FLIGHT = 64;
/** Bytes queued for a page that does not read them before the host drops the connection. */
export const BRIDGE_MAX_BUFFERED = 16 * 1024 * 1024;
/**
 * Bytes a page's socket may hold unsent before its odds wait, folded to the latest value per market, until it has
 * drained (src/shared/ipc/pushFrames.ts): about a second of a stress load's odds.
 */
export const BRIDGE_FOLD_BUFFERED = 512 * 1024;
/** Odds frames a page that acknowledges may have on their way and not yet taken in (src/shared/ipc/pushFrames.ts). */
export { ODDS_IN_FLIGHT as BRIDGE_ODDS_IN_FLIGHT } from '../../shared/ipc/pushFrames';
