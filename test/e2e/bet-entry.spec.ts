// Issue 34, class 1, must-show (browser mode, the real core and the simulator on the manual clock), at 1280x720 and at
// 1920x1080: a bet's price is typed in the trader's odds format and read back in words before it is kept. `+300` in
// American mode records decimal 4.00 (and -150 records 1.6667); a fractional 5/2 records 3.50; the filled-in price
// follows the market and says when it moved; a typed price 30% off the live one asks once before it is kept; in Bets,
// E edits a bet's price, stake and note and keeps each change in its history; Del removes a bet at once and Undo
// restores it under its id; a typed edit far from the live price asks once too. A price alert's threshold is typed in
// the same box: `+150` in American mode is kept as decimal 2.50 and shown back as +150. Screenshots go to
// test-results/screenshots (bet-entry-*.png).
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import type { OddsFormat } from '../../src/shared/formats';
import type { Prices } from '../../src/shared/api';
import type { Simulator } from '../../src/sim';
import { simulatorAndHost, twoWayMatch } from './fixtures';
import { root } from './helpers';

const KEY = 'e2e-bet-entry-key';
const shot = (name: string) => path.join(root, 'test-results', 'screenshots', name);
const SIZES = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
];

async function chooseFormat(page: Page, format: OddsFormat) {
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('odds-format-select').selectOption(format);
  await expect(page.getByTestId('odds-format-select')).toHaveValue(format);
}

/** Watches a match hours before its start whose moneyline is two-way, priced `prices`, and opens its detail. */
async function openMatch(page: Page, sim: Simulator, prices: Prices): Promise<{ id: number; ml: number }> {
  const event = twoWayMatch(sim);
  const id = event.event_id;
  const ml = id * 10;
  sim.script.setMarket(id, ml, prices);
  await page.getByTestId('nav-watchlist').click();
  const input = page.getByTestId('add-watch-input');
  await input.fill(String(id));
  await page.getByTestId('add-watch-button').click();
  await expect(page.getByTestId(`watch-row-${id}`)).toBeVisible();
  await input.blur();
  await page.getByTestId(`watch-row-${id}`).click();
  await expect(page.getByTestId('event-detail')).toBeVisible();
  await expect(page.getByTestId('event-detail').getByTestId(`price-${id}-${ml}-home`)).not.toHaveText(/—/);
  return { id, ml };
}

/** R on the open detail, the side chosen, the stake filled; the price box left to the caller. */
async function openForm(page: Page, side: 'home' | 'away', stake: string) {
  await page.keyboard.press('r');
  await expect(page.getByTestId('record-bet')).toBeVisible();
  await page.getByTestId('record-bet-side').selectOption(side);
  await page.getByTestId('record-bet-stake').fill(stake);
}

/** The price typed (replacing what is in the box) and Enter pressed in the box. */
async function typePrice(page: Page, text: string) {
  const box = page.getByTestId('record-bet-price');
  await box.fill(text);
  await box.press('Enter');
}

async function toBets(page: Page) {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.getByTestId('nav-bets').click();
  await expect(page.getByTestId('nav-bets')).toHaveAttribute('aria-current', 'page');
}

/** One bet recorded on Home at its live 2.00 for `stake` (the toast reads `recorded`), then Bets with it selected: its row. */
async function oneBetSelected(page: Page, sim: Simulator, stake: string, recorded: string) {
  await openMatch(page, sim, { home: 2.0, away: 1.9 });
  await openForm(page, 'home', stake);
  await page.getByTestId('record-bet-stake').press('Enter');
  await expect(page.getByText(`Bet recorded: ${recorded}`)).toBeVisible();
  await page.keyboard.press('Escape');
  await toBets(page);
  const row = page.locator('[data-testid^="bet-row-"]');
  await expect(row).toHaveCount(1);
  await page.keyboard.press('ArrowDown');
  await expect(row).toHaveAttribute('aria-selected', 'true');
  return row;
}

const test = base.extend<{ sim: Simulator; size: { width: number; height: number } }>({
  size: [SIZES[0]!, { option: true }],
  sim: async ({ page, size }, use) => {
    await simulatorAndHost({ key: KEY, name: 'bet-entry', viewport: size })({ page }, use);
  },
});

