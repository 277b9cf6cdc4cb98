// Page steps the specs that settle a match through a scripted /api/settled share (resettle, issue35-money), and that
// scripted /api/settled itself.
import { expect, type Page } from '@playwright/test';
import type { SettledEvent } from '../../src/shared/api';

const seconds = (iso: string) => Math.floor(Date.parse(`${iso}Z`) / 1000);

/**
 * A rewrite of /api/settled (for the rewriting proxy) answering with the match `current()` gives, once it is at or
 * after the page's `since`; nothing while it gives null.
 */
export function scriptedSettled(current: () => SettledEvent | null): (url: URL) => unknown {
  return (url) => {
    const settlement = current();
    const sinceText = url.searchParams.get('since');
    const since = sinceText === null ? null : Number(sinceText);
    const events = settlement && (since === null || seconds(settlement.settled_at) >= since) ? [settlement] : [];
    const last = events.length ? seconds(events[0]!.settled_at) : (since ?? 0);
    return { last, since: since ?? 0, count: events.length, events };
  };
}

/** The palette's "Check settlements now" (the host also walks on its own every minute: either may read the page). */
export async function checkSettlementsNow(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('palette-input')).toBeFocused();
  await page.keyboard.type('check settlements now');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('toast').filter({ hasText: 'Settlements checked:' }).last()).toBeVisible();
}

/** The Bets view, loaded afresh (it reads the bet log when it opens). */
export async function openBets(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await page.keyboard.press('w');
  await page.keyboard.press('b');
  await expect(page.getByTestId('nav-bets')).toHaveAttribute('aria-current', 'page');
}

/** Checks settlements and opens the Bets view until `see` holds (a walk already under way may have read the page before). */
export async function untilBetsShow(page: Page, see: () => Promise<void>): Promise<void> {
  await expect(async () => {
    await checkSettlementsNow(page);
    await openBets(page);
    await see();
  }).toPass({ timeout: 20_000 });
}
