// Issue 34 again, on the code after the rule lab and the restructure (browser mode, the simulator on the manual clock
// with three hours of settled history), at 1280x720 and 1920x1080: an outright card holds its whole table in every
// odds format (a long name beside American or Indonesian odds ran over the card into the next at 1920); a settlement
// explained is headed by its match and score, not the service's raw "ended"; the Bets report is reachable from the
// command palette like the other Bets tabs.
import { test as base, expect, type Page } from '@playwright/test';
import { simulatorAndHost } from './fixtures';

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
] as const;
const FORMATS = ['decimal', 'american', 'fractional', 'indonesian'] as const;

/** Every outright card whose table reaches past the card's padding (px over, the card's title), in what is rendered. */
const cardsOverrun = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[data-testid^="outright-"].card')].flatMap((card) => {
      const table = card.querySelector('table')!;
      const inner = card.getBoundingClientRect().right - parseFloat(getComputedStyle(card).paddingRight);
      const over = Math.round(table.getBoundingClientRect().right - inner);
      return over > 0 ? [`${card.querySelector('strong')?.textContent ?? '?'}: ${over} px over`] : [];
    }),
  );

for (const size of SIZES) {
  const at = `${size.width}x${size.height}`;
  const test = base.extend<{ app: unknown }>({
    app: simulatorAndHost({
      key: 'e2e-first-day-key',
      name: 'first-day',
      viewport: size,
      sim: { seed: 4, historyHours: 3 },
    }),
  });

  test(`${at}: outright cards hold their tables in every format; a settlement is headed in words; the palette opens the Bets report`, async ({
    page,
    app,
  }) => {
    void app;
    test.setTimeout(60_000);
    for (const format of FORMATS) {
      await page.keyboard.press(',');
      await page.getByTestId('odds-format-select').selectOption(format);
      await page.getByTestId('odds-format-select').blur();
      await page.keyboard.press('o');
      await expect(page.locator('[data-testid^="outright-"].card').nth(3)).toBeVisible({ timeout: 20_000 });
      expect(await cardsOverrun(page), `outright cards in ${format} at ${at}`).toEqual([]);
    }

    await page.keyboard.press('t');
    const row = page.locator('[data-testid^="settlement-row-"]').first();
    await expect(row).toBeVisible({ timeout: 20_000 });
    await row.click();
    const title = page.getByTestId('settlement-detail').locator('h3');
    await expect(title).toHaveText(/ v .* · \d+–\d+$/);
    await expect(title).not.toContainText('ended');

    await page.keyboard.press('Control+k');
    await page.keyboard.type('bets report');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('nav-bets')).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('bets-tab-report')).toHaveAttribute('aria-pressed', 'true');
  });
}
