// The store's part of the bet log: main-market closing lines (opening and last pre-match price per line) and the
// trader's bets, read back as BetViews with their close, CLV under every model, result and P/L. All SQL for them is
// here; the arithmetic is the shared one (src/shared/bets.ts), so the app, the CLI and the renderer agree.
import type Database from 'better-sqlite3';
import type { Market, Outcome, Prices } from '../../shared/api';
import { betPnl, betResult, clvByModel } from '../../shared/bets';
import type { BetQuery, BetView, LineCloseView, NewBet, PriceSide } from '../../shared/domain';

/** What the closing-line follower asks the store to do, in stream order. */
export type LineCloseOp =
  | { type: 'price'; eventId: number; market: Market; at: number }
  | { type: 'closeLine'; eventId: number; lineId: number; at: number }
  | { type: 'closeEvent'; eventId: number; at: number };

export interface BetLog {
  applyLineCloseOps(ops: readonly LineCloseOp[]): void;
  lineCloses(eventId: number): LineCloseView[];
  /** Records a bet on a known line; the line's market, period and handicap come from what the store holds. */
  addBet(bet: NewBet, placedAt: number): BetView;
  removeBet(id: number): boolean;
  /** Newest first. */
  listBets(q?: BetQuery): BetView[];
}

const SIDES = ['home', 'draw', 'away', 'over', 'under'] as const;
type Cols<P extends string> = { [S in (typeof SIDES)[number] as `${P}_${S}`]: number | null };

function prices<P extends string>(r: Cols<P>, prefix: P): Prices | null {
  const out: Prices = {};
  for (const s of SIDES) {
    const v = (r as Record<string, number | null>)[`${prefix}_${s}`];
    if (v !== null && v !== undefined) out[s] = v;
  }
  return Object.keys(out).length ? out : null;
}

const priceArgs = (p: Prices) => SIDES.map((s) => p[s] ?? null);

type CloseRow = Cols<'open'> & Cols<'last'> & {
  event_id: number; line_id: number; period: number; market: string; line: number | null;
  opened_at: number; last_at: number; closed_at: number | null; close_reason: 'offline' | 'started' | null;
};

type BetRow = Partial<Cols<'last'>> & {
  id: number; placed_at: number; event_id: number; line_id: number; side: PriceSide; price: number; stake: number;
  period: number; market: string; line: number | null; closed_at: number | null;
  runner_home: string | null; runner_away: string | null;
  outcome_home: Outcome | null; outcome_draw: Outcome | null; outcome_away: Outcome | null;
};

export function betLabel(r: { event_id: number; runner_home: string | null; runner_away: string | null; market: string; line: number | null; period: number }): string {
  const teams = r.runner_home && r.runner_away ? `${r.runner_home} v ${r.runner_away}` : `event ${r.event_id}`;
  return `${teams} · ${r.market}${r.line === null ? '' : ` ${r.line}`} (p${r.period})`;
}

