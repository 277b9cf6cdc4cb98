// Child process of the crash test: walks a deterministic settled feed through the store (settlements and the
// cursor in one transaction, pages overlapping as the inclusive cursor makes them) and writes ticks, forever,
// until the parent kills it. It resumes from the stored cursor, as the recorder does after a crash.
import { openStore } from '../../src/core/store';
import { market, settledAtSeconds, settledEvent } from './gen';

const path = process.argv[2];
if (!path) throw new Error('usage: crash-child <db>');
const store = openStore({ path });
const PAGE = 20;

/** Index of the first generated settlement whose settled_at second is >= the cursor. */
function firstAt(cursor: number): number {
  let i = 0;
  while (settledAtSeconds(i) < cursor) i++;
  return i;
}

let cursor = store.settlements.settledCursor() ?? settledAtSeconds(0);
let seq = 0;
process.stdout.write('ready\n');
for (;;) {
  const first = firstAt(cursor);
  const events = Array.from({ length: PAGE }, (_, k) => settledEvent(first + k, 5 + ((first + k) % 7)));
  const last = events[events.length - 1];
  const next = settledAtSeconds(first + PAGE - 1);
  store.settlements.recordSettledPage(events, next);
  cursor = next;
  if (!last) break;
  for (let b = 0; b < 5; b++, seq++) {
    store.odds.recordTickBatches(
      Array.from({ length: 20 }, (_, e) => ({ eventId: e, markets: [market(e * 10 + (seq % 10), seq)], at: seq })),
    );
  }
}
