// Wire format of the browser bridge. Requests and pushes are the IPC contract's, framed as JSON over a WebSocket.
import type { Result } from '../../shared/errors';

export type BridgeClientMessage = { type: 'invoke'; id: number; channel: string; args: unknown[] };
export type BridgeServerMessage =
  | { type: 'result'; id: number; result: Result<unknown> }
  | { type: 'push'; event: string; payload: unknown };

export const BRIDGE_PATH = '/bridge';
