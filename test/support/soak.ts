// Soak sizes: every long test runs small by default (a few kills, a short simulated span that still crosses the
// interesting events) and at full size under `npm run test:soak`, which sets ODDSDESK_SOAK=full. Each sized test
// prints one line saying which size ran, so a reader of the log knows what passed.

/** True when the full soak sizes were asked for (ODDSDESK_SOAK=full). */
export const FULL = process.env['ODDSDESK_SOAK'] === 'full';

/** The small value by default, the full one under ODDSDESK_SOAK=full. */
export function soak<T>(small: T, full: T): T {
  return FULL ? full : small;
}

/** The one line a sized test prints: `[soak small] crash: 5 SIGKILLs (full: 50)`. */
export function soakLine(what: string): string {
  return `[soak ${FULL ? 'full' : 'small'}] ${what}`;
}

export function logSoak(what: string): void {
  console.log(soakLine(what));
}
