// Issue 15, must-show 3, in Chromium through browser mode: with "all settlements" chosen, the settlement of a match
// nobody watches alerts and notifies in words; clicking the notification opens that settlement with its lines in
// words and its period results; with the simulator stopped, the Settlements view still filters by sport name and
// shows set and game labels. The simulator runs on the manual clock in this process; the host on its own clock.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { SettledEvent } from '../../src/shared/api';
import { settlementTitle } from '../../src/core/monitor/alertRules';
import { labelPeriod, periodNames, tennisGamePeriod } from '../../src/shared/periods';
import { settledLineText } from '../../src/shared/trading';
import { startSimulator, type Simulator } from '../../src/sim';
import { PERIODS, SPORTS } from '../../src/sim/catalog';
import { cli, startWebHost, type WebHost } from './helpers';

const KEY = 'e2e-settlements-explained-key';
const TENNIS = SPORTS.find((s) => s.name === 'Tennis')!;

/** Records Web Notifications (permission granted) and keeps them, so the test can click one as a trader would. */
function recordNotifications() {
  const notes: Array<{ title: string; body: string; onclick: (() => void) | null }> = [];
  (window as unknown as { __notes: typeof notes }).__notes = notes;
  class RecordingNotification {
    static permission = 'granted';
    static requestPermission = async () => 'granted';
    onclick: (() => void) | null = null;
    title: string;
    body: string;
    constructor(title: string, options?: { body?: string }) {
      this.title = title;
      this.body = options?.body ?? '';
      notes.push(this);
    }
    close() {}
  }
  (window as unknown as { Notification: unknown }).Notification = RecordingNotification;
}

const notes = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { __notes: Array<{ title: string; body: string }> }).__notes.map((n) => ({
      title: n.title,
      body: n.body,
    })),
  );

test('all settlements alert; a notification click explains one; offline the view filters by sport and labels games', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const cleanup: Array<() => Promise<void>> = [];
  try {
    const sim: Simulator = await startSimulator({
      port: 0,
      seed: 8,
      clock: 'manual',
      historyHours: 3,
      keys: [{ key: KEY, plan: 'enterprise' }],
    });
    let simOpen = true;
    cleanup.push(async () => void (simOpen && (await sim.close())));
    const dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-explained-'));
    cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
    const host: WebHost = await startWebHost(
      [...cli(), 'web', '--port', '0', '--base-url', sim.url, '--db', path.join(dir, 'ui.db')],
      {
        ODDSDESK_API_KEY: KEY,
      },
    );
    cleanup.push(() => host.stop());
    await page.addInitScript(recordNotifications);
    await page.goto(host.url);
    await expect(page.getByTestId('status-bar')).toBeVisible();

    // Settings: every settlement alerts; the settled walk runs every 10 s.
    await page.keyboard.press(',');
    await page.getByTestId('settlement-alerts-scope').selectOption('all');
    const every = page.getByTestId('settled-every-input');
    await every.fill('10');
    await every.press('Enter');
    await every.blur();
    await page.keyboard.press('a');

    // The world moves on until a tennis match settles that nobody watches (the watchlist is empty).
    const known = new Set(sim.truth.settled().map((s) => s.event_id));
    let fresh: SettledEvent | undefined;
    for (let i = 0; i < 24 * 60 && !fresh; i++) {
      await sim.advance(60);
      fresh = sim.truth.settled().find((s) => !known.has(s.event_id) && s.sport_id === TENNIS.id);
    }
    expect(fresh, 'a tennis match settled').toBeDefined();
    const s = fresh!;
    const alert = page.locator(`[data-testid="alert-row"][data-kind="settled"][data-event-id="${s.event_id}"]`);
    await expect(alert).toBeVisible({ timeout: 60_000 });

    // The notification names the event, the score and each line in words.
    const names = periodNames(PERIODS);
    const words = s.settlement.map((l) =>
      settledLineText(l, { sport: 'Tennis', names, score: { home: s.score_home, away: s.score_away } }),
    );
    const title = settlementTitle(s);
    await expect
      .poll(async () => (await notes(page)).find((n) => n.title === title)?.body ?? null, { timeout: 15_000 })
      .toBe(words.join('\n'));
    expect(words.join('\n')).not.toMatch(/\b[HDA] [WLP]\b|\(p\d+\)/);

    // Clicking it opens the settlement: its lines in words and its period results.
    await page.evaluate((t) => {
      const n = (window as unknown as { __notes: Array<{ title: string; onclick: (() => void) | null }> }).__notes.find(
        (x) => x.title === t,
      )!;
      n.onclick?.();
    }, title);
    await expect(page.getByTestId('nav-settlements')).toHaveAttribute('aria-current', 'page');
    const detail = page.getByTestId('settlement-detail');
    await expect(detail).toContainText(`${s.runner_home} v ${s.runner_away}`);
    for (const [i, l] of s.settlement.entries())
      await expect(detail.getByTestId(`settled-words-${l.line_id}`)).toHaveText(words[i]!);
    const firstGame = tennisGamePeriod(1, 1);
    await expect(detail.getByTestId(`period-result-${firstGame}`)).toContainText('Set 1 Game 1', { timeout: 30_000 });
    // Period 1 in tennis's own word: "1st Set" of the service's one list for every sport ("1st Half / 1st Set").
    await expect(detail.getByTestId('period-result-1')).toContainText(labelPeriod('Tennis', 1, names));
    expect(labelPeriod('Tennis', 1, names)).toBe('1st Set');

    // The service goes away: the cached review still filters by sport name and labels sets and games.
    await sim.close();
    simOpen = false;
    await page.reload();
    await page.keyboard.press('t');
    const sportFilter = page.getByTestId('settlement-sport-filter');
    await expect(sportFilter.locator('option').filter({ hasText: /^Tennis$/ })).toHaveCount(1);
    await sportFilter.selectOption({ label: 'Tennis' });
    // Until the filter's rows are in, the list shows the last ones as stale (busy), never as the filter's answer.
    await expect(page.getByTestId('settlement-grid')).toHaveAttribute('aria-busy', 'false');
    const rows = page.locator('[data-testid^="settlement-row-"]');
    await expect(rows.first()).toBeVisible();
    const tennisIds = new Set(
      sim.truth
        .settled()
        .filter((x) => x.sport_id === TENNIS.id)
        .map((x) => x.event_id),
    );
    const shown = () =>
      rows.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-testid')!.replace('settlement-row-', ''))));
    await expect.poll(async () => (await shown()).filter((id) => !tennisIds.has(id))).toEqual([]);
    expect((await shown()).length).toBeGreaterThan(0);
    // The sport's name comes from the stored sports list, which the page may still be reading: wait for it per row.
    for (let i = 0; i < (await rows.count()); i++) await expect(rows.nth(i)).toContainText(/(^|[^ ])Tennis/);
    await page.getByTestId(`settlement-row-${s.event_id}`).click();
    await expect(page.getByTestId('settlement-detail').getByTestId(`period-result-${firstGame}`)).toContainText(
      'Set 1 Game 1',
    );
    await expect(
      page.getByTestId('settlement-detail').getByTestId(`settled-words-${s.settlement[0]!.line_id}`),
    ).toHaveText(words[0]!);
  } finally {
    for (const stop of cleanup.reverse()) await stop().catch(() => undefined);
  }
});
