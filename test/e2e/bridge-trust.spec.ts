// Browser mode after its host has gone: the page does not wait forever, and does not trust what takes the port next.
// A real host (`web` without --port: a port the system picks) in demo, the real page in Chromium; then the host is
// stopped and, in one test, an impostor WebSocket server that does not know the token binds its port. The page must
// take nothing from it, send it no request, stop trying and tell the trader what to do.
import { expect, test, type Page } from '@playwright/test';
import { WebSocketServer, type WebSocket } from 'ws';
import { newBridgeNonce } from '../../src/shared/ipc/bridgeSession';
import { cli, seededDemo, startWebHost, type WebHost } from './helpers';

const RESTART = 'Restart `npm run web` and open the new address it prints';

let host: WebHost | null = null;
const closers: Array<() => Promise<unknown>> = [];
test.afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c().catch(() => undefined);
  await host?.stop();
  host = null;
});

/**
 * Starts a demo host (seeded and paced: the same world each run) on a port of its choosing and opens its page; the
 * addresses of the page's WebSocket attempts as the browser reports them, and `made()`, how many the page has made,
 * counted in the page as each is constructed (so a count read after the clock moved includes any attempt it fired).
 */
async function openPage(page: Page, url = (u: string) => u) {
  host = await startWebHost(cli('web'), seededDemo(31));
  const sockets: string[] = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  await page.addInitScript(() => {
    const Native = window.WebSocket;
    const made = { count: 0 };
    Object.assign(window, { __socketsMade: made });
    window.WebSocket = class extends Native {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        made.count++;
      }
    };
  });
  await page.goto(url(host.url));
  const made = () =>
    page.evaluate(() => (window as unknown as { __socketsMade: { count: number } }).__socketsMade.count);
  return { port: Number(new URL(host.url).port), sockets, made };
}

/** Stopped for good: two minutes on the page's clock (every wait of the backoff and more), and not one socket more. */
async function expectNoMoreAttempts(page: Page, made: () => Promise<number>) {
  const before = await made();
  await page.clock.runFor(120_000);
  expect(await made()).toBe(before);
}

async function impostorOn(port: number) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port });
  await new Promise<void>((resolve, reject) => wss.once('listening', resolve).once('error', reject));
  closers.push(() => new Promise((r) => wss.close(r)));
  const heard: string[] = [];
  let connections = 0;
  wss.on('connection', (ws: WebSocket) => {
    connections++;
    ws.on('message', (d) => heard.push(d.toString()));
    // It plays the host as far as it can: a challenge, then a welcome it cannot compute, then the pushes and
    // answers it would like the page to take.
    ws.send(JSON.stringify({ type: 'challenge', nonce: newBridgeNonce() }));
    ws.once('message', () => {
      ws.send(JSON.stringify({ type: 'welcome', proof: '0'.repeat(64) }));
      ws.send(
        JSON.stringify({
          type: 'push',
          event: 'onStatus',
          payload: { plan: 'IMPOSTOR', streams: [], connection: 'online', demo: false },
        }),
      );
      for (let id = 1; id < 20; id++)
        ws.send(
          JSON.stringify({ type: 'result', id, result: { ok: true, value: { version: 'IMPOSTOR', demo: false } } }),
        );
    });
  });
  return { heard, connections: () => connections };
}

test.describe('browser mode when its host is gone', () => {
  test('the page takes nothing from an impostor on its port, sends it no request, and stops with a plain message', async ({
    page,
  }) => {
    const { port, sockets, made } = await openPage(page);
    await expect(page.getByTestId('banner-demo')).toBeVisible();
    expect(sockets).toHaveLength(1);
    expect(await made()).toBe(1);
    // The token left the address bar, and no socket URL ever carried it.
    expect(page.url()).not.toContain('token');
    expect(sockets.every((u) => u === `ws://127.0.0.1:${port}/bridge`)).toBe(true);

    // The page's timers from here on run on a clock the test can move (and that runs on by itself meanwhile).
    await page.clock.install();
    await host!.stop();
    const impostor = await impostorOn(port);
    const gone = page.getByTestId('banner-host-gone');
    await expect(gone).toBeVisible();
    await expect(gone).toHaveAttribute('data-reason', 'unproven');
    await expect(gone).toContainText('The Oddsdesk host is gone');
    await expect(gone).toContainText(RESTART);
    await expect(page.getByTestId('status-plan')).not.toContainText('IMPOSTOR');
    await expect(page.getByTestId('badge-offline')).toBeVisible();

    // It heard one hello (a proof bound to its own challenge) and no request; and the page stopped trying.
    expect(await made()).toBeLessThanOrEqual(1 + 8);
    await expectNoMoreAttempts(page, made);
    expect(impostor.connections()).toBe(1);
    expect(impostor.heard.map((t) => (JSON.parse(t) as { type: string }).type)).toEqual(['hello']);
    await expect(gone).toBeVisible();
  });

  test('with nothing on its port, the page stops after a bounded number of attempts and says the host is gone', async ({
    page,
  }) => {
    const { made } = await openPage(page);
    await expect(page.getByTestId('banner-demo')).toBeVisible();
    // The page's timers from here on run on a clock the test moves: the whole backoff without waiting it out.
    await page.clock.install();
    await host!.stop();
    await expect(page.getByTestId('banner-host')).toBeVisible(); // the drop: reconnecting by itself, for now
    const gone = page.getByTestId('banner-host-gone');
    await expect(async () => {
      await page.clock.runFor(5_000);
      await expect(gone).toBeVisible({ timeout: 100 });
    }).toPass({ timeout: 30_000 });
    await expect(gone).toHaveAttribute('data-reason', 'gone');
    await expect(gone).toContainText(RESTART);
    const attempts = await made();
    expect(attempts).toBeGreaterThan(2);
    expect(attempts).toBeLessThanOrEqual(1 + 8);
    await expectNoMoreAttempts(page, made);
  });

  test('a page opened with a wrong token is refused at once and does not retry', async ({ page }) => {
    await page.clock.install();
    const { made } = await openPage(page, (u) => u.replace(/#token=[0-9a-f]+/, `#token=${'0'.repeat(48)}`));
    const gone = page.getByTestId('banner-host-gone');
    await expect(gone).toBeVisible();
    await expect(gone).toHaveAttribute('data-reason', 'refused');
    await expect(gone).toContainText("does not accept this page's address");
    expect(await made()).toBe(1);
    await expectNoMoreAttempts(page, made);
    await expect(page.getByTestId('banner-demo')).toHaveCount(0);
  });
});
