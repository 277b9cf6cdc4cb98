// Issue 34, class 5 (layouts), must-show: at 1280x720 and 1920x1080, in the dark and the light theme, no cell of a
// main view that carries a price, a name or a score is cut: for each, `scrollWidth <= clientWidth`. The views: the
// watchlist grid with the detail closed and open (the detail's score header and market rows too), specials,
// outrights, settlements (with a settlement explained), alerts, top movers, bets and the bets report, models, the
// rule lab, coverage. A view that is wider than its pane scrolls its own table sideways (the view itself never), with the first
// column kept in sight.
//
// The data is real and made to be long: a history recorded from the simulator at the demo's pace (so Models has
// scores), a bet log over the simulator's leagues, and a browser-mode host on that history; it watches the longest
// names in the book, a "Pro Basketball League" match played on to a 3-digit score, and a match with specials; a max
// stake cut raises a MAX STAKE alert.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import type { EventOdds } from '../../src/shared/api';
import type { Simulator } from '../../src/sim';
import { recordDemoHistory } from '../support/demoHistory';
import { seedLedgerHistory } from '../support/ledgerHistory';
import { cli, root, startWebHost, type WebHost } from './helpers';

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
] as const;
const THEMES = ['dark', 'light'] as const;
const shot = (name: string) => path.join(root, 'test-results', 'screenshots', name);

/**
 * The cells measured: every table cell and header, every cell of a virtualised grid's row, and what a view marks
 * `data-fit` (a name or a score inside a cell: a team's name in the grid, the detail's score and title).
 */
const FIT = 'td, th, [role="row"] > .cell, [role="row"] > .th, [data-fit]';

interface World {
  sim: Simulator;
  host: WebHost;
  /** A basketball match in the Pro Basketball League, live, at a 3-digit score. */
  basketball: EventOdds;
  /** The longest names in the book. */
  longest: EventOdds;
  /** A match with specials. */
  specials: EventOdds;
}

const test = base.extend<object, { world: World }>({
  world: [
    async ({ browser }, use) => {
      const dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-no-cut-'));
      const db = path.join(dir, 'history.db');
      const rec = await recordDemoHistory({ db, seconds: 1800, watch: 30, keepServing: true });
      const sim = rec.sim;
      seedLedgerHistory({ db, bets: 60, days: 30 });
      const host = await startWebHost([...cli(), 'web', '--port', '0', '--base-url', rec.baseUrl, '--db', db], {
        ODDSDESK_API_KEY: rec.key,
      });
      const book = () => sim.truth.bookIds().map((id) => sim.truth.event(id)!);

      // A live basketball match of the long league, played on until a side has 100 points.
      let basketball: EventOdds | undefined;
      for (let i = 0; i < 200 && !basketball; i++) {
        basketball = book().find(
          (e) =>
            e.league_name === 'Pro Basketball League' &&
            e.live_status === 1 &&
            Math.max(e.score_home ?? 0, e.score_away ?? 0) >= 100,
        );
        if (!basketball) await sim.advance(30);
      }
      expect(basketball, 'a Pro Basketball League match at a 3-digit score').toBeDefined();
      const named = book().filter((e) => e.event_id !== basketball!.event_id && e.markets.some((m) => m.prices));
      const longest = [...named].sort(
        (a, b) => b.runner_home.length + b.runner_away.length - (a.runner_home.length + a.runner_away.length),
      )[0]!;
      let specials: EventOdds | undefined;
      for (const e of named.filter((x) => x.sport_id === 1 && x.live_status !== 1)) {
        const res = await fetch(new URL(`/api/specials/fixtures?event_id=${e.event_id}`, sim.url), {
          headers: { 'X-API-Key': rec.key },
        });
        if (res.ok && ((await res.json()) as unknown[]).length > 0) {
          specials = e;
          break;
        }
      }
      expect(specials, 'a match with specials').toBeDefined();

      const page = await browser.newPage();
      await page.goto(host.url);
      for (const e of [basketball!, longest, specials!]) {
        await page.getByTestId('add-watch-input').fill(String(e.event_id));
        await page.getByTestId('add-watch-button').click();
        await expect(page.getByTestId(`watch-row-${e.event_id}`)).toBeVisible();
      }
      // A cut of the basketball match's max stake: a MAX STAKE alert.
      const ml = basketball!.markets.find((m) => m.market === 'moneyline' && m.period === 0 && m.prices)!;
      sim.script.setMarket(basketball!.event_id, ml.line_id, ml.prices, Math.round(ml.max_win / 3));
      await page.getByTestId('nav-alerts').click();
      await expect(page.locator('[data-testid="alert-row"][data-kind="max_win"]').first()).toBeVisible({
        timeout: 30_000,
      });
      await page.close();

      await use({ sim, host, basketball: basketball!, longest, specials: specials! });
      await host.stop();
      await rec.close();
      rmSync(dir, { recursive: true, force: true });
    },
    { scope: 'worker', timeout: 600_000 },
  ],
});

