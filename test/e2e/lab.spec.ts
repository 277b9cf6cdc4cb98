// Issue 39 (browser mode): the Lab view shows the figures `cli report rules` prints for the same history file, and
// "Use this rule" makes the row's rule the drop rule in Settings, with an Undo. A demo history is recorded (`cli
// record` against the simulator at the demo's pace, an hour on manual clocks), the CLI prints its JSON, then the
// browser-mode host opens that file for its service (gone, so nothing new is written). Screenshots go to
// test-results/screenshots (lab.png, lab-light.png).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { formatDateTime, zoneLabel } from '../../src/shared/formats';
import { labInterval, labPct, labPerDay, labShare, type RuleLabResult } from '../../src/shared/ruleLab';
import { recordDemoHistory } from '../support/demoHistory';
import { E2E_TIME_ZONE } from '../support/e2eZone';
import { cli, root, startWebHost } from './helpers';

const KEY = 'e2e-lab-trader-key';
const shot = (name: string) => path.join(root, 'test-results', 'screenshots', name);

test('the Lab view shows the figures cli report rules prints, and "Use this rule" changes the drop rule', async ({
  page,
}) => {
  test.setTimeout(420_000); // the recording: 20 s on a quiet machine, minutes on a busy shared one
  const dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-lab-e2e-'));
  const db = path.join(dir, 'history.db');
  const { baseUrl } = await recordDemoHistory({ db });
  const [node, ...args] = cli('report', 'rules', '--db', db);
  const lab = JSON.parse(execFileSync(node!, args, { cwd: root, encoding: 'utf8' })) as RuleLabResult;
  expect(lab.rulesTried).toBe(20);

  const host = await startWebHost([...cli(), 'web', '--port', '0', '--base-url', baseUrl, '--db', db], {
    ODDSDESK_API_KEY: KEY,
  });
  try {
    await page.setViewportSize({ width: 1400, height: 1100 });
    await page.goto(host.url);
    await expect(page.getByTestId('status-bar')).toBeVisible();
    // From Alerts (its button), and from anywhere by its key (below).
    await page.keyboard.press('a');
    await page.getByTestId('alerts-open-lab').click();
    await expect(page.getByTestId('nav-lab')).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('lab-sentence')).toHaveText(lab.sentence);
    await expect(page.getByTestId('lab-split')).toContainText(`${lab.rulesTried} rules tried`);
    // The split's times in the trader's zone (the suite's half-hour zone), as every other time on the screen.
    await expect(page.getByTestId('lab-split')).toContainText(
      `from ${formatDateTime(lab.earlier.from, E2E_TIME_ZONE)} to ${formatDateTime(lab.splitAt, E2E_TIME_ZONE)}`,
    );
    await expect(page.getByTestId('lab-split')).toContainText(`times in ${zoneLabel(E2E_TIME_ZONE, lab.splitAt)}`);
    await expect(page.getByTestId('lab-chart')).toHaveAttribute('data-points', '10');
    for (let i = 0; i < lab.rules.length; i++) {
      const [e, l] = [lab.earlier.rules[i]!, lab.later.rules[i]!];
      await expect(page.getByTestId(`lab-row-${i}`)).toHaveAttribute('data-key', e.key);
      await expect(page.getByTestId(`lab-perday-${i}`)).toHaveText(labPerDay(e.perDay));
      await expect(page.getByTestId(`lab-clv-earlier-${i}`)).toHaveText(`${labPct(e.clv.mean)} (${e.clvAlerts})`);
      await expect(page.getByTestId(`lab-clv-later-${i}`)).toHaveText(`${labPct(l.clv.mean)} (${l.clvAlerts})`);
      await expect(page.getByTestId(`lab-beat-${i}`)).toHaveText(labShare(l.beatRate.mean));
      await expect(page.getByTestId(`lab-roi-${i}`)).toHaveText(labPct(l.roi.mean));
      const vs = l.vsCurrent;
      await expect(page.getByTestId(`lab-vs-${i}`)).toHaveText(
        vs ? `${labPct(vs.clv.mean)} (${labInterval(vs.clv)})${vs.significant ? ' significant' : ''}` : '—',
      );
    }
    await page.screenshot({ path: shot('lab.png'), fullPage: true });

    // "Use this rule" on the 10% rule in the 5-minute window: Settings' drop rule becomes it; Undo puts 5% / 15 back.
    const pick = lab.rules.findIndex((r) => r.dropPct === 10 && r.dropWindowMinutes === 5);
    await page.getByTestId(`lab-use-${pick}`).click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Drop rule is now Drop 10% in 5 min' })).toBeVisible();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press(',');
    await expect(page.getByTestId('drop-pct-default')).toHaveValue('10');
    await expect(page.getByTestId('drop-window-default')).toHaveValue('5');
    await page.getByTestId('toast-action').filter({ hasText: 'Undo' }).click();
    await expect(page.getByTestId('drop-pct-default')).toHaveValue('5');
    await expect(page.getByTestId('drop-window-default')).toHaveValue('15');

    // The light theme, for the README's second screenshot.
    await page.getByTestId('theme-select').selectOption('light');
    await page.keyboard.press('l');
    await expect(page.getByTestId('nav-lab')).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('lab-sentence')).toHaveText(lab.sentence);
    await page.screenshot({ path: shot('lab-light.png'), fullPage: true });
  } finally {
    await host.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
