// A day open (issue 37): the page's memory, DOM and listeners under the realistic load, and after opening and closing
// what a trader opens all day. `npm run bench -- page` (options: `--soak-s N`, default 300; `--walks N`, default 500).
// The browser-mode host, its simulator and the realistic load (bench/realisticLoad.ts: 200 market moves a second over
// 200 watched events, a drop every 15 s) are the tick bench's (bench/tickToScreen.ts); the page is Chromium's, read
// through CDP after a full collection (test/support/pageWalk.ts).
//   1. Soak: the load for soak-s seconds with the watchlist on screen, the page's JS heap in use and DOM nodes read
//      every 10 s. page_heap_mb_hour is the heap carried on to an hour of this load the way host_rss_mb_hour is: its
//      value at the end of the soak plus its trend (Theil-Sen over the readings; a falling trend counts as flat) over
//      the rest of the hour. page_heap_growth_mb_hour is that trend alone.
//   2. Walks: `walks` times, the event detail opened until its price and max-stake charts show and closed, the
//      command palette opened and closed, the event in a tab of its own (Shift+Enter) opened and closed, over the
//      events at the top of the grid in turn, the load running on. The counts are read after a warm-up walk over each
//      of those events (WARMUP_WALKS: what a first opening leaves once) and after the last. page_dom_nodes_growth is
//      the difference in DOM nodes a heap snapshot finds (in the document and detached but held; Chromium's Nodes
//      metric, logged too, also counts nodes not yet swept), page_listeners_growth the sum of what grew among the DOM
//      event listeners (Performance.getMetrics) and each of the app's own counts (the store's subscribers, the
//      grid's market channel, the bridge's push listeners, the bridge-end watchers, the age clock's cells:
//      src/renderer/src/listenerCounts.ts). Both should be 0.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { chromium, type Browser } from '@playwright/test';
import { root, startWebHost, type WebHost } from '../test/e2e/helpers';
import {
  appListeners,
  ASK_FOR_COUNTS,
  censusChanges,
  countingSession,
  elementCensus,
  grown,
  openAndCloseWalk,
  pageCounts,
  snapshotDomNodes,
  type PageCounts,
} from '../test/support/pageWalk';
import { theilSen } from './proc';
import { startRealisticLoad } from './realisticLoad';
import {
  bridgeInvoke,
  CHROMIUM_ARGS,
  EVENTS,
  loadSimulator,
  pricedEvents,
  REALISTIC_LOAD,
  type Figures,
} from './tickToScreen';

const KEY = 'bench-page-enterprise';
const HOUR_S = 3_600;
const SAMPLE_EVERY_MS = 10_000;
/** The events the walks open in turn: the grid's top rows, always in the DOM at this viewport. */
const WALK_EVENTS = 10;
/**
 * Walks before the counts are read, one for each of those events: the first openings leave what any opening needs
 * once (V8's feedback keeps the first instances of a chart's objects; a first chart of each line's shape), which
 * the later walks reuse; what grows after them grows with every walk.
 */