export function createBetLog(db: Database.Database): BetLog {
  const upsertPrice = db.prepare(`
    INSERT INTO line_closes (event_id, line_id, period, market, line, opened_at, open_home, open_draw, open_away, open_over, open_under,
      last_at, last_home, last_draw, last_away, last_over, last_under)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT(event_id, line_id) DO UPDATE SET last_at = excluded.last_at, line = excluded.line,
      last_home = excluded.last_home, last_draw = excluded.last_draw, last_away = excluded.last_away,
      last_over = excluded.last_over, last_under = excluded.last_under
    WHERE closed_at IS NULL`);
  const closeLine = db.prepare(`UPDATE line_closes SET closed_at = ?, close_reason = 'offline' WHERE event_id = ? AND line_id = ? AND closed_at IS NULL`);
  const closeEvent = db.prepare(`UPDATE line_closes SET closed_at = ?, close_reason = 'started' WHERE event_id = ? AND closed_at IS NULL`);
  const closesOf = db.prepare(`SELECT * FROM line_closes WHERE event_id = ? ORDER BY line_id`);
  const lineOf = db.prepare(`SELECT period, market, line, price_home, price_draw, price_away, price_over, price_under FROM market_lines WHERE event_id = ? AND line_id = ?`);
  const insertBet = db.prepare(`INSERT INTO bets (placed_at, event_id, line_id, side, price, stake, period, market, line) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const deleteBet = db.prepare(`DELETE FROM bets WHERE id = ?`);
  const listBets = db.prepare(`
    SELECT b.*, c.closed_at, c.last_home, c.last_draw, c.last_away, c.last_over, c.last_under,
      e.runner_home, e.runner_away, s.outcome_home, s.outcome_draw, s.outcome_away
    FROM bets b
    LEFT JOIN line_closes c ON c.event_id = b.event_id AND c.line_id = b.line_id
    LEFT JOIN events e ON e.event_id = b.event_id
    LEFT JOIN settlement_lines s ON s.event_id = b.event_id AND s.line_id = b.line_id
    WHERE (@eventId IS NULL OR b.event_id = @eventId) AND (@market IS NULL OR b.market = @market)
      AND (@from IS NULL OR b.placed_at >= @from) AND (@to IS NULL OR b.placed_at < @to)
      AND (@status IS NULL OR (@status = 'settled') = (s.outcome_home IS NOT NULL))
      AND (@id IS NULL OR b.id = @id)
    ORDER BY b.placed_at DESC, b.id DESC`);

  function toView(r: BetRow): BetView {
    // A close only counts for a bet taken before it: a bet placed in play has no closing line to beat.
    const closed = r.closed_at !== null && r.placed_at <= r.closed_at;
    const close = closed ? prices(r as Cols<'last'>, 'last') : null;
    const closingPrice = close?.[r.side] ?? null;
    const clv = close && closingPrice !== null ? clvByModel(r.price, r.side, close) : null;
    const result = r.outcome_home !== null && r.outcome_draw !== null && r.outcome_away !== null
      ? betResult(r.side, { outcome_home: r.outcome_home, outcome_draw: r.outcome_draw, outcome_away: r.outcome_away })
      : null;
    return {
      id: r.id, placedAt: r.placed_at, eventId: r.event_id, lineId: r.line_id, side: r.side, price: r.price, stake: r.stake,
      label: betLabel(r), market: r.market, period: r.period, line: r.line,
      closingPrice, clvByModel: clv, result, pnl: result === null ? null : betPnl(result, r.price, r.stake),
    };
  }

  const query = (q: BetQuery & { id?: number }) =>
    (listBets.all({ eventId: q.eventId ?? null, market: q.market ?? null, from: q.from ?? null, to: q.to ?? null, status: q.status ?? null, id: q.id ?? null }) as BetRow[]).map(toView);

  return {
    applyLineCloseOps: (ops) =>
      db.transaction(() => {
        for (const op of ops) {
          if (op.type === 'price') {
            const m = op.market;
            if (!m.prices) continue;
            upsertPrice.run(op.eventId, m.line_id, m.period, m.market, m.line, op.at, ...priceArgs(m.prices), op.at, ...priceArgs(m.prices));
          } else if (op.type === 'closeLine') closeLine.run(op.at, op.eventId, op.lineId);
          else closeEvent.run(op.at, op.eventId);
        }
      })(),
    lineCloses: (eventId) =>
      (closesOf.all(eventId) as CloseRow[]).map((r) => ({
        eventId: r.event_id, lineId: r.line_id, period: r.period, market: r.market, line: r.line,
        openedAt: r.opened_at, opening: prices(r, 'open') ?? {},
        closing: r.closed_at === null ? null : prices(r, 'last'), closedAt: r.closed_at, closeReason: r.close_reason,
      })),
    addBet(bet, placedAt) {
      const line = lineOf.get(bet.eventId, bet.lineId) as ({ period: number; market: string; line: number | null } & Record<string, number | null>) | undefined;
      if (!line) throw new Error(`Line ${bet.lineId} of event ${bet.eventId} is not known here: open the event first.`);
      const two = line.market === 'totals' || line.market === 'team_total';
      if (two !== (bet.side === 'over' || bet.side === 'under')) throw new Error(`A ${line.market} line has no ${bet.side} side.`);
      const id = Number(insertBet.run(placedAt, bet.eventId, bet.lineId, bet.side, bet.price, bet.stake, line.period, line.market, line.line).lastInsertRowid);
      return query({ id })[0]!;
    },
    removeBet: (id) => deleteBet.run(id).changes > 0,
    listBets: (q = {}) => query(q),
  };
}
