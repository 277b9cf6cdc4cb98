// Picks the transport once: Electron's preload API when present, otherwise the browser bridge.
import type { OddsdeskApi } from '../../../shared/ipc/contract';
import { createBridgeClient } from './bridgeClient';

export const api: OddsdeskApi = window.oddsdesk ?? createBridgeClient(window.location);
