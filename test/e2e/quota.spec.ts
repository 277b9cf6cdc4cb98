// Issue 17, must show 4: the status bar's quota tooltip, opened by hover or keyboard focus, splits this hour's
// requests by purpose, and the split agrees with what the upstream itself logged for the app's key; it also says
// where the limit comes from. The Coverage view shows the same split. Real core (browser-mode host) and real
// simulator on its manual clock.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { startSimulator, type Simulator } from '../../src/sim';
import { cli, startWebHost } from './helpers';

const KEY = 'e2e-quota-trader-key';
const PEEK_KEY = 'e2e-quota-peek-key';

/**
 * What each path is spent on when only one purpose can use it. The settled walk, look-ups and on-screen requests
 * share paths (the walk reads /api/sports for its per-sport pages; a trader's click may read /api/results), so they
 * are compared as one sum.
 */
const OTHER = 'settled+results+lookup+ui';
const PURPOSE_OF_PATH: Record<string, string> = {
  '/api/settlement': 'repair',
  '/api/specials/opening': 'specials',
  '/api/specials/fixtures': 'specials',
  '/api/specials/history': 'specials',
  '/api/specials/outright-markets': 'specials',
  '/api/stream/event': 'stream',
};

const test = base.extend<{ open: (o?: { rateLimitHeaders?: boolean }) => Promise<Simulator> }>({
  open: async ({ page }, use) => {
    const cleanup: Array<() => Promise<void>> = [];
    await use(async (o = {}) => {
      const sim = await startSimulator({
        port: 0,
        seed: 11,
        clock: 'manual',
        rateLimitHeaders: o.rateLimitHeaders ?? true,
        keys: [
          { key: KEY, plan: 'enterprise' },
          { key: PEEK_KEY, plan: 'enterprise' },
        ],
      });
      cleanup.push(() => sim.close());
      const dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-quota-'));
      cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
      const host = await startWebHost(
        [...cli(), 'web', '--port', '0', '--base-url', sim.url, '--db', path.join(dir, 'quota.db')],
        { ODDSDESK_API_KEY: KEY },
      );
      cleanup.push(() => host.stop());
      await page.goto(host.url);
      await expect(page.getByTestId('status-bar')).toBeVisible();
      return sim;
    });
    for (const stop of cleanup.reverse()) await stop().catch(() => undefined);
  },
});

/** The app's requests by purpose as the simulator logged them (the app's key only; /api/status needs none). */
function upstreamSplit(sim: Simulator, appKeyIds: Set<string>): Record<string, number> {
  const split: Record<string, number> = {};
  for (const r of sim.requestLog()) {
    if (r.keyId === null || !appKeyIds.has(r.keyId)) continue;
    const p = PURPOSE_OF_PATH[r.path] ?? OTHER;
    split[p] = (split[p] ?? 0) + 1;
  }
  return split;
}

/** The split the tooltip shows, the shared-path purposes summed as in `upstreamSplit`. */
async function shownSplit(page: Page): Promise<Record<string, number>> {
  const split: Record<string, number> = {};
  for (const row of await page.getByTestId('quota-split').locator('tr').all()) {
    const purpose = (await row.getAttribute('data-purpose'))!;
    const count = Number((await row.locator('td.num').textContent())!.replace(/,/g, ''));
    const p =
      purpose === 'settled' || purpose === 'results' || purpose === 'lookup' || purpose === 'ui' ? OTHER : purpose;
    split[p] = (split[p] ?? 0) + count;
  }
  return split;
}

async function watchFirstUpcoming(page: Page, sim: Simulator): Promise<number> {
  const res = await fetch(new URL('/api/fixtures', sim.url), { headers: { 'X-API-Key': PEEK_KEY } });
  const fixtures = (await res.json()) as Array<{ event_id: number; live_status: number; starts: string }>;
  const f = fixtures.find((x) => x.live_status !== 1 && Date.parse(`${x.starts}Z`) - sim.now() > 3_600_000)!;
  const input = page.getByTestId('add-watch-input');
  await input.fill(String(f.event_id));
  await page.getByTestId('add-watch-button').click();
  await expect(page.getByTestId(`watch-row-${f.event_id}`)).toBeVisible();
  await input.blur();
  return f.event_id;
}

