// Issue 37, every clock: the Settlements view's day filter in the suite's zone (test/support/e2eZone.ts, a half-hour
// zone), on a history that runs through that zone's midnight (the simulator's world starts an hour after it, with
// three hours of settlements behind it). Each day typed as YYYY-MM-DD shows exactly the settlements of that day on the
// zone's clock: computed here from the simulator's truth in the zone, so a day taken from UTC's midnight (five and a
// half hours off in Kolkata) shows other rows.
import { test as base, expect } from '@playwright/test';
import { formatServiceTime } from '../../src/shared/api';
import { dayStartIn, formatDay } from '../../src/shared/formats';
import type { Simulator } from '../../src/sim';
import { E2E_TIME_ZONE } from '../support/e2eZone';
import { simulatorAndHost } from './fixtures';

const KEY = 'e2e-zone-days-trader-key';
const MIDNIGHT = dayStartIn('2026-11-23', E2E_TIME_ZONE)!;

const test = base.extend<{ sim: Simulator }>({
  sim: simulatorAndHost({
    key: KEY,
    name: 'zone-days',
    viewport: { width: 1600, height: 900 },
    sim: { startTime: formatServiceTime(MIDNIGHT + 3_600_000), historyHours: 3 },
  }),
});

test("a day filter in the zone's days: each day shows its own settlements, either side of the zone's midnight", async ({
  page,
  sim,
}) => {
  const settled = sim.truth.settled();
  const dayOf = (s: { settled_at: string }) => formatDay(Date.parse(`${s.settled_at}Z`), E2E_TIME_ZONE);
  const days = [...new Set(settled.map(dayOf))].sort();
  expect(days).toEqual(['2026-11-22', '2026-11-23']);

  await page.keyboard.press('t');
  await expect(page.getByTestId('settlement-count')).toHaveText(`${settled.length} settled`);
  const rows = page.locator('[data-testid^="settlement-row-"]');
  const ids = async () =>
    (
      await rows.evaluateAll((els) =>
        els.map((e) => Number(e.getAttribute('data-testid')!.replace('settlement-row-', ''))),
      )
    ).sort();
  for (const day of days) {
    const want = settled.filter((s) => dayOf(s) === day);
    await page.getByTestId('settlement-from').fill(day);
    await page.getByTestId('settlement-to').fill(day);
    await expect(page.getByTestId('settlement-count')).toHaveText(`${want.length} settled`);
    await expect.poll(ids).toEqual(want.map((s) => s.event_id).sort());
  }
});
