// The renderer against the real core (browser-mode host) and the real simulator, one fresh world, host and database
// per test: keyboard, live price flashes, event detail with locally computed fair prices, settlements review, alerts
// and muting, states (key rejected, plan restricted, demo), palette, status bar. The simulator runs on the manual
// clock inside this process, so every tick, threshold crossing and settlement happens when a test advances it, and
// every expectation is computed from what the simulator served (its truth accessors and /api/fixtures).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base, expect } from '@playwright/test';
import type { DevigModel, EventOdds, Market, Plan, SettledEvent } from '../../src/shared/api';
import { devig } from '../../src/shared/devig';
import { periodNames, sportHasDraws } from '../../src/shared/periods';
import { lineLabel } from '../../src/core/monitor/oddsPipeline';
import { PERIODS, SPORTS } from '../../src/sim/catalog';
import { marketSides, settleSide } from '../../src/shared/trading';
import { startSimulator, type Simulator } from '../../src/sim';
import { watchById } from './fixtures';
import { cli, seededDemo, startWebHost, type WebHost } from './helpers';

const KEY = 'e2e-ui-trader-key';
/** A second key for the test's own look at /api/fixtures, so the app's quota and request log stay its own. */
const PEEK_KEY = 'e2e-ui-peek-key';

interface Fixture {
  event_id: number;
  sport_name: string;
  runner_home: string;
  runner_away: string;
  starts: string;
  live_status: number;
}

interface App {
  sim: Simulator;
  host: WebHost;
  /** The upstream's fixtures as it serves them now. */
  fixtures(): Promise<Fixture[]>;
  /** Simulated hours from now to a fixture's start. */
  hoursToStart(f: Fixture): number;
}

interface AppOptions {
  plan?: Plan;
  seed?: number;
  historyHours?: number;
  quotaPerHour?: number;
  /** No service and no key: the host starts its built-in demo simulator. */
  demo?: boolean;
}

const test = base.extend<{ open: (options?: AppOptions) => Promise<App> }>({
  open: async ({ page }, use) => {
    const cleanup: Array<() => Promise<void>> = [];
    await use(async (o = {}) => {
      const sim = await startSimulator({
        port: 0,
        seed: o.seed ?? 4,
        clock: 'manual',
        historyHours: o.historyHours ?? 3,
        ...(o.quotaPerHour ? { quotaPerHour: o.quotaPerHour } : {}),
        keys: [
          { key: KEY, plan: o.plan ?? 'enterprise' },
          { key: PEEK_KEY, plan: 'enterprise' },
        ],
      });
      cleanup.push(() => sim.close());
      const dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-ui-'));
      cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
      const service = o.demo ? [] : ['--base-url', sim.url];
      // The CLI bundle under plain node: no TypeScript compiled again in every host.
      const host = await startWebHost(
        [...cli(), 'web', '--port', '0', ...service, '--db', path.join(dir, 'ui.db')],
        o.demo ? seededDemo(33) : { ODDSDESK_API_KEY: KEY },
      );
      cleanup.push(() => host.stop());
      await page.goto(host.url);
      await expect(page.getByTestId('status-bar')).toBeVisible();
      return {
        sim,
        host,
        async fixtures() {
          const res = await fetch(new URL('/api/fixtures', sim.url), { headers: { 'X-API-Key': PEEK_KEY } });
          expect(res.status).toBe(200);
          return (await res.json()) as Fixture[];
        },
        hoursToStart: (f) => (Date.parse(`${f.starts}Z`) - sim.now()) / 3_600_000,
      };
    });
    for (const stop of cleanup.reverse()) await stop().catch(() => undefined);
  },
});

const truthOf = (sim: Simulator, eventId: number): EventOdds => {
  const ev = sim.truth.event(eventId);
  if (!ev) throw new Error(`event ${eventId} is not in the book`);
  return ev;
};
const moneyline = (ev: EventOdds): Market => ev.markets.find((m) => m.market === 'moneyline')!;

/** Upcoming events with every main market priced, not starting for `minHours`. */
async function upcoming(app: App, minHours: number): Promise<Fixture[]> {
  return (await app.fixtures()).filter(
    (f) =>
      f.live_status !== 1 &&
      app.hoursToStart(f) > minHours &&
      truthOf(app.sim, f.event_id).markets.every((m) => m.prices !== null),
  );
}

