// The renderer on its own, against the fake core (test/e2e/fakeCore.ts): keyboard, live price flashes, event
// detail with locally computed fair prices, settlements review, states (key rejected, plan restricted), palette.
import { expect, test, type Page } from '@playwright/test';
import { devig } from '../../src/shared/devig';
import { openWithFakeCore, type FakeOptions } from './fakeCore';

async function open(page: Page, options: FakeOptions = {}) {
  await page.goto(await openWithFakeCore(page, { tickMs: 0, ...options }));
  await expect(page.getByTestId('status-bar')).toBeVisible();
}

const tick = (page: Page, eventId: number, lineId: number, side: string, to: number) =>
  page.evaluate(([e, l, s, t]) => (window as unknown as { __fake: { tick(...a: unknown[]): void } }).__fake.tick(e, l, s, t), [eventId, lineId, side, to] as const);

test('letter keys switch views, but not while typing in a text field', async ({ page }) => {
  await open(page);
  await expect(page.getByTestId('watch-row-1001')).toBeVisible();
  for (const [key, view] of [
    ['t', 'settlements'],
    ['a', 'alerts'],
    ['s', 'specials'],
    ['o', 'outrights'],
    ['c', 'coverage'],
    [',', 'settings'],
    ['w', 'watchlist'],
  ] as const) {
    await page.keyboard.press(key);
    await expect(page.getByTestId(`nav-${view}`)).toHaveAttribute('aria-current', 'page');
  }
  await page.keyboard.press('/');
  await expect(page.getByTestId('watch-filter')).toBeFocused();
  await page.keyboard.type('ta');
  await expect(page.getByTestId('nav-watchlist')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('watch-filter')).toHaveValue('ta');
});

test('a price tick flashes the one cell with an arrow that stays after the flash', async ({ page }) => {
  await open(page);
  const cell = page.getByTestId('price-1001-100101-home');
  await expect(cell).toHaveText(/^\d+\.\d{3}$/);
  const before = Number(await cell.textContent());
  await tick(page, 1001, 100101, 'home', Math.round((before + 0.25) * 1000) / 1000);
  await expect(cell).toHaveAttribute('data-dir', 'up');
  await expect(cell).toHaveClass(/flash/);
  await expect(cell).toContainText('▲');
  await expect(cell).not.toHaveClass(/flash/, { timeout: 2000 });
  await expect(cell).toContainText('▲'); // colour is never the only signal
  await tick(page, 1001, 100101, 'home', 1.5);
  await expect(cell).toHaveAttribute('data-dir', 'down');
  await expect(cell).toHaveText('▼1.500');
  // Its neighbour did not move.
  await expect(page.getByTestId('price-1001-100101-away')).not.toHaveAttribute('data-dir', /.+/);
});

test('arrows move the selection, Enter opens the detail, Del removes the watch', async ({ page }) => {
  await open(page);
  await expect(page.getByTestId('watch-count')).toHaveText('12 events');
  await page.keyboard.press('ArrowDown');
  const first = page.locator('[data-testid^="watch-row-"][aria-selected="true"]');
  await expect(first).toHaveCount(1);
  const firstId = await first.getAttribute('data-testid');
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('[data-testid^="watch-row-"][aria-selected="true"]')).not.toHaveAttribute('data-testid', firstId!);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('event-detail')).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('event-detail')).toBeVisible();
  await page.keyboard.press('Delete');
  await expect(page.getByTestId('watch-count')).toHaveText('11 events');
});

test('fair probabilities are the de-vig of the live prices under the chosen model', async ({ page }) => {
  await open(page);
  await page.getByTestId('watch-row-1001').click();
  await page.keyboard.press('Enter');
  const detail = page.getByTestId('event-detail');
  await expect(detail.getByTestId('fair-100101-home')).toHaveText(/%$/);
  const prices = async () =>
    Promise.all(['home', 'draw', 'away'].map(async (s) => Number((await detail.getByTestId(`price-1001-100101-${s}`).textContent())!.replace(/[▲▼]/, ''))));
  // Prices and fair column are read together and compared until they agree (a tick lands on the next frame).
  const shownVsExpected = async (model: 'EM' | 'SHIN' | 'MPTO') => {
    const p = devig(await prices(), model).probabilities;
    const shown = await Promise.all(['home', 'draw', 'away'].map((s) => detail.getByTestId(`fair-100101-${s}`).textContent()));
    return { shown, expected: p.map((x) => `${(x * 100).toFixed(1)}%`) };
  };
  const expectFair = async (model: 'EM' | 'SHIN' | 'MPTO') => {
    await expect
      .poll(async () => {
        const r = await shownVsExpected(model);
        return r.shown.join(' ') === r.expected.join(' ') ? 'agree' : `${r.shown.join(' ')} vs ${r.expected.join(' ')}`;
      })
      .toBe('agree');
  };
  await expectFair('MPTO');
  await page.keyboard.press(',');
  await page.getByTestId('devig-model-select').selectOption('SHIN');
  await page.keyboard.press('Escape');
  await page.keyboard.press('w');
  await expectFair('SHIN');
  // Live: a tick re-prices the fair column at once.
  const before = (await shownVsExpected('SHIN')).shown.join(' ');
  await tick(page, 1001, 100101, 'home', 1.8);
  await expect.poll(async () => (await shownVsExpected('SHIN')).shown.join(' ')).not.toBe(before);
  await expectFair('SHIN');
});

