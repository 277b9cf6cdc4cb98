// The tick load of the compaction crash test, shared by the test and its child process.
export const T0 = Date.UTC(2026, 0, 1);
/** One batch per simulated five minutes: the raw window's edge moves in five-minute steps, so every batch gives
 *  compaction work. */
export const BATCH_MS = 300_000;
/** 20 lines, 150 ticks a batch, a max_win change every ~20 ticks of a line: many change points. */
export const CRASH_LOAD = { events: 2, linesPerEvent: 10, updatesPerSecond: 0.5, maxWinEvery: 20 } as const;
export const BATCH = (CRASH_LOAD.updatesPerSecond * BATCH_MS) / 1000;
