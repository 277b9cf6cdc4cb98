// A day open (issue 37): what a trader opens and closes all day, as one walk, and what the page holds before and
// after. Shared by the page soak (bench/pageSoak.ts, 500 walks under the realistic load) and its end-to-end test
// (test/e2e/page-soak.spec.ts, 20 walks): the walk opens the event detail with its charts and closes it (Esc), opens
// the command palette and closes it (Esc), and opens the event in a tab of its own (Shift+Enter) and closes that tab
// (its Esc). The counts are the page's own after a full collection: its DOM nodes, its DOM event listeners and JS heap
// (Chromium's Performance.getMetrics), and the app's subscriptions by source (src/renderer/src/listenerCounts.ts:
// the store's subscribers, the grid's market channel, the bridge's push listeners, ...).
import type { CDPSession, Page } from '@playwright/test';

/** Init script that asks the app for its counts (before it loads): see src/renderer/src/listenerCounts.ts. */
export const ASK_FOR_COUNTS = 'window.__listenerCounts = null;';

export interface PageCounts {
  /** DOM nodes alive (after a full collection: detached ones gone). */
  nodes: number;
  /** DOM event listeners (addEventListener and on* handlers) alive. */
  domListeners: number;
  /** The JS heap in use, MB. */
  heapMb: number;
  /** The app's listeners and subscriptions, by source. */
  app: Record<string, number>;
}

/** Sum of the app's counts. */
export const appListeners = (c: PageCounts): number => Object.values(c.app).reduce((a, b) => a + b, 0);

/** The page's counts after a full collection (twice: what one collection frees may free more). */
export async function pageCounts(page: Page, cdp: CDPSession): Promise<PageCounts> {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? NaN;
  const app = await page.evaluate(
    () =>
      (globalThis as unknown as { __listenerCounts?: (() => Record<string, number>) | null }).__listenerCounts?.() ??
      {},
  );
  return {
    nodes: metric('Nodes'),
    domListeners: metric('JSEventListeners'),
    heapMb: metric('JSHeapUsedSize') / 1024 / 1024,
    app,
  };
}

/**
 * The page's DOM nodes as a heap snapshot finds them: those in the document (attached) and those out of it that
 * something still holds (detached: a leak, or what V8's feedback keeps of a first instance). Exact where Chromium's
 * Nodes metric is not: it counts nodes created and not yet swept, so it moves with the collector's timing.
 */
export async function snapshotDomNodes(cdp: CDPSession): Promise<{ attached: number; detached: number }> {
  const chunks: string[] = [];
  const onChunk = (p: { chunk: string }) => chunks.push(p.chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  try {
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  } finally {
    cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  }
  const snap = JSON.parse(chunks.join('')) as { snapshot: { meta: { node_fields: string[] } }; nodes: number[] };
  const fields = snap.snapshot.meta.node_fields;
  const at = fields.indexOf('detachedness');
  if (at < 0) throw new Error('this Chromium writes no detachedness in its heap snapshots');
  let attached = 0;
  let detached = 0;
  for (let i = at; i < snap.nodes.length; i += fields.length) {
    if (snap.nodes[i] === 1) attached++;
    else if (snap.nodes[i] === 2) detached++;
  }
  return { attached, detached };
}

/** A CDP session on the page with its metrics on (Performance.getMetrics answers only once they are). */
export async function countingSession(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  return cdp;
}

/** Counts that differ between two readings: `name: before -> after` for each. */
export function grown(before: PageCounts, after: PageCounts): string[] {
  const out: string[] = [];
  for (const k of ['nodes', 'domListeners'] as const)
    if (after[k] !== before[k]) out.push(`${k}: ${before[k]} -> ${after[k]}`);
  for (const k of new Set([...Object.keys(before.app), ...Object.keys(after.app)])) {
    if ((after.app[k] ?? 0) !== (before.app[k] ?? 0))
      out.push(`app.${k}: ${before.app[k] ?? 0} -> ${after.app[k] ?? 0}`);
  }
  return out;
}

/** The document's elements by tag and first class (`DIV.chart`): what a growing DOM is made of. */
export function elementCensus(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => {
    const out: Record<string, number> = {};
    const doc = (
      globalThis as unknown as {
        document: {
          querySelectorAll(q: string): Iterable<{ tagName: string; getAttribute(n: string): string | null }>;
        };
      }
    ).document;
    for (const el of doc.querySelectorAll('*')) {
      const key = `${el.tagName}.${(el.getAttribute('class') ?? '').split(' ')[0]}`;
      out[key] = (out[key] ?? 0) + 1;
    }
    return out;
  });
}

/** The keys whose numbers differ between two censuses: `key before -> after`. */
export function censusChanges(before: Record<string, number>, after: Record<string, number>): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((k) => before[k] !== after[k])
    .map((k) => `${k} ${before[k] ?? 0} -> ${after[k] ?? 0}`);
}

/** Resolves once `check` holds, polling every 20 ms; throws `what` after `timeoutMs`. */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * One walk on the watchlist, from the grid with nothing open back to it: `eventId`'s row (in the DOM) selected, its
 * detail opened until its price and max-stake charts show, closed; the palette opened and closed; the event in a tab
 * of its own (Shift+Enter) until its detail shows, that tab closed by its own Esc.
 */
export async function openAndCloseWalk(page: Page, eventId: number): Promise<void> {
  const row = page.getByTestId(`watch-row-${eventId}`);
  await row.click();
  await page.keyboard.press('Enter');
  const detail = page.getByTestId('event-detail');
  await detail.getByTestId('chart-price').waitFor();
  await detail.getByTestId('chart-maxwin').waitFor();
  await page.keyboard.press('Escape');
  await detail.waitFor({ state: 'detached' });

  await page.keyboard.press('Control+k');
  await page.getByTestId('palette-input').waitFor();
  await page.keyboard.press('Escape');
  await page.getByTestId('palette-input').waitFor({ state: 'detached' });

  const [tab] = await Promise.all([page.context().waitForEvent('page'), page.keyboard.press('Shift+Enter')]);
  await tab.getByTestId('event-detail').waitFor();
  const closed = tab.waitForEvent('close');
  // The key's own promise may reject: the page it was pressed in is gone.
  await tab.keyboard.press('Escape').catch(() => undefined);
  await closed;
  // The grid has its keys back (the row stays selected; nothing is open).
  await until(async () => (await page.getByTestId('event-detail').count()) === 0, 'the detail to stay closed');
}
