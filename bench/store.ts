// Store benchmark: odds-tick ingest through the store against a bare better-sqlite3 insert loop over the same rows
// (same schema, same pragmas, same transaction size), and the latency of filtered, paged settlements queries over
// 1,000,000 stored settlement lines.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type TickBatch } from '../src/core/store';
import { formatServiceTime, type Market, type SettledEvent } from '../src/shared/api';
import type { SettlementQuery } from '../src/shared/domain';
import { market, settledEvent } from '../test/store/gen';

export interface StoreBenchFigures {
  ingest_rows_per_s: number;
  ingest_bare_rows_per_s: number;
  ingest_ratio: number;
  settlements_query_p50_ms: number;
  settlements_query_p99_ms: number;
  settlements_seed_s: number;
}

const EVENTS = 200;
const LINES_PER_EVENT = 40;
const MARKETS_PER_MESSAGE = 10;
const TICK_ROWS = 300_000;
/** One transaction per this many odds messages: the monitor writes ticks every 250 ms (100 messages at 400/s). */
const MESSAGES_PER_TX = 100;

const SETTLEMENTS = 100_000;
const LINES_PER_SETTLEMENT = 10;
const QUERIES = 2_000;

function tickBatches(): TickBatch[] {
  const batches: TickBatch[] = [];
  let rows = 0;
  for (let seq = 0; rows < TICK_ROWS; seq++) {
    const eventId = seq % EVENTS;
    const first = (seq * 3) % LINES_PER_EVENT;
    const markets: Market[] = [];
    for (let k = 0; k < MARKETS_PER_MESSAGE; k++)
      markets.push(market(eventId * 1000 + ((first + k) % LINES_PER_EVENT), seq));
    batches.push({ eventId, markets, at: 1_700_000_000_000 + seq });
    rows += markets.length;
  }
  return batches;
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function bestOf(runs: number, fn: () => number): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) best = Math.min(best, fn());
  return best;
}