test('letter keys switch views, but not while typing in a text field', async ({ page, open }) => {
  const app = await open();
  const [f] = await upcoming(app, 1);
  await watchById(page, f!.event_id);
  for (const [key, view] of [
    ['t', 'settlements'],
    ['a', 'alerts'],
    ['s', 'specials'],
    ['o', 'outrights'],
    ['c', 'coverage'],
    [',', 'settings'],
    ['w', 'watchlist'],
  ] as const) {
    await page.keyboard.press(key);
    await expect(page.getByTestId(`nav-${view}`)).toHaveAttribute('aria-current', 'page');
  }
  await page.keyboard.press('/');
  await expect(page.getByTestId('watch-filter')).toBeFocused();
  await page.keyboard.type('ta');
  await expect(page.getByTestId('nav-watchlist')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('watch-filter')).toHaveValue('ta');
});

test('a price tick flashes the one cell with an arrow that stays after the flash', async ({ page, open }) => {
  // Wide enough for every price column beside the detail (at 1280 px the default columns beside it are the moneyline's).
  await page.setViewportSize({ width: 1600, height: 900 });
  const app = await open();
  const [f] = await upcoming(app, 2);
  const id = f!.event_id;
  await watchById(page, id);

  // The row's price cells (moneyline, spread, totals), each with the price the simulator holds for it.
  const row = page.getByTestId(`watch-row-${id}`);
  const cellsOf = (ev: EventOdds) =>
    ev.markets
      .filter((m) => m.market === 'moneyline' || m.market === 'spread' || m.market === 'totals')
      .flatMap((m) =>
        Object.entries(m.prices!).map(([side, price]) => ({ testId: `price-${id}-${m.line_id}-${side}`, price })),
      );
  let truth = new Map(cellsOf(truthOf(app.sim, id)).map((c) => [c.testId, c.price]));
  const dirs = new Map<string, 'up' | 'down'>();
  const expected = () =>
    Object.fromEntries(
      [...truth].map(([t, p]) => [
        t,
        {
          dir: dirs.get(t) ?? null,
          text: `${dirs.get(t) === 'up' ? '▲' : dirs.get(t) === 'down' ? '▼' : ''}${p.toFixed(3)}`,
        },
      ]),
    );
  const shown = () =>
    row.evaluate(
      (el, ids) =>
        Object.fromEntries(
          ids.map((t) => {
            const c = el.querySelector(`[data-testid="${t}"]`);
            return [t, { dir: c?.getAttribute('data-dir') ?? null, text: c?.textContent ?? null }];
          }),
        ),
      [...truth.keys()],
    );
  await expect.poll(shown).toEqual(expected());

  // Every class, direction and text the watched cell goes through, as the DOM changes.
  const target = `price-${id}-${moneyline(truthOf(app.sim, id)).line_id}-home`;
  await page.evaluate(
    ([t, row]) => {
      const seen: Array<{ at: number; flash: boolean; dir: string | null; text: string | null }> = [];
      (window as unknown as { __seen: typeof seen }).__seen = seen;
      const look = () => {
        const c = document.querySelector(`[data-testid="${row}"] [data-testid="${t}"]`);
        const s = {
          at: performance.now(),
          flash: !!c?.classList.contains('flash'),
          dir: c?.getAttribute('data-dir') ?? null,
          text: c?.textContent ?? null,
        };
        const last = seen[seen.length - 1];
        if (!last || last.flash !== s.flash || last.dir !== s.dir || last.text !== s.text) seen.push(s);
      };
      look();
      new MutationObserver(look).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        characterData: true,
      });
    },
    [target, `watch-row-${id}`] as const,
  );
  const seen = () =>
    page.evaluate(
      () =>
        (
          window as unknown as {
            __seen: Array<{ at: number; flash: boolean; dir: string | null; text: string | null }>;
          }
        ).__seen,
    );

  /** Advances the world 5 s at a time until the watched cell's price moves; the whole row must follow each step. */
  const untilTargetMoves = async (): Promise<'up' | 'down'> => {
    for (let step = 0; step < 240; step++) {
      await app.sim.advance(5);
      const next = new Map(cellsOf(truthOf(app.sim, id)).map((c) => [c.testId, c.price]));
      const moved = [...next].filter(([t, p]) => p !== truth.get(t));
      for (const [t, p] of moved) dirs.set(t, p > truth.get(t)! ? 'up' : 'down');
      truth = next;
      if (moved.length) await expect.poll(shown).toEqual(expected());
      if (moved.some(([t]) => t === target)) return dirs.get(target)!;
    }
    throw new Error(`${target} never moved`);
  };

  const first = await untilTargetMoves();
  const arrow = first === 'up' ? '▲' : '▼';
  // Cells whose price never moved carry no arrow (part of the row check above); there must be some.
  expect([...truth.keys()].filter((t) => !dirs.has(t)).length, 'cells that did not move').toBeGreaterThan(0);
  const cell = row.getByTestId(target);
  await expect(cell).not.toHaveClass(/flash/, { timeout: 2000 });
  await expect(cell).toHaveText(`${arrow}${truth.get(target)!.toFixed(3)}`); // colour is never the only signal
  const history = await seen();
  const on = history.findIndex((s) => s.flash);
  expect(on, 'the cell flashed').toBeGreaterThanOrEqual(0);
  expect(history[on]).toMatchObject({ dir: first, text: `${arrow}${truth.get(target)!.toFixed(3)}` });
  const off = history.findIndex((s, i) => i > on && !s.flash);
  expect(history[off]).toMatchObject({ dir: first, text: `${arrow}${truth.get(target)!.toFixed(3)}` });
  expect(history[off]!.at - history[on]!.at, 'the flash lasts about 600 ms').toBeGreaterThan(450);

  // On until it moves the other way: the arrow turns with it.
  let again = first;
  for (let i = 0; i < 20 && again === first; i++) again = await untilTargetMoves();
  expect(again).not.toBe(first);
  await expect(cell).toHaveAttribute('data-dir', again);
  await expect(cell).toHaveText(`${again === 'up' ? '▲' : '▼'}${truth.get(target)!.toFixed(3)}`);
});

