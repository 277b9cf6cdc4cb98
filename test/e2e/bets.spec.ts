// Issue 14, must-show 3 (browser mode): Top movers and Bets driven by keys against the real core and the simulator.
// A bet is recorded from the event detail in a few keys (R, stake, Enter); a scripted move shows in Top movers with
// the figures computed by hand; the line closes (kick-off, after a suspension that closes nothing) and the bet shows
// its CLV; X exports it, and the downloaded CSV holds that bet's figures. Screenshots of both views go to
// test-results/screenshots (movers.png, bets.png); the committed ones in docs/screenshots come from
// scripts/screenshots.ts only.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test as base, expect } from '@playwright/test';
import { BET_CSV_HEADER } from '../../src/core/export/csv';
import type { Simulator } from '../../src/sim';
import { simulatorAndHost, twoWayMatch } from './fixtures';
import { root } from './helpers';
import { parseCsv } from '../support/csv';

const KEY = 'e2e-bets-trader-key';
const shot = (name: string) => path.join(root, 'test-results', 'screenshots', name);

const test = base.extend<{ sim: Simulator }>({
  sim: simulatorAndHost({ key: KEY, name: 'bets', viewport: { width: 1400, height: 800 } }),
});

test('Top movers and Bets by keys: record a bet in the detail, see the move ranked, then the bet’s CLV once the line closes', async ({
  page,
  sim,
}) => {
  // A match hours before its start with a two-way moneyline.
  const event = twoWayMatch(sim);
  const id = event.event_id;
  const ml = id * 10;
  sim.script.setMarket(id, ml, { home: 2.0, away: 1.9 });

  const input = page.getByTestId('add-watch-input');
  await input.fill(String(id));
  await page.getByTestId('add-watch-button').click();
  await expect(page.getByTestId(`watch-row-${id}`)).toBeVisible();
  await input.blur();

  // Open the detail from the keyboard and record home at 2.00 for 50: R, the stake, Enter.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('event-detail')).toBeVisible();
  // R and the stake typed at once, as a fast trader does: the form is drawn and the stake focused before R's own
  // handler returns, so no digit typed after it can fall on the page (where digits are shortcuts).
  const focusedAtOnce = await page.evaluate(() => {
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'r', bubbles: true, cancelable: true }));
    return (document.activeElement as HTMLElement | null)?.dataset.testid ?? null;
  });
  expect(focusedAtOnce).toBe('record-bet-stake');
  await expect(page.getByTestId('record-bet')).toBeVisible();
  await expect(page.getByTestId('record-bet-stake')).toBeFocused();
  await expect(page.getByTestId('record-bet-price')).toHaveValue('2');
  await expect(page.getByTestId('record-bet-side')).toHaveValue('home');
  await page.keyboard.type('50');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Bet recorded: Home at 2.000 for 50.00')).toBeVisible();

  // The line shortens on home. Fair prices under the default model (MPTO, p = 1/o - margin/2):
  // 2.00/1.90 -> home 2.054054, away 1.948718; 1.80/2.10 -> home 1.852941, away 2.172414: home -9.8%, away +11.5%.
  sim.script.setMarket(id, ml, { home: 1.8, away: 2.1 });
  await expect(page.getByTestId(`watch-row-${id}`)).toContainText('1.800');
  await page.keyboard.press('Escape');
  await page.keyboard.press('m');
  await expect(page.getByTestId('nav-movers')).toHaveAttribute('aria-current', 'page');
  await page.keyboard.press('1'); // rank by the 5-minute move
  await expect(page.getByTestId('movers-window-5')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('mover-side-0')).toHaveText('Away');
  await expect(page.getByTestId('mover-move-0')).toHaveText('▲ +11.5%');
  await expect(page.getByTestId('mover-side-1')).toHaveText('Home');
  await expect(page.getByTestId('mover-move-1')).toHaveText('▼ -9.8%');
  await page.keyboard.press('3');
  await expect(page.getByTestId('movers-window-60')).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('mover-row-1')).toHaveAttribute('aria-selected', 'true');
  await page.screenshot({ path: shot('movers.png') });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('nav-watchlist')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('event-detail')).toBeVisible();

  // The market is suspended before the start (that closes nothing), then the match goes live: 1.80 / 2.10, its last
  // price before kick-off, is the close. CLV (MPTO) = 2.00 / 1.852941 - 1 = +7.94%.
  sim.script.setMarket(id, ml, null);
  expect(sim.script.kickOff(id)).toBe(true);
  await page.keyboard.press('Escape');
  await page.keyboard.press('b');
  await expect(page.getByTestId('nav-bets')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('bets-count')).toHaveText('1');
  await expect(async () => {
    await page.keyboard.press('w');
    await page.keyboard.press('b');
    await expect(page.getByTestId('bet-clv')).toHaveText('+7.94%', { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByTestId('bets-avg-clv')).toHaveText('+7.94%');
  await expect(page.getByTestId('bets-stake')).toHaveText('50.00');
  await expect(page.getByTestId('bets-pnl')).toHaveText('0.00');
  await expect(page.getByTestId('bets-roi')).toHaveText('—');
  // 2: open bets (this one), 3: settled (none yet), 1: all again.
  await page.keyboard.press('2');
  await expect(page.getByTestId('bets-count')).toHaveText('1');
  await page.keyboard.press('3');
  await expect(page.getByTestId('bets-count')).toHaveText('0');
  await page.keyboard.press('1');
  await expect(page.getByTestId('bets-count')).toHaveText('1');
  await expect(page.getByTestId('bet-clv')).toHaveAttribute(
    'title',
    /LOG \+\d+\.\d\d% {2}EM \+7\.69% {2}MPTO \+7\.94% {2}SHIN \+7\.94% {2}OR \+\d+\.\d\d%/,
  );
  await page.screenshot({ path: shot('bets.png') });
  // X exports the same rows through the core's CSV writer: the file holds the header and this bet's figures.
  const download = page.waitForEvent('download');
  await page.keyboard.press('x');
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^oddsdesk-bets-\d{4}-\d\d-\d\d\.csv$/);
  const text = readFileSync((await file.path())!, 'utf8');
  expect(text.endsWith('\r\n')).toBe(true);
  const [header, ...rows] = parseCsv(text);
  expect(header).toEqual([...BET_CSV_HEADER]);
  expect(rows).toHaveLength(1);
  const bet = Object.fromEntries(header!.map((h, i) => [h, rows[0]![i]]));
  expect(bet).toMatchObject({
    event_id: String(id),
    line_id: String(ml),
    market: 'moneyline',
    period: '0',
    line: '',
    side: 'home',
    price: '2',
    stake: '50',
    // The last price before kick-off.
    closing_price: '1.8',
    // MPTO: 2.00 / 1.852941 - 1 = 7.93651% (to four places 7.9365). EM (proportional): 1/1.80 over 1/1.80 + 1/2.10
    // = 0.538462, fair 1.857143; 2.00 / 1.857143 - 1 = 7.6923%.
    clv_MPTO_pct: '7.9365',
    clv_EM_pct: '7.6923',
    // Open: no result, no P/L, nothing to settle by hand; the close is the real one.
    result: '',
    pnl: '',
    selection: 'Home',
    close_stale: 'false',
    result_by: '',
    settle_by_hand: '',
  });
  // SHIN shows +7.94% on screen; LOG and OR are numbers too (every model prices a two-way close).
  expect(Number(bet['clv_SHIN_pct'])).toBeCloseTo(7.94, 2);
  for (const m of ['LOG', 'OR'])
    expect(Number.isFinite(Number(bet[`clv_${m}_pct`])) && bet[`clv_${m}_pct`] !== '', m).toBe(true);
  // The bet in words: the match, the side, the full-match period as this sport's service names it.
  const teams = `${event.runner_home} v ${event.runner_away}`;
  expect(bet['bet']!.startsWith(`${teams} · Moneyline Home · `), bet['bet']).toBe(true);
  expect(bet['bet']!.length).toBeGreaterThan(`${teams} · Moneyline Home · `.length);
  expect(bet['placed_at_utc']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
  expect(bet['id']).toMatch(/^\d+$/);
});
