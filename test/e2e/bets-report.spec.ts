// Issue 27, part 1 (browser mode, the simulator on the manual clock): the Bets view's Report tab. Two bets on one
// match's moneyline (home 2.00 for 50, away 1.90 for 30), recorded from the event detail; the line moves and closes at
// kick-off; the match is played out and the bets settle. The Report tab (key 4) then shows the Bets view's own totals
// (count, stake, P/L, ROI, average CLV), each bet's side with its P/L and CLV, both charts in both themes; a range of
// days that holds no bet empties it; the table's CSV download holds the breakdown rows and a chart saves as a PNG.
// Screenshots go to test-results/screenshots (bets-report.png, bets-report-light.png); the committed one in
// docs/screenshots comes from scripts/screenshots.ts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { LEDGER_CSV_HEADER } from '../../src/shared/ledger';
import { startSimulator } from '../../src/sim';
import { twoWayMatch, walkSettledEvery } from './fixtures';
import { cli, root, startWebHost } from './helpers';
import { parseCsv } from '../support/csv';

const KEY = 'e2e-bets-report-key';
const shot = (name: string) => path.join(root, 'test-results', 'screenshots', name);

async function recordBet(page: Page, side: 'home' | 'away', price: string, stake: string) {
  await page.keyboard.press('r');
  await expect(page.getByTestId('record-bet')).toBeVisible();
  await page.getByTestId('record-bet-side').selectOption(side);
  await expect(page.getByTestId('record-bet-price')).toHaveValue(price);
  await page.getByTestId('record-bet-stake').fill(stake);
  await page.getByTestId('record-bet-stake').press('Enter');
}