test('arrows move the selection, Enter opens the detail, Del removes the watch', async ({ page, open }) => {
  const app = await open();
  await page.getByTestId('open-fixtures').click();
  const adds = page.locator('[data-testid^="fixture-add-"]:not([disabled])');
  await expect(adds.first()).toBeVisible();
  for (let i = 0; i < 4; i++) {
    const add = adds.first();
    const testId = (await add.getAttribute('data-testid'))!;
    await add.click();
    await expect(page.getByTestId(testId)).toHaveText('Watched');
  }
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('fixture-picker')).toHaveCount(0);
  await expect(page.getByTestId('watch-count')).toHaveText('4 events');
  await expect(page.getByTestId('status-streams')).toContainText('stream 4/4 live');
  await expect.poll(() => app.sim.openStreams()).toBe(4);

  // The last one added is selected; the arrows walk the grid's order from there, one row at a time.
  const selected = page.locator('[data-testid^="watch-row-"][aria-selected="true"]');
  await expect(selected).toHaveCount(1);
  const order = await page
    .locator('[data-testid^="watch-row-"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!));
  expect(order).toHaveLength(4);
  const start = order.indexOf((await selected.getAttribute('data-testid'))!);
  expect(start).toBeGreaterThanOrEqual(0);
  const [away, back] = start > 0 ? (['ArrowUp', 'ArrowDown'] as const) : (['ArrowDown', 'ArrowUp'] as const);
  await page.keyboard.press(away);
  await expect(selected).toHaveCount(1);
  await expect(selected).toHaveAttribute('data-testid', order[start > 0 ? start - 1 : start + 1]!);
  await page.keyboard.press(back);
  await expect(selected).toHaveAttribute('data-testid', order[start]!);
  await page.keyboard.press(away);
  await expect(selected).toHaveAttribute('data-testid', order[start > 0 ? start - 1 : start + 1]!);
  const chosen = Number((await selected.getAttribute('data-testid'))!.replace('watch-row-', ''));
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('event-detail')).toHaveCount(0);
  await page.keyboard.press('Enter');
  const f = (await app.fixtures()).find((x) => x.event_id === chosen)!;
  await expect(page.getByTestId('event-detail')).toBeVisible();
  await expect(page.getByTestId('detail-title')).toHaveText(`${f.runner_home} v ${f.runner_away}`);
  await page.keyboard.press('Delete');
  await expect(page.getByTestId('watch-count')).toHaveText('3 events');
  await expect(page.getByTestId(`watch-row-${chosen}`)).toHaveCount(0);
  // The core let go of it: its stream is closed, and the watchlist it keeps no longer has it.
  await expect(page.getByTestId('status-streams')).toContainText('stream 3/3 live');
  await expect.poll(() => app.sim.openStreams()).toBe(3);
  await page.reload();
  await expect(page.getByTestId('watch-count')).toHaveText('3 events');
  await expect(page.getByTestId(`watch-row-${chosen}`)).toHaveCount(0);
});

