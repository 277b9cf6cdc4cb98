// Issue 34, classes 2 and 3, must-show, in Chromium at 1280x720 and 1920x1080.
// 1. Ghosts after a restart: the demo host started again on the same data folder is a new world (another seed, as
//    the demo takes one from the clock). Its events never take an id the demo profile remembers: a watched row keeps
//    its own match, and the fixtures picker never shows that id with other teams.
// 2. A finished match never reads "Suspended": from the moment the stream says play is over (a `score` with
//    live_status 0), the row reads "Full time, settling", until its settlement makes it FT.
import { expect, test, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simulatorAndHost } from './fixtures';
import { cli, startWebHost, type WebHost } from './helpers';
import type { Simulator } from '../../src/sim';

const KEY = 'e2e-demo-restart-key';

/** The watched rows on screen: id, and the match the row names. */
async function watchedRows(page: Page): Promise<Array<{ id: number; home: string; away: string }>> {
  return page.locator('[data-testid^="watch-row-"]').evaluateAll((els) =>
    els.map((e) => ({
      id: Number(e.getAttribute('data-testid')!.replace('watch-row-', '')),
      home: e.querySelector('.teams .home')?.textContent ?? '',
      away: e.querySelector('.teams .away')?.textContent ?? '',
    })),
  );
}

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
]) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });

    test('a restarted demo host never shows one id with two matches', async ({ page }) => {
      test.setTimeout(180_000);
      const dataDir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-demo-restart-'));
      let host: WebHost | undefined;
      try {
        const start = (seed: string) =>
          startWebHost(cli('web', '--port', '0'), {
            ODDSDESK_DATA_DIR: dataDir,
            ODDSDESK_TEST_DEMO_PACE: '60',
            ODDSDESK_TEST_DEMO_SEED: seed,
          });
        host = await start('3401');
        await page.goto(host.url);
        const rows = page.locator('[data-testid^="watch-row-"]');
        await expect(rows).toHaveCount(4);
        await expect(rows.locator('.teams .away')).toHaveCount(4);
        const before = await watchedRows(page);
        expect(before.every((r) => r.home && r.away)).toBe(true);
        await host.stop();

        // The same data folder, another world.
        host = await start('3402');
        await page.goto(host.url);
        await expect(rows).toHaveCount(4);
        await expect(page.getByTestId('status-streams')).toBeVisible();
        // Each watched id still names its own match, now and after the new world's streams had their say.
        for (let i = 0; i < 3; i++) {
          expect(await watchedRows(page)).toEqual(before);
          await page.waitForTimeout(1000);
        }
        // The new world's fixtures: no id a watched row shows names another match.
        await page.getByTestId('open-fixtures').click();
        await expect(page.getByTestId('fixture-picker')).toBeVisible();
        await expect(page.locator('[data-testid^="fixture-row-"]').first()).toBeVisible();
        for (const r of before) {
          await page.getByTestId('fixture-filter').fill(String(r.id));
          const fixture = page.getByTestId(`fixture-row-${r.id}`);
          if ((await fixture.count()) > 0) await expect(fixture).toContainText(`${r.home} v ${r.away}`);
        }
        // And the watched rows of matches this world does not have say so in words, with no LIVE badge.
        await page.getByRole('button', { name: 'Close fixtures' }).click();
        for (const r of before) {
          const row = page.getByTestId(`watch-row-${r.id}`);
          await expect(row.getByTestId(`no-price-${r.id}`)).toHaveText('Gone from the service');
          await expect(row.locator('.badge.live')).toHaveCount(0);
        }
      } finally {
        await host?.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });

  test.describe(`a finished match at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });
    const withSim = test.extend<{ sim: Simulator }>({
      sim: simulatorAndHost({ key: KEY, name: 'full-time', viewport, sim: { seed: 34 } }),
    });

    withSim('never reads "Suspended" from the moment the stream says it is over', async ({ page, sim }) => {
      test.setTimeout(180_000);
      // The live match offered in play that started first: the soonest to finish.
      const live = sim.truth
        .bookIds()
        .map((id) => sim.truth.event(id)!)
        .filter((e) => e.live_status === 1 && e.markets.some((m) => m.prices !== null))
        .sort((a, b) => a.starts.localeCompare(b.starts));
      const ev = live[0]!;
      let overAt: number | null = null;
      sim.onStreamMessage((eventId, message) => {
        if (eventId !== ev.event_id || message.event !== 'score' || overAt !== null) return;
        if ((JSON.parse(message.data) as { live_status: number }).live_status === 0) overAt = sim.now();
      });
      await page.getByTestId('add-watch-input').fill(String(ev.event_id));
      await page.getByTestId('add-watch-button').click();
      const row = page.getByTestId(`watch-row-${ev.event_id}`);
      await expect(row).toBeVisible();

      for (let i = 0; i < 300 && overAt === null; i++) await sim.advance(30);
      expect(overAt, 'the match ended within the test').not.toBeNull();
      // The stream said it: the row says so at once (no more clock), and never "Suspended" until it is settled.
      const words = row.getByTestId(`no-price-${ev.event_id}`);
      await expect(words).toHaveText('Full time, settling');
      await expect(row.locator('.badge.live')).toHaveCount(0);
      for (let i = 0; i < 100; i++) {
        const text = await words.textContent();
        expect(['Full time, settling', 'Ended · settled']).toContain(text);
        if (text === 'Ended · settled') break;
        await sim.advance(15);
        await page.waitForTimeout(100);
      }
    });
  });
}
