// Issue 25, must-show (odds format and time zone), browser mode against the real core and the simulator: a watched
// match priced 2.50 / 1.60 and a bet recorded at 2.50 read in decimal in the grid, the detail and the Bets view;
// switching the odds format in Settings changes all three (American: +150 / -167; Malay: -0.667 / +0.600), the price
// chart's legend follows, and the time zone setting moves every time shown (the bet's time, the status bar) to
// Tokyo's clock. The host runs in the suite's zone (test/support/e2eZone.ts), so its OS zone, the default, is that one.
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import type { Simulator } from '../../src/sim';
import { DateTime } from 'luxon';
import { zoneLabel } from '../../src/shared/formats';
import { simulatorAndHost, twoWayMatch } from './fixtures';
import { root } from './helpers';
import { E2E_TIME_ZONE } from '../support/e2eZone';

const KEY = 'e2e-odds-format-trader-key';
const shot = (name: string) => path.join(root, 'test-results', 'screenshots', name);

const test = base.extend<{ sim: Simulator }>({
  sim: simulatorAndHost({ key: KEY, name: 'odds-format', viewport: { width: 1600, height: 900 } }),
});

async function chooseFormat(page: Page, format: string) {
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('odds-format-select').selectOption(format);
  await expect(page.getByTestId('odds-format-select')).toHaveValue(format);
}

test('switching the odds format in Settings changes the grid, the detail and the Bets view; the zone moves every time', async ({
  page,
  sim,
}) => {
  // A match hours before its start with a two-way moneyline.
  const event = twoWayMatch(sim);
  const id = event.event_id;
  const ml = id * 10;
  sim.script.setMarket(id, ml, { home: 2.5, away: 1.6 });

  await page.getByTestId('add-watch-input').fill(String(id));
  await page.getByTestId('add-watch-button').click();
  const row = page.getByTestId(`watch-row-${id}`);
  await expect(row).toBeVisible();
  const gridHome = row.getByTestId(`price-${id}-${ml}-home`);
  const gridAway = row.getByTestId(`price-${id}-${ml}-away`);
  // Decimal, the default: three decimals.
  await expect(gridHome).toHaveText(/^[▲▼]?2\.500$/);
  await expect(gridAway).toHaveText(/^[▲▼]?1\.600$/);

  // The detail, and a bet on home at 2.50 for 10 (R, the stake, Enter).
  await row.dblclick();
  const detail = page.getByTestId('event-detail');
  await expect(detail).toBeVisible();
  const detailHome = detail.getByTestId(`price-${id}-${ml}-home`);
  const detailAway = detail.getByTestId(`price-${id}-${ml}-away`);
  await expect(detailHome).toHaveText(/^[▲▼]?2\.500$/);
  await page.getByTestId('add-watch-input').blur();
  await page.keyboard.press('r');
  await expect(page.getByTestId('record-bet-price')).toHaveValue('2.5');
  await page.keyboard.type('10');
  await page.keyboard.press('Enter');
  await expect(page.getByText(/Bet recorded: Home at 2\.5/)).toBeVisible();
  await page.keyboard.press('Escape');

  await page.getByTestId('nav-bets').click();
  const betRow = page.locator('[data-testid^="bet-row-"]');
  await expect(betRow).toHaveCount(1);
  await expect(betRow.getByTestId('bet-price')).toHaveText('2.500');
  await expect(page.getByTestId('status-zone')).toHaveText(zoneLabel(E2E_TIME_ZONE, Date.now()));
  const placedHere = await betRow.locator('td').first().textContent();
  expect(placedHere).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
  // It reads the zone's clock (a minute or two ago there), not UTC's (5 h 30 min off in Kolkata).
  const placed = DateTime.fromFormat(placedHere!, 'yyyy-MM-dd HH:mm', { zone: E2E_TIME_ZONE });
  expect(Math.abs(placed.toMillis() - Date.now())).toBeLessThan(10 * 60_000);

  // American: 2.50 -> +100 x 1.5 = +150; 1.60 -> -100 / 0.6 = -166.7 -> -167.
  await chooseFormat(page, 'american');
  await expect(page.getByTestId('odds-format-example')).toHaveText('1.952 reads -105');
  await page.getByTestId('nav-bets').click();
  await expect(betRow.getByTestId('bet-price')).toHaveText('+150');
  await page.getByTestId('nav-watchlist').click();
  await expect(gridHome).toHaveText(/^[▲▼]?\+150$/);
  await expect(gridAway).toHaveText(/^[▲▼]?-167$/);
  await row.dblclick();
  await expect(detailHome).toHaveText(/^[▲▼]?\+150$/);
  await expect(detailAway).toHaveText(/^[▲▼]?-167$/);

  // A price that moves after the switch is written in the chosen format too: 2.50 -> 2.75 is +175, 1.60 -> 1.50 is -200.
  sim.script.setMarket(id, ml, { home: 2.75, away: 1.5 });
  await expect(gridHome).toHaveText('▲+175');
  await expect(gridAway).toHaveText('▼-200');
  await expect(detailHome).toHaveText('▲+175');
  // The price chart reads the same format: its cursor legend over the last point says +175.
  const chart = detail.getByTestId('chart-price');
  await expect(chart).toHaveAttribute('data-odds-format', 'american');
  await expect.poll(async () => Number(await chart.getAttribute('data-points'))).toBeGreaterThanOrEqual(2);
  const box = (await chart.locator('.u-over').boundingBox())!;
  await page.mouse.move(box.x + box.width - 1, box.y + box.height / 2);
  await expect(chart.locator('.u-legend .u-series').nth(1).locator('.u-value')).toHaveText('+175');
  await expect(chart.locator('.u-legend .u-series').nth(2).locator('.u-value')).toHaveText('-200');
  // Its time is on the 24-hour clock, in the zone: no am/pm.
  await expect(chart.locator('.u-legend .u-series').nth(0).locator('.u-value')).toHaveText(
    /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/,
  );
  await page.screenshot({ path: shot('odds-format-american.png') });

  // Malay: from evens up -1/(d-1): 2.75 -> -1/1.75 = -0.571; below evens d-1: 1.50 -> +0.500.
  await chooseFormat(page, 'malay');
  await page.getByTestId('nav-watchlist').click();
  await expect(gridHome).toHaveText(/^[▲▼]?-0\.571$/);
  await expect(gridAway).toHaveText(/^[▲▼]?\+0\.500$/);
  await row.dblclick();
  await expect(detailHome).toHaveText(/^[▲▼]?-0\.571$/);
  await expect(detailAway).toHaveText(/^[▲▼]?\+0\.500$/);
  await page.getByTestId('nav-bets').click();
  // The bet was taken at 2.50: -1/1.5 = -0.667.
  await expect(betRow.getByTestId('bet-price')).toHaveText('-0.667');

  // The zone: every time moves to Tokyo's clock (UTC+9), and the status bar names it.
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('time-zone-select').selectOption('Asia/Tokyo');
  await expect(page.getByTestId('status-zone')).toHaveText('Asia/Tokyo (UTC+9)');
  await page.getByTestId('nav-bets').click();
  const tokyo = placed.setZone('Asia/Tokyo').toFormat('yyyy-MM-dd HH:mm');
  await expect(betRow.locator('td').first()).toHaveText(tokyo);

  // Back to decimal: the one rule, three decimals.
  await chooseFormat(page, 'decimal');
  await page.getByTestId('nav-bets').click();
  await expect(betRow.getByTestId('bet-price')).toHaveText('2.500');
});
