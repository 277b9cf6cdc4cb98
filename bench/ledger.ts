// Ledger report benchmark: the Bets view's Report tab (`bets:report`) over a bet log of 10,000 bets on 500 matches,
// every line closed and settled (test/support/ledgerBets.ts), beside the Bets view's own list of the same bets
// (`bets:list`), the yardstick a trader already waits for. Best of three each; the load average is printed beside
// them, since on a shared machine the wall time is mostly other people's work.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { betsHandlers } from '../src/core/handlers/bets';
import type { CoreContext } from '../src/core/handlers/context';
import { openStore } from '../src/core/store';
import { T0, writeLedgerBets } from '../test/support/ledgerBets';

export interface LedgerBenchFigures {
  ledger_report_ms_10k: number;
  bets_list_ms_10k: number;
}

export async function runLedgerBench(log: (line: string) => void = console.log): Promise<LedgerBenchFigures> {
  const store = openStore({ path: ':memory:', clock: () => T0 });
  try {
    writeLedgerBets(store, { matches: 500, bets: 10_000 });
    const h = betsHandlers({
      clock: { now: () => T0 },
      session: { current: () => ({ store }) },
      settings: { get: () => ({ devigModel: 'MPTO', oddsFormat: 'decimal' }) },
    } as unknown as CoreContext);
    const best = async (f: () => unknown): Promise<number> => {
      let ms = Infinity;
      for (let k = 0; k < 3; k++) {
        const started = performance.now();
        await f();
        ms = Math.min(ms, performance.now() - started);
      }
      return Math.round(ms);
    };
    const figures = {
      bets_list_ms_10k: await best(() => h['bets:list']({})),
      ledger_report_ms_10k: await best(() => h['bets:report']({})),
    };
    log(
      `ledger_report_ms_10k ${figures.ledger_report_ms_10k} (bets_list_ms_10k ${figures.bets_list_ms_10k}; load average ${loadavg()[0]!.toFixed(2)})`,
    );
    return figures;
  } finally {
    store.close();
  }
}
