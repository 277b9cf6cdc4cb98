// Child process of the checkpointer's crash test: writes odds ticks through the store in transactions of TICKS_PER_TX,
// as fast as it can, with the checkpointer looking every few ms, until the parent kills it. It says
// `ready <where its checkpoints run> <ticks per transaction>`, then `committed <n>` after each commit (stdout is a
// pipe, written synchronously: the line is out before the next transaction starts). Bundled with the checkpointer's
// thread beside it (crash.test.ts), as the CLI bundle carries it.
import { openStore } from '../../src/core/store';
import { market } from './gen';

const TICKS_PER_TX = 20;

const path = process.argv[2];
if (!path) throw new Error('usage: checkpoint-child <db>');
const store = openStore({ path, checkpointer: { everyMs: 5 } });
process.stdout.write(`ready ${store.maintenance.walCheckpoints()} ${TICKS_PER_TX}\n`);
for (let seq = 0; ; seq++) {
  store.odds.recordTickBatches(
    Array.from({ length: TICKS_PER_TX }, (_, e) => ({
      eventId: e,
      markets: [market(e * 40 + (seq % 40), seq)],
      at: seq,
    })),
  );
  process.stdout.write(`committed ${seq + 1}\n`);
}
