// Issue 25, must-show (items 2 and 4), in browser mode against the real core and the simulator, at 1280x720 and
// 1600x900:
// - the record-bet form and the price-alerts panel fit in the detail pane (nothing overflows sideways, the event's
//   name stays in view) and "Close (Esc)" is always inside the window; a stake error goes once the bet is recorded;
// - the event column stays at the grid's left edge when the grid scrolls sideways;
// - the columns chosen, hidden and ordered in the column menu (by keys) and the sort are kept across a reload;
// - no internal code reaches the screen in the main views (market and bet-type codes, "max_win", "(p0)", line ids).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import type { EventOdds } from '../../src/shared/api';
import { GRID_COLUMNS } from '../../src/shared/gridLayout';
import { startSimulator, type Simulator } from '../../src/sim';
import { cli, root, startWebHost } from './helpers';

const KEY = 'e2e-layout-trader-key';
const PEEK_KEY = 'e2e-layout-peek-key';
const SIZES = [
  { width: 1280, height: 720 },
  { width: 1600, height: 900 },
] as const;
const shot = (name: string) => path.join(root, 'test-results', 'screenshots', name);

/** Internal names and ids that must not be read on screen (tooltips may hold ids; the page's text may not). */
const RAW = /max_win|MULTI_WAY|HEAD_TO_HEAD|OVER_UNDER|team_total|\(p\d+\)|\bline \d{5,}|#\d{6,}|Bad arguments/i;

interface App {
  sim: Simulator;
  url: string;
  /** Pre-match events a few hours ahead, every line priced, with team totals and specials: stable to look at. */
  events: EventOdds[];
}

const test = base.extend<{ app: App }>({
  app: async ({ page: _page }, use) => {
    const sim = await startSimulator({
      port: 0,
      seed: 12,
      clock: 'manual',
      historyHours: 4,
      keys: [
        { key: KEY, plan: 'enterprise' },
        { key: PEEK_KEY, plan: 'enterprise' },
      ],
    });
    const dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-layout-e2e-'));
    const host = await startWebHost(
      [...cli(), 'web', '--port', '0', '--base-url', sim.url, '--db', path.join(dir, 'layout.db')],
      { ODDSDESK_API_KEY: KEY },
    );
    const candidates = sim.truth
      .bookIds()
      .map((id) => sim.truth.event(id)!)
      .filter((e) => e.live_status !== 1 && Date.parse(`${e.starts}Z`) - sim.now() > 2 * 3_600_000)
      .filter((e) => e.markets.every((m) => m.prices) && e.markets.some((m) => m.market === 'team_total'));
    const withSpecials: EventOdds[] = [];
    for (const e of candidates) {
      const res = await fetch(new URL(`/api/specials/fixtures?event_id=${e.event_id}`, sim.url), {
        headers: { 'X-API-Key': PEEK_KEY },
      });
      if (res.ok && ((await res.json()) as unknown[]).length > 0) withSpecials.push(e);
      if (withSpecials.length >= 1) break;
    }
    expect(withSpecials.length, 'a pre-match event with team totals and specials').toBe(1);
    const events = [
      withSpecials[0]!,
      ...candidates.filter((e) => e.event_id !== withSpecials[0]!.event_id).slice(0, 3),
    ];
    expect(events).toHaveLength(4);
    await use({ sim, url: host.url, events });
    await host.stop();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  },
});

async function watch(page: Page, id: number) {
  await page.getByTestId('add-watch-input').fill(String(id));
  await page.getByTestId('add-watch-button').click();
  await expect(page.getByTestId(`watch-row-${id}`)).toBeVisible();
  await expect(page.getByTestId(`watch-row-${id}`).locator('.price:not(.empty)').first()).toBeVisible();
}

/** Nothing inside the element is wider than the element: no sideways overflow. */
async function expectFits(el: Locator, what: string) {
  const { scroll, client } = await el.evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }));
  expect(scroll, `${what}: ${scroll} px of content in ${client} px`).toBeLessThanOrEqual(client);
}

