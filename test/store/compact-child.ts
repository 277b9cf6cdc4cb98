// Child process of the compaction crash test: replays a deterministic tick load on simulated time (one batch per
// simulated minute), compacting in very small steps after every batch, forever, until the parent kills it. On start
// it skips the batches already stored (the newest stored tick says which), as a recorder resumes after a crash.
import Database from 'better-sqlite3';
import { openStore } from '../../src/core/store';
import { BATCH_MS, CRASH_LOAD, T0 } from './compactLoad';
import { createTickLoad } from './ticks';

const path = process.argv[2];
if (!path) throw new Error('usage: compact-child <db>');
let now = T0;
// A quarter-hour raw window: the newest batches always stay raw, so the parent can tell how far we got.
const store = openStore({ path, clock: () => now, rawTickHours: 0.25 });
const peek = new Database(path, { readonly: true });
const newest = peek.prepare('SELECT max(at) FROM odds_ticks').pluck().get() as number | null;
peek.close();
const load = createTickLoad(CRASH_LOAD);
process.stdout.write('ready\n');
for (let i = 0; ; i++) {
  const from = T0 + i * BATCH_MS;
  const batch = load.next(from, BATCH_MS);
  now = from + BATCH_MS;
  if (newest !== null && from <= newest) continue;
  store.odds.recordTickBatches(batch);
  for (;;) if (store.maintenance.compactStep({ maxRows: 40, budgetMs: 2 }).done) break;
}
