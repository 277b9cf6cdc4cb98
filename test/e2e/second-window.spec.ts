// Issue 25, must-show (a second monitor), browser mode against the real core and the simulator: a view opened in a
// tab of its own (the view's header button, the palette, Shift+Enter) shows that view alone, authenticates without
// the token staying in its address, and stays in step with the first tab: a setting changed in the first shows in
// the second, a watch added there appears, an alert reaches both, a watch removed shows in an event's own tab, whose
// Close (Esc) closes it.
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import type { Simulator } from '../../src/sim';
import { simulatorAndHost } from './fixtures';
import { root } from './helpers';

const KEY = 'e2e-second-window-trader-key';
const shot = (name: string) => path.join(root, 'test-results', 'screenshots', name);

const test = base.extend<{ sim: Simulator }>({
  sim: simulatorAndHost({ key: KEY, name: 'second-window', viewport: { width: 1600, height: 900 } }),
});

/** Matches hours before their start with a two-way moneyline (priced on every market). */
function upcoming(sim: Simulator) {
  return sim.truth
    .bookIds()
    .map((id) => sim.truth.event(id)!)
    .filter(
      (e) =>
        e.live_status !== 1 &&
        Date.parse(`${e.starts}Z`) - sim.now() > 2 * 3_600_000 &&
        e.markets.every((m) => m.prices) &&
        e.markets[0]!.prices!.draw === undefined,
    );
}

async function watch(page: Page, id: number) {
  await page.getByTestId('nav-watchlist').click();
  await page.getByTestId('add-watch-input').fill(String(id));
  await page.getByTestId('add-watch-button').click();
  await expect(page.getByTestId(`watch-row-${id}`)).toBeVisible();
}

/** The tab the page opens while `act` runs. */
async function newTab(page: Page, act: () => Promise<void>): Promise<Page> {
  const [tab] = await Promise.all([page.context().waitForEvent('page'), act()]);
  await tab.setViewportSize({ width: 1280, height: 720 });
  await expect(tab.getByTestId('status-bar')).toBeVisible();
  return tab;
}

test('Top movers in a tab of its own shows that alone and follows the first tab: a setting, a new watch, an alert', async ({
  page,
  sim,
}) => {
  const [a, b] = upcoming(sim);
  const ml = a!.event_id * 10;
  sim.script.setMarket(a!.event_id, ml, { home: 2.5, away: 1.6 });
  await watch(page, a!.event_id);

  // From the view's header: Top movers in a new tab.
  await page.getByTestId('nav-movers').click();
  const movers = await newTab(page, () => page.getByTestId('open-window').click());
  // It authenticated with the token it was opened with, which is no longer in its address.
  await expect.poll(() => movers.url()).toMatch(/\/#view=movers$/);
  expect(movers.url()).not.toContain('token');
  // That view alone: no navigation, the status bar kept.
  await expect(movers.getByRole('heading', { name: 'Top movers' })).toBeVisible();
  await expect(movers.getByRole('navigation', { name: 'Views' })).toHaveCount(0);
  await expect(movers.locator('[data-window="single"]')).toBeVisible();
  const table = movers.getByTestId('movers-table');
  await expect(table).toContainText('2.500');
  // The view keys do not take it elsewhere.
  await movers.keyboard.press('w');
  await movers.keyboard.press('t');
  await expect(movers.getByRole('heading', { name: 'Top movers' })).toBeVisible();
  await expect(movers.getByTestId('watch-grid')).toHaveCount(0);
  // Enter on a row opens its match beside the list, in this tab; Esc closes it and the list is still there.
  await movers.keyboard.press('ArrowDown');
  await expect(movers.getByTestId('mover-row-0')).toHaveAttribute('aria-selected', 'true');
  await movers.keyboard.press('Enter');
  await expect(movers.getByTestId('detail-title')).toHaveText(`${a!.runner_home} v ${a!.runner_away}`);
  await expect(table).toBeVisible();
  await movers.screenshot({ path: shot('second-window-movers-detail.png') });
  await movers.keyboard.press('Escape');
  await expect(movers.getByTestId('event-detail')).toHaveCount(0);
  await expect(table).toBeVisible();

  // A setting changed in the first tab: the second writes its prices in American (2.50 is +150, 1.60 is -167).
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('odds-format-select').selectOption('american');
  await expect(table).toContainText('+150');
  await expect(table).toContainText('-167');
  await expect(table).not.toContainText('2.500');

  // A watch added in the first tab: its lines join the second's list (at its next refresh).
  await watch(page, b!.event_id);
  await expect(table).toContainText(b!.runner_home, { timeout: 15_000 });

  // Alerts in a third tab, from the palette; a drop on the first match reaches every tab.
  const alerts = await newTab(page, async () => {
    await page.keyboard.press('Control+k');
    await page.getByTestId('palette-input').fill('open alerts new tab');
    await page.keyboard.press('Enter');
  });
  await expect(alerts.getByRole('heading', { name: 'Alerts' })).toBeVisible();
  await expect(alerts.getByTestId('alert-row')).toHaveCount(0);
  // Fair home (the default drop rule, 5%): 2.5 / 1.6 -> 2.2 / 1.75 is a drop of about 12%.
  sim.script.setMarket(a!.event_id, ml, { home: 2.2, away: 1.75 });
  await expect(alerts.getByTestId('alert-row')).toHaveCount(1, { timeout: 20_000 });
  await expect(page.getByTestId('alerts-unread')).toHaveText('1');
  await page.getByTestId('nav-alerts').click();
  await expect(page.getByTestId('alert-row')).toHaveCount(1);
  // The second tab's list moved with the price, in the format chosen in the first.
  await expect(table).toContainText('+120');
  await movers.screenshot({ path: shot('second-window-movers.png') });
});

test("Shift+Enter opens the selected match in a tab of its own: its detail alone, in step with the first tab's watchlist", async ({
  page,
  sim,
}) => {
  const [a] = upcoming(sim);
  const id = a!.event_id;
  await watch(page, id);
  await page.getByTestId(`watch-row-${id}`).click();
  await page.getByTestId('add-watch-input').blur();

  const event = await newTab(page, () => page.keyboard.press('Shift+Enter'));
  await expect.poll(() => event.url()).toMatch(new RegExp(`/#event=${id}$`));
  const detail = event.getByTestId('event-detail');
  await expect(detail.getByTestId('detail-title')).toHaveText(`${a!.runner_home} v ${a!.runner_away}`);
  await expect(event.getByRole('navigation', { name: 'Views' })).toHaveCount(0);
  await expect(event.getByTestId('watch-grid')).toHaveCount(0);
  // Its own button is not offered again there.
  await expect(event.getByTestId('open-event-window')).toHaveCount(0);

  // Unwatched in the first tab: the second offers to watch it again.
  await expect(detail.getByTestId('unwatch')).toBeVisible();
  await page.getByTestId(`watch-row-${id}`).click();
  await page.keyboard.press('Delete');
  await expect(page.getByTestId(`watch-row-${id}`)).toHaveCount(0);
  await expect(detail.getByRole('button', { name: 'Watch', exact: true })).toBeVisible();
  await event.screenshot({ path: shot('second-window-event.png') });
  // The tab is the detail: its Close (Esc) closes the tab; the first one goes on.
  const closed = event.waitForEvent('close');
  // The key's own promise may reject: the page it was pressed in is gone.
  await event.keyboard.press('Escape').catch(() => undefined);
  await closed;
  expect(event.isClosed()).toBe(true);
  await expect(page.getByTestId('watch-empty')).toBeVisible();
});