test('fair probabilities are the de-vig of the live prices under the chosen model', async ({ page, open }) => {
  const app = await open();
  const pct = (prices: number[], model: DevigModel) =>
    devig(prices, model).probabilities.map((x) => `${(x * 100).toFixed(1)}%`);
  const mlPrices = (ev: EventOdds) => (['home', 'draw', 'away'] as const).map((s) => moneyline(ev).prices![s]!);
  // A three-way moneyline whose fair column reads differently under the two models, so the switch shows.
  const f = (await upcoming(app, 2)).find((x) => {
    const ml = moneyline(truthOf(app.sim, x.event_id));
    return (
      ml.prices!.draw !== undefined &&
      pct(mlPrices(truthOf(app.sim, x.event_id)), 'MPTO').join() !==
        pct(mlPrices(truthOf(app.sim, x.event_id)), 'SHIN').join()
    );
  });
  expect(f, 'an upcoming three-way event').toBeDefined();
  const id = f!.event_id;
  const lineId = moneyline(truthOf(app.sim, id)).line_id;
  await watchById(page, id);
  await page.getByTestId(`watch-row-${id}`).click();
  await page.keyboard.press('Enter');
  const detail = page.getByTestId('event-detail');
  await expect(detail.getByTestId(`fair-${lineId}-home`)).toHaveText(/%$/);
  const prices = async () =>
    Promise.all(
      ['home', 'draw', 'away'].map(async (s) =>
        Number((await detail.getByTestId(`price-${id}-${lineId}-${s}`).textContent())!.replace(/[▲▼]/, '')),
      ),
    );
  // Prices and fair column are read together and compared until they agree (a tick lands on the next frame); the
  // prices shown are the simulator's.
  const shownVsExpected = async (model: DevigModel) => {
    const p = await prices();
    const shown = await Promise.all(
      ['home', 'draw', 'away'].map((s) => detail.getByTestId(`fair-${lineId}-${s}`).textContent()),
    );
    return { prices: p, shown, expected: pct(p, model) };
  };
  const expectFair = async (model: DevigModel) => {
    await expect
      .poll(async () => {
        const r = await shownVsExpected(model);
        const served = mlPrices(truthOf(app.sim, id));
        if (r.prices.join() !== served.join())
          return `shown prices ${r.prices.join(' ')} vs served ${served.join(' ')}`;
        return r.shown.join(' ') === r.expected.join(' ') ? 'agree' : `${r.shown.join(' ')} vs ${r.expected.join(' ')}`;
      })
      .toBe('agree');
  };
  await expectFair('MPTO');
  const underMpto = (await shownVsExpected('MPTO')).shown.join(' ');
  await page.keyboard.press(',');
  await page.getByTestId('devig-model-select').selectOption('SHIN');
  await page.keyboard.press('Escape');
  await page.keyboard.press('w');
  await expectFair('SHIN');
  expect((await shownVsExpected('SHIN')).shown.join(' ')).not.toBe(underMpto);
  // Live: the next moneyline tick that moves the fair column (a tick of a cent on a long price may not move it by a
  // tenth of a percent) re-prices it at once.
  const before = (await shownVsExpected('SHIN')).shown.join(' ');
  const fairNow = () => pct(mlPrices(truthOf(app.sim, id)), 'SHIN').join(' ');
  for (let i = 0; i < 720 && fairNow() === before; i++) await app.sim.advance(5);
  expect(fairNow()).not.toBe(before);
  await expect.poll(async () => (await shownVsExpected('SHIN')).shown.join(' ')).not.toBe(before);
  await expectFair('SHIN');
});

