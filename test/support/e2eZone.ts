// The zone the end-to-end suite runs in (issue 37): a half-hour zone, not UTC, so a time or a day computed in UTC
// where the trader's zone was meant shows. The page gets it as Playwright's timezoneId and every host as TZ
// (playwright.config.ts); a spec computes what it expects in it. A fixed offset (no summer time) keeps a run the same
// on any date; the clock changes are the unit tests' (test/format/dayStart.test.ts, autumn-day.test.ts).
// ODDSDESK_E2E_TZ=UTC runs the suite in UTC.
export const E2E_TIME_ZONE = process.env['ODDSDESK_E2E_TZ'] || 'Asia/Kolkata';
