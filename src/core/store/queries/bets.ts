// The store's part of the bet log: main-market closing lines (opening and last pre-match price per line) and the
// trader's bets, read back as BetViews with their close, CLV under every model, result and P/L. All SQL for them is
// here; the rules are the trading module's (src/shared/trading.ts, docs/trading.md), so the app, the CLI and the
// renderer agree.
import type Database from 'better-sqlite3';
import { DEVIG_MODELS, type DevigModel, type Market, type Prices } from '../../../shared/api';
import type {
  BetEdit,
  BetQuery,
  BetResettlement,
  BetResult,
  BetRevision,
  BetView,
  HandResult,
  LineCloseView,
  NewBet,
  PriceSide,
} from '../../../shared/domain';
import type { LedgerBet } from '../../../shared/ledger';
import { labelPeriod, periodNames } from '../../../shared/periods';
import {
  betPnl,
  clvByModel,
  clvPct,
  fairPrices,
  isOverUnder,
  isPrice,
  pricedOnly,
  pushesOnDraw,
  isStaleClose,
  lineNumber,
  marketKind,
  sameLine,
  settleBet,
  sideWords,
  signedLine,
  type CloseReason,
} from '../../../shared/trading';

/** What the closing-line follower asks the store to do, in stream order. */
export type LineCloseOp =
  /** A pre-match price (a market update or a snapshot's line): the line's latest, unless it lacks a side it had. */
  | { type: 'price'; eventId: number; market: Market; at: number }
  /**
   * Kick-off: every open line of the event closes at `at` (its kick-off). `confirmed`: the app followed the event up
   * to then, so the last prices stood until kick-off; otherwise they stand as of when they were last seen.
   */
  | { type: 'kickoff'; eventId: number; at: number; reason: 'started' | 'kickoff'; confirmed: boolean }
  /** A fresh snapshot before kick-off listed these lines: every other open line of the event is gone. */
  | { type: 'snapshotLines'; eventId: number; lineIds: readonly number[]; at: number }
  /**
   * The kick-off moved (a match put back): the lines the scheduled start closed at `at` are open again, and the close
   * is taken at the real kick-off. Lines that left the book stay closed.
   */
  | { type: 'reopen'; eventId: number; at: number };

