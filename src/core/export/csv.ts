// The one CSV (and text-lines) writer of the app and the CLI: rows go to a Writable as they are read from the
// store, in ~64 KiB chunks that wait for 'drain', so an export of a year of settlements never sits in memory as one
// string. Cells go through src/shared/csv (RFC 4180 quoting, formula cells neutralised). A file export is written
// beside its target and renamed into place only when complete, so a failed export leaves no half file behind.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, promises as fs } from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { formatServiceTime } from '../../shared/api';
import { csvRow } from '../../shared/csv';
import type { BetView, SettlementCursor, SettlementQuery } from '../../shared/domain';
import { DEFAULT_ODDS_FORMAT, oddsCell, type OddsFormat } from '../../shared/formats';
import type { Store } from '../store';

const CHUNK_CHARS = 64 * 1024;
const PAGE = 500;

function waitForDrain(sink: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      sink.off('drain', onDrain);
      sink.off('close', onClose);
      sink.off('error', done);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => done();
    const onClose = () => done(new Error('The output closed before the export was written'));
    sink.on('drain', onDrain);
    sink.on('close', onClose);
    sink.on('error', done);
  });
}

/** Writes text pieces to `sink` in chunks, honouring backpressure; rejects with the sink's error (disk full, EPIPE). */
export async function writeText(sink: Writable, pieces: Iterable<string>): Promise<void> {
  let failure: Error | null = null;
  const onError = (e: Error) => (failure ??= e);
  sink.on('error', onError); // an 'error' between two writes must not go unhandled
  const push = async (text: string) => {
    if (failure) throw failure;
    if (sink.destroyed || sink.writableEnded) throw new Error('The output closed before the export was written');
    if (!sink.write(text)) await waitForDrain(sink);
  };
  try {
    let buffer = '';
    for (const piece of pieces) {
      buffer += piece;
      if (buffer.length >= CHUNK_CHARS) {
        await push(buffer);
        buffer = '';
      }
    }
    if (buffer) await push(buffer);
    if (failure) throw failure;
  } finally {
    sink.off('error', onError);
  }
}

/** Writes a header and rows as CSV; resolves with the number of rows (without the header). */
export async function writeCsv(
  sink: Writable,
  header: readonly string[],
  rows: Iterable<readonly unknown[]>,
): Promise<number> {
  let count = 0;
  function* lines(): Generator<string> {
    yield csvRow(header);
    for (const row of rows) {
      count++;
      yield csvRow(row);
    }
  }
  await writeText(sink, lines());
  return count;
}

export const SETTLEMENT_CSV_HEADER = [
  'event_id',
  'sport_id',
  'league',
  'home',
  'away',
  'starts_utc',
  'settled_at_utc',
  'score_home',
  'score_away',
  'status',
  'lines',
  'ml_home',
  'ml_draw',
  'ml_away',
] as const;

/** The Settlements view's rows for a filter, newest first, walked page by page with the keyset cursor. */
export function* settlementCsvRows(store: Pick<Store, 'settlements'>, query: SettlementQuery): Generator<unknown[]> {
  const { limit: _limit, after: _after, withoutTotal: _w, ...filter } = query;
  let after: SettlementCursor | undefined;
  for (;;) {
    const page = store.settlements.querySettlements({
      ...filter,
      limit: PAGE,
      withoutTotal: true,
      ...(after ? { after } : {}),
    });
    for (const r of page.rows) {
      yield [
        r.eventId,
        r.sportId,
        r.leagueName,
        r.runnerHome,
        r.runnerAway,
        formatServiceTime(r.starts),
        formatServiceTime(r.settledAt),
        r.scoreHome,
        r.scoreAway,
        r.status,
        r.lineCount,
        r.moneyline?.home,
        r.moneyline?.draw,
        r.moneyline?.away,
      ];
    }
    // The cursor only moves towards older rows; a page that does not move it would loop for ever.
    if (
      !page.next ||
      page.rows.length === 0 ||
      (after && page.next.settledAt === after.settledAt && page.next.eventId === after.eventId)
    )
      return;
    after = page.next;
  }
}