for (const size of SIZES) {
  test.describe(`at ${size.width}x${size.height}`, () => {
    test.use({ size });

    test('+300 in American mode records decimal 4.00, -150 records 1.6667: the box shows the trader’s unit only and reads the price back first', async ({
      page,
      sim,
    }) => {
      await chooseFormat(page, 'american');
      // Home +290 / away -167 live.
      await openMatch(page, sim, { home: 3.9, away: 1.6 });
      await openForm(page, 'home', '10');
      const box = page.getByTestId('record-bet-price');
      // One unit, the trader's: the live price as the grid shows it, and no second figure beside the box.
      await expect(box).toHaveValue('+290');
      await expect(box).toHaveAttribute('aria-label', 'Price (American)');
      await expect(page.getByTestId('record-bet-price-format')).toHaveCount(0);
      await box.fill('+300');
      await expect(page.getByTestId('record-bet-readback')).toHaveText('Home at +300 (decimal 4.000)');
      await page.screenshot({ path: shot(`bet-entry-american-${size.width}.png`) });
      await box.press('Enter');
      await expect(page.getByText('Bet recorded: Home at +300 (decimal 4.000) for 10.00')).toBeVisible();

      // A minus price: -150 on away.
      await openForm(page, 'away', '15');
      await expect(box).toHaveValue('-167');
      await box.fill('-150');
      await expect(page.getByTestId('record-bet-readback')).toHaveText('Away at -150 (decimal 1.667)');
      await box.press('Enter');
      await expect(page.getByText('Bet recorded: Away at -150 (decimal 1.667) for 15.00')).toBeVisible();

      // Something that is not a price says why, in the trader's format, and records nothing.
      await openForm(page, 'home', '10');
      await typePrice(page, '4.00x');
      await expect(page.getByTestId('record-bet-error')).toHaveText(
        '"4.00x" is not an American price: type it as +150 or -150.',
      );
      await expect(page.getByTestId('record-bet')).toBeVisible();
      await page.keyboard.press('Escape');

      // In Bets, American then decimal: +300 is 4.000, -150 is 1.667 (kept as 1.6667).
      await toBets(page);
      await expect(page.getByTestId('bets-count')).toHaveText('2');
      await expect(page.getByTestId('bet-price')).toHaveText(['-150', '+300']);
      await chooseFormat(page, 'decimal');
      await page.getByTestId('nav-bets').click();
      await expect(page.getByTestId('bet-price')).toHaveText(['1.667', '4.000']);
      await expect(page.getByTestId('bets-stake')).toHaveText('25.00');
    });

    test('a fractional 5/2 records 3.50', async ({ page, sim }) => {
      await chooseFormat(page, 'fractional');
      await openMatch(page, sim, { home: 3.25, away: 1.4 });
      await openForm(page, 'home', '20');
      const box = page.getByTestId('record-bet-price');
      await expect(box).toHaveValue('9/4');
      await box.fill('5/2');
      await expect(page.getByTestId('record-bet-readback')).toHaveText('Home at 5/2 (decimal 3.500)');
      await box.press('Enter');
      await expect(page.getByText('Bet recorded: Home at 5/2 (decimal 3.500) for 20.00')).toBeVisible();
      await toBets(page);
      await expect(page.getByTestId('bet-price')).toHaveText('5/2');
      await chooseFormat(page, 'decimal');
      await page.getByTestId('nav-bets').click();
      await expect(page.getByTestId('bet-price')).toHaveText('3.500');
    });

    test('the filled price follows the market and says so; a typed price 30% off the live one asks once before it is kept', async ({
      page,
      sim,
    }) => {
      const { id, ml } = await openMatch(page, sim, { home: 2.0, away: 1.9 });
      await openForm(page, 'home', '10');
      const box = page.getByTestId('record-bet-price');
      await expect(box).toHaveValue('2');
      // The market moves while the form is open: the untouched box follows it and says it moved.
      sim.script.setMarket(id, ml, { home: 2.05, away: 1.85 });
      await expect(box).toHaveValue('2.05');
      await expect(page.getByTestId('record-bet-moved')).toHaveText('· the live price moved from 2.000');

      // 2.67 is 30% above the live 2.05: asked, nothing recorded yet.
      await box.fill('2.67');
      await expect(page.getByTestId('record-bet-readback')).toHaveText('Home at 2.670');
      await box.press('Enter');
      const ask = page.getByTestId('record-bet-confirm');
      await expect(ask).toContainText('The live price is 2.050; keep 2.67?');
      await page.screenshot({ path: shot(`bet-entry-far-${size.width}.png`) });
      await expect(page.getByText(/^Bet recorded/)).toHaveCount(0);
      // Esc goes back to the price, not out of the form; the price typed again asks again.
      await page.keyboard.press('Escape');
      await expect(ask).toHaveCount(0);
      await expect(box).toBeFocused();
      await box.press('Enter');
      await expect(ask).toBeVisible();
      // A typed price keeps its place when the market moves again, and says so.
      sim.script.setMarket(id, ml, { home: 2.1, away: 1.8 });
      await expect(page.getByTestId('record-bet-moved')).toHaveText('· the live price moved from 2.050 to 2.100');
      await expect(box).toHaveValue('2.67');
      // Asked once: Enter keeps it.
      await box.press('Enter');
      await expect(page.getByText('Bet recorded: Home at 2.670 for 10.00')).toBeVisible();
      await toBets(page);
      await expect(page.getByTestId('bet-price')).toHaveText('2.670');
    });

    test('Del in Bets removes the bet at once and Undo restores it', async ({ page, sim }) => {
      const row = await oneBetSelected(page, sim, '50', 'Home at 2.000 for 50.00');
      const rowId = await row.getAttribute('data-testid');
      // Del asks nothing: the bet is gone, and the toast offers Undo.
      await page.keyboard.press('Delete');
      await expect(row).toHaveCount(0);
      await expect(page.getByTestId('bets-count')).toHaveText('0');
      const toast = page.getByTestId('toast').filter({ hasText: 'Removed the bet: Home at 2.000' });
      await expect(toast).toContainText('Undo (Z / Ctrl+Z)');
      await page.screenshot({ path: shot(`bet-entry-undo-${size.width}.png`) });
      await toast.getByTestId('toast-action').click();
      await expect(row).toHaveCount(1);
      await expect(row).toHaveAttribute('data-testid', rowId!);
      await expect(page.getByTestId('bets-count')).toHaveText('1');
      await expect(page.getByTestId('bets-stake')).toHaveText('50.00');
      await expect(page.getByTestId('bet-price')).toHaveText('2.000');
      // Removed again, Z takes it back too.
      await page.keyboard.press('Delete');
      await expect(row).toHaveCount(0);
      await page.keyboard.press('z');
      await expect(row).toHaveCount(1);
      await expect(row).toHaveAttribute('aria-selected', 'true');
    });

    test('E edits a bet’s price (in the trader’s format), stake and note; each change is kept in its history', async ({
      page,
      sim,
    }) => {
      await chooseFormat(page, 'hongkong');
      await oneBetSelected(page, sim, '10', 'Home at 1.000 (decimal 2.000) for 10.00');
      await page.keyboard.press('e');
      const form = page.getByTestId('bet-edit');
      await expect(form).toBeVisible();
      const price = page.getByTestId('bet-edit-price');
      await expect(price).toBeFocused();
      await expect(price).toHaveValue('1.000');
      // Taken at HK 1.1 (decimal 2.10) for 20, with a note.
      await price.fill('1.1');
      await expect(page.getByTestId('bet-edit-readback')).toHaveText('Home at 1.1 (decimal 2.100)');
      await page.getByTestId('bet-edit-stake').fill('20');
      await page.getByTestId('bet-edit-note').fill('taken late');
      await page.getByTestId('bet-edit-note').press('Enter');
      await expect(form).toHaveCount(0);
      await expect(page.getByText('Bet changed: Home at 1.100 (decimal 2.100) for 20.00')).toBeVisible();
      await expect(page.getByTestId('bet-price')).toHaveText('1.100 ✎');
      await expect(page.getByTestId('bets-stake')).toHaveText('20.00');
      await expect(page.getByTestId('bet-note')).toHaveText('taken late');
      // Opened again: the history, oldest first.
      await page.keyboard.press('e');
      const history = page.getByTestId('bet-history').locator('li');
      await expect(history).toHaveCount(2);
      await expect(history.nth(0)).toHaveText(/^Recorded \d{4}-\d\d-\d\d \d\d:\d\d: 1\.000 for 10\.00$/);
      await expect(history.nth(1)).toHaveText(
        /^Edited \d{4}-\d\d-\d\d \d\d:\d\d: price 1\.000 → 1\.100, stake 10\.00 → 20\.00, note "taken late"$/,
      );
      await page.screenshot({ path: shot(`bet-entry-edit-${size.width}.png`) });
      // Not a price: said, nothing changed; Esc leaves the bet as it was.
      await price.fill('-1');
      await page.getByTestId('bet-edit-save').click();
      await expect(page.getByTestId('bet-edit-error')).toHaveText(
        '"-1" is not a Hong Kong price: type it as 1.5 (winnings per 1 staked).',
      );
      await price.press('Escape');
      await expect(form).toHaveCount(0);
      await expect(page.getByTestId('bet-price')).toHaveText('1.100 ✎');
    });

    test('E: a bet’s new price 30% off the live one asks once before it is kept; a near one is kept at once', async ({
      page,
      sim,
    }) => {
      await oneBetSelected(page, sim, '10', 'Home at 2.000 for 10.00');
      await page.keyboard.press('e');
      const form = page.getByTestId('bet-edit');
      const price = page.getByTestId('bet-edit-price');
      await expect(price).toBeFocused();
      // 2.60 is 30% above the live 2.00: asked, the bet unchanged.
      await price.fill('2.6');
      await price.press('Enter');
      const ask = page.getByTestId('bet-edit-confirm');
      await expect(ask).toContainText('The live price is 2.000; keep 2.6?');
      await page.screenshot({ path: shot(`bet-entry-edit-far-${size.width}.png`) });
      await expect(form).toBeVisible();
      await expect(page.getByTestId('bet-price')).toHaveText('2.000');
      // Esc goes back to the price, not out of the form; Enter asks again, and Keep keeps it.
      await page.keyboard.press('Escape');
      await expect(ask).toHaveCount(0);
      await expect(form).toBeVisible();
      await expect(price).toBeFocused();
      await price.press('Enter');
      await expect(ask).toBeVisible();
      await page.getByTestId('bet-edit-keep').click();
      await expect(form).toHaveCount(0);
      await expect(page.getByTestId('bet-price')).toHaveText('2.600 ✎');
      // 2.10, near the live 2.00: kept at once.
      await page.keyboard.press('e');
      await expect(price).toBeFocused();
      await price.fill('2.1');
      await price.press('Enter');
      await expect(form).toHaveCount(0);
      await expect(page.getByTestId('bet-price')).toHaveText('2.100 ✎');
    });

    test('a price alert threshold typed as +150 in American mode is kept as decimal 2.50 and shown back as +150', async ({
      page,
      sim,
    }) => {
      await chooseFormat(page, 'american');
      const { id, ml } = await openMatch(page, sim, { home: 2.0, away: 1.9 });
      await page.getByTestId('price-alerts').locator('summary').click();
      await page.getByTestId('threshold-line').selectOption(String(ml));
      await page.getByTestId('threshold-side').selectOption('home');
      const box = page.getByTestId('threshold-price-input');
      // One unit, the trader's: no decimal box, no second figure beside it.
      await expect(box).toHaveAttribute('aria-label', 'Price (American)');
      await expect(page.getByTestId('threshold-price-format')).toHaveCount(0);
      // A decimal price in American mode is refused, saying why, and nothing is kept.
      await box.fill('2.5');
      await box.press('Enter');
      await expect(page.getByTestId('threshold-error')).toHaveText(
        'An American price is +100 or more, or -100 or less (2.5 is neither): type it as +150 or -150.',
      );
      await expect(page.getByTestId('thresholds').locator('li')).toHaveCount(0);
      // +150, read back in words before it is kept.
      await box.fill('+150');
      await expect(page.getByTestId('threshold-error')).toHaveCount(0);
      await expect(page.getByTestId('threshold-readback')).toHaveText('Home crosses +150 (decimal 2.500)');
      await page.screenshot({ path: shot(`bet-entry-threshold-${size.width}.png`) });
      await box.press('Enter');
      const item = page.getByTestId(`threshold-${ml}-home`);
      await expect(item).toContainText('Home crosses +150 (decimal 2.500)');
      await expect(page.getByTestId('price-alerts').locator('summary')).toHaveText('Price alerts · 1 threshold');
      await expect(box).toHaveValue('');
      // Kept as decimal 2.50: Home seen below it (2.10), then at 2.60, crosses it.
      sim.script.setMarket(id, ml, { home: 2.1, away: 1.8 });
      await expect(page.getByTestId('event-detail').getByTestId(`price-${id}-${ml}-home`)).toHaveText(/\+110$/);
      sim.script.setMarket(id, ml, { home: 2.6, away: 1.5 });
      await expect(page.getByTestId('event-detail').getByTestId(`price-${id}-${ml}-home`)).toHaveText(/\+160$/);
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.getByTestId('nav-alerts').click();
      // The alert reads in the trader's format, the decimal kept on hover.
      const crossed = page.getByTestId('alert-text').filter({ hasText: 'Home price +160 crossed +150 ↑' });
      await expect(crossed).toHaveCount(1, { timeout: 20_000 });
      await expect(crossed).toHaveAttribute('title', /^Home price 2\.6 crossed 2\.5 ↑ /);
      // In decimal, the same threshold reads 2.500.
      await chooseFormat(page, 'decimal');
      await page.getByTestId('nav-watchlist').click();
      await page.getByTestId(`watch-row-${id}`).click();
      await page.getByTestId('price-alerts').locator('summary').click();
      await expect(item).toContainText('Home crosses 2.500');
    });
  });
}
