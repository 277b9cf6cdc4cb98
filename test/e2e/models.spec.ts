// Issue 27, part 2 (browser mode): the Models view shows the same scoreboard `cli report models` prints for the same
// history file. A demo history is recorded (`cli record` against the simulator at the demo's pace, an hour on manual
// clocks), the CLI prints its JSON, then the browser-mode host opens that file for its service, which is gone (so
// nothing new is written) and the view's figures are compared with the CLI's: every model's log loss and Brier score with their
// intervals, the lines behind them, the sentence, the breakdowns by sport and market, a reliability plot per model
// with its bins, what was left out; in both themes. Screenshots go to test-results/screenshots (models.png,
// models-light.png); the committed ones in docs/screenshots come from scripts/screenshots.ts.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { DEVIG_MODELS } from '../../src/shared/api';
import { formatScore, type ModelScoreboard, type ScoreInterval } from '../../src/shared/scoreboard';
import { recordDemoHistory } from '../support/demoHistory';
import { cli, root, startWebHost } from './helpers';

const KEY = 'e2e-models-trader-key';
const shot = (name: string) => path.join(root, 'test-results', 'screenshots', name);
const interval = (i: ScoreInterval) =>
  i.low === null || i.high === null ? '—' : `${formatScore(i.low)} – ${formatScore(i.high)}`;
const count = (n: number) => n.toLocaleString('en-US');

test('the Models view shows the figures cli report models prints for the same history', async ({ page }) => {
  test.setTimeout(420_000); // the recording: 20 s on a quiet machine, minutes on a busy shared one
  const dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-models-e2e-'));
  const db = path.join(dir, 'history.db');
  // The file is the history of the simulator it was recorded from, which is gone: the host opens it for that service.
  const { baseUrl } = await recordDemoHistory({ db });
  const [node, ...args] = cli('report', 'models', '--db', db);
  const board = JSON.parse(execFileSync(node!, args, { cwd: root, encoding: 'utf8' })) as ModelScoreboard;
  expect(board.all.lines).toBeGreaterThan(50);

  const host = await startWebHost([...cli(), 'web', '--port', '0', '--base-url', baseUrl, '--db', db], {
    ODDSDESK_API_KEY: KEY,
  });
  try {
    await page.setViewportSize({ width: 1400, height: 1000 });
    await page.goto(host.url);
    await expect(page.getByTestId('status-bar')).toBeVisible();
    await page.keyboard.press('d');
    await expect(page.getByTestId('nav-models')).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('models-sentence')).toHaveText(board.sentence);

    // The headline table: every model's scores and intervals, as the CLI printed them, and the lines behind them.
    for (const m of board.all.models) {
      await expect(page.getByTestId(`models-logloss-${m.model}`)).toHaveText(formatScore(m.logLoss.mean));
      await expect(page.getByTestId(`models-logloss-ci-${m.model}`)).toHaveText(interval(m.logLoss));
      await expect(page.getByTestId(`models-brier-${m.model}`)).toHaveText(formatScore(m.brier.mean));
      await expect(page.getByTestId(`models-brier-ci-${m.model}`)).toHaveText(interval(m.brier));
    }
    await expect(page.getByTestId(`models-row-${board.all.leader}`)).toContainText('★');
    await expect(page.getByTestId('models-lines')).toContainText(
      `${count(board.all.lines)} lines from ${count(board.all.matches)} matches`,
    );
    for (const [k, n] of Object.entries(board.excluded))
      await expect(page.getByTestId(`models-excluded-${k}`)).toHaveAttribute('data-count', String(n));

    // A reliability plot per model, with as many bins as the CLI's table.
    for (const r of board.reliability) {
      const plot = page.getByTestId(`reliability-${r.model}`);
      await expect(plot).toHaveAttribute('data-bins', String(r.bins.length));
      await expect(plot.locator('canvas')).toHaveCount(1);
    }

    // The breakdowns: lines, leader and every model's log loss per sport and per market.
    for (const [testId, groups] of [
      ['models-by-sport', board.bySport],
      ['models-by-market', board.byMarket],
    ] as const) {
      for (const g of groups) {
        await expect(page.getByTestId(`${testId}-${g.key}-lines`)).toHaveText(count(g.lines));
        await expect(page.getByTestId(`${testId}-${g.key}-leader`)).toHaveText(g.leader ?? '—');
        for (const m of g.models)
          await expect(page.getByTestId(`${testId}-${g.key}-${m.model}`)).toHaveText(formatScore(m.logLoss.mean));
      }
    }
    await page.screenshot({ path: shot('models.png'), fullPage: true });

    // One sport: the figures the CLI prints for --sport.
    const sport = board.bySport[0]!;
    const [n2, ...a2] = cli('report', 'models', '--db', db, '--sport', sport.key);
    const one = JSON.parse(execFileSync(n2!, a2, { cwd: root, encoding: 'utf8' })) as ModelScoreboard;
    await page.getByTestId('models-sport').selectOption(sport.key);
    await expect(page.getByTestId('models-sentence')).toHaveText(one.sentence);
    for (const model of DEVIG_MODELS) {
      const m = one.all.models.find((x) => x.model === model)!;
      await expect(page.getByTestId(`models-logloss-${model}`)).toHaveText(formatScore(m.logLoss.mean));
      await expect(page.getByTestId(`models-brier-ci-${model}`)).toHaveText(interval(m.brier));
    }

    // "Kick-off since" starts at midnight in the trader's zone (issue 35, class 5), as every day filter does. The
    // history's matches kicked off on 22 Nov between 12:00 and 13:00 UTC, which is 23 Nov (02:00-03:00) at UTC+14:
    // there, "since 2026-11-23" keeps every line; "since 2026-11-24" none. (A UTC midnight kept none on the 23rd.)
    await page.getByTestId('models-sport').selectOption('');
    await expect(page.getByTestId('models-sentence')).toHaveText(board.sentence);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press(',');
    await page.getByTestId('time-zone-select').selectOption('Pacific/Kiritimati');
    await page.keyboard.press('d');
    const lines = `${count(board.all.lines)} lines from ${count(board.all.matches)} matches`;
    await page.getByTestId('models-since').fill('2026-11-23');
    await expect(page.getByTestId('models-lines')).toContainText(lines);
    await page.getByTestId('models-since').fill('2026-11-24');
    await expect(page.getByTestId('models-lines')).toHaveCount(0);
    await page.getByTestId('models-since').fill('');
    await expect(page.getByTestId('models-lines')).toContainText(lines);

    // The light theme: the plots are drawn again in its colours.
    await expect(page.getByTestId('models-sentence')).toHaveText(board.sentence);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press(',');
    await page.getByTestId('theme-select').selectOption('light');
    await page.keyboard.press('d');
    await expect(page.getByTestId(`reliability-${board.all.leader}`)).toHaveAttribute('data-theme', 'light');
    await page.screenshot({ path: shot('models-light.png'), fullPage: true });
  } finally {
    await host.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
