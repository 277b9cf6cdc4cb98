// `npm run bench`: runs each bench module and merges its flat figures into bench/results.json, keeping the keys
// other benches wrote (each bench owns its own keys). `npm run bench -- tick` runs one; `-- tick --soak-s 60` passes
// an option on (bench/tickToScreen.ts reads its own; `-- page --walks 50 --soak-s 60`, bench/pageSoak.ts).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCheckpointBench } from './checkpoint';
import { runCompactionBench } from './compaction';
import { runHistoryBench } from './history';
import { runLedgerBench } from './ledger';
import { runPageSoakBench } from './pageSoak';
import { runRuleLabBench } from './rulelab';
import { runScoreboardBench } from './scoreboard';
import { runStoreBench } from './store';
import { runTickToScreenBench } from './tickToScreen';

type Figures = Record<string, number>;
type Bench = { name: string; run: () => Promise<object> };

const BENCHES: Bench[] = [
  { name: 'store', run: () => runStoreBench() },
  { name: 'compaction', run: () => runCompactionBench() },
  { name: 'checkpoint', run: () => runCheckpointBench() },
  { name: 'tick', run: () => runTickToScreenBench() },
  { name: 'scoreboard', run: () => runScoreboardBench() },
  { name: 'ledger', run: () => runLedgerBench() },
  { name: 'history', run: () => runHistoryBench() },
  { name: 'page', run: () => runPageSoakBench() },
  { name: 'rulelab', run: () => runRuleLabBench() },
];

const resultsPath = join(dirname(fileURLToPath(import.meta.url)), 'results.json');

function readResults(): Figures {
  if (!existsSync(resultsPath)) return {};
  try {
    return JSON.parse(readFileSync(resultsPath, 'utf8')) as Figures;
  } catch {
    return {};
  }
}

async function main(): Promise<void> {
  // Bench names; options (`--soak-s 60`) and their values are for the benches, which read them themselves.
  const args = process.argv.slice(2);
  const only = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
  for (const b of BENCHES) {
    if (only.length && !only.includes(b.name)) continue;
    console.log(`# ${b.name}`);
    const figures = await b.run();
    // Re-read before writing so a bench that ran meanwhile keeps its keys.
    writeFileSync(resultsPath, JSON.stringify({ ...readResults(), ...figures }, null, 2) + '\n');
  }
  console.log(`results merged into ${resultsPath}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
