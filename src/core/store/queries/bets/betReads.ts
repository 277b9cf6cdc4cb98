// The bet log's reads: a bet's row (with its line's close, its match's settlement and the result a re-settlement
// replaced) read as the trader sees it, a BetView, or as the ledger report reads it. The rules are the trading
// module's (src/shared/trading.ts, docs/trading.md).
import type Database from 'better-sqlite3';
import { DEVIG_MODELS, type DevigModel, type Prices } from '../../../../shared/api';
import type { BetQuery, BetResettlement, BetResult, BetView, PriceSide } from '../../../../shared/domain';
import type { LedgerBet } from '../../../../shared/ledger';
import { labelPeriod, periodNames } from '../../../../shared/periods';
import {
  betPnl,
  clvByModel,
  clvPct,
  fairPrices,
  isPrice,
  isStaleClose,
  lineNumber,
  marketKind,
  pushesOnDraw,
  sameLine,
  settleBet,
  sideWords,
  signedLine,
  type CloseReason,
  type SettledLineInput,
} from '../../../../shared/trading';
import { prices, SIDES, type Cols } from './prices';

type BetRow = Cols<'last'> & {
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
  const close = prices(r, 'last');
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
  const lines = JSON.parse(r.was_lines) as Array<SettledLineInput & { line_id: number }>;
  const was = lines.find((l) => l.line_id === r.line_id);
  const fromScore =
    r.was_score_home !== null && r.was_score_away !== null ? { home: r.was_score_home, away: r.was_score_away } : null;
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

/** What the list of bets is filtered by (null: no filter). */
type ListParams = {
  eventId: number | null;
  market: string | null;
  from: number | null;
  to: number | null;
  id: number | null;
};

const listParams = (q: BetQuery, id: number | null = null): ListParams => ({
  eventId: q.eventId ?? null,
  market: q.market ?? null,
  from: q.from ?? null,
  to: q.to ?? null,
  id,
});

export interface BetReads {
  /** Newest first; `id`: the one bet. */
  list(q: BetQuery & { id?: number }): BetView[];
  /** The bets of `list(q)` as the ledger report reads them. */
  ledger(q: BetQuery): LedgerBet[];
}

type MoneylineRow = Cols<'last'> & { last_at: number; closed_at: number; close_reason: CloseReason | null };

export function createBetReads(db: Database.Database): BetReads {
  const periodList = db.prepare<[], { period: number; description: string }>(
    `SELECT period, description FROM periods ORDER BY period`,
  );
  const listBets = db.prepare<ListParams, BetRow>(`
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
  const moneylineClose = db.prepare<[number, number], MoneylineRow>(`
    SELECT last_home, last_draw, last_away, last_at, closed_at, close_reason FROM line_closes
    WHERE event_id = ? AND period = ? AND market = 'moneyline' AND closed_at IS NOT NULL ORDER BY line_id LIMIT 1`);
  /** A real (not stale) three-way close of the match's moneyline in the bet's period, where the bet's line can push on a draw. */
  function drawCloseOf(
    b: Pick<BetView, 'eventId' | 'period' | 'market' | 'line' | 'side'>,
    memo: Map<string, Prices | null>,
  ): Prices | null {
    if (!pushesOnDraw(b)) return null;
    const key = `${b.eventId}:${b.period}`;
    if (memo.has(key)) return memo.get(key)!;
    const r = moneylineClose.get(b.eventId, b.period);
    const p =
      r && !isStaleClose({ closedAt: r.closed_at, lastAt: r.last_at, closeReason: r.close_reason })
        ? prices(r, 'last')
        : null;
    const out = p && isPrice(p.draw) ? p : null;
    memo.set(key, out);
    return out;
  }

  const query = (q: BetQuery & { id?: number }) => {
    const names = periodNames(periodList.all());
    const label = (r: BetRow) => betLabel(r, labelPeriod(r.sport_name ?? false, r.period, names));
    const rows = listBets.all(listParams(q, q.id ?? null)).map((r) => toView(r, label));
    return q.status ? rows.filter((b) => (b.result !== null) === (q.status === 'settled')) : rows;
  };

  return {
    list: query,
    ledger(q) {
      const draws = new Map<string, Prices | null>();
      const fairs: FairMemo = new Map();
      const out: LedgerBet[] = [];
      // The report's own pass over the rows: what it reads of a bet (its result and P/L, its close), not the list's words.
      for (const r of listBets.all(listParams(q))) {
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
          result: settled.result,
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
