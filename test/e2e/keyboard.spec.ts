// Issue 25, items 5 and 6 (browser mode, real core, real simulator): keyboard everywhere and alerts that get noticed.
// The first test walks Top movers, Alerts, Bets and Settlements with the keyboard only (no mouse click once the page
// has loaded): the arrows select the right row, Enter opens the right thing (a mover's and an alert's event with the
// line that moved chosen, a bet's line, a settlement explained) and Esc comes back to the list, its row still
// selected. The others: Del takes a watch away with an undo that brings it back with its price alert, mute and
// snooze; and a live alert sounds (per kind), flashes its row and counts as unread, except for a snoozed event.
// The simulator runs on the manual clock in this process, so every price moves only when the test scripts it.
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import type { EventOdds, Market } from '../../src/shared/api';
import type { Simulator } from '../../src/sim';
import { simulatorAndHost } from './fixtures';
import { root } from './helpers';

const KEY = 'e2e-keyboard-trader-key';
/** Screenshots for a look (not committed): test-results/screenshots/keys-*.png. */
const shot = (name: string) => path.join(root, 'test-results', 'screenshots', `keys-${name}.png`);

const test = base.extend<{ sim: Simulator }>({
  sim: simulatorAndHost({
    key: KEY,
    name: 'keyboard',
    viewport: { width: 1400, height: 800 },
    sim: { seed: 6, historyHours: 3 },
    // Each steam below is its own drop episode: the host runs on the real clock and cannot wait out the 10 s quiet gap
    // (docs/trading.md, "Drop episodes"; src/core/monitor/dropEpisodes.test.ts has the gap itself).
    env: { ODDSDESK_TEST_DROP_EPISODE_QUIET_MS: '1' },
    // The page's tunes, by pitch: a headless browser cannot be heard, so each oscillator started is noted.
    beforeGoto: (page) =>
      page.addInitScript(() => {
        const w = window as unknown as { __tones: number[] };
        w.__tones = [];
        const start = OscillatorNode.prototype.start;
        OscillatorNode.prototype.start = function (this: OscillatorNode, ...args: Parameters<OscillatorNode['start']>) {
          w.__tones.push(this.frequency.value);
          return start.apply(this, args);
        };
      }),
  }),
});

/** Matches hours from their start with a two-way moneyline and a priced full-match total. */
function upcoming(sim: Simulator, n: number): Array<{ id: number; ev: EventOdds; ml: Market; total: Market }> {
  const out = [];
  for (const id of sim.truth.bookIds()) {
    const ev = sim.truth.event(id)!;
    const ml = ev.markets.find((m) => m.market === 'moneyline' && m.period === 0);
    // A total near evens (Over's no-vig price 1.90-2.08), so the steam's first step (1.95 each side, a fair 2.000) is
    // less than the drop rule's 5% from the open: the steam is one drop.
    const nearEvens = (o = 0, u = 0) => o > 1 && u > 1 && Math.abs((1 / o + 1 / u) * o - 1.99) <= 0.09;
    const total = ev.markets.find(
      (m) => m.market === 'totals' && m.period === 0 && m.prices && nearEvens(m.prices.over, m.prices.under),
    );
    if (
      ev.live_status === 1 ||
      Date.parse(`${ev.starts}Z`) - sim.now() < 3 * 3_600_000 ||
      !ml?.prices ||
      ml.prices.draw !== undefined ||
      !total
    )
      continue;
    out.push({ id, ev, ml, total });
    if (out.length === n) break;
  }
  expect(out).toHaveLength(n);
  return out;
}

/** Watches an event from the palette, keys only: Ctrl+K, its id, Enter (the palette then opens its detail). */
async function watchByKeys(page: Page, id: number) {
  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('palette-input')).toBeFocused();
  await page.keyboard.type(String(id));
  await expect(page.getByTestId('palette-item').first()).toHaveText(new RegExp(`Watch event #${id}`));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId(`watch-row-${id}`)).toBeVisible();
  await expect(page.getByTestId('event-detail')).toBeVisible();
}

const selectedIn = (page: Page, rows: string) => page.locator(`${rows}[aria-selected="true"]`);