test('settlements: filter by team and outcome, W/L/P letters, keyset paging, CSV export', async ({ page, open }) => {
  // A day of history: more settlements than one page of the list (200 rows).
  const app = await open({ historyHours: 24 });
  const settled = app.sim.truth.settled();
  expect(settled.length).toBeGreaterThan(200);
  const ml = (s: SettledEvent) => s.settlement.find((l) => l.market === 'moneyline' && l.period === 0)!;
  const letter = { win: 'W', loss: 'L', push: 'P' } as const;
  await page.keyboard.press('t');
  await expect(page.getByTestId('settlement-count')).toHaveText(`${settled.length} settled`);
  const rows = page.locator('[data-testid^="settlement-row-"]');
  await expect(rows.first()).toBeVisible();

  // The team with the most settlements whose home wins are some but not all of them.
  const teams = new Map<string, SettledEvent[]>();
  for (const s of settled) for (const t of [s.runner_home, s.runner_away]) teams.set(t, [...(teams.get(t) ?? []), s]);
  const [team, ofTeam] = [...teams]
    .filter(
      ([, list]) => list.some((s) => ml(s).outcome_home === 'win') && list.some((s) => ml(s).outcome_home !== 'win'),
    )
    .sort((a, b) => b[1].length - a[1].length)[0]!;
  const text = team.toLowerCase();
  const matching = settled.filter((s) => `${s.runner_home}\n${s.runner_away}`.toLowerCase().includes(text));
  expect(matching.map((s) => s.event_id).sort()).toEqual(ofTeam.map((s) => s.event_id).sort());
  const ids = async () =>
    (
      await rows.evaluateAll((els) =>
        els.map((e) => Number(e.getAttribute('data-testid')!.replace('settlement-row-', ''))),
      )
    ).sort();
  await page.getByTestId('settlement-team-filter').fill(text);
  await expect(page.getByTestId('settlement-count')).toHaveText(`${matching.length} settled`);
  await expect.poll(ids).toEqual(matching.map((s) => s.event_id).sort());
  for (const t of await rows.allInnerTexts()) expect(t.toLowerCase()).toContain(text);

  await page.getByTestId('settlement-outcome-side').selectOption('home');
  await expect(page.getByTestId('settlement-outcome-result')).toHaveValue('win');
  const homeWins = matching.filter((s) => ml(s).outcome_home === 'win');
  await expect(page.getByTestId('settlement-count')).toHaveText(`${homeWins.length} settled`);
  await expect.poll(ids).toEqual(homeWins.map((s) => s.event_id).sort());
  for (const s of homeWins) {
    await expect(page.getByTestId(`ml-${s.event_id}-home`)).toHaveText('W');
    await expect(page.getByTestId(`ml-${s.event_id}-away`)).toHaveText(
      letter[ml(s).outcome_away as keyof typeof letter],
    );
  }
  // Lines of one settlement, letter and colour, as settled.
  const one = homeWins[0]!;
  await page.getByTestId(`settlement-row-${one.event_id}`).click();
  const detail = page.getByTestId('settlement-detail');
  await expect(detail).toBeVisible();
  await expect(detail.locator('.oc.win').first()).toHaveText('W');
  // Each side as the trading rules settle it (docs/trading.md): the service's word, or for a full-match quarter line
  // the final score's half results.
  const halves = { win: 'W', half_win: '½W', push: 'P', half_loss: '½L', loss: 'L', void: 'V' } as const;
  for (const l of one.settlement) {
    const cells = detail.getByTestId(`settled-line-${l.line_id}`).locator('.oc');
    // A sport played to a winner shows no draw result (the service's draw "loss" is no result).
    const draws = sportHasDraws(SPORTS.find((x) => x.id === one.sport_id)?.name) || l.outcome_draw !== 'loss';
    const want = marketSides(l.market)
      .filter((side) => side !== 'draw' || draws)
      .map((side) => settleSide(l, side, { home: one.score_home, away: one.score_away }, null, one.status));
    await expect(cells).toHaveText(want.map((r) => (r.kind === 'settled' ? halves[r.result] : '?')));
    for (const [i, r] of want.entries())
      if (r.kind === 'settled')
        await expect(cells.nth(i)).toHaveClass(new RegExp(`\\b${r.result.replace('half_', '')}\\b`));
  }

  // CSV: exactly the filtered settlements.
  const download = page.waitForEvent('download');
  await page.getByTestId('export-csv').click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^oddsdesk-settlements-.*\.csv$/);
  const csv = readFileSync((await file.path())!, 'utf8')
    .trim()
    .split(/\r?\n/);
  const header = csv[0]!.split(',');
  expect(header.slice(0, 1)).toEqual(['event_id']);
  const body = csv.slice(1).map((l) => l.split(','));
  expect(body.map((c) => Number(c[0])).sort()).toEqual(homeWins.map((s) => s.event_id).sort());
  for (const c of body) expect(c[header.indexOf('ml_home')]).toBe('win');

  // Paging: clear filters, scroll to the end, every settlement arrives, the oldest last.
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await expect(page.getByTestId('settlement-count')).toHaveText(`${settled.length} settled`);
  const oldest = [...settled].sort((a, b) => a.settled_at.localeCompare(b.settled_at) || a.event_id - b.event_id)[0]!;
  const list = page.getByTestId('settlement-list');
  await expect
    .poll(async () => {
      await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
      return page.locator('.sgrid').getAttribute('aria-rowcount');
    })
    .toBe(String(settled.length));
  await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(page.getByTestId(`settlement-row-${oldest.event_id}`)).toBeVisible();
});

