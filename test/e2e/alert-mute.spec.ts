// Issue 33, item 4 (browser mode, real core, real simulator, Chromium): acting on an alert row acts on that row's
// match while rows arrive. A new user pointed at a row's Mute button as new alerts came in at the top; the rows moved
// down under the pointer and the click muted another match. Here the pointer rests on one match's Mute, two more
// matches' drops arrive, and the click (at the pointer, wherever the page put the rows) must mute that match, never
// another. The simulator runs on the manual clock in this process: prices move only when the test scripts them.
import { test as base, expect, type Page } from '@playwright/test';
import type { EventOdds, Market, Prices } from '../../src/shared/api';
import type { Simulator } from '../../src/sim';
import { simulatorAndHost } from './fixtures';

const KEY = 'e2e-alert-mute-trader-key';

const test = base.extend<{ sim: Simulator }>({
  sim: simulatorAndHost({
    key: KEY,
    name: 'alert-mute',
    viewport: { width: 1400, height: 800 },
    sim: { seed: 6, historyHours: 3 },
  }),
});

/** Matches hours from their start with a priced full-match total whose over is no longshot. */
function upcoming(sim: Simulator, n: number): Array<{ id: number; ev: EventOdds; total: Market }> {
  const out = [];
  for (const id of sim.truth.bookIds()) {
    const ev = sim.truth.event(id)!;
    const total = ev.markets.find(
      (m) =>
        m.market === 'totals' &&
        m.period === 0 &&
        m.prices?.over !== undefined &&
        m.prices.under !== undefined &&
        m.prices.over < 3,
    );
    if (ev.live_status === 1 || Date.parse(`${ev.starts}Z`) - sim.now() < 3 * 3_600_000 || !total) continue;
    out.push({ id, ev, total });
    if (out.length === n) break;
  }
  expect(out).toHaveLength(n);
  return out;
}

/** Watches an event from the palette: Ctrl+K, its id, Enter (the palette then opens its detail). */
async function watch(page: Page, id: number) {
  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('palette-input')).toBeFocused();
  await page.keyboard.type(String(id));
  await expect(page.getByTestId('palette-item').first()).toHaveText(new RegExp(`Watch event #${id}`));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId(`watch-row-${id}`)).toBeVisible();
  await page.keyboard.press('Escape');
}

/** A steam on the event's total: over shortened by a fifth (a drop of the rule's size), under out. */
function steam(sim: Simulator, e: { id: number; total: Market }) {
  const p = e.total.prices!;
  const steamed: Prices = {
    over: Math.round(p.over! * 0.8 * 1000) / 1000,
    under: Math.round(p.under! * 1.35 * 1000) / 1000,
  };
  expect(sim.script.setMarket(e.id, e.total.line_id, steamed)).toBe(true);
}

test('alerts arriving while the pointer rests on a row’s Mute never make the click mute another match', async ({
  page,
  sim,
}) => {
  const [a, b, c, d] = upcoming(sim, 4);
  for (const e of [a!, b!, c!, d!]) await watch(page, e.id);
  await page.getByTestId('nav-alerts').click();
  const rowOf = (id: number) => page.locator(`[data-testid="alert-row"][data-kind="drop"][data-event-id="${id}"]`);
  const rows = page.locator('[data-testid="alert-row"]');

  // Two matches' drops: B's row on top, A's below it.
  steam(sim, a!);
  await expect(rowOf(a!.id)).toHaveCount(1);
  steam(sim, b!);
  await expect(rowOf(b!.id)).toHaveCount(1);
  await expect(rows).toHaveCount(2);

  // The pointer comes to rest on A's Mute; then C's and D's drops arrive.
  await rowOf(a!.id).getByTestId(`mute-${a!.id}`).hover();
  steam(sim, c!);
  steam(sim, d!);
  await expect(page.getByText(/^4 in history$/)).toBeVisible();

  // The click lands where the pointer is, as a trader's would.
  await page.mouse.down();
  await page.mouse.up();
  await expect(page.getByTestId('muted-events')).toHaveText(`Muted: ${a!.ev.runner_home} v ${a!.ev.runner_away}`);
  await expect(rowOf(a!.id).getByTestId(`mute-${a!.id}`)).toHaveAttribute('aria-pressed', 'true');
  for (const other of [b!, c!, d!]) await expect(page.getByTestId(`mute-${other.id}`)).toHaveCount(other === b ? 1 : 0);
  await expect(page.getByTestId(`mute-${b!.id}`)).toHaveAttribute('aria-pressed', 'false');

  // The new rows waited above the list meanwhile (the pointer is on it, and the Mute it clicked has focus), and show
  // once asked for.
  await expect(page.getByTestId('new-alerts')).toHaveText('2 new alerts ↑');
  await page.getByTestId('new-alerts').click();
  await expect(rows).toHaveCount(4);
  await expect(rows.first()).toHaveAttribute('data-event-id', /^(\d+)$/);
  expect([c!.id, d!.id]).toContain(Number(await rows.first().getAttribute('data-event-id')));
  await expect(page.getByTestId('new-alerts')).toHaveCount(0);
  await expect(page.getByTestId('muted-events')).toHaveText(`Muted: ${a!.ev.runner_home} v ${a!.ev.runner_away}`);
});