test('keys only: movers, alerts, bets and settlements walk with the arrows, Enter opens the exact line, Esc comes back', async ({
  page,
  sim,
}) => {
  const [a, b] = upcoming(sim, 2);
  await watchByKeys(page, b!.id);
  await watchByKeys(page, a!.id);
  await expect(page.getByTestId('detail-title')).toHaveText(`${a!.ev.runner_home} v ${a!.ev.runner_away}`);

  // A steam on A's total (Over shortens): the line that moved is not the moneyline the detail shows first.
  const totalRow = page.getByTestId(`market-${a!.total.line_id}`);
  sim.script.setMarket(a!.id, a!.total.line_id, { over: 1.95, under: 1.95 });
  await expect(totalRow).toContainText('1.950');
  sim.script.setMarket(a!.id, a!.total.line_id, { over: 1.6, under: 2.4 });
  await expect(totalRow).toContainText('1.600');
  await expect(totalRow).not.toHaveClass(/\bchosen\b/);

  // ---- Top movers: the steam's two sides rank first; Enter opens A with the total chosen; Esc comes back ----
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('event-detail')).toHaveCount(0);
  await page.keyboard.press('m');
  await expect(page.getByTestId('nav-movers')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('mover-row-0')).toHaveAttribute('data-line-id', String(a!.total.line_id));
  const movers = selectedIn(page, '[data-testid^="mover-row-"]');
  await expect(movers).toHaveCount(0);
  await page.keyboard.press('ArrowDown');
  await expect(movers).toHaveAttribute('data-testid', 'mover-row-0');
  await page.keyboard.press('ArrowDown');
  await expect(movers).toHaveAttribute('data-testid', 'mover-row-1');
  await page.keyboard.press('ArrowUp');
  await expect(movers).toHaveAttribute('data-testid', 'mover-row-0');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('nav-watchlist')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('event-detail')).toBeVisible();
  await expect(page.getByTestId('detail-title')).toHaveText(`${a!.ev.runner_home} v ${a!.ev.runner_away}`);
  await expect(totalRow).toHaveClass(/\bchosen\b/);
  await expect(page.getByTestId(`market-${a!.ml.line_id}`)).not.toHaveClass(/\bchosen\b/);
  await expect(totalRow).toBeInViewport();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('nav-movers')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('event-detail')).toHaveCount(0);
  await expect(movers).toHaveAttribute('data-testid', 'mover-row-0');
  await page.screenshot({ path: shot('movers') });

  // ---- Alerts: unread until seen; the drop alert on A's total opens A at that line ----
  await expect(page.getByTestId('alerts-unread')).toBeVisible();
  await page.keyboard.press('a');
  await expect(page.getByTestId('nav-alerts')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('alerts-unread')).toHaveCount(0);
  const alertRows = page.locator('[data-testid="alert-row"]');
  const drop = page.locator(
    `[data-testid="alert-row"][data-kind="drop"][data-event-id="${a!.id}"][data-line-id="${a!.total.line_id}"]`,
  );
  await expect(drop).toHaveCount(1);
  const order = await alertRows.evaluateAll((els) => els.map((e) => e.getAttribute('data-alert-id')));
  const dropIndex = order.indexOf(await drop.getAttribute('data-alert-id'));
  const alertSelected = selectedIn(page, '[data-testid="alert-row"]');
  for (let i = 0; i <= dropIndex; i++) await page.keyboard.press('ArrowDown');
  await expect(alertSelected).toHaveAttribute('data-alert-id', order[dropIndex]!);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('event-detail')).toBeVisible();
  await expect(page.getByTestId('detail-title')).toHaveText(`${a!.ev.runner_home} v ${a!.ev.runner_away}`);
  await expect(totalRow).toHaveClass(/\bchosen\b/);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('nav-alerts')).toHaveAttribute('aria-current', 'page');
  await expect(alertSelected).toHaveAttribute('data-alert-id', order[dropIndex]!);
  await page.screenshot({ path: shot('alerts') });

  // ---- Bets: a bet recorded by keys on A's second line; Enter on it opens A at that line ----
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('event-detail')).toBeVisible();
  await page.keyboard.press('r');
  await expect(page.getByTestId('record-bet-stake')).toBeFocused();
  // Back to the line choice (stake, price, side, line), one line down, then forward to the stake again.
  for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+Tab');
  await expect(page.getByTestId('record-bet-line')).toBeFocused();
  const firstLine = await page.getByTestId('record-bet-line').inputValue();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('record-bet-line')).not.toHaveValue(firstLine);
  // Not the total either: the detail shows that one chosen already.
  if ((await page.getByTestId('record-bet-line').inputValue()) === String(a!.total.line_id))
    await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('record-bet-line')).not.toHaveValue(String(a!.total.line_id));
  const betLine = Number(await page.getByTestId('record-bet-line').inputValue());
  for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
  await expect(page.getByTestId('record-bet-stake')).toBeFocused();
  await page.keyboard.type('25');
  await page.keyboard.press('Enter');
  await expect(page.getByText(/^Bet recorded: /)).toBeVisible();
  await expect(page.getByTestId(`market-${betLine}`)).not.toHaveClass(/\bchosen\b/);
  await page.keyboard.press('b');
  await expect(page.getByTestId('nav-bets')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('bets-count')).toHaveText('1');
  const betSelected = selectedIn(page, '[data-testid^="bet-row-"]');
  await page.keyboard.press('ArrowDown');
  await expect(betSelected).toHaveCount(1);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('event-detail')).toBeVisible();
  await expect(page.getByTestId('detail-title')).toHaveText(`${a!.ev.runner_home} v ${a!.ev.runner_away}`);
  await expect(page.getByTestId(`market-${betLine}`)).toHaveClass(/\bchosen\b/);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('nav-bets')).toHaveAttribute('aria-current', 'page');
  await expect(betSelected).toHaveCount(1);
  await page.screenshot({ path: shot('bets') });

  // ---- Settlements: arrows, End and Home through the cached list; Enter explains the row; Esc closes it ----
  await page.keyboard.press('t');
  await expect(page.getByTestId('nav-settlements')).toHaveAttribute('aria-current', 'page');
  const settled = page.locator('[data-testid^="settlement-row-"]');
  await expect(settled.nth(2)).toBeVisible();
  const ids = async () => settled.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!));
  const rowSelected = selectedIn(page, '[data-testid^="settlement-row-"]');
  await page.keyboard.press('ArrowDown');
  await expect(rowSelected).toHaveAttribute('data-testid', (await ids())[0]!);
  await page.keyboard.press('End');
  await expect(rowSelected).toBeInViewport();
  const last = (await rowSelected.getAttribute('data-testid'))!;
  expect(last).not.toBe((await ids())[0]);
  await page.keyboard.press('Home');
  await expect(rowSelected).toHaveAttribute('data-testid', (await ids())[0]!);
  await page.keyboard.press('ArrowDown');
  const second = (await ids())[1]!;
  await expect(rowSelected).toHaveAttribute('data-testid', second);
  const match = (await page.getByTestId(second).locator('.cell').nth(2).innerText()).trim();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('settlement-detail')).toBeVisible();
  await expect(page.getByTestId('settlement-detail').locator('h3')).toContainText(match);
  await expect(page.getByTestId(second)).toHaveAttribute('data-open', 'true');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('settlement-detail')).toHaveCount(0);
  await expect(rowSelected).toHaveAttribute('data-testid', second);
  await page.screenshot({ path: shot('settlements') });
});

