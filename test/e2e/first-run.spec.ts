// Issue 25, must-show: a fresh first run in demo. The browser-mode host starts with no key and an empty data folder,
// so it runs the demo and the demo profile's first run watches a few matches. Within a few simulated minutes a
// first-run match raises an alert and has its close stored, and nothing on that first screen shows an error (status
// bar, banners, Settings). The demo runs on the wall clock; ODDSDESK_TEST_DEMO_PACE (src/sim/CONTROL.md, "Demo mode in
// tests") makes its matches run six times faster than the demo's own, and ODDSDESK_TEST_DEMO_SEED fixes the world,
// so the few simulated minutes pass in about a minute of real time, the same way each run. The alert is certain: a
// first-run match about to kick off is offered in play, and its limit is cut as it goes live (a move far past the 10%
// threshold), at the moment its lines close.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test, type Page } from '@playwright/test';
import { cli, startWebHost, type WebHost } from './helpers';

/** Everything on screen that reads as an error or a warning. */
const ERRORS = '[role="alert"], .status-error, .banner.error, .banner.warn, .toast.error';

async function expectNoError(page: Page, where: string) {
  const shown = await page.locator(ERRORS).allInnerTexts();
  expect(shown, `no error shown on ${where}`).toEqual([]);
}

/** The closes stored in the demo profile's history for these events, read as the app wrote them (read-only). */
function storedCloses(dataDir: string, eventIds: number[]): Array<{ event_id: number; line_id: number; market: string; closed_at: number }> {
  const db = new Database(path.join(dataDir, 'profiles', 'demo.db'), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(`SELECT event_id, line_id, market, closed_at FROM line_closes WHERE closed_at IS NOT NULL AND event_id IN (${eventIds.map(() => '?').join(',')})`)
      .all(...eventIds) as Array<{ event_id: number; line_id: number; market: string; closed_at: number }>;
  } finally {
    db.close();
  }
}

test('a fresh first run in demo: a first-run match alerts and has its close stored within minutes; no error anywhere', async ({ page }) => {
  test.setTimeout(240_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-first-run-'));
  let host: WebHost | undefined;
  try {
    host = await startWebHost(cli('web', '--port', '0'), {
      ODDSDESK_DATA_DIR: dataDir,
      ODDSDESK_TEST_DEMO_PACE: '60',
      ODDSDESK_TEST_DEMO_SEED: '25',
    });
    await page.goto(host.url);
    await expect(page.getByTestId('banner-demo')).toBeVisible();

    // The first screen: the first run's watches, each row with prices or saying why it has none.
    const rows = page.locator('[data-testid^="watch-row-"]');
    await expect(rows).toHaveCount(4);
    const ids = (await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!))).map((t) => Number(t.replace('watch-row-', '')));
    await expect(page.getByTestId('status-streams')).toHaveText(/stream 4\/4 live/);
    for (const id of ids) {
      const row = page.getByTestId(`watch-row-${id}`);
      await expect(row.locator('.price:not(.empty)').or(row.getByTestId(`no-price-${id}`)).first()).toBeVisible();
      // One read: at the demo's pace a row may be priced a moment later and its reason gone.
      for (const [text, title] of await row.getByTestId(`no-price-${id}`).evaluateAll((els) => els.map((e) => [e.textContent ?? '', e.getAttribute('title') ?? '']))) {
        expect(text).not.toBe('');
        expect(title).toBeTruthy();
      }
    }
    await expectNoError(page, 'the watchlist');

    // Settings on a first run: demo with no key is nothing wrong.
    await page.keyboard.press(',');
    await expect(page.getByTestId('api-key-state')).toHaveText('○ no key stored');
    await expectNoError(page, 'Settings');
    await page.keyboard.press('w');
    await expect(rows).toHaveCount(4);

    // Within a few simulated minutes a first-run match alerts, and its lines' closes are stored.
    await page.keyboard.press('a');
    const alert = page.locator(ids.map((id) => `[data-testid="alert-row"][data-event-id="${id}"]`).join(', ')).first();
    await expect(alert).toBeVisible({ timeout: 180_000 });
    await expect
      .poll(() => storedCloses(dataDir, ids).filter((c) => c.market === 'moneyline').length, { timeout: 150_000, message: 'a moneyline close of a first-run match is stored' })
      .toBeGreaterThan(0);
    const closes = storedCloses(dataDir, ids);
    expect(closes.every((c) => ids.includes(c.event_id))).toBe(true);

    // Back on the watchlist, the first screen still shows no error.
    await page.keyboard.press('w');
    await expect(rows).toHaveCount(4);
    await expectNoError(page, 'the watchlist after the first alert');
  } finally {
    await host?.stop();
  }
});
