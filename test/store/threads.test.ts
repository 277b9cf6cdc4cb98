// The store's threads (src/core/store/threads/startThread.ts): each is started with a bounded young generation. A worker otherwise
// gets V8's default for a main thread, and a thread whose garbage is one large message at a time (the writer) keeps
// a young generation of tens of MB for nothing: in a 2,000 moves/s soak the writer's heap sat at 49 MB, 13-29 MB in
// use (issue 33, item 6).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { startThread, THREAD_YOUNG_GENERATION_MB } from '../../src/core/store/threads/startThread';

const dir = mkdtempSync(join(tmpdir(), 'oddsdesk-threads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The writer's pattern: messages of 20,000 ticks, all alive while one is applied, garbage once it is. Says the
// largest young generation (V8's new space) it saw: the part of the heap the bound governs. The whole heap's total
// also holds what the scavenges promoted, whose size waits on when the old generation is next collected: on a quiet
// machine 49 MB bounded against 82-86 MB unbounded, but 66 MB against 78 MB beside a running e2e suite (CI once).
const entry = join(dir, 'messages.mjs');
writeFileSync(
  entry,
  `import { parentPort } from 'node:worker_threads';
import v8 from 'node:v8';
const young = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
let peak = 0;
for (let m = 0; m < 200; m++) {
  const message = Array.from({ length: 20_000 }, (_, i) => ({ eventId: i % 200, at: m, markets: [{ line_id: i, prices: { home: 1.5, away: 2.5 } }] }));
  let sum = 0;
  for (const t of message) sum += t.markets[0].prices.home;
  if (sum <= 0) throw new Error('unreachable');
  peak = Math.max(peak, young());
}
parentPort.postMessage(peak);
`,
);

async function peakHeapOf(worker: Worker): Promise<number> {
  try {
    return await new Promise<number>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  } finally {
    await worker.terminate();
  }
}

describe('the store threads', () => {
  it('start with a bounded young generation, which keeps a message-at-a-time heap well under an unbounded one', async () => {
    const bounded = startThread(entry, null);
    expect(bounded.resourceLimits?.maxYoungGenerationSizeMb).toBe(THREAD_YOUNG_GENERATION_MB);
    const boundedPeak = await peakHeapOf(bounded);
    const defaultPeak = await peakHeapOf(new Worker(entry));
    expect(boundedPeak).toBeLessThan(defaultPeak * 0.75);
  }, 60_000);
});
