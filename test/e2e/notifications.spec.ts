// Notifications are decided once, in the core: the page only shows what the core pushes (`onNotification`). With
// "notify price alerts" off, a drop on a watched line lands in the Alerts list but no notification shows; turned on,
// the next drop notifies, and a click opens the event at that very line. Browser mode on a real host process against the simulator (manual clock: the
// prices move only when the test scripts them).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startSimulator } from '../../src/sim';
import { cli, startWebHost, type WebHost } from './helpers';

const KEY = 'e2e-notify-enterprise';

/** Records Web Notifications instead of showing them, with permission granted. */
function recordNotifications() {
  const notes: Array<{ title: string; body: string; tag: string }> = [];
  const shown: Array<{ onclick: (() => void) | null }> = [];
  Object.assign(window, { __notes: notes, __shown: shown });
  class RecordingNotification {
    static permission = 'granted';
    static requestPermission = async () => 'granted';
    onclick: (() => void) | null = null;
    constructor(title: string, options?: { body?: string; tag?: string }) {
      notes.push({ title, body: options?.body ?? '', tag: options?.tag ?? '' });
      shown.push(this);
    }
    close() {}
  }
  (window as unknown as { Notification: unknown }).Notification = RecordingNotification;
}

const notes = (page: Page) =>
  page.evaluate(() => (window as unknown as { __notes: Array<{ title: string; body: string; tag: string }> }).__notes);

test('with "notify price alerts" off a drop is alerted in the list but not notified; on, the next drop notifies and its click opens the line', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const sim = await startSimulator({ port: 0, seed: 11, clock: 'manual', keys: [{ key: KEY, plan: 'enterprise' }] });
  const dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-notify-'));
  let host: WebHost | null = null;
  try {
    // A match before its start with a priced handicap line (not the moneyline the detail opens at), opening at
    // 2.00 / 1.90 (fair home, EM: 2.0526).
    const lineOf = (id: number) =>
      sim.truth.event(id)?.markets.find((m) => m.market === 'spread' && m.prices && m.line_id !== id * 10);
    const eventId = sim.truth.bookIds().find((id) => sim.truth.event(id)?.live_status !== 1 && lineOf(id))!;
    expect(eventId).toBeDefined();
    const lineId = lineOf(eventId)!.line_id;
    sim.script.setMarket(eventId, lineId, { home: 2.0, away: 1.9 });

    // The further steam below is a drop episode of its own: the host runs on the real clock and cannot wait out the
    // 10 s quiet gap (docs/trading.md, "Drop episodes"; src/core/monitor/dropEpisodes.test.ts has the gap itself).
    host = await startWebHost(
      [...cli(), 'web', '--port', '0', '--base-url', sim.url, '--db', path.join(dir, 'notify.db')],
      {
        ODDSDESK_API_KEY: KEY,
        ODDSDESK_TEST_DROP_EPISODE_QUIET_MS: '1',
      },
    );
    await page.addInitScript(recordNotifications);
    await page.goto(host.url);
    await expect(page.getByTestId('status-bar')).toBeVisible();

    await page.getByTestId('add-watch-input').fill(String(eventId));
    await page.getByTestId('add-watch-button').click();
    await expect(page.getByTestId(`watch-row-${eventId}`)).toBeVisible();
    // Its stream is open (its snapshot, at the open's prices, went first): the move below is a move from the open. On
    // a busy machine the row showed well before the stream opened, and the move then was the open itself.
    await expect.poll(() => sim.openStreams(), { timeout: 20_000 }).toBe(1);

    // Off first: the core decides no notification and the page adds none of its own. Nothing was notified before,
    // so the pacer (one price notification per ten seconds, the rest held) would show one at once: none may come.
    await page.keyboard.press(',');
    const toggle = page.getByTestId('notify-price-toggle');
    await expect(toggle).toBeChecked();
    await toggle.uncheck();
    await expect(toggle).not.toBeChecked();
    await page.keyboard.press('a');

    // The default drop rule (5%): fair home 2.0526 -> 1.9231 (-6.3%) alerts, in the list only.
    sim.script.setMarket(eventId, lineId, { home: 1.8, away: 1.95 });
    await expect(page.getByTestId('alert-row')).toHaveCount(1, { timeout: 20_000 });
    // A notification would come in the same bridge frame as its alert (one turn of the host's loop), and the page
    // shows it on arrival but draws alert rows a frame later: with the row drawn, any notification is made.
    expect(await notes(page)).toHaveLength(0);

    // On: a further steam of the rule's size from the alerted price (1.9231 -> 1.7273, -10%) alerts and notifies.
    await page.keyboard.press(',');
    await page.getByTestId('notify-price-toggle').check();
    await expect(page.getByTestId('notify-price-toggle')).toBeChecked();
    await page.keyboard.press('a');
    sim.script.setMarket(eventId, lineId, { home: 1.6, away: 2.2 });
    await expect(page.getByTestId('alert-row')).toHaveCount(2, { timeout: 20_000 });
    await expect.poll(async () => (await notes(page)).length, { timeout: 20_000 }).toBe(1);
    const [first] = await notes(page);
    expect(first!.title).toMatch(/drop/i);
    expect(first!.tag).toMatch(/^oddsdesk-\d+$/);
    // The click opens the event's detail at the line that dropped, not at its first line.
    await page.evaluate(() =>
      (window as unknown as { __shown: Array<{ onclick: (() => void) | null }> }).__shown[0]!.onclick?.(),
    );
    await expect(page.getByTestId(`market-${lineId}`)).toHaveClass(/\bchosen\b/);
    await expect(page.locator('.detail tr.mrow.chosen')).toHaveCount(1);
  } finally {
    await host?.stop();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