function measureIngest(dir: string): { store: number; bare: number } {
  const groups = chunks(tickBatches(), MESSAGES_PER_TX);
  const rows = groups.flat().reduce((n, b) => n + b.markets.length, 0);
  let run = 0;

  const storeSeconds = bestOf(3, () => {
    const store = openStore({ path: join(dir, `ingest-store-${run++}.db`) });
    const t = performance.now();
    for (const g of groups) store.odds.recordTickBatches(g);
    const s = (performance.now() - t) / 1000;
    store.close();
    return s;
  });

  const bareSeconds = bestOf(3, () => {
    // The store creates the schema and is closed; the bare loop reopens the file with the store's pragmas.
    const path = join(dir, `ingest-bare-${run++}.db`);
    openStore({ path }).close();
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    const insert = db.prepare(`
      INSERT INTO odds_ticks (event_id, line_id, at, line, price_home, price_draw, price_away, price_over, price_under,
                              max_win)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const tx = db.transaction((g: TickBatch[]) => {
      for (const b of g)
        for (const m of b.markets) {
          const p = m.prices;
          insert.run(
            b.eventId,
            m.line_id,
            b.at,
            m.line,
            p?.home ?? null,
            p?.draw ?? null,
            p?.away ?? null,
            p?.over ?? null,
            p?.under ?? null,
            m.max_win,
          );
        }
    });
    const t = performance.now();
    for (const g of groups) tx(g);
    const s = (performance.now() - t) / 1000;
    db.close();
    return s;
  });

  return { store: rows / storeSeconds, bare: rows / bareSeconds };
}

/** Two years of settlements, one every ~10 minutes, 5 sports, 40 leagues. */
function benchSettlement(i: number): SettledEvent {
  const e = settledEvent(i, LINES_PER_SETTLEMENT);
  const at = Date.UTC(2024, 0, 1) + i * 631_000;
  return { ...e, settled_at: formatServiceTime(at), starts: formatServiceTime(at - 7_200_000) };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}

function measureQueries(dir: string): {
  p50: number;
  p99: number;
  seedSeconds: number;
  lines: number;
  shapeP99: string[];
} {
  const store = openStore({ path: join(dir, 'settlements.db') });
  const events = Array.from({ length: SETTLEMENTS }, (_, i) => benchSettlement(i));
  const t = performance.now();
  store.settlements.recordSettledPage(events, 1);
  const seedSeconds = (performance.now() - t) / 1000;
  store.maintenance.maintain();
  const lines = events.reduce((n, e) => n + e.settlement.length, 0);

  const span = SETTLEMENTS * 631_000;
  const start = Date.UTC(2024, 0, 1);
  const teams = ['borava', 'øst', 'linberg rov', 'sanula', 'gra'];
  let seed = 7;
  const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed % n);
  // The filters a trader combines in the review screen, newest first, 50 a page, with the total.
  const shapes: (() => SettlementQuery)[] = [
    () => ({ sportId: 1 + rnd(5) }),
    () => {
      const from = start + rnd(span);
      return { sportId: 1 + rnd(5), from, to: from + 30 * 86_400_000 };
    },
    () => ({ leagueId: 100 + rnd(40) }),
    () => ({ sportId: 1 + rnd(5), outcome: { side: 'home', result: 'win', scope: 'moneyline' } }),
    () => ({ sportId: 1 + rnd(5), team: teams[rnd(teams.length)] }),
    () => {
      const from = start + rnd(span);
      return {
        from,
        to: from + 7 * 86_400_000,
        outcome: { side: 'away', result: 'push', scope: 'any', market: 'spread' },
      };
    },
    () => ({
      leagueId: 100 + rnd(40),
      team: teams[rnd(teams.length)],
      outcome: { side: 'home', result: 'loss', scope: 'moneyline' },
    }),
  ];
  const times: number[] = [];
  const byShape: number[][] = shapes.map(() => []);
  for (let i = 0; i < QUERIES + 100; i++) {
    const q = shapes[i % shapes.length]!();
    const t0 = performance.now();
    const page = store.settlements.querySettlements(q);
    // Every third query is the next page of the same filter, as when the trader scrolls.
    if (i % 3 === 0 && page.next) store.settlements.querySettlements({ ...q, after: page.next, withoutTotal: true });
    const ms = performance.now() - t0;
    // The first hundred warm the page cache and the statement cache.
    if (i >= 100) {
      times.push(ms);
      byShape[i % shapes.length]!.push(ms);
    }
  }
  const shapeP99 = byShape.map((t) =>
    percentile(
      t.sort((a, b) => a - b),
      0.99,
    ).toFixed(1),
  );
  store.close();
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99), seedSeconds, lines, shapeP99 };
}

export async function runStoreBench(log: (line: string) => void = console.log): Promise<StoreBenchFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'oddsdesk-bench-'));
  try {
    const ingest = measureIngest(dir);
    log(
      `odds-tick ingest: store ${Math.round(ingest.store)} rows/s, bare insert loop ${Math.round(ingest.bare)} rows/s, ratio ${(ingest.store / ingest.bare).toFixed(2)} (goal >= 0.5)`,
    );
    const q = measureQueries(dir);
    log(`settlements: seeded ${q.lines} lines (${SETTLEMENTS} settlements) in ${q.seedSeconds.toFixed(1)} s`);
    log(
      `settlements query (filtered, paged, with total): p50 ${q.p50.toFixed(2)} ms, p99 ${q.p99.toFixed(2)} ms (goal p99 <= 20 ms); p99 per filter shape: ${q.shapeP99.join(', ')} ms`,
    );
    return {
      ingest_rows_per_s: Math.round(ingest.store),
      ingest_bare_rows_per_s: Math.round(ingest.bare),
      ingest_ratio: Number((ingest.store / ingest.bare).toFixed(3)),
      settlements_query_p50_ms: Number(q.p50.toFixed(3)),
      settlements_query_p99_ms: Number(q.p99.toFixed(3)),
      settlements_seed_s: Number(q.seedSeconds.toFixed(2)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
