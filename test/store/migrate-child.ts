// Child process of the migration kill test and the history bench: opens a history file as the app does, with the
// table rebuild (test/support/rebuildMigration.ts) after the app's migrations, writing each progress report to
// stdout as `progress DONE TOTAL` (synchronously, so the parent sees it while the rebuild runs on), then `done V`.
import { writeSync } from 'node:fs';
import { openStore } from '../../src/core/store';
import { rebuildLineBars } from '../support/rebuildMigration';

const [path, slice] = process.argv.slice(2);
if (!path) throw new Error('usage: migrate-child <db> [sliceRows]');
const store = openStore({
  path,
  // No threads: the bundled child has no worker entries beside it, and the upgrade runs before either would start.
  checkpoints: 'sqlite',
  extraMigrations: [rebuildLineBars(slice ? Number(slice) : undefined)],
  onMigrationProgress: (p) => writeSync(1, `progress ${p.done} ${p.total}\n`),
});
writeSync(1, `done ${store.maintenance.schemaVersion()}\n`);
store.close();
