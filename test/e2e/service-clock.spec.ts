// Issue 37, every clock (browser mode, the real core, the simulator on the wall clock with its own clock 3 minutes
// ahead of this machine's, then 3 minutes behind): the status bar names the skew; a price the service sets now reads
// "now" in the row's age (never "3m", never nothing), though the service stamps it 3 minutes off our clock; and the
// detail's "kick-off in N min" counts on the service's clock, whose start it is (docs/trading.md, "Clocks").
import { test as base, expect } from '@playwright/test';
import type { Simulator } from '../../src/sim';
import { simulatorAndHost, watchById } from './fixtures';

const KEY = 'e2e-service-clock-trader-key';
const MIN = 60_000;

for (const skewMs of [3 * MIN, -3 * MIN]) {
  const words = skewMs > 0 ? 'ahead' : 'behind';
  const test = base.extend<{ sim: Simulator }>({
    sim: simulatorAndHost({
      key: KEY,
      name: `service-clock-${words}`,
      viewport: { width: 1600, height: 900 },
      sim: { clock: 'real', speed: 1, skewMs },
    }),
  });

  test(`the service's clock 3 minutes ${words}: a fresh price reads "now", kick-off counts on the service's clock`, async ({
    page,
    sim,
  }) => {
    await expect(page.getByTestId('status-skew')).toHaveText(`service clock ${skewMs > 0 ? '+' : '-'}3 min`);
    // A match 10 to 50 minutes before its start (the service's clock), its moneyline priced.
    const startsOf = (e: { starts: string }) => Date.parse(`${e.starts}Z`);
    const event = sim.truth
      .bookIds()
      .map((id) => sim.truth.event(id)!)
      .find(
        (e) =>
          e.live_status !== 1 &&
          startsOf(e) - sim.now() > 10 * MIN &&
          startsOf(e) - sim.now() < 50 * MIN &&
          e.markets.some((m) => m.market === 'moneyline' && m.period === 0 && m.prices),
      );
    if (!event) throw new Error('no match 10 to 50 minutes before its start in the book');
    const id = event.event_id;
    await watchById(page, id);

    // The service sets a price now, stamped on its clock: 3 minutes ahead of ours, or behind.
    const ml = event.markets.find((m) => m.market === 'moneyline' && m.period === 0)!;
    sim.script.setMarket(
      id,
      ml.line_id,
      ml.prices!.draw === undefined ? { home: 2.34, away: 1.66 } : { home: 2.34, draw: 3.3, away: 3.1 },
    );
    await expect(page.getByTestId(`watch-row-${id}`).getByTestId(`price-${id}-${ml.line_id}-home`)).toHaveText(
      /2\.340$/,
    );
    await expect(page.getByTestId(`age-${id}`)).toHaveText(/^(now|[1-9]s)$/);

    // The detail's count to kick-off: the service's start against the service's now (a minute may pass meanwhile).
    await page.getByTestId(`watch-row-${id}`).dblclick();
    const left = Math.ceil((startsOf(event) - sim.now()) / MIN);
    await expect(page.getByTestId('detail-kickoff')).toHaveText(new RegExp(`^kick-off in (${left}|${left - 1}) min$`));
  });
}