test('a live alert lands in the alert history and muting is per event', async ({ page, open }) => {
  const app = await open();
  // Two upcoming events about to cross the one-hour mark, where their max_win steps up the ladder (+50%, over the
  // 10% alert threshold).
  const soon = (await upcoming(app, 1))
    .filter((f) => app.hoursToStart(f) < 1.5)
    .sort((a, b) => a.starts.localeCompare(b.starts));
  expect(soon.length).toBeGreaterThanOrEqual(2);
  const [a, b] = [soon[0]!.event_id, soon[soon.length - 1]!.event_id];
  const mutedA = `Muted: ${soon[0]!.runner_home} v ${soon[0]!.runner_away}`;
  await watchById(page, a);
  await watchById(page, b);
  await expect(page.getByTestId('status-streams')).toContainText('stream 2/2 live');
  await page.keyboard.press('a');
  await expect(page.getByTestId('alerts-empty')).toBeVisible();

  // What the core must alert, line by line, from every max_win move the simulator makes on the watched events: a
  // limit alerts on its move since the value that last alerted (the first value seen, before any alert), then
  // measures from the alerted value (issue 22).
  const alerts = new Map<number, string[]>([
    [a, []],
    [b, []],
  ]);
  const maxWins = new Map<string, number>();
  const bases = new Map<string, number>();
  const look = () => {
    for (const id of [a, b])
      for (const m of truthOf(app.sim, id).markets) {
        const k = `${id}:${m.line_id}`;
        const from = maxWins.get(k);
        maxWins.set(k, m.max_win);
        if (from === undefined || from === m.max_win) continue;
        const base = bases.get(k) ?? from;
        bases.set(k, base);
        const pct = ((m.max_win - base) / base) * 100;
        if (m.max_win === base || Math.abs(pct) < 10 - 1e-9) continue;
        bases.set(k, m.max_win);
        const money = (n: number) => n.toLocaleString('en-US');
        alerts
          .get(id)!
          .push(
            `Max stake ${money(base)} → ${money(m.max_win)} (${pct > 0 ? '+' : ''}${pct.toFixed(1)}%) on ${lineLabel(m, false, periodNames(PERIODS))}`,
          );
      }
  };
  look();
  const messages = (id: number) =>
    page
      .locator(`[data-testid="alert-row"][data-kind="max_win"][data-event-id="${id}"] .msg`)
      .evaluateAll((els) => els.map((e) => e.getAttribute('title')!).sort());
  for (let i = 0; i < 240 && alerts.get(a)!.length === 0; i++) {
    await app.sim.advance(5);
    look();
  }
  expect(alerts.get(a)!.length, `a max_win move on ${a}`).toBeGreaterThan(0);
  const forA = [...alerts.get(a)!];
  await expect.poll(() => messages(a)).toEqual([...forA].sort());
  // Only max_win alerts are counted here: price and drop alerts (on by default) share the log.
  await expect(page.locator('[data-testid="alert-row"][data-kind="max_win"]').first()).toContainText(
    forA[0]!.split(' on ')[0]!,
  );

  await page.locator(`[data-testid="alert-row"][data-event-id="${a}"]`).first().getByTestId(`mute-${a}`).click();
  await expect(page.getByTestId('muted-events')).toHaveText(mutedA);
  // The trader's pointer moves on: while it rests over the list, new alerts wait behind "N new alerts" (issue 33).
  await page.mouse.move(0, 0);
  // On until both have moved again: the muted event alerts no more, the other one still does.
  const bBefore = alerts.get(b)!.length;
  for (let i = 0; i < 1200 && (alerts.get(a)!.length === forA.length || alerts.get(b)!.length === bBefore); i++) {
    await app.sim.advance(5);
    look();
  }
  expect(alerts.get(a)!.length, `another max_win move on ${a}`).toBeGreaterThan(forA.length);
  expect(alerts.get(b)!.length, `a max_win move on ${b}`).toBeGreaterThan(bBefore);
  await expect.poll(() => messages(b)).toEqual([...alerts.get(b)!].sort());
  expect(await messages(a)).toEqual([...forA].sort());
  await expect(page.getByTestId('muted-events')).toHaveText(mutedA);
  await expect(
    page.locator(`[data-testid="alert-row"][data-event-id="${b}"]`).first().getByTestId(`mute-${b}`),
  ).toHaveAttribute('aria-pressed', 'false');
});