/** The app's settlements export (what settlements:exportCsv returns as one string today), streamed to `sink`. */
export function writeSettlementsCsv(
  store: Pick<Store, 'settlements'>,
  query: SettlementQuery,
  sink: Writable,
): Promise<number> {
  return writeCsv(sink, SETTLEMENT_CSV_HEADER, settlementCsvRows(store, query));
}

/**
 * Streams the settlements export into `filePath` (for a path the trader chose in a save dialog). Written to a
 * temporary file beside it and renamed on success; on failure the temporary file is removed and the target is
 * left as it was.
 */
export async function exportSettlementsCsvToFile(
  store: Pick<Store, 'settlements'>,
  query: SettlementQuery,
  filePath: string,
): Promise<{ path: string; rows: number }> {
  const target = path.resolve(filePath);
  const partial = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${randomBytes(4).toString('hex')}.partial`,
  );
  const file = createWriteStream(partial, { flags: 'wx' });
  try {
    await once(file, 'open');
    const rows = await writeSettlementsCsv(store, query, file);
    file.end();
    await once(file, 'close'); // flushed and closed before the rename (Windows renames no open file)
    await fs.rename(partial, target);
    return { path: target, rows };
  } catch (e) {
    file.destroy();
    await fs.rm(partial, { force: true });
    throw e;
  }
}

export const BET_CSV_HEADER = [
  'id',
  'placed_at_utc',
  'event_id',
  'bet',
  'line_id',
  'market',
  'period',
  'line',
  'side',
  'price',
  'stake',
  'closing_price',
  'clv_LOG_pct',
  'clv_EM_pct',
  'clv_MPTO_pct',
  'clv_SHIN_pct',
  'clv_OR_pct',
  'result',
  'pnl',
  // Added with the trading desk's conventions (docs/trading.md); the columns before keep their meaning. `line` is
  // the service's value (a spread's home handicap), `selection` the side in words with its own handicap.
  'selection',
  'close_stale',
  'close_note',
  'result_by',
  'settle_by_hand',
  // Added with the odds formats (issue 25): price and closing_price stay decimal; these say them in the trader's
  // format (docs/trading.md, "Numbers on screen"), as the Bets view shows them.
  'odds_format',
  'price_in_format',
  'closing_price_in_format',
  // Added with re-settlements (issue 36): `result` and `pnl` are the bet under the match's current settlement; when
  // the service re-settled the match, these say when, and the bet's result and the final score before (empty otherwise).
  'resettled_at_utc',
  'resettled_from_result',
  'resettled_from_score_home',
  'resettled_from_score_away',
] as const;

const pct4 = (n: number | null | undefined) => (n === null || n === undefined ? null : Math.round(n * 10_000) / 10_000);

/**
 * One CSV row per bet (the Bets view's rows); CLV in percent to four places under every model (empty where a model
 * cannot price the close); result is win, half_win, push, half_loss or loss; the price and the close also in `format`.
 */
export function* betCsvRows(bets: Iterable<BetView>, format: OddsFormat = DEFAULT_ODDS_FORMAT): Generator<unknown[]> {
  for (const b of bets) {
    const c = b.clvByModel;
    const r = b.resettled ?? null;
    yield [
      b.id,
      formatServiceTime(b.placedAt),
      b.eventId,
      b.label,
      b.lineId,
      b.market,
      b.period,
      b.line,
      b.side,
      b.price,
      b.stake,
      b.closingPrice,
      pct4(c?.LOG),
      pct4(c?.EM),
      pct4(c?.MPTO),
      pct4(c?.SHIN),
      pct4(c?.OR),
      b.result,
      b.pnl,
      b.sideWords,
      b.closeStale,
      b.closeNote,
      b.resultBy,
      b.settleByHand,
      format,
      oddsCell(b.price, format),
      oddsCell(b.closingPrice, format),
      r ? formatServiceTime(r.at) : null,
      r?.fromResult ?? null,
      r?.fromScore?.home ?? null,
      r?.fromScore?.away ?? null,
    ];
  }
}

export function writeBetsCsv(
  bets: Iterable<BetView>,
  sink: Writable,
  format: OddsFormat = DEFAULT_ODDS_FORMAT,
): Promise<number> {
  return writeCsv(sink, BET_CSV_HEADER, betCsvRows(bets, format));
}
