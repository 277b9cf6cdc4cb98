// End-to-end tests drive Debian's Chromium (Playwright cannot download its own browsers here).
import { defineConfig } from '@playwright/test';
import { E2E_TIME_ZONE } from './test/support/e2eZone';

export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

// Issue 37: the suite runs in a half-hour zone (test/support/e2eZone.ts), the page (timezoneId) and every host it starts (TZ,
// inherited by the workers and their children) alike.
process.env['TZ'] = E2E_TIME_ZONE;

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  // The CLI bundle that starts each host and the renderer it serves, built once (skipped under `npm test`, which
  // builds them itself).
  globalSetup: './test/e2e/globalSetup.ts',
  // `npm test` gives each run a folder of its own (Playwright empties it at the start: another run's must be left alone).
  outputDir: process.env['ODDSDESK_E2E_OUTPUT'] ?? 'test-results',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  // Two at a time: a test is mostly waiting on its simulator, host and page (a run of them alone keeps about a fifth
  // of two cores busy). ODDSDESK_E2E_WORKERS overrides.
  workers: Number(process.env['ODDSDESK_E2E_WORKERS'] ?? 2),
  reporter: process.env['PW_JSON_OUTPUT']
    ? [['list'], ['json', { outputFile: process.env['PW_JSON_OUTPUT'] }]]
    : 'list',
  use: {
    browserName: 'chromium',
    timezoneId: E2E_TIME_ZONE,
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
      ],
    },
    trace: 'off',
  },
});
