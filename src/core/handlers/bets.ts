// The bet log, closing lines, price-alert overrides and Top movers: all read from and written to the open profile's
// store. Bets never leave the machine: no handler here talks to the service.
import type { DevigModel } from '../../shared/api';
import { betTotals, clvPct, fairFallPct, fairPrices, pricedSides, sameLine, sideWords } from '../../shared/trading';
import { csvRow } from '../../shared/csv';
import { ledgerReport } from '../../shared/ledger';
import type { LineHistoryPoint, MoverRow, PriceSide } from '../../shared/domain';
import { AppErrorException, errorMessage } from '../../shared/errors';
import type { CoreHandlers, LineCloseRow } from '../../shared/ipc/contract';
import { BET_CSV_HEADER, betCsvRows } from '../export/csv';
import { priceAlertKey, priceOverrides } from '../monitor/priceWatch';
import type { Store } from '../store';
import { settledStore, store, type CoreContext } from './context';

const MINUTE = 60_000;
const WINDOWS = [5, 15, 60] as const;

/** The point in effect at `at`: the last priced point at or before it, else (a line newer than that) the first one. */
function asOf(points: readonly LineHistoryPoint[], at: number): LineHistoryPoint | undefined {
  let found: LineHistoryPoint | undefined;
  for (const p of points) {
    if (!p.prices) continue;
    if (p.at > at) return found ?? p;
    found = p;
  }
  return found;
}

/** The drop rule's measure (docs/trading.md): the relative change of the fair price, in percent; − = shortened. */
const move = (from: number | undefined, to: number) => (from === undefined ? null : -fairFallPct(from, to));

/**
 * Every priced side of the watched events' lines with its fair-price move over 5, 15 and 60 minutes, ranked by the
 * 15-minute move's size. A line lacking a side it had in that history (a moneyline without its draw) has no fair
 * price and is left out, as are references that were partial. A row is a line id AND its value: a handicap moved
 * under the same id is measured only against its own value's history (never -0.25 against -0.5's prices).
 */
export function topMovers(s: Pick<Store, 'history' | 'watchlist'>, model: DevigModel, now: number): MoverRow[] {
  const rows: MoverRow[] = [];
  for (const ev of s.watchlist.watchedEvents()) {
    const label = ev.runnerHome && ev.runnerAway ? `${ev.runnerHome} v ${ev.runnerAway}` : `event ${ev.eventId}`;
    for (const m of ev.markets) {
      if (!m.prices) continue;
      const history = s.history
        .oddsHistory(ev.eventId, m.lineId, { from: now - 6 * 60 * MINUTE, to: now })
        .filter((p) => sameLine(p.line, m.line, m.market));
      const seen = new Set<PriceSide>(history.flatMap((p) => pricedSides(p.prices)));
      const fair = fairPrices(m.prices, model, seen);
      if (!fair) continue;
      const refs = WINDOWS.map((w) => asOf(history, now - w * MINUTE));
      for (const side of Object.keys(fair) as PriceSide[]) {
        const f = fair[side]!;
        const [m5, m15, m60] = refs.map((p) => move(p ? fairPrices(p.prices, model, seen)?.[side] : undefined, f));
        const ref60 = refs[2];
        rows.push({
          eventId: ev.eventId,
          label,
          lineId: m.lineId,
          market: m.market,
          line: m.line,
          side,
          sideWords: sideWords(m.market, m.line, side, { team: m.side }),
          period: m.period,
          price: m.prices[side]!,
          fair: f,
          move5: m5 ?? null,
          move15: m15 ?? null,
          move60: m60 ?? null,
          maxWin: m.maxWin,
          maxWinMove60: m.maxWin !== null && ref60?.maxWin ? move(ref60.maxWin, m.maxWin) : null,
        });
      }
    }
  }
  return rows.sort(
    (a, b) => Math.abs(b.move15 ?? 0) - Math.abs(a.move15 ?? 0) || a.eventId - b.eventId || a.lineId - b.lineId,
  );
}

export function betsHandlers(
  ctx: CoreContext,
): Pick<
  CoreHandlers,
  | 'bets:add'
  | 'bets:remove'
  | 'bets:update'
  | 'bets:restore'
  | 'bets:history'
  | 'bets:list'
  | 'bets:exportCsv'
  | 'bets:settle'
  | 'bets:report'
  | 'movers:list'
  | 'lines:closing'
  | 'priceAlerts:get'
  | 'priceAlerts:set'
