// Fixtures the e2e specs share (apart from ./helpers.ts, which the vitest tests and the bench import too).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import type { EventOdds } from '../../src/shared/api';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/sim';
import { openBridgeSocket } from '../support/bridgeSocket';
import { cli, startWebHost, type WebHost } from './helpers';

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
    const sim = await startSimulator({
      port: 0,
      seed: 4,
      clock: 'manual',
      ...o.sim,
      keys: [{ key: o.key, plan: 'enterprise' }],
    });
    const upstream = o.upstream ? await o.upstream(sim) : null;
    const dir = mkdtempSync(path.join(tmpdir(), `oddsdesk-${o.name}-e2e-`));
    const host = await startWebHost(
      [...cli(), 'web', '--port', '0', '--base-url', upstream?.url ?? sim.url, '--db', path.join(dir, `${o.name}.db`)],
      { ODDSDESK_API_KEY: o.key, ...o.env },
    );
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

/**
 * A Playwright fixture for the live-load specs (issue 33): a simulator on the wall clock whose load ticker moves the
 * watched events' prices (`oddsRate` moves a second), and a browser-mode host in front of it on a fresh history file.
 * The page is not opened: the spec watches events first (watchThroughBridge), then goes to `host.url`.
 */
export function liveLoadHost(o: { key: string; name: string; seed: number; oddsRate: number }) {
  return async ({ page: _page }: { page: Page }, use: (app: { sim: Simulator; host: WebHost }) => Promise<void>) => {
    const sim = await startSimulator({
      port: 0,
      seed: o.seed,
      clock: 'real',
      speed: 0.05,
      events: 30,
      oddsRate: o.oddsRate,
      keys: [{ key: o.key, plan: 'enterprise' }],
    });
    const dir = mkdtempSync(path.join(tmpdir(), `oddsdesk-${o.name}-e2e-`));
    const host = await startWebHost(
      [...cli(), 'web', '--port', '0', '--base-url', sim.url, '--db', path.join(dir, `${o.name}.db`)],
      { ODDSDESK_API_KEY: o.key },
    );
    await use({ sim, host });
    await host.stop();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  };
}

/** Watches `ids` through the bridge at the host's printed `url`, as the page would (one at a time). */
export async function watchThroughBridge(url: string, ids: readonly number[]): Promise<void> {
  const ws = await openBridgeSocket(url);
  try {
    for (const [i, id] of ids.entries()) {
      await new Promise<void>((resolve, reject) => {
        const onMessage = (d: Buffer) => {
          const m = JSON.parse(d.toString()) as { type: string; id?: number; result?: { ok: boolean } };
          if (m.type !== 'result' || m.id !== i) return;
          ws.off('message', onMessage);
          if (m.result?.ok) resolve();
          else reject(new Error(`watch:add ${id} failed: ${JSON.stringify(m.result)}`));
        };
        ws.on('message', onMessage);
        ws.send(JSON.stringify({ type: 'invoke', id: i, channel: 'watch:add', args: [id] }));
      });
    }
  } finally {
    ws.close();
  }
}

/** The first match of the book that starts more than two hours from now, every line priced, its moneyline two-way (no draw). */
export function twoWayMatch(sim: Simulator): EventOdds {
  const event = sim.truth
    .bookIds()
    .map((id) => sim.truth.event(id)!)
    .find(
      (e) =>
        e.live_status !== 1 &&
        Date.parse(`${e.starts}Z`) - sim.now() > 2 * 3_600_000 &&
        e.markets.every((m) => m.prices) &&
        e.markets[0]!.prices!.draw === undefined,
    );
  if (!event) throw new Error('no two-way match more than two hours before its start in the book');
  return event;
}

/** Settings: the settled walk every `seconds` (so a played-out match settles within the test); back to the watchlist. */
export async function walkSettledEvery(page: Page, seconds: number) {
  await page.keyboard.press(',');
  const every = page.getByTestId('settled-every-input');
  await every.fill(String(seconds));
  await every.press('Enter');
  await every.blur();
  await page.keyboard.press('w');
}

/** Adds a watch the way a trader types it: the event id into the watchlist's box (left without focus after). */
export async function watchById(page: Page, eventId: number) {
  const input = page.getByTestId('add-watch-input');
  await input.fill(String(eventId));
  await page.getByTestId('add-watch-button').click();
  await expect(page.getByTestId(`watch-row-${eventId}`)).toBeVisible();
  await input.blur();
}
