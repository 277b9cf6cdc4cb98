// Screenshots of every view for docs/: `npx tsx scripts/screenshots.ts [--light] [--no-build] [--only models|report]`.
// It runs the real browser-mode host in demo mode (the built-in simulator), watches some fixtures and lets data
// flow for a while. The Models view needs settled lines with closes, which a fresh demo has none of: it is shot on a
// recorded demo history (an hour of `cli record` at the demo's pace), the host opening that file for its simulator.
// The Bets view and its Report tab need a bet log of some months: it is shot on one written through the store
// (test/support/ledgerHistory.ts), the host opening that file for a simulator with its clock stopped.
// Writes docs/screenshots/<view>.png (and <view>-light.png with --light); `--only models` shoots the Models and Lab views alone,
// `--only report` the Report tab alone.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import type { WebHost } from '../test/e2e/helpers';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'docs/screenshots');
const args = new Set(process.argv.slice(2));
const only = process.argv.includes('--only') ? (process.argv[process.argv.indexOf('--only') + 1] ?? '') : null;
const VIEWS: Array<[string, string]> = [
  ['watchlist', 'w'],
  ['movers', 'm'],
  ['specials', 's'],
  ['outrights', 'o'],
  ['settlements', 't'],
  ['alerts', 'a'],
  ['coverage', 'c'],
  ['settings', ','],
];

async function shoot(page: Page, suffix: string) {
  for (const [view, key] of VIEWS) {
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Escape');
    await page.keyboard.press(key);
    await page.waitForTimeout(view === 'watchlist' ? 1500 : 900);
    if (view === 'watchlist') {
      // The detail pane of the first row, with its charts.
      // Prefer a live row: its markets are priced, so the fair column and charts have something to show.
      const live = page
        .locator('[data-testid^="watch-row-"]')
        .filter({ has: page.locator('.badge.live'), hasNotText: 'off' });
      const first = (await live.count())
        ? live.nth(Math.min(2, (await live.count()) - 1))
        : page.locator('[data-testid^="watch-row-"]').first();
      if (await first.count()) {
        await first.click();
        await page.keyboard.press('Enter');
        await page.waitForTimeout(1500);
      }
    }
    if (view === 'specials') {
      const row = page.locator('.specials-grid tbody tr').first();
      if (await row.count()) {
        await row.click();
        await page.waitForTimeout(800);
      }
    }
    if (view === 'settlements') {
      const row = page.locator('[data-testid^="settlement-row-"]').first();
      if (await row.count()) {
        await row.click();
        await page.waitForTimeout(800);
      }
    }
    const file = path.join(outDir, `${view}${suffix}.png`);
    await page.screenshot({ path: file });
    console.log(`wrote ${path.relative(root, file)}`);
  }
  // The command palette over the watchlist, finding the first watched event's home team among watches and fixtures.
  await page.keyboard.press('w');
  const team =
    (await page
      .locator('[data-testid^="watch-row-"] .teams')
      .first()
      .textContent()
      .catch(() => null)) ?? '';
  await page.keyboard.press('Control+k');
  await page.keyboard.type(team.split(' ')[0]!.slice(0, 4).toLowerCase() || 'go to');
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(outDir, `palette${suffix}.png`) });
  console.log(`wrote docs/screenshots/palette${suffix}.png`);
  await page.keyboard.press('Escape');
}

/** A stopped (manual) service clock brought up to this machine's, so a host beside it reads no skew. */
async function clockToNow(sim: { now(): number; advance(seconds: number): Promise<unknown> }) {
  const behind = Math.floor((Date.now() - sim.now()) / 1000);
  if (behind > 0) await sim.advance(behind);
}

type StartWebHost = (command: string[], env?: Record<string, string>) => Promise<WebHost>;

/**
 * One view of the browser-mode host on the history file `db` (the service at `baseUrl` answers for it): `open` brings
 * the view up on the page, then it is shot as `name`.png (and `name`-light.png with --light).
 */
async function shootHistoryView(
  browser: Browser,
  startWebHost: StartWebHost,
  o: { db: string; baseUrl: string; key: string; name: string; open: (page: Page) => Promise<void> },
) {
  const host = await startWebHost(
    ['npx', 'tsx', 'src/cli/index.ts', 'web', '--port', '0', '--base-url', o.baseUrl, '--db', o.db],
    { ODDSDESK_API_KEY: o.key },
  );
  try {
    const page = await (
      await browser.newContext({ viewport: { width: 1600, height: 900 }, deviceScaleFactor: 1 })
    ).newPage();
    await page.goto(host.url);
    await page.getByTestId('status-bar').waitFor();
    for (const suffix of args.has('--light') ? ['', '-light'] : ['']) {
      if (suffix) {
        await page.keyboard.press(',');
        await page.getByTestId('theme-select').selectOption('light');
      }
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await o.open(page);
      await page.waitForTimeout(800);
      const file = path.join(outDir, `${o.name}${suffix}.png`);
      await page.screenshot({ path: file });
      console.log(`wrote ${path.relative(root, file)}`);
    }
  } finally {
    await host.stop();
  }
}