> {
  const model = (): DevigModel => ctx.settings.get().devigModel;
  return {
    'bets:add': async (bet) => {
      const s = await settledStore(ctx);
      const line = s.history.latestMarkets(bet.eventId).find((m) => m.lineId === bet.lineId);
      if (!line)
        throw new AppErrorException({
          kind: 'validation',
          message: `Line ${bet.lineId} of event ${bet.eventId} is not known here.`,
        });
      const sides = pricedSides(line.prices);
      if (sides.length && !sides.includes(bet.side)) {
        throw new AppErrorException({
          kind: 'validation',
          message: `This ${line.market} line has no ${bet.side} price (it has ${sides.join(', ')}).`,
        });
      }
      try {
        return s.bets.addBet(bet, ctx.clock.now());
      } catch (e) {
        throw new AppErrorException({ kind: 'validation', message: errorMessage(e) });
      }
    },
    'bets:remove': (id) => {
      if (!store(ctx).bets.removeBet(id, ctx.clock.now()))
        throw new AppErrorException({ kind: 'not_found', message: `No bet ${id}.` });
      return null;
    },
    'bets:update': async (id, edit) => {
      const bet = (await settledStore(ctx)).bets.editBet(id, edit, ctx.clock.now());
      if (!bet) throw new AppErrorException({ kind: 'not_found', message: `No bet ${id} (it may have been removed).` });
      return bet;
    },
    'bets:restore': async (id) => {
      const bet = (await settledStore(ctx)).bets.restoreBet(id, ctx.clock.now());
      if (!bet) throw new AppErrorException({ kind: 'not_found', message: `No removed bet ${id} to bring back.` });
      return bet;
    },
    'bets:history': (id) => {
      const revisions = store(ctx).bets.betHistory(id);
      if (revisions.length === 0) throw new AppErrorException({ kind: 'not_found', message: `No bet ${id}.` });
      return revisions;
    },
    'bets:list': async (q) => {
      const bets = (await settledStore(ctx)).bets.listBets(q);
      return { bets, totals: betTotals(bets, model()), model: model() };
    },
    'bets:settle': (id, result) => {
      const bet = store(ctx).bets.settleBetByHand(id, result);
      if (!bet) throw new AppErrorException({ kind: 'not_found', message: `No bet ${id}.` });
      return bet;
    },
    'bets:exportCsv': async (q) => {
      let out = csvRow(BET_CSV_HEADER);
      for (const row of betCsvRows((await settledStore(ctx)).bets.listBets(q), ctx.settings.get().oddsFormat))
        out += csvRow(row);
      return out;
    },
    // The Report tab: every bet placed in the range, aggregated here (one read, one pass) so the page gets figures,
    // not ten thousand bets. A sport the event's header never named is named from the service's list.
    'bets:report': async (q) => {
      const s = await settledStore(ctx);
      const started = performance.now();
      const names = s.scores.sportNames();
      const bets = s.bets.ledgerBets({
        ...(q.from === undefined ? {} : { from: q.from }),
        ...(q.to === undefined ? {} : { to: q.to }),
      });
      for (const b of bets) if (b.sport === null && b.sportId !== null) b.sport = names.get(b.sportId) ?? null;
      return ledgerReport(bets, model(), {
        from: q.from ?? null,
        to: q.to ?? null,
        computedMs: Math.round(performance.now() - started),
      });
    },
    'movers:list': async () => topMovers(await settledStore(ctx), model(), ctx.clock.now()),
    'lines:closing': async (eventId) =>
      (await settledStore(ctx)).bets.lineCloses(eventId).map((c): LineCloseRow => {
        const open = fairPrices(c.opening, model());
        const close = c.closing ? fairPrices(c.closing, model()) : null;
        const clv: LineCloseRow['clv'] = {};
        if (open && close)
          for (const side of Object.keys(open) as PriceSide[])
            if (close[side]) clv[side] = clvPct(open[side]!, close[side]!);
        return { ...c, clv: close ? clv : null };
      }),
    'priceAlerts:get': (eventId) => priceOverrides(store(ctx), eventId),
    'priceAlerts:set': (eventId, overrides) => {
      store(ctx).settings.setSetting(priceAlertKey(eventId), overrides);
      return overrides;
    },
  };
}
