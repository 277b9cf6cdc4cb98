// Fixtures the e2e specs share (apart from ./helpers.ts, which the vitest tests and the bench import too).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/sim';
import { cli, startWebHost } from './helpers';

/**
 * A Playwright fixture: a simulator with the trader's key (manual clock, seed 4 unless `sim` says otherwise), a
 * browser-mode host on a fresh history file in front of it, and the page opened on it at `viewport` once its status
 * bar shows; `beforeGoto` may prepare the page first (an init script). The test gets the simulator to script; all
 * of it is stopped and removed after.
 */
export function simulatorAndHost(o: {
  key: string;
  name: string;
  viewport: { width: number; height: number };
  sim?: Omit<SimulatorOptions, 'keys'>;
  env?: Record<string, string>;
  beforeGoto?: (page: Page) => Promise<unknown>;
  /** Another upstream in front of the simulator (a rewriting proxy): the host is pointed at it instead. */
  upstream?: (sim: Simulator) => Promise<{ url: string; close(): Promise<void> }>;
}) {
  return async ({ page }: { page: Page }, use: (sim: Simulator) => Promise<void>) => {
    const sim = await startSimulator({ port: 0, seed: 4, clock: 'manual', ...o.sim, keys: [{ key: o.key, plan: 'enterprise' }] });
    const upstream = o.upstream ? await o.upstream(sim) : null;
    const dir = mkdtempSync(path.join(tmpdir(), `oddsdesk-${o.name}-e2e-`));
    const host = await startWebHost([...cli(), 'web', '--port', '0', '--base-url', upstream?.url ?? sim.url, '--db', path.join(dir, `${o.name}.db`)], { ODDSDESK_API_KEY: o.key, ...o.env });
    await o.beforeGoto?.(page);
    await page.setViewportSize(o.viewport);
    await page.goto(host.url);
    await expect(page.getByTestId('status-bar')).toBeVisible();
    await use(sim);
    await host.stop();
    await upstream?.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  };
}
