// The ingest's odds: stream ticks (every tick kept raw, each line's latest state once per write) and a line's max_win
// change points, found against the ledger of each line's last max stake (../maxWinLedger.ts).
import type Database from 'better-sqlite3';
import type { Market } from '../../../../shared/api';
import { UPSERT_LINE_MAX_WIN_POINT, type MarketLineRow, type PriceColumns } from '../rows';
import type { KeptMaxWins, MaxWinLedger } from '../maxWinLedger';

/** One odds message's worth of ticks: the markets that changed on one event at one instant. */
export interface TickBatch {
  eventId: number;
  markets: readonly Market[];
  at: number;
}

/** odds_ticks' columns in order: event_id, line_id, at, line, the five prices, max_win. */
type TickArgs = [
  number,
  number,
  number,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
];

const priceParams = (m: Market): PriceColumns => {
  const p = m.prices;
  return {
    price_home: p?.home ?? null,
    price_draw: p?.draw ?? null,
    price_away: p?.away ?? null,
    price_over: p?.over ?? null,
    price_under: p?.under ?? null,
  };
};

export interface OddsWrites {
  /** Writes ticks (inside the caller's transaction); returns each line's max_win as of its last tick written. */
  ticks(batches: readonly TickBatch[]): KeptMaxWins;
  /** A snapshot replaces what was held of the event: lines it does not carry are offline until they come back. */
  markOffline(eventId: number): void;
}

export function createOddsWrites(
  db: Database.Database,
  ledger: Pick<MaxWinLedger, 'before'>,
  touch: (eventId: number, first: number, last: number) => void,
): OddsWrites {
  // The hot statement (every tick of every watched line, thousands a second): bound by position, with no object made
  // per tick. Named parameters cost a quarter of the ingest's rate here (`npm run bench -- store`: 84,000 against
  // 108,000 rows a second), so this one keeps the columns' order in its comment instead.
  const insertTick = db.prepare<TickArgs>(`
    INSERT INTO odds_ticks (event_id, line_id, at, line, price_home, price_draw, price_away, price_over, price_under,
                            max_win)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  // A late batch (older `at`) never overwrites a newer latest state.
  const upsertLine = db.prepare<MarketLineRow>(`
    INSERT INTO market_lines (event_id, line_id, period, market, side, line, price_home, price_draw, price_away,
                              price_over, price_under, max_win, offline, updated_at, seen_at)
    VALUES (@event_id, @line_id, @period, @market, @side, @line, @price_home, @price_draw, @price_away,
            @price_over, @price_under, @max_win, @offline, @updated_at, @seen_at)
    ON CONFLICT(event_id, line_id) DO UPDATE SET
      period = excluded.period, market = excluded.market, side = excluded.side, line = excluded.line,
      price_home = excluded.price_home, price_draw = excluded.price_draw, price_away = excluded.price_away,
      price_over = excluded.price_over, price_under = excluded.price_under, max_win = excluded.max_win,
      offline = excluded.offline, updated_at = excluded.updated_at, seen_at = excluded.seen_at
    WHERE excluded.seen_at >= market_lines.seen_at`);
  const markEventLinesOffline = db.prepare<[number]>(`UPDATE market_lines SET offline = 1 WHERE event_id = ?`);
  // A market line's max_win change points, written as the ticks arrive (compaction writes the same keys again,
  // harmlessly): the limit timeline and `export max-win` never depend on raw ticks surviving retention.
  const upsertLinePoint = db.prepare(UPSERT_LINE_MAX_WIN_POINT);

  function writeLine(eventId: number, m: Market, at: number): void {
    // Once per line per write (as often as ticks on a busy stream): one object, no spread.
    const p = m.prices;
    upsertLine.run({
      event_id: eventId,
      line_id: m.line_id,
      period: m.period,
      market: m.market,
      side: m.side,
      line: m.line,
      price_home: p?.home ?? null,
      price_draw: p?.draw ?? null,
      price_away: p?.away ?? null,
      price_over: p?.over ?? null,
      price_under: p?.under ?? null,
      max_win: m.max_win,
      offline: m.prices ? 0 : 1,
      updated_at: m.updated_at,
      seen_at: at,
    });
  }

  /** A change point where the tick moved the line's limit from `before` (or the line's first: undefined). */
  function changePoint(eventId: number, m: Market, at: number, before: number | null | undefined): void {
    if (before !== undefined && before === m.max_win) return;
    const p = priceParams(m);
    upsertLinePoint.run(
      eventId,
      m.line_id,
      at,
      m.max_win,
      before ?? null,
      m.line,
      p.price_home,
      p.price_draw,
      p.price_away,
      p.price_over,
      p.price_under,
    );
  }

  function ticks(batches: readonly TickBatch[]): KeptMaxWins {
    // The latest state of a line is written once per transaction, not once per tick: the stream repeats hot lines.
    const latest = new Map<number, Map<number, { m: Market; at: number }>>();
    // eventId -> lineId -> max_win as of the last tick of this transaction.
    const limits: KeptMaxWins = new Map();
    // Each event is touched once per transaction (its first and last tick here), not once per stream message.
    const seen = new Map<number, { first: number; last: number }>();
    for (const b of batches) {
      const span = seen.get(b.eventId);
      if (!span) seen.set(b.eventId, { first: b.at, last: b.at });
      else {
        if (b.at < span.first) span.first = b.at;
        if (b.at > span.last) span.last = b.at;
      }
      let lines = latest.get(b.eventId);
      if (!lines) latest.set(b.eventId, (lines = new Map()));
      let known = limits.get(b.eventId);
      for (const m of b.markets) {
        const p = m.prices;
        insertTick.run(
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
        if (!known) limits.set(b.eventId, (known = new Map()));
        const here = known.get(m.line_id);
        changePoint(b.eventId, m, b.at, here ? here.maxWin : ledger.before(b.eventId, m.line_id, b.at));
        if (!here || here.at <= b.at) known.set(m.line_id, { maxWin: m.max_win, at: b.at });
        const prev = lines.get(m.line_id);
        if (!prev || prev.at <= b.at) lines.set(m.line_id, { m, at: b.at });
      }
    }
    for (const [eventId, { first, last }] of seen) touch(eventId, first, last);
    for (const [eventId, lines] of latest) for (const { m, at } of lines.values()) writeLine(eventId, m, at);
    return limits;
  }

  return { ticks, markOffline: (eventId) => void markEventLinesOffline.run(eventId) };
}