test('the Report tab shows the Bets view’s totals, the bets by side with their CLV, both charts; its CSV holds the breakdowns', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const sim = await startSimulator({ port: 0, seed: 4, clock: 'manual', keys: [{ key: KEY, plan: 'enterprise' }] });
  const dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-report-e2e-'));
  const host = await startWebHost(
    [...cli(), 'web', '--port', '0', '--base-url', sim.url, '--db', path.join(dir, 'report.db')],
    { ODDSDESK_API_KEY: KEY },
  );
  try {
    await page.setViewportSize({ width: 1500, height: 1000 });
    await page.goto(host.url);
    await expect(page.getByTestId('status-bar')).toBeVisible();
    // Settlements walked every 10 s, so the played-out match settles the bets soon.
    await walkSettledEvery(page, 10);

    // A match hours before its start with a two-way moneyline.
    const event = twoWayMatch(sim);
    const id = event.event_id;
    const ml = id * 10;
    sim.script.setMarket(id, ml, { home: 2.0, away: 1.9 });
    const input = page.getByTestId('add-watch-input');
    await input.fill(String(id));
    await page.getByTestId('add-watch-button').click();
    await expect(page.getByTestId(`watch-row-${id}`)).toContainText('2.000');
    await input.blur();
    await page.getByTestId(`watch-row-${id}`).click();
    await expect(page.getByTestId('event-detail')).toBeVisible();
    await recordBet(page, 'home', '2', '50');
    await expect(page.getByText('Bet recorded: Home at 2.000 for 50.00')).toBeVisible();
    await recordBet(page, 'away', '1.9', '30');
    await expect(page.getByText('Bet recorded: Away at 1.900 for 30.00')).toBeVisible();

    // The line moves to 1.80 / 2.10 and the match kicks off: the close. Fair under MPTO (p = 1/o - margin/2):
    // home 1.852941, away 2.172414. CLV: home 2.00 / 1.852941 - 1 = +7.94%; away 1.90 / 2.172414 - 1 = -12.54%.
    sim.script.setMarket(id, ml, { home: 1.8, away: 2.1 });
    await expect(page.getByTestId(`watch-row-${id}`)).toContainText('1.800');
    expect(sim.script.kickOff(id)).toBe(true);

    // Played out and settled: one side won, the other lost.
    for (let i = 0; i < 300 && !sim.truth.settled().some((s) => s.event_id === id); i++) await sim.advance(600);
    const settled = sim.truth.settled().find((s) => s.event_id === id)!;
    expect(settled, 'the match settled').toBeDefined();
    const line = settled.settlement.find((l) => l.line_id === ml)!;
    const pnl = { home: line.outcome_home === 'win' ? 50 : -50, away: line.outcome_away === 'win' ? 27 : -30 };
    const money = (n: number) => `${n > 0 ? '+' : ''}${n.toFixed(2)}`;
    await page.keyboard.press('Escape');
    await expect(async () => {
      await page.keyboard.press('w');
      await page.keyboard.press('b');
      await expect(page.getByTestId('bets-pnl')).toHaveText(money(pnl.home + pnl.away), { timeout: 1000 });
    }).toPass({ timeout: 60_000 });

    // The Bets view's totals, as it shows them.
    const totals = {
      count: await page.getByTestId('bets-count').textContent(),
      stake: await page.getByTestId('bets-stake').textContent(),
      pnl: await page.getByTestId('bets-pnl').textContent(),
      roi: await page.getByTestId('bets-roi').textContent(),
      clv: await page.getByTestId('bets-avg-clv').textContent(),
    };
    expect(totals).toEqual({
      count: '2',
      stake: '80.00',
      pnl: money(pnl.home + pnl.away),
      roi: `${money(((pnl.home + pnl.away) / 80) * 100)}%`,
      clv: '-2.30%',
    });

    // The Report tab: the same totals; CLV counted for both (a real close of their own line), one of two beat it.
    await page.keyboard.press('4');
    await expect(page.getByTestId('bets-tab-report')).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('report-count')).toHaveText(totals.count!);
    await expect(page.getByTestId('report-stake')).toHaveText(totals.stake!);
    await expect(page.getByTestId('report-pnl')).toHaveText(totals.pnl!);
    await expect(page.getByTestId('report-roi')).toHaveText(totals.roi!);
    await expect(page.getByTestId('report-avg-clv')).toHaveText(totals.clv!);
    await expect(page.getByTestId('report-beat')).toHaveText('50.0% (1 of 2)');
    // Expected value: 50 x 7.9365% - 30 x 12.5397% = 3.97 - 3.76 = +0.21.
    await expect(page.getByTestId('report-ev')).toHaveText('+0.21');
    await expect(page.getByTestId('report-row-side-home-pnl')).toHaveText(money(pnl.home));
    await expect(page.getByTestId('report-row-side-home-clv')).toHaveText('+7.94%');
    await expect(page.getByTestId('report-row-side-away-pnl')).toHaveText(money(pnl.away));
    await expect(page.getByTestId('report-row-side-away-clv')).toHaveText('-12.54%');
    await expect(page.getByTestId('report-row-market-moneyline-bets')).toHaveText('2');
    // 2.00 is in the band from 2.00, 1.90 in the one below it.
    await expect(page.getByTestId('report-row-oddsBand-2')).toContainText('2.000 to 2.500');
    await expect(page.getByTestId('report-row-oddsBand-1')).toContainText('1.500 to 2.000');
    await expect(page.getByTestId('report-chart').locator('canvas')).toHaveCount(1);
    await expect(page.getByTestId('report-histogram').locator('canvas')).toHaveCount(1);
    await expect(page.getByTestId('report-histogram')).toHaveAttribute('data-theme', 'dark');
    await page.screenshot({ path: shot('bets-report.png'), fullPage: true });

    // The table as CSV: the total, the breakdowns (the sides' P/L), a row per model.
    let download = page.waitForEvent('download');
    await page.getByTestId('report-export-csv').click();
    let file = await download;
    expect(file.suggestedFilename()).toMatch(/^oddsdesk-bets-report-\d{4}-\d\d-\d\d\.csv$/);
    const [header, ...rows] = parseCsv(readFileSync((await file.path())!, 'utf8'));
    expect(header).toEqual([...LEDGER_CSV_HEADER]);
    const row = (dimension: string, group: string) => {
      const r = rows.find((x) => x[0] === dimension && x[1] === group);
      expect(r, `${dimension} ${group} in ${JSON.stringify(rows)}`).toBeDefined();
      return Object.fromEntries(header!.map((h, i) => [h, r![i]]));
    };
    expect(row('all', 'All bets')).toMatchObject({
      bets: '2',
      settled: '2',
      stake: '80',
      pnl: String(pnl.home + pnl.away),
      clv_model: 'MPTO',
      clv_bets: '2',
      beat_close: '1',
    });
    expect(row('side', 'Home')).toMatchObject({ bets: '1', pnl: String(pnl.home), avg_clv_pct: '7.9365' });
    expect(row('side', 'Away')).toMatchObject({ bets: '1', pnl: String(pnl.away), avg_clv_pct: '-12.5397' });
    expect(row('market', 'Moneyline')).toMatchObject({ bets: '2' });
    expect(row('oddsBand', '2.000 to 2.500')).toMatchObject({
      bets: '1',
      odds_from: '2',
      odds_to: '2.5',
      odds_format: 'decimal',
    });
    expect(rows.filter((r) => r[0] === 'model').map((r) => r[1])).toEqual(['LOG', 'EM', 'MPTO', 'SHIN', 'OR']);
    expect(rows.filter((r) => r[0] === 'sport')).toHaveLength(1);

    // The P/L chart as a PNG.
    download = page.waitForEvent('download');
    await page.getByTestId('report-chart-png').click();
    file = await download;
    expect(file.suggestedFilename()).toMatch(/^oddsdesk-bets-pnl-ev-\d{4}-\d\d-\d\d\.png$/);
    expect(readFileSync((await file.path())!).subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    await file.saveAs(shot('bets-report-pnl-ev.png'));

    // A range with no bet in it.
    await page.getByTestId('report-to').fill('2000-01-01');
    await expect(page.getByTestId('report-count')).toHaveText('0');
    await expect(page.getByText('No bets placed in this range.')).toBeVisible();
    await page.getByTestId('report-to').fill('');
    await page.getByTestId('report-to').blur();
    await expect(page.getByTestId('report-count')).toHaveText('2');

    // The light theme: the charts are drawn again in its colours.
    await page.keyboard.press(',');
    await page.getByTestId('theme-select').selectOption('light');
    await page.getByTestId('theme-select').blur();
    await page.keyboard.press('b');
    await page.keyboard.press('4');
    await expect(page.getByTestId('report-histogram')).toHaveAttribute('data-theme', 'light');
    await page.screenshot({ path: shot('bets-report-light.png'), fullPage: true });
  } finally {
    await host.stop();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
