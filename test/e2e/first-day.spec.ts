// Issue 34 again, on the code after the rule lab and the restructure (browser mode, the simulator on the manual clock
// with three hours of settled history), at 1280x720 and 1920x1080: an outright card holds its whole table in every
// odds format (a long name beside American or Indonesian odds ran over the card into the next at 1920); a settlement
// explained is headed by its match and score, not the service's raw "ended"; the Bets report is reachable from the
// command palette like the other Bets tabs. The last cuts (issue 34, classes 1, 6, 7): the command palette finds the
// odds format (each by name), the theme and the time zone and changes them as Settings does; a price of 1.23 reads
// 23/100 in fractional, not 14/61; in Hong Kong the record-bet form says the live price's move once, never the price
// its box already shows; Coverage reads in a trader's words; the status bar says so when every watched match is over
// rather than "stream 0/0 live".
import { test as base, expect, type Page } from '@playwright/test';
import type { Simulator } from '../../src/sim';
import { simulatorAndHost, twoWayMatch, watchById } from './fixtures';

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

/** The palette opened, `query` typed and its first item run; the items `query` listed, as they read. */
async function palette(page: Page, query: string): Promise<string[]> {
  await page.keyboard.press('Control+k');
  await page.getByTestId('palette-input').fill(query);
  const items = page.getByTestId('palette-item');
  await expect(items.first()).toBeVisible();
  const labels = await items.locator('.pal-label').allTextContents();
  await page.getByTestId('palette-input').press('Enter');
  await expect(page.getByTestId('palette')).toHaveCount(0);
  return labels;
}

