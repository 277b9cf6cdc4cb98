// The thin slice through every layer: `npm run web` against a real simulator, opened in Chromium, shows exactly
// the coverage numbers the upstream served.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startSimulator } from '../../src/sim';
import { startWebHost, type WebHost } from './helpers';

test('npm run web prints a URL whose page shows the exact coverage the server served', async ({ page }) => {
  const sim = await startSimulator({
    port: 0,
    seed: 7,
    clock: 'manual',
    keys: [{ key: 'e2e-coverage-key', plan: 'starter' }],
  });
  let host: WebHost | undefined;
  try {
    const res = await fetch(new URL('/api/coverage', sim.url), { headers: { 'X-API-Key': 'e2e-coverage-key' } });
    const served = ((await res.json()) as { standard: Record<string, number> }).standard;
    expect(Object.keys(served).length).toBeGreaterThan(1);

    host = await startWebHost(
      [
        'npm',
        'run',
        'web',
        '--',
        '--port',
        '0',
        '--base-url',
        sim.url,
        '--db',
        path.join(mkdtempSync(path.join(tmpdir(), 'od-e2e-')), 'web.db'),
      ],
      {
        ODDSDESK_API_KEY: 'e2e-coverage-key',
      },
    );
    await page.goto(host.url);
    await page.getByRole('button', { name: /^Coverage/ }).click();
    await expect(page.getByTestId('coverage-table')).toBeVisible();
    for (const [sport, count] of Object.entries(served)) {
      await expect(page.getByTestId(`coverage-${sport}`)).toHaveText(count.toLocaleString('en-US'));
    }
    await expect(page.locator('[data-testid="coverage-table"] tbody tr')).toHaveCount(Object.keys(served).length);
  } finally {
    await host?.stop();
    await sim.close();
  }
});