test('key rejected: a calm banner with one action, to Settings, where the key is write-only', async ({
  page,
  open,
}) => {
  const app = await open();
  await page.keyboard.press('c');
  await expect(page.getByTestId('coverage-table')).toBeVisible();
  await expect(page.getByTestId('banner-key-rejected')).toHaveCount(0);
  // The key is regenerated on the account page: the old one fails from the next request on.
  const fresh = app.sim.regenerateKey(KEY);
  await page.keyboard.press('w');
  await page.keyboard.press('c');
  await expect(page.getByTestId('banner-key-rejected')).toContainText('The key was rejected (regenerated or revoked)');
  expect(app.sim.requestLog().some((r) => r.status === 401)).toBe(true);
  await page.getByTestId('banner-open-settings').click();
  await expect(page.getByTestId('nav-settings')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('api-key-input')).toHaveAttribute('type', 'password');
  await expect(page.getByTestId('api-key-input')).toHaveValue('');
  await expect(page.getByTestId('api-key-state')).toHaveText('● a key is stored');
  const html = await page.content();
  expect(html).not.toContain(KEY);
  expect(html).not.toContain(fresh);
});

test('plan restricted: specials say which plan they need', async ({ page, open }) => {
  const app = await open({ plan: 'starter' });
  const [f] = await upcoming(app, 1);
  await watchById(page, f!.event_id);
  await page.keyboard.press('s');
  await expect(page.getByTestId('specials-restricted')).toContainText(
    'Specials need the enterprise plan; your plan: starter',
  );
  await expect(page.getByTestId('status-plan')).toHaveText('plan starter');
  // The live stream is an enterprise feature too: the watch stays, its stream says why it is not live.
  await expect(page.getByTestId('status-streams')).toContainText('stream 0/1 live (1 not in your plan)');
  expect(app.sim.openStreams()).toBe(0);
  // The banner says it once for every view, in words: the watchlist's blank prices are the plan, not a fault.
  const banner = page.getByTestId('banner-plan');
  await expect(banner).toContainText('Your starter key does not include everything');
  await expect(banner).toContainText('live odds streams (the watchlist prices)');
  await expect(banner).toContainText('need the enterprise plan');
});

test('the palette finds a fixture, watches it and opens its detail', async ({ page, open }) => {
  const app = await open();
  const [f, g] = await upcoming(app, 1);
  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('palette')).toBeVisible();
  await page.getByTestId('palette-input').fill(`${f!.runner_home} ${f!.runner_away}`);
  const first = page.getByTestId('palette-item').first();
  await expect(first).toContainText(`${f!.runner_home} v ${f!.runner_away}`);
  await expect(first).toContainText(`#${f!.event_id} · Enter watches`);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('palette')).toHaveCount(0);
  await expect(page.getByTestId(`watch-row-${f!.event_id}`)).toBeVisible();
  await expect(page.getByTestId('event-detail')).toBeVisible();
  await expect(page.getByTestId('detail-title')).toHaveText(`${f!.runner_home} v ${f!.runner_away}`);
  await expect(page.getByTestId('status-streams')).toContainText('stream 1/1 live');
  // By id, too.
  await page.keyboard.press('Control+k');
  await page.getByTestId('palette-input').fill(String(g!.event_id));
  await expect(page.getByTestId('palette-item').first()).toContainText(`Watch event #${g!.event_id}`);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId(`watch-row-${g!.event_id}`)).toBeVisible();
  await expect(page.getByTestId('detail-title')).toHaveText(`${g!.runner_home} v ${g!.runner_away}`);
  await expect(page.getByTestId('watch-count')).toHaveText('2 events');
  await page.keyboard.press('Control+k');
  await page.getByTestId('palette-input').fill('go to sett');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('nav-settlements')).toHaveAttribute('aria-current', 'page');
});