/** Wholly inside the window. */
async function expectInWindow(page: Page, el: Locator, what: string) {
  const box = (await el.boundingBox())!;
  const view = page.viewportSize()!;
  expect(box, what).not.toBeNull();
  expect(box.x, `${what} left`).toBeGreaterThanOrEqual(0);
  expect(box.y, `${what} top`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what} right`).toBeLessThanOrEqual(view.width);
  expect(box.y + box.height, `${what} bottom`).toBeLessThanOrEqual(view.height);
}

/** Inside `outer` horizontally. */
async function expectWithin(inner: Locator, outer: Locator, what: string) {
  const a = (await inner.boundingBox())!;
  const b = (await outer.boundingBox())!;
  expect(a.x, `${what} left`).toBeGreaterThanOrEqual(b.x - 0.5);
  expect(a.x + a.width, `${what} right`).toBeLessThanOrEqual(b.x + b.width + 0.5);
}

const lineOf = (e: EventOdds, market: string, side: 'home' | 'away' | null = null) =>
  e.markets.find((m) => m.market === market && m.period === 0 && m.side === side)!;

for (const size of SIZES) {
  test(`at ${size.width}x${size.height} the record-bet form and the price alerts fit the detail pane; Close (Esc) stays in the window`, async ({
    page,
    app,
  }) => {
    await page.setViewportSize(size);
    await page.goto(app.url);
    const e = app.events[0]!;
    await watch(page, e.event_id);
    await page.getByTestId(`watch-row-${e.event_id}`).dblclick();
    const detail = page.getByTestId('event-detail');
    const body = page.getByTestId('detail-body');
    await expect(detail).toBeVisible();

    // The form open on the line with the longest words (the home team's total), and the price alerts open too.
    await page.getByTestId('record-bet-open').click();
    const form = page.getByTestId('record-bet');
    await expect(form).toBeVisible();
    await page.getByTestId('record-bet-line').selectOption(String(lineOf(e, 'team_total', 'home').line_id));
    await page.getByTestId('price-alerts').locator('summary').click();
    const alerts = page.getByTestId('price-alerts');
    await expect(page.getByTestId('threshold-price-input')).toBeVisible();
    await page.getByTestId('threshold-line').selectOption(String(lineOf(e, 'team_total', 'away').line_id));

    await expectFits(body, 'the detail pane');
    await expectFits(form, 'the record-bet form');
    await expectFits(alerts, 'the price alerts');
    await expectWithin(form, body, 'the record-bet form');
    await expectWithin(alerts, body, 'the price alerts');
    for (const id of ['record-bet-submit', 'record-bet-stake', 'threshold-add', 'drop-save'])
      await expectWithin(page.getByTestId(id), body, id);
    // The event's name and the close button are in the window, and stay there when the pane is scrolled down.
    await expect(page.getByTestId('detail-title')).toHaveText(`${e.runner_home} v ${e.runner_away}`);
    await expectWithin(page.getByTestId('detail-title'), body, 'the event name');
    await expectInWindow(page, page.getByTestId('detail-close'), 'Close (Esc)');
    await page.screenshot({ path: shot(`layout-detail-forms-${size.width}.png`) });
    await body.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect.poll(() => body.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
    await expectInWindow(page, page.getByTestId('detail-close'), 'Close (Esc), the pane scrolled down');
    await expectInWindow(page, page.getByTestId('detail-title'), 'the event name, the pane scrolled down');
    // The action buttons keep their height (they wrap, they do not stretch with the open panels).
    const unwatch = (await page.getByTestId('unwatch').boundingBox())!;
    expect(unwatch.height).toBeLessThan(40);

    // A stake left blank is said in the form; the bet recorded, it goes, and nothing in error is left beside it.
    await body.evaluate((el) => el.scrollTo(0, 0));
    await page.getByTestId('record-bet-stake').fill('');
    await page.getByTestId('record-bet-submit').click();
    await expect(page.getByTestId('record-bet-error')).toHaveText(/stake/i);
    await expectFits(form, 'the record-bet form with its error');
    await page.getByTestId('record-bet-stake').fill('25');
    await page.getByTestId('record-bet-submit').click();
    await expect(page.getByText(/^Bet recorded: Home team total Over /)).toBeVisible();
    await expect(page.getByTestId('record-bet-error')).toHaveCount(0);
    await expect(page.locator('.toast.error, .form-error')).toHaveCount(0);
    // Close (Esc) closes it.
    await page.getByTestId('detail-close').click();
    await expect(detail).toHaveCount(0);
  });
}

test('the event column stays at the left edge when the grid scrolls sideways (1280x720, the detail open)', async ({
  page,
  app,
}) => {
  await page.setViewportSize(SIZES[0]);
  await page.goto(app.url);
  for (const e of app.events.slice(0, 3)) await watch(page, e.event_id);
  const id = app.events[0]!.event_id;
  await page.getByTestId(`watch-row-${id}`).dblclick();
  await expect(page.getByTestId('event-detail')).toBeVisible();
  // The default columns fit beside the detail: nothing off to the right, and the names whole.
  const scroller = page.getByTestId('watch-scroller');
  await expectFits(scroller, 'the grid with its default columns');
  await expectWithin(page.getByTestId('sort-maxWin'), page.getByTestId('watch-grid'), 'the max stake column');
  for (const name of await page.locator('.wrow .teams > span:not(.sep)').all())
    await expectFits(name, `the name ${await name.textContent()}`);

  // Every column shown: wider than the grid, which scrolls sideways.
  await page.getByTestId('columns-button').click();
  const menu = page.getByTestId('column-menu');
  await expect(menu).toBeVisible();
  for (const c of GRID_COLUMNS) await page.getByTestId(`column-toggle-${c}`).check();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(page.getByTestId('watch-grid')).toHaveAttribute('data-columns', /fair/);
  const { scrollWidth, clientWidth } = await scroller.evaluate((el) => ({
    scrollWidth: el.scrollWidth,
    clientWidth: el.clientWidth,
  }));
  expect(scrollWidth).toBeGreaterThan(clientWidth + 200);

  const row = page.getByTestId(`watch-row-${id}`);
  const eventCell = row.locator('.cell.ev');
  const eventHead = page.locator('.whead > .th.ev');
  const left = (await scroller.boundingBox())!.x;
  const before = (await eventCell.boundingBox())!;
  const startBefore = (await row.locator('.cell').nth(1).boundingBox())!;
  await scroller.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
  await expect.poll(() => scroller.evaluate((el) => el.scrollLeft)).toBeGreaterThan(200);
  // The cells beside it have moved left under it; the event cell and its header have not.
  await expect.poll(async () => (await row.locator('.cell').nth(1).boundingBox())!.x).toBeLessThan(startBefore.x - 200);
  const after = (await eventCell.boundingBox())!;
  expect(Math.abs(after.x - left)).toBeLessThanOrEqual(1);
  expect(Math.abs(after.x - before.x)).toBeLessThanOrEqual(1);
  expect(Math.abs((await eventHead.boundingBox())!.x - left)).toBeLessThanOrEqual(1);
  await expect(eventCell.locator('.home')).toBeVisible();
  // What is on top at the event cell's centre is the event cell, not a price passing under it.
  const onTop = await eventCell.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
  });
  expect(onTop).toBe(true);
  // And the last column (the last one ticked) is now in view.
  await expectWithin(page.locator('.whead > .th').last(), scroller, 'the last header, scrolled to');
  await page.screenshot({ path: shot('layout-grid-scrolled-1280.png') });
});

test('the columns chosen, hidden and ordered by keys in the column menu, and the sort, are kept across a reload', async ({
  page,
  app,
}) => {
  await page.setViewportSize(SIZES[1]);
  await page.goto(app.url);
  for (const e of app.events.slice(0, 3)) await watch(page, e.event_id);
  const grid = page.getByTestId('watch-grid');
  const before = ((await grid.getAttribute('data-columns')) ?? '').split(' ');
  expect(before).toContain('score');
  expect(before).not.toContain('fair');

  // By keys: the menu opens from its button, Space ticks, Enter on an arrow moves, Esc closes back to the button.
  const button = page.getByTestId('columns-button');
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('column-menu')).toBeVisible();
  await expect(page.getByTestId('column-menu').locator('input').first()).toBeFocused();
  await page.getByTestId('column-toggle-score').focus();
  await page.keyboard.press('Space');
  await expect(grid).not.toHaveAttribute('data-columns', /\bscore\b/);
  await page.getByTestId('column-toggle-fair').focus();
  await page.keyboard.press('Space');
  await expect(grid).toHaveAttribute('data-columns', /\bfair$/);
  await page.getByTestId('column-left-fair').focus();
  await page.keyboard.press('Enter');
  const chosen = [...before.filter((c) => c !== 'score' && c !== 'maxWin'), 'fair', 'maxWin'];
  await expect(grid).toHaveAttribute('data-columns', chosen.join(' '));
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('column-menu')).toHaveCount(0);
  await expect(button).toBeFocused();
  // The fair prices are there, in the trader's odds format (decimal: three places).
  await expect(page.getByTestId(`fair-${app.events[0]!.event_id}-home`)).toHaveText(/^\d+\.\d{3}$/);

  // Sorted by the home price, highest first (the header twice).
  await page.getByTestId('sort-home').click();
  await page.getByTestId('sort-home').click();
  await expect(page.getByTestId('sort-home')).toHaveAttribute('aria-sort', 'descending');
  const byHome = [...app.events.slice(0, 3)]
    .sort((a, b) => lineOf(b, 'moneyline').prices!.home! - lineOf(a, 'moneyline').prices!.home!)
    .map((e) => `watch-row-${e.event_id}`);
  const rowOrder = () =>
    page
      .locator('[data-testid^="watch-row-"]')
      .evaluateAll((els) =>
        [...els]
          .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)
          .map((el) => el.getAttribute('data-testid')),
      );
  await expect.poll(rowOrder).toEqual(byHome);

  // A reload: the same columns in the same order, the same sort.
  await page.reload();
  await expect(page.locator('[data-testid^="watch-row-"]')).toHaveCount(3);
  await expect(grid).toHaveAttribute('data-columns', chosen.join(' '));
  await expect(page.getByTestId('sort-home')).toHaveAttribute('aria-sort', 'descending');
  await expect(page.locator('[data-testid^="sort-score"]')).toHaveCount(0);
  await expect.poll(rowOrder).toEqual(byHome);

  // Back to the default set that fits the width.
  await button.click();
  await page.getByTestId('column-reset').click();
  await expect(grid).toHaveAttribute('data-columns', /\bscore\b/);
  await expect(grid).not.toHaveAttribute('data-columns', /\bfair\b/);
});

test('no internal code reaches the screen: grid, detail, top movers, bets, settlements, alerts, specials', async ({
  page,
  app,
}) => {
  await page.setViewportSize(SIZES[1]);
  await page.goto(app.url);
  for (const e of app.events) await watch(page, e.event_id);
  const e = app.events[0]!;
  /** Reads the whole screen while `view` is on it, and finds its text among what was read (the scan saw the view). */
  const scan = async (where: string, view: Locator) => {
    await expect(view, `${where} on screen`).toBeVisible();
    const own = (await view.innerText())
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l !== '');
    expect(own, `${where} shows some text`).toBeTruthy();
    const text = await page.evaluate(() => document.body.innerText);
    expect(text, `the screen read with ${where} on it`).toContain(own);
    expect(text.match(RAW)?.[0] ?? null, `raw code on screen in ${where}`).toBeNull();
  };
  await scan('the grid', page.getByTestId(`watch-row-${e.event_id}`));

  // The detail, with a price threshold on a team total and a bet on the other team's total.
  await page.getByTestId(`watch-row-${e.event_id}`).dblclick();
  await expect(page.getByTestId('event-detail')).toBeVisible();
  const homeTotal = lineOf(e, 'team_total', 'home');
  const awayTotal = lineOf(e, 'team_total', 'away');
  await page.getByTestId('price-alerts').locator('summary').click();
  await page.getByTestId('threshold-line').selectOption(String(homeTotal.line_id));
  await page.getByTestId('threshold-side').selectOption('over');
  const over = homeTotal.prices!.over!;
  const threshold = Math.round((over + 0.3) * 100) / 100;
  await page.getByTestId('threshold-price-input').fill(String(threshold));
  await page.getByTestId('threshold-add').click();
  const item = page.getByTestId(`threshold-${homeTotal.line_id}-over`);
  await expect(item).toContainText(`Home team total ${homeTotal.line} · `);
  await expect(item).toContainText(`Home team total Over ${homeTotal.line} crosses ${threshold.toFixed(3)}`);
  await page.getByTestId('record-bet-open').click();
  await page.getByTestId('record-bet-line').selectOption(String(awayTotal.line_id));
  await page.getByTestId('record-bet-side').selectOption('under');
  await page.getByTestId('record-bet-stake').fill('10');
  await page.getByTestId('record-bet-submit').click();
  await expect(page.getByText(/^Bet recorded: Away team total Under /)).toBeVisible();
  // The chart's heading names the line in words; its id only on hover.
  await page.getByTestId(`market-${homeTotal.line_id}`).click();
  await expect(page.getByTestId('chart-line-title')).toHaveText(/^Home team total .+ over time$/);
  await expect(page.getByTestId('chart-line-title')).toHaveAttribute('title', `Line id ${homeTotal.line_id}`);
  await expect(page.getByTestId('detail-subtitle')).toHaveAttribute('title', `Event id ${e.event_id}`);
  await scan('the event detail', page.getByTestId('event-detail'));

  // The threshold crossed: an alert in the Alerts view.
  app.sim.script.setMarket(e.event_id, homeTotal.line_id, {
    over: Math.round((threshold + 0.2) * 100) / 100,
    under: 1.6,
  });
  await page.getByTestId('nav-alerts').click();
  await expect(page.locator('.arow').first()).toBeVisible({ timeout: 20_000 });
  await scan('the alerts', page.locator('.arow').first());

  await page.getByTestId('nav-movers').click();
  await expect(page.locator('[data-testid^="mover-"]').first()).toBeVisible();
  await scan('the top movers', page.getByTestId('movers-table'));

  await page.getByTestId('nav-bets').click();
  await expect(page.locator('[data-testid^="bet-row-"]')).toHaveCount(1);
  await expect(page.locator('[data-testid^="bet-row-"]')).toContainText('Away team total Under');
  await scan('the bets', page.locator('[data-testid^="bet-row-"]').first());

  await page.getByTestId('nav-settlements').click();
  const settled = page.locator('[data-testid^="settlement-row-"]').first();
  await expect(settled).toBeVisible({ timeout: 30_000 });
  await settled.click();
  await expect(page.getByTestId('settlement-detail')).toBeVisible();
  await scan('the settlements', page.getByTestId('settlement-detail'));

  await page.getByTestId('nav-specials').click();
  await expect(page.locator('[data-testid^="special-"]').first()).toBeVisible({ timeout: 20_000 });
  await scan('the specials', page.locator('[data-testid^="special-"]').first());
});