test('the quota tooltip splits the hour by purpose as the upstream counted it, and names the headers as source', async ({
  page,
  open,
}) => {
  const sim = await open();
  await watchFirstUpcoming(page, sim);
  const bar = page.getByTestId('status-bar');
  await expect(bar.getByTestId('status-streams')).toHaveText('stream 1/1 live');
  // The app's key is the one that opened the stream (the test's own key only ever looks at the fixtures).
  const appKeyIds = new Set(
    sim
      .requestLog()
      .filter((r) => r.path === '/api/stream/event')
      .map((r) => r.keyId!),
  );
  expect(appKeyIds.size).toBe(1);

  const quota = bar.getByTestId('status-quota');
  await quota.hover();
  const tooltip = page.getByTestId('quota-tooltip');
  await expect(tooltip).toBeVisible();
  await expect(tooltip.getByTestId('quota-source')).toHaveText('limit 100,000 an hour, as the service states it');
  const norm = (split: Record<string, number>) =>
    JSON.stringify(
      Object.entries(split)
        .filter(([, n]) => n > 0)
        .sort(),
    );
  await expect
    .poll(async () => {
      const [shown, upstream] = [norm(await shownSplit(page)), norm(upstreamSplit(sim, appKeyIds))];
      return shown === upstream ? 'agree' : `shown ${shown} vs upstream ${upstream}`;
    })
    .toBe('agree');
  const shown = await shownSplit(page);
  expect(shown['stream']).toBe(1);
  // The walk's own pages are at least every /api/settled request the upstream saw.
  // The tooltip learns of a page with the next status push (up to 250 ms later): counted again until it has.
  const settledPages = () =>
    sim.requestLog().filter((r) => r.path === '/api/settled' && appKeyIds.has(r.keyId!)).length;
  expect(settledPages()).toBeGreaterThanOrEqual(1);
  await expect
    .poll(async () => {
      const [shown, upstream] = [
        Number(await tooltip.getByTestId('quota-purpose-settled').textContent()),
        settledPages(),
      ];
      return shown >= upstream ? 'at least' : `shown ${shown} < upstream ${upstream}`;
    })
    .toBe('at least');
  await expect(tooltip).toContainText('checking for settlements');
  await expect(tooltip).toContainText('price streams opened');

  // Leaving closes it; the keyboard opens it too.
  await page.mouse.move(5, 5);
  await expect(tooltip).toHaveCount(0);
  await quota.focus();
  await expect(tooltip).toBeVisible();
  await expect(quota).toHaveAttribute('aria-describedby', 'quota-tooltip');
  await page.keyboard.press('Escape');
  await expect(tooltip).toHaveCount(0);

  // The Coverage view lists every purpose, zeros included, with the same counts.
  await page.keyboard.press('c');
  await expect(page.getByTestId('coverage-requests')).toBeVisible();
  await expect(page.getByTestId('coverage-requests-stream')).toHaveText('1');
  await expect(page.getByTestId('coverage-requests-repair')).toHaveText('0');
  await expect
    .poll(
      async () =>
        Number((await page.getByTestId('coverage-requests-specials').textContent())!.replace(/,/g, '')) ===
        (upstreamSplit(sim, appKeyIds)['specials'] ?? 0),
    )
    .toBe(true);
});

test('without rate-limit headers the tooltip says the limit is the setting', async ({ page, open }) => {
  await open({ rateLimitHeaders: false });
  const quota = page.getByTestId('status-bar').getByTestId('status-quota');
  await expect(quota).toHaveText(/^quota [1-9]\d*\/1,000 this hour/);
  await quota.focus();
  await expect(page.getByTestId('quota-tooltip').getByTestId('quota-source')).toHaveText(
    'limit 1,000 an hour, from your setting (Settings › Hourly quota)',
  );
  await expect(page.getByTestId('quota-tooltip').getByTestId('quota-purpose-settled')).toHaveText(/^[1-9]\d*$/);
});