for (const size of SIZES) {
  const at = `${size.width}x${size.height}`;
  const test = base.extend<{ sim: Simulator }>({
    sim: simulatorAndHost({ key: 'e2e-first-day-words-key', name: 'first-day-words', viewport: size }),
  });

  test(`${at}: the palette sets the odds format, theme and zone; fractional reads the quote; the record-bet form says a move once; Coverage in a trader's words`, async ({
    page,
    sim,
  }) => {
    test.setTimeout(60_000);
    // "format", "odds" and "zone" find what Settings sets: every odds format by name, and the time zone.
    await page.keyboard.press('Control+k');
    await page.getByTestId('palette-input').fill('format');
    await expect(page.getByTestId('palette-item').filter({ hasText: /^ActionOdds format: / })).toHaveCount(7);
    await page.keyboard.press('Escape');
    expect(await palette(page, 'odds fractional')).toEqual(['Odds format: Fractional (3/2)']);
    expect(await palette(page, 'theme light')).toEqual(['Theme: light']);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    expect((await palette(page, 'zone'))[0]).toMatch(/^Time zone: .+, change it in Settings$/);
    await expect(page.getByTestId('nav-settings')).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('time-zone-select')).toBeFocused();
    // The palette's choices are Settings' own.
    await expect(page.getByTestId('odds-format-select')).toHaveValue('fractional');
    await expect(page.getByTestId('theme-select')).toHaveValue('light');
    await page.getByTestId('time-zone-select').blur();

    // 1.23 reads as its quote, 23/100 (it read 14/61).
    const event = twoWayMatch(sim);
    const id = event.event_id;
    const ml = id * 10;
    sim.script.setMarket(id, ml, { home: 1.2, away: 4.5 });
    await page.keyboard.press('w');
    await watchById(page, id);
    await page.getByTestId(`watch-row-${id}`).click();
    const detail = page.getByTestId('event-detail');
    await expect(detail.getByTestId(`price-${id}-${ml}-home`)).toHaveText(/^[▲▼]?1\/5$/);
    sim.script.setMarket(id, ml, { home: 1.23, away: 4.0 });
    // (The cell's arrow says which way it moved.)
    await expect(detail.getByTestId(`price-${id}-${ml}-home`)).toHaveText(/^[▲▼]?23\/100$/);

    // Hong Kong: the market moves while the form is open; the box follows it, and the note says where from, once.
    await palette(page, 'odds hong kong');
    sim.script.setMarket(id, ml, { home: 1.2, away: 4.5 });
    await expect(detail.getByTestId(`price-${id}-${ml}-home`)).toHaveText(/^[▲▼]?0\.200$/);
    await page.keyboard.press('r');
    await expect(page.getByTestId('record-bet')).toBeVisible();
    await page.getByTestId('record-bet-side').selectOption('home');
    const box = page.getByTestId('record-bet-price');
    const words = page.getByTestId('record-bet').locator('.price-readback');
    await expect(box).toHaveValue('0.200');
    sim.script.setMarket(id, ml, { home: 1.23, away: 4.0 });
    await expect(box).toHaveValue('0.230');
    // It read "Home at 0.230 (decimal 1.230) · live price moved to 0.230".
    await expect(words).toHaveText('Home at 0.230 (decimal 1.230) · the live price moved from 0.200');
    // Typed, the box keeps the trader's price: a move after it names both ends; back to the typed price, nothing.
    await box.fill('0.25');
    await expect(words).toHaveText('Home at 0.25 (decimal 1.250)');
    sim.script.setMarket(id, ml, { home: 1.3, away: 3.5 });
    await expect(words).toHaveText('Home at 0.25 (decimal 1.250) · the live price moved from 0.230 to 0.300');
    sim.script.setMarket(id, ml, { home: 1.25, away: 3.8 });
    await expect(words).toHaveText('Home at 0.25 (decimal 1.250)');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('record-bet')).toHaveCount(0);

    // Coverage: every label in a trader's words, none of the old ones.
    await page.keyboard.press('Escape');
    await page.keyboard.press('c');
    const requests = page.getByTestId('coverage-requests');
    await expect(requests).toBeVisible();
    await expect(requests.locator('thead')).toContainText('What forRequests sent');
    await expect(requests).toContainText('Your own look-ups');
    await expect(requests).toContainText('Incomplete settlements asked for again');
    const text = (await page.locator('section[aria-labelledby="coverage-title"]').innerText()).toLowerCase();
    for (const raw of ['on screen', 'damaged', 'fetched again', 'spent on', 'answered 429', 'rate-limit headers'])
      expect(text, `Coverage at ${at} reads "${raw}"`).not.toContain(raw);
    // The longer words still fit their cells.
    const cut = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('[data-testid^="coverage-"] th, [data-testid^="coverage-"] td')]
        .filter((c) => c.scrollWidth > c.clientWidth)
        .map((c) => c.textContent),
    );
    expect(cut, `Coverage cells cut at ${at}`).toEqual([]);
    await page.screenshot({ path: `test-results/screenshots/first-day-coverage-${size.width}.png` });
  });
}

for (const size of SIZES) {
  const at = `${size.width}x${size.height}`;
  const test = base.extend<{ sim: Simulator }>({
    sim: simulatorAndHost({ key: 'e2e-first-day-over-key', name: 'first-day-over', viewport: size, sim: { seed: 34 } }),
  });

  test(`${at}: with every watched match over the status bar says so, not "stream 0/0 live"`, async ({ page, sim }) => {
    test.setTimeout(180_000);
    // The live match offered in play that started first: the soonest to finish.
    const ev = sim.truth
      .bookIds()
      .map((id) => sim.truth.event(id)!)
      .filter((e) => e.live_status === 1 && e.markets.some((m) => m.prices !== null))
      .sort((a, b) => a.starts.localeCompare(b.starts))[0]!;
    await watchById(page, ev.event_id);
    const streams = page.getByTestId('status-streams');
    await expect(streams).toHaveText('stream 1/1 live');
    for (let i = 0; i < 400 && !(await streams.textContent())!.startsWith('no live'); i++) await sim.advance(30);
    await expect(streams).toHaveText('no live streams: the watched match is over');
    await expect(streams).not.toContainText('0/0');
  });
}
