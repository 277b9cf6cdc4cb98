// Child process of the writer's crash test: hands odds ticks to the store's writer thread as fast as it takes them
// (at most 8 messages in flight), message k being TICKS ticks stamped k, until the parent kills it. It says
// `ready <where the writes go> <ticks per message>`, then `committed <k>` each time settled() says messages up to k are
// committed. Bundled with the store's threads beside it (crash.test.ts), as the CLI bundle carries them.
import { openStore } from '../../src/core/store';
import { market } from './gen';

const TICKS = 20;

const path = process.argv[2];
if (!path) throw new Error('usage: writer-child <db>');
const store = openStore({ path, writer: { mode: 'thread', maxBacklog: 8 } });
process.stdout.write(`ready ${store.writer.where()} ${TICKS}\n`);
let k = 0;
for (;;) {
  for (let i = 0; i < 4; i++) {
    k++;
    store.writer.recordTickBatches(
      Array.from({ length: TICKS }, (_, e) => ({ eventId: e, markets: [market(e * 40 + (k % 40), k)], at: k })),
    );
  }
  const upTo = k;
  await store.writer.settled();
  process.stdout.write(`committed ${upTo}\n`);
}