test('Del takes a watch away with an undo (Z, Ctrl+Z or the toast) that brings back its price alert, mute and snooze', async ({
  page,
  sim,
}) => {
  const [a] = upcoming(sim, 1);
  const id = a!.id;
  const name = `${a!.ev.runner_home} v ${a!.ev.runner_away}`;
  await watchByKeys(page, id);
  // What belongs to the event: a price threshold, its mute, a snooze.
  await page.getByTestId('price-alerts').locator('summary').click();
  await page.getByTestId('threshold-price-input').fill('1.5');
  await page.getByTestId('threshold-price-input').press('Enter');
  await expect(page.getByTestId('price-alerts').locator('summary')).toHaveText('Price alerts · 1 threshold');
  await page.getByTestId('mute-event').click();
  await expect(page.getByTestId('mute-event')).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId(`snooze-${id}`).selectOption('1h');
  await expect(page.getByTestId(`snooze-${id}`)).toHaveAttribute('data-snoozed', 'true');
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await expect.poll(() => sim.openStreams()).toBe(1);

  const row = page.getByTestId(`watch-row-${id}`);
  const restoredWithAll = async () => {
    await expect(row).toBeVisible();
    await expect.poll(() => sim.openStreams()).toBe(1);
    await expect(row).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('price-alerts').locator('summary')).toHaveText('Price alerts · 1 threshold');
    await expect(page.getByTestId('mute-event')).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId(`snooze-${id}`)).toHaveAttribute('data-snoozed', 'true');
  };
  const removed = async () => {
    await expect(row).toHaveCount(0);
    await expect(page.getByTestId('toast').filter({ hasText: `Removed ${name}` })).toContainText('Undo (Z / Ctrl+Z)');
    // The core let go of it: its stream is closed.
    await expect.poll(() => sim.openStreams()).toBe(0);
  };

  // Del, then Z.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Delete');
  await removed();
  await page.screenshot({ path: shot('undo') });
  await page.keyboard.press('z');
  await expect(page.getByTestId('toast').filter({ hasText: `Watching ${name} again` })).toBeVisible();
  await restoredWithAll();

  // Backspace, then Ctrl+Z.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Backspace');
  await removed();
  await page.keyboard.press('Control+z');
  await restoredWithAll();

  // The detail's Unwatch button, then the toast's Undo.
  await page.getByTestId('unwatch').click();
  await removed();
  await page
    .getByTestId('toast')
    .filter({ hasText: `Removed ${name}` })
    .getByTestId('toast-action')
    .click();
  await restoredWithAll();
  // Undone once: Z has nothing more to take back.
  await page.keyboard.press('Escape');
  await page.keyboard.press('z');
  await expect(row).toBeVisible();
  await expect(page.getByTestId('watch-count')).toHaveText('1 event');
});

