// Must show 1: 48 simulated hours of odds at the benchmark's per-line rate (2,000 updates/s over 8,000 lines is
// one tick per line every 4 s; here over 20 lines, since size scales with lines and the ratio does not), on the
// manual clock, compacted as the app would schedule it. The file ends at most 1/20 of what the raw ticks alone
// take, and the history over the compacted range has the same per-minute open/close and the same max_win steps.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/core/store';
import type { Prices } from '../../src/shared/api';
import { createManualClock } from '../support/manualClock';
import { FULL, logSoak, soak } from '../support/soak';
import { createTickLoad } from './ticks';

const HOUR = 3_600_000;
// 48 simulated hours under `npm run test:soak`; by default 8, which still compacts six hours minute by minute.
const HOURS = soak(8, 48);
const LINES = 20;
const LOAD = { events: 1, linesPerEvent: LINES, updatesPerSecond: LINES / 4 };
const BATCH_MS = 300_000;
const dir = mkdtempSync(join(tmpdir(), 'compact48-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const clean = (p: Prices | null) =>
  p ? Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)) : null;

describe('48 simulated hours at the benchmark rate', () => {
  it('end at most 1/20 of the raw size, with the same open/close and max_win steps', async () => {
    const clock = createManualClock(Date.UTC(2026, 0, 1));
    const t0 = clock.now();
    const store = openStore({ path: join(dir, 'compacted.db'), clock: () => clock.now(), rawTickHours: 1 });
    const rawOnly = openStore({ path: join(dir, 'raw.db'), clock: () => clock.now() });
    const load = createTickLoad(LOAD);
    const watched = load.lineIds.slice(0, 3);
    // Per watched line: each minute's first and last prices, and every max_win change, from the ticks themselves.
    const minutes = new Map<string, { first: Prices | null; last: Prices | null }>();
    const changes = new Map<number, [number, number][]>(watched.map((w) => [w.lineId, []]));
    let total = 0;
    let rawSampleTicks = 0;
    let longestStepMs = 0;
    let steps = 0;
    for (let at = t0; at < t0 + HOURS * HOUR; at += BATCH_MS) {
      const batch = load.next(at, BATCH_MS);
      total += batch.length;
      for (const b of batch) {
        const m = b.markets[0]!;
        const seen = changes.get(m.line_id);
        if (!seen) continue;
        const key = `${m.line_id}:${Math.floor(b.at / 60_000)}`;
        const bar = minutes.get(key);
        if (bar) bar.last = clean(m.prices);
        else minutes.set(key, { first: clean(m.prices), last: clean(m.prices) });
        if (seen[seen.length - 1]?.[1] !== m.max_win) seen.push([b.at, m.max_win]);
      }
      store.odds.recordTickBatches(batch);
      // Two hours of raw ticks alone give the raw size per tick on this very load.
      if (at < t0 + 2 * HOUR) {
        rawOnly.odds.recordTickBatches(batch);
        rawSampleTicks += batch.length;
      }
      await clock.advance(BATCH_MS);
      for (;;) {
        // Bounded by rows, not time, so the run (and the file) is the same on any machine.
        const step = store.maintenance.compactStep({ maxRows: 2_000, budgetMs: Infinity });
        steps++;
        longestStepMs = Math.max(longestStepMs, step.ms);
        if (step.done) break;
      }
    }
    const usage = store.maintenance.usage();
    store.close();
    rawOnly.close();
    const rawPerTick = statSync(join(dir, 'raw.db')).size / rawSampleTicks;
    const size = statSync(join(dir, 'compacted.db')).size;
    logSoak(
      `${HOURS} h, ${total} ticks: ${(size / 1e6).toFixed(2)} MB compacted vs ${((total * rawPerTick) / 1e6).toFixed(1)} MB raw ` +
        `(${rawPerTick.toFixed(1)} B/tick), ratio 1/${((total * rawPerTick) / size).toFixed(1)}; ${steps} steps, longest ${longestStepMs.toFixed(1)} ms; ` +
        usage.kinds.map((k) => `${k.kind} ${(k.bytes / 1e6).toFixed(2)} MB`).join(', '),
    );
    // The file is the newest hour kept raw (rawTickHours, full detail at any size) plus the compacted rest. At 48 h
    // the raw hour is 1/48 of the ticks and the whole file must be at most 1/20 of the raw size (the must-show). At
    // the small size the raw hour alone is 1/8 of the ticks, so the bound is scaled the honest way: the file without
    // the raw hour's bytes must be at most 1/20 of the raw size.
    const rawHourBytes = usage.kinds.find((k) => k.kind === 'rawTicks')?.bytes ?? 0;
    expect(FULL ? size : size - rawHourBytes).toBeLessThanOrEqual((total * rawPerTick) / 20);

    const reopened = openStore({ path: join(dir, 'compacted.db'), clock: () => clock.now(), rawTickHours: 1 });
    const edge = t0 + (HOURS - 2) * HOUR;
    for (const { eventId, lineId } of watched) {
      const history = reopened.history.oddsHistory(eventId, lineId);
      let bars = 0;
      for (const p of history) {
        if (!p.bar) continue;
        const want = minutes.get(`${lineId}:${Math.floor(p.at / 60_000)}`);
        expect(p.prices).toEqual(p.bar.edge === 'open' ? want?.first : want?.last);
        bars++;
      }
      // The compacted range covers all but the last two hours at least (46 of 48), minute by minute.
      expect(bars).toBeGreaterThanOrEqual(2 * ((HOURS - 2) * 60 - 5));
      // The newest hour is raw ticks (so the check below is about something), each past the compacted range.
      const raw = history.filter((p) => !p.bar);
      expect(raw.length).toBeGreaterThan(0);
      expect(raw.every((p) => p.at > edge || history.some((q) => q.bar && Math.abs(q.at - p.at) < 60_000))).toBe(true);
      // The max_win steps a stepped chart draws: where the value changes, to what.
      const steps: [number, number][] = [];
      for (const p of history)
        if (p.maxWin !== null && steps[steps.length - 1]?.[1] !== p.maxWin) steps.push([p.at, p.maxWin]);
      expect(steps).toEqual(changes.get(lineId));
    }
    reopened.close();
  }, 240_000);
});