interface Cut {
  text: string;
  scroll: number;
  client: number;
}

/**
 * Every cell in the main view and the detail pane that shows something: how many, and those whose content is wider
 * than the cell. Also whether the view itself runs off its pane sideways (a wide table scrolls in its own box).
 */
async function measure(page: Page): Promise<{ cells: number; cut: Cut[]; viewOverflow: string | null }> {
  return page.evaluate((selector) => {
    const cut: Cut[] = [];
    let cells = 0;
    for (const root of document.querySelectorAll('.main .view, .detail')) {
      for (const el of root.querySelectorAll<HTMLElement>(selector)) {
        if (el.getClientRects().length === 0 || !el.textContent?.trim()) continue;
        cells++;
        if (el.scrollWidth > el.clientWidth)
          cut.push({ text: el.textContent.trim().slice(0, 60), scroll: el.scrollWidth, client: el.clientWidth });
      }
    }
    const view = document.querySelector<HTMLElement>('.main .view');
    const viewOverflow =
      view && view.scrollWidth > view.clientWidth
        ? `${view.scrollWidth} px of content in a ${view.clientWidth} px view`
        : null;
    return { cells, cut, viewOverflow };
  }, FIT);
}

/** Nothing cut in what is on screen now, and something measured. */
async function expectNothingCut(page: Page, where: string, minCells = 3) {
  const m = await measure(page);
  expect.soft(m.cells, `${where}: cells with content measured`).toBeGreaterThanOrEqual(minCells);
  expect.soft(m.cut, `${where}: cells cut`).toEqual([]);
  expect.soft(m.viewOverflow, `${where}: the view runs off its pane sideways`).toBeNull();
}

async function nav(page: Page, view: string) {
  await page.getByTestId(`nav-${view}`).click();
  await expect(page.getByTestId(`nav-${view}`)).toHaveAttribute('aria-current', 'page');
}