test('a live alert sounds by kind, flashes its row and counts unread; a snoozed event is listed but silent', async ({
  page,
  sim,
}) => {
  const [a, b] = upcoming(sim, 2);
  await watchByKeys(page, b!.id);
  await watchByKeys(page, a!.id);
  await page.keyboard.press('Escape');
  const tones = () => page.evaluate(() => (window as unknown as { __tones: number[] }).__tones.slice());

  // A settlement sounds by default (its rising two notes): B is abandoned and settles in the next batch; the
  // palette's "Check settlements now" fetches it.
  expect(sim.script.abandon(b!.id)).toBe(true);
  await sim.advance(600);
  await page.keyboard.press('Control+k');
  await page.keyboard.type('check settlements now');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('alerts-unread')).toBeVisible();
  await expect.poll(tones).toEqual(expect.arrayContaining([880, 1320]));
  // Price, drop and max stake alerts are silent by default.
  expect(await tones()).not.toContain(1175);
  expect(await tones()).not.toContain(523);

  // A steady total on A first, then price sounds on (Settings).
  const rowA = page.getByTestId(`watch-row-${a!.id}`);
  const totalRow = page.getByTestId(`market-${a!.total.line_id}`);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('detail-title')).toHaveText(`${a!.ev.runner_home} v ${a!.ev.runner_away}`);
  sim.script.setMarket(a!.id, a!.total.line_id, { over: 1.95, under: 1.95 });
  await expect(totalRow).toContainText('1.950');
  await page.keyboard.press(',');
  await page.getByTestId('sound-price').check();
  await expect(page.getByTestId('sound-price')).toBeChecked();
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('w');
  const dropsOfA = page.locator(`[data-testid="alert-row"][data-kind="drop"][data-event-id="${a!.id}"]`);
  const priceTones = async () => (await tones()).filter((t) => t === 1175).length;
  const unread = async () => Number((await page.getByTestId('alerts-unread').textContent()) ?? 0);
  const before = await unread();

  // A steam on Over: one drop alert, which sounds once, flashes A's row briefly and adds to the unread count.
  sim.script.setMarket(a!.id, a!.total.line_id, { over: 1.6, under: 2.4 });
  await expect(totalRow).toContainText('1.600');
  await expect(rowA).toHaveAttribute('data-alert-flash', /\d+/);
  await expect.poll(unread).toBeGreaterThan(before);
  await expect.poll(priceTones).toBe(1);
  await expect(rowA).not.toHaveAttribute('data-alert-flash', /\d+/);

  // Snoozed from its alert row: A's next drop is listed, but no sound and no flash.
  await page.keyboard.press('a');
  await expect(page.getByTestId('alerts-unread')).toHaveCount(0);
  const drops = await dropsOfA.count();
  expect(drops).toBeGreaterThan(0);
  await dropsOfA.first().getByTestId(`snooze-${a!.id}`).selectOption('15m');
  await expect(dropsOfA.first().getByTestId(`snooze-${a!.id}`)).toHaveAttribute('data-snoozed', 'true');
  await page.keyboard.press('w');
  await expect(rowA).toContainText('snoozed');
  sim.script.setMarket(a!.id, a!.total.line_id, { over: 1.3, under: 3.6 });
  await expect(totalRow).toContainText('1.300');
  // Listed (and counted unread), but no flash and no sound. The flash would start in the very update that counts the
  // alert unread, so the row is read at once, not waited on.
  await expect(page.getByTestId('alerts-unread')).toBeVisible();
  expect(await rowA.getAttribute('data-alert-flash')).toBeNull();
  await page.keyboard.press('a');
  await expect(dropsOfA).toHaveCount(drops + 1);
  expect(await priceTones()).toBe(1);
});
