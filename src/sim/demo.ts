// Demo mode: with no key configured, the app runs on the built-in simulator with a demo enterprise key, at a speed
// where a trader sees odds tick every second and a settlement every minute or two.
import { formatServiceTime } from '../shared/api';
import { startSimulator } from './index';

/** Not a secret: it only opens the in-process simulator. */
export const DEMO_KEY = 'oddsdesk-demo-enterprise';

export interface Demo {
  baseUrl: string;
  key: string;
  close(): Promise<void>;
}

export async function startDemo(options: { port?: number; speed?: number; seed?: number } = {}): Promise<Demo> {
  const sim = await startSimulator({
    port: options.port ?? 0,
    seed: options.seed ?? Date.now() % 1_000_000,
    clock: 'real',
    // The demo world starts now, so its kick-offs and settlements read right on the trader's clock.
    startTime: formatServiceTime(Date.now()),
    speed: options.speed ?? 60,
    keys: [{ key: DEMO_KEY, plan: 'enterprise' }],
  });
  return { baseUrl: sim.url, key: DEMO_KEY, close: () => sim.close() };
}
