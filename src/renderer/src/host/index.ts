// Picks the transport once: Electron's preload API when present, otherwise the browser bridge.
import type { OddsdeskApi } from '../../../shared/ipc/contract';
import { countListeners } from '../listenerCounts';
import { createBridgeClient } from './bridgeClient';

const bridge = window.oddsdesk ? null : createBridgeClient(window.location);
export const host: OddsdeskApi = window.oddsdesk ?? bridge!;
if (bridge) countListeners('api', bridge.listenerCount);