test('settlements: filter by team and outcome, W/L/P letters, keyset paging, CSV export', async ({ page }) => {
  await open(page);
  await page.keyboard.press('t');
  await expect(page.getByTestId('settlement-count')).toContainText('400 settled');
  const rows = page.locator('[data-testid^="settlement-row-"]');
  await expect(rows.first()).toBeVisible();
  await page.getByTestId('settlement-team-filter').fill('arsenal');
  await expect(page.getByTestId('settlement-count')).not.toContainText('400 settled');
  for (const text of await rows.allInnerTexts()) expect(text.toLowerCase()).toContain('arsenal');
  await page.getByTestId('settlement-outcome-side').selectOption('home');
  await expect(page.getByTestId('settlement-outcome-result')).toHaveValue('win');
  await expect(rows.first()).toBeVisible();
  const homes = page.locator('[data-testid^="ml-"][data-testid$="-home"]');
  for (const t of await homes.allInnerTexts()) expect(t).toBe('W');
  // Lines of one settlement, letter and colour.
  await rows.first().click();
  await expect(page.getByTestId('settlement-detail')).toBeVisible();
  await expect(page.locator('[data-testid="settlement-detail"] .oc.win').first()).toHaveText('W');
  const download = page.waitForEvent('download');
  await page.getByTestId('export-csv').click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^oddsdesk-settlements-.*\.csv$/);
  // Paging: clear filters, scroll to the end, all 400 arrive.
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await expect(page.getByTestId('settlement-count')).toContainText('400 settled');
  const list = page.getByTestId('settlement-list');
  for (let i = 0; i < 10; i++) await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(page.getByTestId('settlement-row-5399')).toBeVisible();
});

test('a live alert lands in the alert history and muting is per event', async ({ page }) => {
  await open(page);
  await page.keyboard.press('a');
  await expect(page.getByTestId('alert-row')).toHaveCount(24);
  await page.evaluate(() =>
    (window as unknown as { __fake: { addAlert(a: object): void } }).__fake.addAlert({ kind: 'max_win', eventId: 1002, message: 'max_win 10,000 → 15,000 (+50.0%) on Moneyline' }),
  );
  await expect(page.getByTestId('alert-row').first()).toContainText('max_win 10,000 → 15,000');
  await page.getByTestId('alert-row').first().getByTestId('mute-1002').click();
  await expect(page.getByTestId('muted-events')).toContainText('#1002');
});

test('key rejected: a calm banner with one action, to Settings, where the key is write-only', async ({ page }) => {
  await open(page, { auth: 'rejected' });
  await expect(page.getByTestId('banner-key-rejected')).toContainText('The key was rejected (regenerated or revoked)');
  await page.getByTestId('banner-open-settings').click();
  await expect(page.getByTestId('nav-settings')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('api-key-input')).toHaveAttribute('type', 'password');
  await expect(page.getByTestId('api-key-input')).toHaveValue('');
  await expect(page.getByTestId('api-key-state')).toHaveText('● a key is stored');
});

test('plan restricted: specials say which plan they need', async ({ page }) => {
  await open(page, { plan: 'starter' });
  await page.keyboard.press('s');
  await expect(page.getByTestId('specials-restricted')).toContainText('Specials need the enterprise plan; your plan: starter');
  await expect(page.getByTestId('status-plan')).toHaveText('plan starter');
});

test('the palette finds a fixture, watches it and opens its detail', async ({ page }) => {
  await open(page);
  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('palette')).toBeVisible();
  await page.getByTestId('palette-input').fill('1040');
  await expect(page.getByTestId('palette-item').first()).toContainText('Watch event #1040');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('watch-row-1040')).toBeVisible();
  await expect(page.getByTestId('event-detail')).toBeVisible();
  await page.keyboard.press('Control+k');
  await page.getByTestId('palette-input').fill('go to sett');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('nav-settlements')).toHaveAttribute('aria-current', 'page');
});

test('status bar: streams, plan, quota, last sync; light theme', async ({ page }) => {
  await open(page, { demo: true });
  const bar = page.getByTestId('status-bar');
  await expect(bar.getByTestId('status-streams')).toContainText('stream 12/12 live');
  await expect(bar.getByTestId('status-quota')).toContainText('quota 312/1,000 this hour');
  await expect(bar.getByTestId('badge-demo')).toBeVisible();
  await page.keyboard.press(',');
  await page.getByTestId('theme-select').selectOption('light');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
});
