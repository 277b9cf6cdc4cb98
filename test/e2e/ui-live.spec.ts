// Issue 8, must-show 1: the whole app in Chromium through browser mode against the simulator. Add a watch; see odds
// change live; open the event detail; see a max_win alert; see a settlement alert (and its browser notification) and
// find the match in Settlements; stop the simulator and still browse and filter cached settlements; change the
// de-vig model and see the fair prices change. The simulator runs on the manual clock in this process: the test
// moves the world until what it waits for has happened upstream, then waits for the screen to show it (the host
// runs on its own clock, its settled walk every 10 s), never for a stretch of real time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startSimulator } from '../../src/sim';
import { cli, startWebHost, type WebHost } from './helpers';
import { recordNotifications } from './recordNotifications';

const KEY = 'e2e-ui-live-enterprise';

async function setNumber(page: Page, testId: string, value: number) {
  const input = page.getByTestId(testId);
  await input.fill(String(value));
  await input.press('Enter');
  await input.blur();
}

test('must-show: live watch, detail, max_win and settlement alerts, offline settlements, de-vig model', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const sim = await startSimulator({ port: 0, seed: 11, clock: 'manual', keys: [{ key: KEY, plan: 'enterprise' }] });
  /** Moves the world `stepS` simulated seconds at a time until `done` holds (bounded); returns whether it did. */
  const advanceUntil = async (
    done: () => boolean | Promise<boolean>,
    stepS: number,
    maxSteps: number,
  ): Promise<boolean> => {
    for (let i = 0; i < maxSteps; i++) {
      if (await done()) return true;
      await sim.advance(stepS);
    }
    return done();
  };
  const dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-ui-live-'));
  let host: WebHost | undefined;
  let simOpen = true;
  try {
    host = await startWebHost(
      [...cli(), 'web', '--port', '0', '--base-url', sim.url, '--db', path.join(dir, 'ui.db')],
      {
        ODDSDESK_API_KEY: KEY,
      },
    );
    await page.addInitScript(recordNotifications);
    await page.goto(host.url);
    await expect(page.getByTestId('status-bar')).toBeVisible();
    await expect(page.getByTestId('watch-empty')).toBeVisible();

    // Settings first: alert on any max_win move, walk /api/settled often.
    await page.keyboard.press(',');
    await setNumber(page, 'threshold-input', 1);
    await setNumber(page, 'settled-every-input', 10);
    await page.getByTestId('devig-model-select').selectOption('EM');
    await page.keyboard.press('w');

    // Add watches from the fixtures: the live events that started first (they settle soonest), and one upcoming
    // event whose prices stay up for the de-vig check at the end.
    await page.getByTestId('open-fixtures').click();
    await page.getByTestId('fixture-live-only').check();
    const liveAdds = page.locator('[data-testid^="fixture-add-"]:not([disabled])');
    await expect(liveAdds.first()).toBeVisible();
    const liveIds: number[] = [];
    for (let i = 0; i < 4 && (await liveAdds.count()) > 0; i++) {
      const id = Number((await liveAdds.first().getAttribute('data-testid'))!.replace('fixture-add-', ''));
      await liveAdds.first().click();
      await expect(page.getByTestId(`watch-row-${id}`)).toBeVisible();
      liveIds.push(id);
    }
    await page.getByTestId('fixture-live-only').uncheck();
    const rows = page.locator('[data-testid^="fixture-row-"]');
    await expect(rows.first()).toBeVisible();
    // The fixtures are sorted by start: the bottom of the list starts last.
    const pickerList = page.getByTestId('fixture-picker').locator('.picker-list');
    // The list is virtual: its last rows exist once the scroll has been seen (a frame or two later).
    await pickerList.evaluate(
      (el) =>
        new Promise(
          (done) => (el.scrollTo(0, el.scrollHeight), requestAnimationFrame(() => requestAnimationFrame(done))),
        ),
    );
    const upcomingRow = rows
      .filter({ hasNot: page.locator('.badge.live') })
      .filter({ has: page.locator('button:not([disabled])') })
      .last();
    const upcomingId = Number((await upcomingRow.getAttribute('data-testid'))!.replace('fixture-row-', ''));
    await page.getByTestId(`fixture-add-${upcomingId}`).click();
    await expect(page.getByTestId(`fixture-add-${upcomingId}`)).toHaveText('Watched');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('fixture-picker')).toHaveCount(0);
    await expect(page.getByTestId(`watch-row-${upcomingId}`)).toBeVisible();
    await expect(page.getByTestId('watch-count')).toHaveText(`${liveIds.length + 1} events`);

    // Odds change live: the world moves until some price cell of a watched event shows a move (each step is a round
    // trip to the page, so the screen keeps up with the world). The upcoming event counts: the live ones started first
    // and are near their ends, where the lines still offered are as good as decided (the moneyline 1.01) and stand.
    const moved = page.locator(
      [...liveIds, upcomingId].map((id) => `[data-testid^="price-${id}-"][data-dir]`).join(', '),
    );
    expect(await advanceUntil(async () => (await moved.count()) > 0, 5, 600), 'a watched price moved on screen').toBe(
      true,
    );
    await expect(moved.first()).toBeVisible();
    await expect(moved.first()).toContainText(/[▲▼]/);
    await expect(page.getByTestId('status-streams')).toContainText(/stream \d+\/\d+ live/);

    // Event detail of a live event: markets with fair %.
    await page.getByTestId(`watch-row-${liveIds[0]}`).click();
    await page.keyboard.press('Enter');
    const detail = page.getByTestId('event-detail');
    await expect(detail).toBeVisible();
    await expect(detail.locator('[data-testid^="fair-"]').first()).toHaveText(/^\d+\.\d%$/, { timeout: 30_000 });

    // A max_win alert, then a settlement alert of a watched event.
    await page.keyboard.press('a');
    const maxWinAlert = page.locator('[data-testid="alert-row"][data-kind="max_win"]').first();
    expect(await advanceUntil(async () => (await maxWinAlert.count()) > 0, 15, 800), 'a max_win alert on screen').toBe(
      true,
    );
    await expect(maxWinAlert).toBeVisible();
    // The world moves on until a watched match has settled upstream; the host's walk finds it within its 10 s.
    const watchedSettled = () =>
      sim.truth.settled().some((x) => liveIds.includes(x.event_id) || x.event_id === upcomingId);
    expect(await advanceUntil(watchedSettled, 60, 24 * 60), 'a watched match settled upstream').toBe(true);
    const settledAlert = page.locator('[data-testid="alert-row"][data-kind="settled"]').first();
    await expect(settledAlert).toBeVisible({ timeout: 60_000 });
    // One read of the row: another settlement may become the first row between two.
    const [settledAttr, message] = await settledAlert.evaluate((el) => [
      el.getAttribute('data-event-id') ?? '',
      el.querySelector('.msg')?.getAttribute('title') ?? '',
    ]);
    const settledId = Number(settledAttr);
    const watchedIds = [...liveIds, upcomingId];
    expect(watchedIds).toContain(settledId);
    const match = /^Settled: (.+) v (.+) \d+–\d+/.exec(message)!;
    expect(match).not.toBeNull();
    const notes = await page.evaluate(() => (window as unknown as { __notes: Array<{ title: string }> }).__notes);
    expect(notes.some((n) => n.title.startsWith(`Settled: ${match[1]} v ${match[2]}`))).toBe(true);

    // Find the match in Settlements.
    await page.keyboard.press('t');
    await page.getByTestId('settlement-team-filter').fill(match[1]!);
    await expect(page.getByTestId(`settlement-row-${settledId}`)).toBeVisible();
    await expect(page.getByTestId(`settlement-row-${settledId}`)).toContainText(`${match[1]} v ${match[2]}`);

    // Stop the simulator: the cache still answers, filters still work.
    await sim.close();
    simOpen = false;
    await page.getByTestId('settlement-team-filter').fill('');
    await page.reload();
    await page.keyboard.press('t');
    const list = page.locator('[data-testid^="settlement-row-"]');
    await expect(list.first()).toBeVisible();
    const all = await list.count();
    expect(all).toBeGreaterThan(1);
    await page.getByTestId('settlement-team-filter').fill(match[2]!);
    await expect
      .poll(async () => (await list.allInnerTexts()).every((text) => text.includes(match[2]!)), {
        message: 'every row shows the team',
      })
      .toBe(true);
    await expect(page.getByTestId(`settlement-row-${settledId}`)).toBeVisible();
    await page.getByTestId(`settlement-row-${settledId}`).click();
    await expect(page.getByTestId('settlement-detail')).toContainText(`${match[1]} v ${match[2]}`);
    await expect(page.locator('[data-testid="settlement-detail"] .oc').first()).toHaveText(/^[WLP]$/);

    // De-vig model: with the service gone the prices are frozen, so any change of the fair column is the model's.
    // Any watched event that still has prices (settled ones have left the book).
    await page.keyboard.press('w');
    const fair = page.getByTestId('event-detail').locator('[data-testid^="fair-"]');
    let priced = false;
    for (const id of [upcomingId, ...liveIds].filter((x) => x !== settledId)) {
      await page.getByTestId(`watch-row-${id}`).click();
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('event-detail')).toBeVisible();
      priced = await expect(fair.first())
        .toHaveText(/^\d+\.\d%$/, { timeout: 5_000 })
        .then(() => true)
        .catch(() => false);
      if (priced) break;
    }
    expect(priced, 'a watched event with prices').toBe(true);
    const underEm = (await fair.allInnerTexts()).join(' ');
    await page.keyboard.press(',');
    await page.getByTestId('devig-model-select').selectOption('MPTO');
    await page.keyboard.press('w');
    await expect.poll(async () => (await fair.allInnerTexts()).join(' ')).not.toBe(underEm);
    await page.keyboard.press(',');
    await page.getByTestId('devig-model-select').selectOption('EM');
    await page.keyboard.press('w');
    await expect.poll(async () => (await fair.allInnerTexts()).join(' ')).toBe(underEm);
  } finally {
    await host?.stop();
    if (simOpen) await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
