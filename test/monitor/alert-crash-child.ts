// Child of alert-crash.test.ts: follows settlements from a scripted service into a store, watching every even
// event id, until the walk reaches the end; the parent SIGKILLs it at random moments.
import { createApiClient } from '../../src/core/api';
import { realClock } from '../../src/core/clock';
import { createSettlementFollower } from '../../src/core/monitor/settlementFollower';
import { DEFAULT_MONITOR_SETTINGS } from '../../src/core/settingsService';
import { openStore } from '../../src/core/store';

const [dbPath, url, total] = process.argv.slice(2) as [string, string, string];
const store = openStore({ path: dbPath });
const client = createApiClient({
  baseUrl: url,
  keyProvider: () => 'crash-test-key',
  governor: { retry: { baseMs: 1, maxMs: 2 } },
});
const follower = createSettlementFollower({
  client,
  store,
  clock: realClock,
  notifier: { notify: () => undefined },
  isWatched: (id) => id % 2 === 0,
  settings: () => ({ ...DEFAULT_MONITOR_SETTINGS, maxWinThresholdPct: 0, mutedEvents: new Set() }),
  spareQuota: () => 0,
  emit: () => undefined,
  pageLimit: 7,
  reportProblems: () => undefined,
  reportError: () => undefined,
});
process.stdout.write('ready\n');
for (;;) {
  const r = await follower.sync();
  if (
    !r.error &&
    store.settlements.knownSettlements(Array.from({ length: Number(total) }, (_, i) => 1000 + i)).size === Number(total)
  )
    break;
}
store.close();
process.stdout.write('done\n');
process.exit(0);
