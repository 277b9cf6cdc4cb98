// Wire format of the browser bridge. Requests and pushes are the IPC contract's, framed as JSON over a WebSocket.
import type { AppError, Result } from '../../shared/errors';

export type BridgeClientMessage = { type: 'invoke'; id: number; channel: string; args: unknown[] };
export type BridgeServerMessage =
  | { type: 'result'; id: number; result: Result<unknown> }
  | { type: 'push'; event: string; payload: unknown }
  /** A frame the host could not read as an invoke with an id: the answer it gets instead of a result. */
  | { type: 'error'; error: AppError };

export const BRIDGE_PATH = '/bridge';

/** Largest frame the host accepts from a page: the biggest real request (a settlements query) is well under 2 KiB. */
export const BRIDGE_MAX_PAYLOAD = 64 * 1024;
/** Requests one connection may have in flight before further ones are refused (a page waits for its answers). */
export const BRIDGE_MAX_IN_FLIGHT = 64;
/** Bytes queued for a page that does not read them before the host drops the connection. */
export const BRIDGE_MAX_BUFFERED = 16 * 1024 * 1024;
