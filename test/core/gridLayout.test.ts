// The watchlist grid's layout (issue 25, item 2: "the choice kept per profile"): the columns and sort a trader picks
// are kept by the core in the profile's own store, through settings:update and settings:get, so the demo and each
// service keep their own grid, across a restart, and the app-wide settings.json never holds one.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core/core';
import { createMemorySecretStore } from '../../src/core/secrets/memory';
import { openStore } from '../../src/core/store';
import { DEFAULT_GRID_LAYOUT, type GridLayout } from '../../src/shared/gridLayout';
import { startSimulator, type Simulator } from '../../src/sim';
import { createManualClock } from '../support/manualClock';
import { coreCaller, testCoreDeps } from '../support/testCore';

const sims: Simulator[] = [];
let core: Core | null = null;
afterEach(async () => {
  await core?.close();
  core = null;
  for (const s of sims.splice(0)) await s.close();
});

async function sim(seed: number, key: string): Promise<Simulator> {
  const s = await startSimulator({
    port: 0,
    seed,
    clock: 'manual',
    keys: [{ key, plan: 'enterprise' }],
    events: 10,
    historyHours: 1,
  });
  sims.push(s);
  return s;
}

it("keeps each profile's grid layout in that profile's store, across a restart, and never in settings.json", async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-grid-layout-'));
  const demo = await sim(11, 'demo-key-11');
  const real = await sim(12, 'real-key-12');
  const secrets = createMemorySecretStore();
  const options = () =>
    testCoreDeps({
      dataDir,
      secrets,
      clock: createManualClock(demo.now()),
      demo: { baseUrl: demo.url, key: 'demo-key-11' },
    });
  core = await createCore(options());
  await core.ready;
  let call = coreCaller(core);
  expect((await call('app:info')).demo).toBe(true);
  expect((await call('settings:get')).gridLayout).toEqual(DEFAULT_GRID_LAYOUT);

  // The demo's grid: three columns in the trader's order, sorted by max stake, largest first.
  const demoGrid: GridLayout = { columns: ['moneyline', 'maxWin', 'league'], sort: { key: 'maxWin', dir: -1 } };
  expect((await call('settings:update', { gridLayout: demoGrid })).gridLayout).toEqual(demoGrid);
  expect((await call('settings:get')).gridLayout).toEqual(demoGrid);

  // Another service is another profile: its grid starts from the default, and has its own.
  await call('settings:setApiKey', 'real-key-12', real.url);
  expect((await call('app:info')).demo).toBe(false);
  expect((await call('settings:get')).gridLayout).toEqual(DEFAULT_GRID_LAYOUT);
  const realGrid: GridLayout = { columns: ['start', 'total', 'fair', 'age'], sort: { key: 'over', dir: 1 } };
  // A layout saved with another setting: both are kept, each where it belongs.
  const saved = await call('settings:update', { gridLayout: realGrid, dropAlertPct: 7 });
  expect(saved.gridLayout).toEqual(realGrid);
  expect(saved.dropAlertPct).toBe(7);

  // A restart on the same service shows its grid; back to the demo shows the demo's.
  await core.close();
  core = await createCore(options());
  await core.ready;
  call = coreCaller(core);
  expect((await call('app:info')).demo).toBe(false);
  expect((await call('settings:get')).gridLayout).toEqual(realGrid);
  await call('settings:clearApiKey');
  await call('settings:update', { baseUrl: null });
  expect((await call('app:info')).demo).toBe(true);
  expect((await call('settings:get')).gridLayout).toEqual(demoGrid);
  await core.close();
  core = null;

  // Where it lives: the demo profile's store; the app's settings file holds the drop alert but no grid.
  const file = JSON.parse(readFileSync(path.join(dataDir, 'settings.json'), 'utf8')) as Record<string, unknown>;
  expect(file['dropAlertPct']).toBe(7);
  expect(file).not.toHaveProperty('gridLayout');
  const demoStore = openStore({ path: path.join(dataDir, 'profiles', 'demo.db') });
  try {
    expect(demoStore.settings.getSetting('grid.layout')).toEqual(demoGrid);
  } finally {
    demoStore.close();
  }
}, 60_000);

it('reads back a stored layout leniently: columns it does not know are dropped, an unknown sort is the default', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-grid-layout-old-'));
  const demo = await sim(13, 'demo-key-13');
  const start = () =>
    createCore(
      testCoreDeps({ dataDir, clock: createManualClock(demo.now()), demo: { baseUrl: demo.url, key: 'demo-key-13' } }),
    );
  core = await start();
  await core.ready;
  await core.close();
  // What another version of the app might have written.
  const store = openStore({ path: path.join(dataDir, 'profiles', 'demo.db') });
  store.settings.setSetting('grid.layout', {
    columns: ['total', 'sparkline', 'total', 'age'],
    sort: { key: 'volume', dir: -1 },
  });
  store.close();
  core = await start();
  await core.ready;
  expect((await coreCaller(core)('settings:get')).gridLayout).toEqual({
    columns: ['total', 'age'],
    sort: DEFAULT_GRID_LAYOUT.sort,
  });
}, 60_000);
