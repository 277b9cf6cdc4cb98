// The page's one handle on the Oddsdesk host (the core, in Electron's main process or browser mode's Node host): the
// contract's calls (`host.invoke`) and pushed events (`host.on`). The transport is picked once: Electron's preload API
// when present, otherwise the browser bridge (./bridgeClient.ts). The upstream odds service is never reached from here.
import type { OddsdeskApi } from '../../../shared/ipc/contract';
import { countListeners } from '../listenerCounts';
import { createBridgeClient } from './bridgeClient';

const bridge = window.oddsdesk ? null : createBridgeClient(window.location);
export const host: OddsdeskApi = window.oddsdesk ?? bridge!;
// The page soak counts these listeners under the name 'api' (test/e2e/page-soak.spec.ts).
if (bridge) countListeners('api', bridge.listenerCount);