for (const size of SIZES) {
  for (const theme of THEMES) {
    test(`at ${size.width}x${size.height}, ${theme}: no name, price or score of a main view is cut`, async ({
      page,
      world,
    }) => {
      test.setTimeout(180_000);
      await page.setViewportSize(size);
      await page.goto(world.host.url);
      await nav(page, 'settings');
      await page.getByTestId('theme-select').selectOption(theme);
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      const tag = `${size.width}-${theme}`;

      // The watchlist: every watched match (the recorded ones and three more), names, leagues, scores, prices.
      await nav(page, 'watchlist');
      const b = world.basketball.event_id;
      await expect(page.locator('[data-testid^="watch-row-"]').nth(20)).toBeVisible();
      await expect(
        page
          .locator(`[data-testid="watch-row-${world.longest.event_id}"], [data-testid="watch-row-${b}"]`)
          .locator('.price:not(.empty)')
          .first(),
      ).toBeAttached();
      await expectNothingCut(page, `the watchlist at ${tag}`, 100);
      await page.screenshot({ path: shot(`no-cut-watchlist-${tag}.png`) });

      // The basketball match, found by its name: the long league and the 3-digit score.
      const filter = page.getByTestId('watch-filter');
      await filter.fill(world.basketball.runner_home);
      await expect(page.getByTestId(`score-${b}`)).toHaveText(/\d{3}/);
      // The league column is one of the default set at 1920 (at 1280 it is left out when it does not fit beside the rest).
      if (size.width >= 1920)
        await expect(page.getByTestId('watch-grid')).toHaveAttribute('data-columns', /\bleague\b/);
      if ((await page.getByTestId('watch-grid').getAttribute('data-columns'))!.includes('league'))
        await expect(page.getByTestId(`watch-row-${b}`)).toContainText('Pro Basketball League');
      await expectNothingCut(page, `the basketball match in the watchlist at ${tag}`, 5);

      // The detail open on it: the grid beside it and the pane, its score header whole; then every row again.
      await page.getByTestId(`watch-row-${b}`).dblclick();
      await expect(page.getByTestId('detail-score')).toHaveText(/\d{3}/);
      await expectNothingCut(page, `the watchlist with the detail at ${tag}`, 20);
      await filter.fill('');
      await expect(page.locator('[data-testid^="watch-row-"]').nth(20)).toBeVisible();
      await expect(page.getByTestId(`score-${b}`)).toHaveText(/\d{3}/);
      await expectNothingCut(page, `every row with the detail at ${tag}`, 100);
      await page.screenshot({ path: shot(`no-cut-detail-${tag}.png`) });
      await page.getByTestId('detail-close').click();
      await expect(page.getByTestId('event-detail')).toHaveCount(0);

      await nav(page, 'specials');
      await page.getByTestId('specials-event-select').selectOption(String(world.specials.event_id));
      await expect(page.locator('[data-testid^="special-"] tbody tr').first()).toBeVisible({ timeout: 20_000 });
      await expectNothingCut(page, `the specials at ${tag}`, 20);
      await page.screenshot({ path: shot(`no-cut-specials-${tag}.png`) });

      await nav(page, 'outrights');
      await expect(page.locator('[data-testid^="outright-"] td').first()).toBeVisible({ timeout: 20_000 });
      await expectNothingCut(page, `the outrights at ${tag}`);

      await nav(page, 'settlements');
      const settled = page.locator('[data-testid^="settlement-row-"]');
      await expect(settled.first()).toBeVisible({ timeout: 20_000 });
      await expectNothingCut(page, `the settlements at ${tag}`, 20);
      await settled.first().click();
      await expect(page.getByTestId('settlement-detail')).toBeVisible();
      await expectNothingCut(page, `the settlements with one explained at ${tag}`, 20);

      await nav(page, 'alerts');
      await expect(page.locator('[data-testid="alert-row"][data-kind="max_win"]').first()).toBeVisible();
      await expectNothingCut(page, `the alerts at ${tag}`);
      await page.screenshot({ path: shot(`no-cut-alerts-${tag}.png`) });

      await nav(page, 'movers');
      await expect(page.locator('[data-testid="movers-table"] tbody tr').first()).toBeVisible({ timeout: 20_000 });
      await expectNothingCut(page, `the top movers at ${tag}`);

      await nav(page, 'bets');
      await expect(page.locator('[data-testid^="bet-row-"]').first()).toBeVisible();
      await expectNothingCut(page, `the bets at ${tag}`, 20);
      await page.getByTestId('bets-tab-report').click();
      await expect(page.getByTestId('report-breakdowns')).toBeVisible({ timeout: 30_000 });
      await expectNothingCut(page, `the bets report at ${tag}`, 20);

      await nav(page, 'models');
      await expect(page.getByTestId('models-table')).toBeVisible({ timeout: 60_000 });
      await expectNothingCut(page, `the models at ${tag}`, 20);

      // The rule lab on the same history: its rules in words, its figures, its chart's axes.
      await nav(page, 'lab');
      await expect(page.locator('[data-testid="lab-table"] tbody tr').first()).toBeVisible({ timeout: 60_000 });
      await expectNothingCut(page, `the rule lab at ${tag}`, 20);
      await page.screenshot({ path: shot(`no-cut-lab-${tag}.png`) });

      await nav(page, 'coverage');
      await expect(page.locator('[data-testid="coverage-table"] tbody tr').first()).toBeVisible({ timeout: 20_000 });
      await expectNothingCut(page, `the coverage at ${tag}`);
    });
  }
}