const WARMUP_WALKS = WALK_EVENTS;
const VIEWPORT = { width: 1920, height: 1_080 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (x: number, digits = 2) => Number(x.toFixed(digits));

/** `--name N` from the command line (npm run bench -- page --walks 50), else `fallback`. */
function numberOption(argv: readonly string[], name: string, fallback: number): number {
  const i = argv.indexOf(name);
  const v = i >= 0 ? Number(argv[i + 1]) : fallback;
  if (!(Number.isFinite(v) && v >= 0)) throw new Error(`${name} needs a number, got ${argv[i + 1]}`);
  return v;
}

const describe = (c: PageCounts) =>
  `heap ${c.heapMb.toFixed(1)} MB, ${c.nodes} DOM nodes, ${c.domListeners} DOM listeners; app: ${Object.entries(c.app)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}`;

export async function runPageSoakBench(
  log: (line: string) => void = console.log,
  argv: readonly string[] = process.argv.slice(2),
): Promise<Figures> {
  const soakS = numberOption(argv, '--soak-s', 300);
  const walks = numberOption(argv, '--walks', 500);
  log(
    `machine: ${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (1, 5, 15 min) before the run`,
  );
  const build = spawnSync('npx', ['vite', 'build', '--config', 'vite.web.config.ts', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('renderer build failed');

  const dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-bench-page-'));
  const sim = await loadSimulator(REALISTIC_LOAD, [KEY]);
  let host: WebHost | undefined;
  let browser: Browser | undefined;
  let stopLoad: (() => void) | undefined;
  try {
    host = await startWebHost(
      [
        'npx',
        'tsx',
        'src/cli/index.ts',
        'web',
        '--port',
        '0',
        '--base-url',
        sim.url,
        '--db',
        path.join(dir, 'bench.db'),
      ],
      { ODDSDESK_API_KEY: KEY },
    );
    const ids = pricedEvents(sim);
    if (ids.length < EVENTS) throw new Error(`only ${ids.length} priced events in the book`);
    const added = await bridgeInvoke(
      host.url,
      ids.map((id) => ({ channel: 'watch:add', args: [id] })),
    );
    if (added.some((r) => !(r as { ok: boolean }).ok)) throw new Error('watch:add failed');
    stopLoad = startRealisticLoad(sim, ids);
    const loadFrom = Date.now();
    log(`load: ${REALISTIC_LOAD.about}`);

    browser = await chromium.launch({
      executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    });
    const page = await browser.newPage({ viewport: VIEWPORT });
    // tsx compiles with keepNames (__name wraps named functions); what runs in the page has no __name.
    await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
    await page.addInitScript({ content: ASK_FOR_COUNTS });
    await page.goto(host.url);
    await page
      .getByTestId('watch-count')
      .filter({ hasText: `${EVENTS} events` })
      .waitFor();
    const cdp = await countingSession(page);

    // ---- 1. the soak: the watchlist on screen under the load ----
    const samples: Array<{ at: number; counts: PageCounts }> = [];
    const soakCensus = await elementCensus(page);
    const soakDom = await snapshotDomNodes(cdp);
    const sample = async () =>
      samples.push({ at: (Date.now() - loadFrom) / 1000, counts: await pageCounts(page, cdp) });
    await sample();
    const soakEnd = Date.now() + soakS * 1000;
    while (Date.now() < soakEnd) {
      await sleep(Math.min(SAMPLE_EVERY_MS, soakEnd - Date.now()));
      await sample();
    }
    const first = samples[0]!;
    const last = samples[samples.length - 1]!;
    const trend = theilSen(samples.map((s) => [s.at, s.counts.heapMb] as const));
    const growthPerS = Math.max(0, trend.slope);
    const heapHour = trend.at(last.at) + growthPerS * Math.max(0, HOUR_S - last.at);
    const shown = samples.filter((_, i) => i % 3 === 0 || i === samples.length - 1);
    log(
      `soak: ${soakS} s of the load with the watchlist on screen; heap MB at ${shown.map((s) => `${s.at.toFixed(0)}s ${s.counts.heapMb.toFixed(1)}`).join(', ')}`,
    );
    log(`soak: DOM nodes at ${shown.map((s) => `${s.at.toFixed(0)}s ${s.counts.nodes}`).join(', ')}`);
    log(
      `soak: heap trend ${(growthPerS * HOUR_S).toFixed(1)} MB an hour (Theil-Sen) -> ${heapHour.toFixed(1)} MB after an hour of the load (goal < 50); DOM nodes ${first.counts.nodes} -> ${last.counts.nodes}`,
    );
    log(`soak: start ${describe(first.counts)}`);
    log(`soak: end   ${describe(last.counts)}`);
    const soakDomEnd = await snapshotDomNodes(cdp);
    log(
      `soak: DOM nodes in heap snapshots: attached ${soakDom.attached} -> ${soakDomEnd.attached}, detached ${soakDom.detached} -> ${soakDomEnd.detached}; elements that changed in number: ${censusChanges(soakCensus, await elementCensus(page)).join('; ') || 'none'}`,
    );

    // ---- 2. the walks ----
    const rowIds = (
      await page
        .locator('[data-testid^="watch-row-"]')
        .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-testid')!.slice('watch-row-'.length))))
    ).slice(0, WALK_EVENTS);
    let walked = 0;
    const walk = async () => openAndCloseWalk(page, rowIds[walked++ % rowIds.length]!);
    const warmFrom = Date.now();
    for (let i = 0; i < WARMUP_WALKS; i++) await walk();
    const before = await pageCounts(page, cdp);
    const beforeCensus = await elementCensus(page);
    const beforeDom = await snapshotDomNodes(cdp);
    log(
      `walks: after ${WARMUP_WALKS} warm-up walks (${((Date.now() - warmFrom) / WARMUP_WALKS).toFixed(0)} ms a walk): ${describe(before)}`,
    );
    const walkFrom = Date.now();
    const every = Math.max(10, Math.round(walks / 10));
    for (let i = 1; i <= walks; i++) {
      await walk();
      if (i % every === 0 && i < walks)
        log(
          `walks: after ${i}: ${describe(await pageCounts(page, cdp))} (${((Date.now() - walkFrom) / i).toFixed(0)} ms a walk)`,
        );
    }
    const after = await pageCounts(page, cdp);
    log(`walks: after ${walks}: ${describe(after)}`);
    const afterDom = await snapshotDomNodes(cdp);
    log(
      `walks: DOM nodes in heap snapshots: attached ${beforeDom.attached} -> ${afterDom.attached}, detached ${beforeDom.detached} -> ${afterDom.detached}`,
    );
    const changes = grown(before, after);
    log(
      `walks: ${changes.length ? `changed: ${changes.join('; ')}` : 'every count back where it was'}; elements that changed in number: ${censusChanges(beforeCensus, await elementCensus(page)).join('; ') || 'none'}`,
    );
    const listenersGrowth =
      Math.max(0, after.domListeners - before.domListeners) +
      Object.keys(after.app).reduce((n, k) => n + Math.max(0, (after.app[k] ?? 0) - (before.app[k] ?? 0)), 0);
    const figures: Figures = {
      page_heap_mb_hour: round(heapHour, 1),
      page_heap_growth_mb_hour: round(growthPerS * HOUR_S, 1),
      page_heap_soak_s: soakS,
      page_dom_nodes: soakDomEnd.attached + soakDomEnd.detached,
      page_soak_dom_nodes_growth: soakDomEnd.attached + soakDomEnd.detached - (soakDom.attached + soakDom.detached),
      page_walks: walks,
      page_dom_nodes_growth: afterDom.attached + afterDom.detached - (beforeDom.attached + beforeDom.detached),
      page_detached_dom_nodes: afterDom.detached,
      page_listeners_growth: listenersGrowth,
      page_app_listeners: appListeners(after),
      page_walk_heap_growth_mb: round(after.heapMb - before.heapMb),
      page_walk_ms: round((Date.now() - walkFrom) / Math.max(1, walks), 0),
    };
    log('summary (as written to bench/results.json):');
    for (const [k, v] of Object.entries(figures)) log(`  ${k} = ${v}`);
    log(
      `goals (issue 37): page_heap_mb_hour ${heapHour < 50 ? 'met' : 'MISSED'} (< 50); page_dom_nodes_growth ${figures['page_dom_nodes_growth']! <= 0 ? 'met' : 'MISSED'} (0, or fewer: the live load may take a market off the grid meanwhile); page_listeners_growth ${listenersGrowth === 0 ? 'met' : 'MISSED'} (0)`,
    );
    return figures;
  } finally {
    stopLoad?.();
    await browser?.close().catch(() => undefined);
    await host?.stop();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