export interface BetLog {
  applyLineCloseOps(ops: readonly LineCloseOp[]): void;
  lineCloses(eventId: number): LineCloseView[];
  /** Records a bet on a known line; the line's market, period and handicap come from what the store holds. */
  addBet(bet: NewBet, placedAt: number): BetView;
  /** Changes a bet's price, stake or note, kept as a revision; null when there is no such bet (or it was removed). */
  editBet(id: number, edit: BetEdit, at: number): BetView | null;
  /** Takes a bet out of the log (kept in the file, as a revision, for Undo); false when there is none to remove. */
  removeBet(id: number, at: number): boolean;
  /** Brings a removed bet back as it was, under its id; null when there is no removed bet of that id. */
  restoreBet(id: number, at: number): BetView | null;
  /** Every change to a bet, oldest first (removed bets too); [] when there is no such bet. */
  betHistory(id: number): BetRevision[];
  /** The trader's own result for a bet (null takes it back); the app's own settlement, once it has one, is kept beside it. */
  settleBetByHand(id: number, result: HandResult | null): BetView | null;
  /** Newest first. */
  listBets(q?: BetQuery): BetView[];
  /** The bets of `listBets(q)` as the ledger report reads them: with their match's sport and league and their line's close. */
  ledgerBets(q?: BetQuery): LedgerBet[];
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

/** A price op after coalescing: `open` is the first price of the run it stands for (what an insert takes as the open). */
export type CoalescedCloseOp =
  | Exclude<LineCloseOp, { type: 'price' }>
  | (Extract<LineCloseOp, { type: 'price' }> & { open?: { prices: Prices; at: number } });

/**
 * The same effect on line_closes in fewer statements: a line's price ops in a row (with nothing else of its event in
 * between) fold into one, the last price, with the first one kept as the open an insert would take. A later price
 * only stands in for an earlier one when it has every side the earlier had: then it moves the close whenever the
 * earlier would have (the upsert refuses a price that lacks a side the close has), so folding changes nothing; a
 * price that lacks one starts a new op. A kick-off or a snapshot's list of lines ends every run of its event. Under a
 * busy stream a line moves several times between flushes: this was half the cost of the flush.
 */
export function coalesceLineCloseOps(ops: readonly LineCloseOp[]): CoalescedCloseOp[] {
  const out: CoalescedCloseOp[] = [];
  /** `event:line` -> index in out of the run still open for folding. */
  const runs = new Map<string, number>();
  const runsOf = new Map<number, string[]>();
  for (const op of ops) {
    if (op.type !== 'price') {
      for (const k of runsOf.get(op.eventId) ?? []) runs.delete(k);
      runsOf.delete(op.eventId);
      out.push(op);
      continue;
    }
    const p = op.market.prices;
    if (!p) continue; // writes nothing
    const key = `${op.eventId}:${op.market.line_id}`;
    const at = runs.get(key);
    const prev = at === undefined ? undefined : (out[at] as Extract<CoalescedCloseOp, { type: 'price' }>);
    if (prev && SIDES.every((s) => !isPrice(prev.market.prices![s]) || isPrice(p[s]))) {
      out[at!] = { ...op, open: prev.open ?? { prices: prev.market.prices!, at: prev.at } };
      continue;
    }
    // The first of a run, or one that may not stand in for the run so far: written as it comes, in its place.
    runs.set(key, out.length);
    const keys = runsOf.get(op.eventId);
    if (keys) keys.push(key);
    else runsOf.set(op.eventId, [key]);
    out.push(op);
  }
  return out;
}

type CloseRow = Cols<'open'> &
  Cols<'last'> & {
    event_id: number;
    line_id: number;
    period: number;
    market: string;
    line: number | null;
    opened_at: number;
    last_at: number;
    closed_at: number | null;
    close_reason: CloseReason | null;
  };

type BetRow = Partial<Cols<'last'>> & {
  id: number;
  placed_at: number;
  event_id: number;
  line_id: number;
  side: PriceSide;
  price: number;
  stake: number;
  period: number;
  market: string;
  line: number | null;
  manual_result: BetResult | null;
  close_line: number | null;
  last_at: number | null;
  closed_at: number | null;
  close_reason: CloseReason | null;
  runner_home: string | null;
  runner_away: string | null;
  sport_name: string | null;
  team: string | null;
  settled_line_id: number | null;
  settled_line: number | null;
  settled_period: number | null;
  settled_market: string | null;
  outcome_home: string | null;
  outcome_draw: string | null;
  outcome_away: string | null;
  settlement_status: string | null;
  score_home: number | null;
  score_away: number | null;
  note: string;
  edited_at: number | null;
  /** What the ledger report adds: the match's sport and league (the event's, else the settlement's). */
  ledger_sport_id: number | null;
  ledger_league_id: number | null;
  ledger_league_name: string | null;
  /** The result the match's latest re-settlement replaced (settlement_revisions), if any. */
  was_score_home: number | null;
  was_score_away: number | null;
  was_status: string | null;
  was_lines: string | null;
  resettled_at: number | null;
};

const teamOf = (side: string | null | undefined): 'home' | 'away' | null =>
  side === 'home' || side === 'away' ? side : null;

/** A bet's line in words: "A v B · Away +0.5 · Full match", "A v B · Moneyline Draw · 1st Half". */
export function betLabel(
  r: {
    event_id: number;
    runner_home: string | null;
    runner_away: string | null;
    market: string;
    line: number | null;
    side: PriceSide;
    team?: string | null;
  },
  period: string,
): string {
  const teams = r.runner_home && r.runner_away ? `${r.runner_home} v ${r.runner_away}` : `event ${r.event_id}`;
  const words = sideWords(r.market, r.line, r.side, { team: teamOf(r.team) });
  return `${teams} · ${marketKind(r.market) === 'moneyline' ? `Moneyline ${words}` : words} · ${period}`;
}

/** Why a settled bet has no CLV when its line's close was never recorded. */
export const NO_CLOSE_RECORDED = 'no close recorded: the app was not following the line at kick-off';

const minutes = (ms: number) => Math.round(ms / 60_000);

export function createBetLog(db: Database.Database): BetLog {
  // A price that lacks a side the line had (a moneyline without its draw for a moment) does not move the close: it
  // is not the market, and a close from it would be de-vigged as a two-way line.
  const keeps = (s: string) => `(line_closes.last_${s} IS NULL OR excluded.last_${s} IS NOT NULL)`;
  const upsertPrice = db.prepare(`
    INSERT INTO line_closes (event_id, line_id, period, market, line, opened_at, open_home, open_draw, open_away, open_over, open_under,
      last_at, last_home, last_draw, last_away, last_over, last_under)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT(event_id, line_id) DO UPDATE SET last_at = excluded.last_at, line = excluded.line,
      last_home = excluded.last_home, last_draw = excluded.last_draw, last_away = excluded.last_away,
      last_over = excluded.last_over, last_under = excluded.last_under
    WHERE closed_at IS NULL AND ${SIDES.map(keeps).join(' AND ')}`);
  const kickoff = db.prepare(`
    UPDATE line_closes SET closed_at = @at, close_reason = @reason, last_at = CASE WHEN @confirmed THEN MAX(last_at, @at) ELSE last_at END
    WHERE event_id = @eventId AND closed_at IS NULL`);
  const gone = db.prepare(`
    UPDATE line_closes SET closed_at = @at, close_reason = 'gone'
    WHERE event_id = @eventId AND closed_at IS NULL AND line_id NOT IN (SELECT value FROM json_each(@present))`);
  const reopen = db.prepare(`
    UPDATE line_closes SET closed_at = NULL, close_reason = NULL WHERE event_id = @eventId AND closed_at = @at AND close_reason = 'kickoff'`);
  const closesOf = db.prepare(`SELECT * FROM line_closes WHERE event_id = ? ORDER BY line_id`);
  const lineOf = db.prepare(
    `SELECT period, market, line, price_home, price_draw, price_away, price_over, price_under FROM market_lines WHERE event_id = ? AND line_id = ?`,
  );
  const insertBet = db.prepare(
    `INSERT INTO bets (placed_at, event_id, line_id, side, price, stake, period, market, line) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // A removed bet stays in the file (removed_at set) so Undo restores it whole; every change adds a revision holding
  // the bet as it left it.
  const betRow = db.prepare(`SELECT price, stake, note, removed_at FROM bets WHERE id = ?`);
  const updateBet = db.prepare(
    `UPDATE bets SET price = @price, stake = @stake, note = @note WHERE id = @id AND removed_at IS NULL`,
  );
  const setRemoved = db.prepare(`UPDATE bets SET removed_at = @at WHERE id = @id AND (removed_at IS NULL) = @live`);
  const addRevision = db.prepare(`
    INSERT INTO bet_revisions (bet_id, revision, at, change, price, stake, note)
    SELECT id, coalesce((SELECT max(revision) FROM bet_revisions WHERE bet_id = @id), 0) + 1, @at, @change, price, stake, note FROM bets WHERE id = @id`);
  const revisionsOf = db.prepare(
    `SELECT revision, at, change, price, stake, note FROM bet_revisions WHERE bet_id = ? ORDER BY revision`,
  );
  const setManual = db.prepare(`UPDATE bets SET manual_result = ? WHERE id = ? AND removed_at IS NULL`);
  const periodList = db.prepare(`SELECT period, description FROM periods ORDER BY period`);
  const listBets = db.prepare(`
    SELECT b.*, c.line AS close_line, c.last_at, c.closed_at, c.close_reason,
      c.last_home, c.last_draw, c.last_away, c.last_over, c.last_under,
      e.runner_home, e.runner_away, e.sport_name, ml.side AS team,
      s.line_id AS settled_line_id, s.line AS settled_line, s.period AS settled_period, s.market AS settled_market,
      s.outcome_home, s.outcome_draw, s.outcome_away,
      st.status AS settlement_status, st.score_home, st.score_away,
      rv.score_home AS was_score_home, rv.score_away AS was_score_away, rv.status AS was_status, rv.lines AS was_lines, rv.replaced_at AS resettled_at,
      (SELECT max(r.at) FROM bet_revisions r WHERE r.bet_id = b.id AND r.change = 'edited') AS edited_at,
      coalesce(e.sport_id, st.sport_id) AS ledger_sport_id, coalesce(e.league_id, st.league_id) AS ledger_league_id,
      coalesce(e.league_name, st.league_name) AS ledger_league_name
    FROM bets b
    LEFT JOIN line_closes c ON c.event_id = b.event_id AND c.line_id = b.line_id
    LEFT JOIN events e ON e.event_id = b.event_id
    LEFT JOIN market_lines ml ON ml.event_id = b.event_id AND ml.line_id = b.line_id
    LEFT JOIN settlements st ON st.event_id = b.event_id
    LEFT JOIN settlement_lines s ON s.event_id = b.event_id AND s.line_id = b.line_id
    LEFT JOIN settlement_revisions rv ON rv.event_id = b.event_id
      AND rv.revision = (SELECT max(x.revision) FROM settlement_revisions x WHERE x.event_id = b.event_id)
    WHERE b.removed_at IS NULL AND (@eventId IS NULL OR b.event_id = @eventId) AND (@market IS NULL OR b.market = @market)
      AND (@from IS NULL OR b.placed_at >= @from) AND (@to IS NULL OR b.placed_at < @to)
      AND (@id IS NULL OR b.id = @id)
    ORDER BY b.placed_at DESC, b.id DESC`);
  // The match's closing three-way moneyline of a period: its fair draw is the push share of a line 0 (pushShare).
  const moneylineClose = db.prepare(`
    SELECT last_home, last_draw, last_away, last_at, closed_at, close_reason FROM line_closes
    WHERE event_id = ? AND period = ? AND market = 'moneyline' AND closed_at IS NOT NULL ORDER BY line_id LIMIT 1`);
  type MoneylineRow = Cols<'last'> & { last_at: number; closed_at: number; close_reason: CloseReason | null };
  /** A real (not stale) three-way close of the match's moneyline in the bet's period, where the bet's line can push on a draw. */
  function drawCloseOf(
    b: Pick<BetView, 'eventId' | 'period' | 'market' | 'line' | 'side'>,
    memo: Map<string, Prices | null>,
  ): Prices | null {
    if (!pushesOnDraw(b)) return null;
    const key = `${b.eventId}:${b.period}`;
    if (memo.has(key)) return memo.get(key)!;
    const r = moneylineClose.get(b.eventId, b.period) as MoneylineRow | undefined;
    const p =
      r && !isStaleClose({ closedAt: r.closed_at, lastAt: r.last_at, closeReason: r.close_reason })
        ? prices(r, 'last')
        : null;
    const out = p && isPrice(p.draw) ? p : null;
    memo.set(key, out);
    return out;
  }

  /** Each model's fair prices of a close, by the close's prices. */
  type FairMemo = Map<string, ReturnType<typeof fairPrices>[]>;
  /**
   * clvByModel with each close de-vigged once per read (`memo`): bets on the same line, or lines that closed at the
   * same prices, share it. The same figures (fairPrices and clvPct, as clvByModel takes them).
   */
  function clvOf(r: BetRow, close: Prices, memo: FairMemo | undefined): BetView['clvByModel'] {
    if (!memo) return clvByModel(r.price, r.side, close);
    const key = SIDES.map((s) => close[s] ?? '').join(',');
    let fairs = memo.get(key);
    if (!fairs) memo.set(key, (fairs = DEVIG_MODELS.map((m) => fairPrices(close, m))));
    const out = {} as Record<DevigModel, number | null>;
    let any = false;
    DEVIG_MODELS.forEach((m, i) => {
      const fair = fairs[i]?.[r.side];
      out[m] = fair === undefined ? null : clvPct(r.price, fair);
      if (fair !== undefined) any = true;
    });
    return any ? out : null;
  }

  function closeOf(
    r: BetRow,
    memo?: FairMemo,
  ): Pick<BetView, 'closingPrice' | 'clvByModel' | 'closeStale' | 'closeNote'> {
    const none = { closingPrice: null, clvByModel: null, closeStale: false };
    // No close, and the service has settled the match: no close was recorded (the app was not following the line at
    // kick-off), not a line still to close.
    if (r.closed_at === null) return { ...none, closeNote: r.settlement_status !== null ? NO_CLOSE_RECORDED : null };
    // A close only counts for a bet taken before it: a bet placed in play has no closing line to beat.
    if (r.placed_at > r.closed_at) return { ...none, closeNote: 'placed after the close: no close to beat' };
    if (!sameLine(r.close_line, r.line, r.market)) {
      const moved =
        r.close_line === null
          ? 'none'
          : marketKind(r.market) === 'spread'
            ? signedLine(r.close_line)
            : lineNumber(r.close_line);
      return {
        ...none,
        closeNote: `the line closed at ${moved} under the same id, not the bet's line: no close for this bet`,
      };
    }
    const close = prices(r as Cols<'last'>, 'last');
    const closingPrice = close?.[r.side] ?? null;
    const stale = isStaleClose({
      closedAt: r.closed_at,
      lastAt: r.last_at ?? r.closed_at,
      closeReason: r.close_reason,
    });
    const note =
      r.close_reason === 'gone'
        ? 'the line left the book before kick-off: closed at its last price'
        : stale
          ? `stale close: its last price was seen ${minutes(r.closed_at - (r.last_at ?? r.closed_at))} min before kick-off`
          : null;
    return {
      closingPrice,
      clvByModel: close && closingPrice !== null ? clvOf(r, close, memo) : null,
      closeStale: stale || r.close_reason === 'gone',
      closeNote: note,
    };
  }

  function settlementOf(r: BetRow): Pick<BetView, 'result' | 'resultBy' | 'settleByHand'> {
    if (r.manual_result) return { result: r.manual_result, resultBy: 'hand', settleByHand: null };
    if (r.settlement_status === null) return { result: null, resultBy: null, settleByHand: null };
    if (r.settled_line_id === null || r.outcome_home === null || r.outcome_draw === null || r.outcome_away === null) {
      return {
        result: null,
        resultBy: null,
        settleByHand: `the match is settled but its settlement has no line ${r.line_id} (it may have been spoilt upstream)`,
      };
    }
    const score = r.score_home !== null && r.score_away !== null ? { home: r.score_home, away: r.score_away } : null;
    const s = settleBet(
      { market: r.market, line: r.line, side: r.side },
      {
        period: r.settled_period ?? r.period,
        market: r.settled_market ?? r.market,
        line: r.settled_line,
        outcome_home: r.outcome_home,
        outcome_draw: r.outcome_draw,
        outcome_away: r.outcome_away,
      },
      score,
      teamOf(r.team),
      r.settlement_status,
    );
    if (s.kind === 'settled')
      return { result: s.result, resultBy: s.fromScore ? 'score' : 'service', settleByHand: null };
    return { result: null, resultBy: null, settleByHand: s.reason };
  }

  /**
   * The bet under the result its match's latest re-settlement replaced, read by the same rules as the current one
   * (settlementOf). A result set by hand stands whatever the service re-sends, so it shows no re-settlement.
   */
  function resettlementOf(r: BetRow, now: Pick<BetView, 'resultBy'>): BetResettlement | null {
    if (r.was_lines === null || r.resettled_at === null || now.resultBy === 'hand') return null;
    const lines = JSON.parse(r.was_lines) as Array<{
      line_id: number;
      period: number;
      market: string;
      line: number | null;
      outcome_home: string;
      outcome_draw: string;
      outcome_away: string;
    }>;
    const was = lines.find((l) => l.line_id === r.line_id);
    const fromScore =
      r.was_score_home !== null && r.was_score_away !== null
        ? { home: r.was_score_home, away: r.was_score_away }
        : null;
    const toScore = r.score_home !== null && r.score_away !== null ? { home: r.score_home, away: r.score_away } : null;
    const before = was
      ? settleBet(
          { market: r.market, line: r.line, side: r.side },
          was,
          fromScore,
          teamOf(r.team),
          r.was_status ?? 'ended',
        )
      : null;
    return { fromResult: before?.kind === 'settled' ? before.result : null, fromScore, toScore, at: r.resettled_at };
  }

  function toView(r: BetRow, label: (r: BetRow) => string): BetView {
    const settled = settlementOf(r);
    return {
      id: r.id,
      placedAt: r.placed_at,
      eventId: r.event_id,
      lineId: r.line_id,
      side: r.side,
      price: r.price,
      stake: r.stake,
      label: label(r),
      market: r.market,
      period: r.period,
      line: r.line,
      sideWords: sideWords(r.market, r.line, r.side, { team: teamOf(r.team) }),
      ...closeOf(r),
      ...settled,
      pnl: settled.result === null ? null : betPnl(settled.result, r.price, r.stake),
      resettled: resettlementOf(r, settled),
      note: r.note,
      editedAt: r.edited_at,
    };
  }

  const query = (q: BetQuery & { id?: number }) => {
    const names = periodNames(periodList.all() as { period: number; description: string }[]);
    const label = (r: BetRow) => betLabel(r, labelPeriod(r.sport_name ?? false, r.period, names));
    const rows = (
      listBets.all({
        eventId: q.eventId ?? null,
        market: q.market ?? null,
        from: q.from ?? null,
        to: q.to ?? null,
        id: q.id ?? null,
      }) as BetRow[]
    ).map((r) => toView(r, label));
    return q.status ? rows.filter((b) => (b.result !== null) === (q.status === 'settled')) : rows;
  };

  return {
    applyLineCloseOps: (ops) =>
      db
        .transaction(() => {
          for (const op of coalesceLineCloseOps(ops)) {
            if (op.type === 'price') {
              const m = op.market;
              if (!m.prices) continue;
              // A side quoted at 1.0 is unpriced (the one rule, trading.ts): stored as no price, so the guard below keeps a
              // three-way close three-way rather than taking {2.5, 1.0, 2.9} as its close.
              const last = pricedOnly(m.prices);
              if (Object.keys(last).length === 0) continue;
              const open = op.open ?? { prices: m.prices, at: op.at };
              upsertPrice.run(
                op.eventId,
                m.line_id,
                m.period,
                m.market,
                m.line,
                open.at,
                ...priceArgs(pricedOnly(open.prices)),
                op.at,
                ...priceArgs(last),
              );
            } else if (op.type === 'kickoff')
              kickoff.run({ eventId: op.eventId, at: op.at, reason: op.reason, confirmed: op.confirmed ? 1 : 0 });
            else if (op.type === 'reopen') reopen.run({ eventId: op.eventId, at: op.at });
            else gone.run({ eventId: op.eventId, at: op.at, present: JSON.stringify(op.lineIds) });
          }
        })
        .immediate(),
    lineCloses: (eventId) =>
      (closesOf.all(eventId) as CloseRow[]).map((r) => ({
        eventId: r.event_id,
        lineId: r.line_id,
        period: r.period,
        market: r.market,
        line: r.line,
        openedAt: r.opened_at,
        opening: prices(r, 'open') ?? {},
        closing: r.closed_at === null ? null : prices(r, 'last'),
        closedAt: r.closed_at,
        lastAt: r.last_at,
        closeReason: r.close_reason,
        stale: isStaleClose({ closedAt: r.closed_at, lastAt: r.last_at, closeReason: r.close_reason }),
      })),
    addBet(bet, placedAt) {
      const line = lineOf.get(bet.eventId, bet.lineId) as
        ({ period: number; market: string; line: number | null } & Record<string, number | null>) | undefined;
      if (!line) throw new Error(`Line ${bet.lineId} of event ${bet.eventId} is not known here: open the event first.`);
      if (isOverUnder(line.market) !== (bet.side === 'over' || bet.side === 'under'))
        throw new Error(`A ${line.market} line has no ${bet.side} side.`);
      const id = db
        .transaction(() => {
          const id = Number(
            insertBet.run(
              placedAt,
              bet.eventId,
              bet.lineId,
              bet.side,
              bet.price,
              bet.stake,
              line.period,
              line.market,
              line.line,
            ).lastInsertRowid,
          );
          addRevision.run({ id, at: placedAt, change: 'recorded' });
          return id;
        })
        .immediate();
      return query({ id })[0]!;
    },
    editBet(id, edit, at) {
      const changed = db
        .transaction(() => {
          const was = betRow.get(id) as
            { price: number; stake: number; note: string; removed_at: number | null } | undefined;
          if (!was || was.removed_at !== null) return null;
          const next = { price: edit.price ?? was.price, stake: edit.stake ?? was.stake, note: edit.note ?? was.note };
          // The same values again change nothing and add no revision.
          if (next.price === was.price && next.stake === was.stake && next.note === was.note) return true;
          updateBet.run({ id, ...next });
          addRevision.run({ id, at, change: 'edited' });
          return true;
        })
        .immediate();
      return changed ? (query({ id })[0] ?? null) : null;
    },
    removeBet: (id, at) =>
      db
        .transaction(() => {
          if (setRemoved.run({ id, at, live: 1 }).changes === 0) return false;
          addRevision.run({ id, at, change: 'removed' });
          return true;
        })
        .immediate(),
    restoreBet(id, at) {
      const restored = db
        .transaction(() => {
          if (setRemoved.run({ id, at: null, live: 0 }).changes === 0) return false;
          addRevision.run({ id, at, change: 'restored' });
          return true;
        })
        .immediate();
      return restored ? (query({ id })[0] ?? null) : null;
    },
    betHistory: (id) => revisionsOf.all(id) as BetRevision[],
    settleBetByHand(id, result) {
      if (setManual.run(result, id).changes === 0) return null;
      return query({ id })[0] ?? null;
    },
    listBets: (q = {}) => query(q),
    // The report's own pass over the rows: what it reads of a bet (its result and P/L, its close), not the list's words.
    ledgerBets(q = {}) {
      const draws = new Map<string, Prices | null>();
      const fairs: FairMemo = new Map();
      const out: LedgerBet[] = [];
      for (const r of listBets.all({
        eventId: q.eventId ?? null,
        market: q.market ?? null,
        from: q.from ?? null,
        to: q.to ?? null,
        id: null,
      }) as BetRow[]) {
        const settled = settlementOf(r);
        if (q.status && (settled.result !== null) !== (q.status === 'settled')) continue;
        const close = closeOf(r, fairs);
        out.push({
          id: r.id,
          placedAt: r.placed_at,
          price: r.price,
          stake: r.stake,
          side: r.side,
          market: r.market,
          line: r.line,
          pnl: settled.result === null ? null : betPnl(settled.result, r.price, r.stake),
          clvByModel: close.clvByModel,
          closeStale: close.closeStale,
          resultBy: settled.resultBy,
          sportId: r.ledger_sport_id,
          sport: r.sport_name,
          leagueId: r.ledger_league_id,
          league: r.ledger_league_name,
          closedAt: r.closed_at,
          closeLine: r.close_line,
          drawClose: close.clvByModel
            ? drawCloseOf(
                { eventId: r.event_id, period: r.period, market: r.market, line: r.line, side: r.side },
                draws,
              )
            : null,
        });
      }
      return out;
    },
  };
}