test('status bar: streams, plan, quota, last sync; light theme', async ({ page, open }) => {
  const app = await open({ quotaPerHour: 1000 });
  const peekIds = new Set<string | null>();
  const [f, g] = await upcoming(app, 1);
  for (const r of app.sim.requestLog()) if (r.path === '/api/fixtures') peekIds.add(r.keyId);
  await watchById(page, f!.event_id);
  await watchById(page, g!.event_id);
  const bar = page.getByTestId('status-bar');
  await expect(bar.getByTestId('status-streams')).toHaveText('stream 2/2 live');
  await expect(bar.getByTestId('status-plan')).toHaveText('plan enterprise');
  // The quota the simulator counted for the app's key (every request with it, stream opens included; /api/status
  // and the test's own look at the fixtures are not the app's).
  await expect
    .poll(async () => {
      const used = app.sim
        .requestLog()
        .filter(
          (r) => r.keyId !== null && r.keyId !== 'unknown' && !peekIds.has(r.keyId) && r.path !== '/api/status',
        ).length;
      const shown = await bar.getByTestId('status-quota').textContent();
      return shown ===
        `quota ${used.toLocaleString('en-US')}/1,000 this hour · ${(1000 - used).toLocaleString('en-US')} left`
        ? 'agree'
        : `${shown} vs ${used} used`;
    })
    .toBe('agree');
  await expect(bar.getByTestId('status-settled')).toHaveText(/^settled synced \d\d:\d\d:\d\d$/);
  await expect(bar.getByTestId('badge-demo')).toHaveCount(0);
  await expect(bar.getByTestId('badge-offline')).toHaveCount(0);
  await page.keyboard.press(',');
  await page.getByTestId('theme-select').selectOption('light');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  // Kept by the core: a reload comes back light.
  await page.reload();
  await expect(page.getByTestId('status-bar')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
});

// The host's keychain is the real one (service `oddsdesk`): only inside the private gnome-keyring `npm test` starts,
// never in a desktop session, where it would forget the developer's own keys.
test("Forget all keys: after a confirmation, every service's key leaves the OS keychain, and the count is shown", async ({
  page,
  open,
}) => {
  test.skip(
    !process.env['ODDSDESK_KEYRING'],
    'needs the private Secret Service `npm test` starts (ODDSDESK_KEYRING=1)',
  );
  const keytar = createRequire(import.meta.url)('keytar') as {
    setPassword(s: string, a: string, p: string): Promise<void>;
    findCredentials(s: string): Promise<Array<{ account: string }>>;
  };
  await keytar.setPassword('oddsdesk', 'https://odds-a.example', 'e2e-forget-key-a-123');
  await keytar.setPassword('oddsdesk', 'https://odds-b.example', 'e2e-forget-key-b-456');
  await open({ demo: true });
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('forget-all-keys').click();
  await expect(page.getByTestId('forget-all-keys-confirm')).toContainText(
    'Forget all keys: removes the API key of every service from the OS keychain; you will need to enter it again.',
  );
  // Cancel forgets nothing.
  await page.getByTestId('forget-all-keys-cancel').click();
  await expect(page.getByTestId('forget-all-keys-confirm')).toHaveCount(0);
  expect((await keytar.findCredentials('oddsdesk')).length).toBe(2);
  await page.getByTestId('forget-all-keys').click();
  await page.getByTestId('forget-all-keys-yes').click();
  await expect(page.getByText('Forgot 2 keys: removed from the OS keychain')).toBeVisible();
  expect(await keytar.findCredentials('oddsdesk')).toEqual([]);
  await expect(page.getByTestId('api-key-state')).toHaveText('○ no key stored');
  await expect(page.getByTestId('status-bar').getByTestId('badge-demo')).toBeVisible();
});

test('demo mode: without a key the host runs its own simulator, and the status bar says DEMO', async ({
  page,
  open,
}) => {
  await open({ demo: true });
  const bar = page.getByTestId('status-bar');
  await expect(bar.getByTestId('badge-demo')).toBeVisible();
  await expect(page.getByTestId('banner-key-missing')).toHaveCount(0);
  // The demo's world runs in real time: the fixture that starts last (the bottom of the list) will not end mid-test.
  await page.getByTestId('open-fixtures').click();
  const adds = page.locator('[data-testid^="fixture-add-"]:not([disabled])');
  await expect(adds.first()).toBeVisible();
  const list = page.getByTestId('fixture-picker').locator('.picker-list');
  // The list is virtual: its last rows exist once the scroll has been seen (a frame or two later).
  await list.evaluate(
    (el) =>
      new Promise(
        (done) => (el.scrollTo(0, el.scrollHeight), requestAnimationFrame(() => requestAnimationFrame(done))),
      ),
  );
  const add = adds.last();
  const testId = (await add.getAttribute('data-testid'))!;
  await add.click();
  await expect(page.getByTestId(testId)).toHaveText('Watched');
  // The first run already watches a few live events: all of them and this one are live.
  await expect(bar.getByTestId('status-streams')).toHaveText(/^\s*stream (\d+)\/\1 live$/);
  expect(
    Number(/stream (\d+)/.exec((await bar.getByTestId('status-streams').textContent())!)![1]),
  ).toBeGreaterThanOrEqual(4);
  await expect(bar.getByTestId('status-plan')).toHaveText('plan enterprise');
});