/** The Models and Lab views on a recorded demo history: its host serves the file for the (stopped-clock) simulator it came from. */
async function shootModels(browser: Browser, startWebHost: StartWebHost) {
  const { recordDemoHistory } = await import('../test/support/demoHistory');
  const db = path.join(mkdtempSync(path.join(tmpdir(), 'oddsdesk-shots-models-')), 'history.db');
  // The recording ends about now, so the service's clock beside this machine's reads as a sound one, not days behind.
  const startTime = new Date(Date.now() - 3_720_000).toISOString().slice(0, 19);
  const service = await recordDemoHistory({ db, keepServing: true, startTime });
  try {
    // The Models view, and the rule lab on the same history (issue 39).
    for (const v of [
      { name: 'models', key: 'd', table: 'models-table' },
      { name: 'lab', key: 'l', table: 'lab-table' },
    ]) {
      // The recording took some real time: the service's stopped clock brought up to this machine's.
      await clockToNow(service.sim);
      await shootHistoryView(browser, startWebHost, {
        db,
        baseUrl: service.baseUrl,
        key: service.key,
        name: v.name,
        open: async (page) => {
          await page.keyboard.press(v.key);
          await page.getByTestId(v.table).waitFor();
        },
      });
    }
  } finally {
    await service.close();
  }
}

/** The Bets view and its Report tab on a bet log of three months, written through the store; a simulator stands as its service. */
async function shootReport(browser: Browser, startWebHost: StartWebHost) {
  const { seedLedgerHistory } = await import('../test/support/ledgerHistory');
  const { startSimulator } = await import('../src/sim');
  const db = path.join(mkdtempSync(path.join(tmpdir(), 'oddsdesk-shots-report-')), 'ledger.db');
  seedLedgerHistory({ db });
  const key = 'screenshots-report-key';
  // Its stopped clock at this machine's now (the bet log runs up to now), so the status bar reads a sound service clock.
  const sim = await startSimulator({
    port: 0,
    seed: 27,
    clock: 'manual',
    startTime: new Date().toISOString().slice(0, 19),
    keys: [{ key, plan: 'enterprise' }],
  });
  try {
    // The bet log itself (its first tab), then its Report tab (key 4).
    for (const v of [
      { name: 'bets', tab: '1', shown: '[data-testid^="bet-row-"]' },
      { name: 'bets-report', tab: '4', shown: '[data-testid="report-breakdowns"]' },
    ]) {
      await clockToNow(sim);
      await shootHistoryView(browser, startWebHost, {
        db,
        baseUrl: sim.url,
        key,
        name: v.name,
        open: async (page) => {
          await page.keyboard.press('b');
          await page.keyboard.press(v.tab);
          await page.locator(v.shown).first().waitFor();
        },
      });
    }
  } finally {
    await sim.close();
  }
}

async function main() {
  // The e2e helpers are written for Playwright's CommonJS loader and read __dirname; give them one under tsx (ESM).
  (globalThis as { __dirname?: string }).__dirname = path.join(root, 'test/e2e');
  const { startWebHost } = await import('../test/e2e/helpers');
  mkdirSync(outDir, { recursive: true });
  if (!args.has('--no-build')) {
    const b = spawnSync('npx', ['vite', 'build', '--config', 'vite.web.config.ts', '--logLevel', 'error'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (b.status !== 0) throw new Error('renderer build failed');
  }
  const browser = await chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  let host: WebHost | undefined;
  try {
    if (only !== null) {
      if (only === 'models') await shootModels(browser, startWebHost);
      else if (only === 'report') await shootReport(browser, startWebHost);
      else throw new Error(`--only takes models or report, not "${only}"`);
      return;
    }
    const context = await browser.newContext({ viewport: { width: 1600, height: 900 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    // A fresh database, so the demo (built-in simulator) starts clean and nothing of the user's is touched.
    const db = path.join(mkdtempSync(path.join(tmpdir(), 'oddsdesk-shots-')), 'shots.db');
    host = await startWebHost(['npx', 'tsx', 'src/cli/index.ts', 'web', '--port', '0', '--db', db]);
    await page.goto(host.url);
    await page.getByTestId('status-bar').waitFor();
    // Watch a handful of fixtures so the grid has rows, then let the odds move.
    await page.getByTestId('open-fixtures').click();
    await page.getByTestId('fixture-live-only').check();
    const adds = page.locator('[data-testid^="fixture-add-"]:not([disabled])');
    await adds.first().waitFor();
    for (let i = 0; i < 12 && (await adds.count()) > 0; i++) await adds.first().click();
    await page.getByTestId('fixture-live-only').uncheck();
    for (let i = 0; i < 4 && (await adds.count()) > 0; i++) await adds.first().click();
    await page.keyboard.press('Escape');
    await page.waitForTimeout(12000);
    await shoot(page, '');
    if (args.has('--light')) {
      await page.evaluate(() => {
        document.documentElement.dataset['theme'] = 'light';
      });
      await page.keyboard.press(',');
      await page.getByTestId('theme-select').selectOption('light');
      // The light shots also show the trader's own odds format and clock: American odds, New York time (the status
      // bar names the zone; the dark shots are decimal in this computer's zone).
      await page.getByTestId('odds-format-select').selectOption('american');
      await page.getByTestId('time-zone-select').selectOption('America/New_York');
      await page.waitForTimeout(500);
      await shoot(page, '-light');
    }
    await shootModels(browser, startWebHost);
    await shootReport(browser, startWebHost);
  } finally {
    await host?.stop();
    await browser.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
