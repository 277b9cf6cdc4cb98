// Deterministic record generators shared by the store tests, the crash child and the bench: the same shapes the
// service sends (src/shared/api types), built without randomness so every run can be checked exactly.
import { formatServiceTime, type Market, type SettledEvent, type SettlementLine } from '../../src/shared/api';

export const T0 = Date.UTC(2026, 0, 1);
/** Settlements share seconds (three per second), as the inclusive cursor of /api/settled expects. */
export const PER_SECOND = 3;

export function settledAtSeconds(i: number): number {
  return Math.floor(T0 / 1000) + Math.floor(i / PER_SECOND);
}

const OUTCOMES = ['win', 'loss', 'push'] as const;
// 80 towns x 8 club words: 640 distinct runners, so a team search matches a realistic few percent of rows.
const TOWN_HEADS = ['Bor', 'Kal', 'Mer', 'Tor', 'Vel', 'San', 'Lin', 'Øst', 'Gra', 'Fen'];
const TOWN_TAILS = ['ava', 'ino', 'ekt', 'orn', 'ula', 'ham', 'berg', 'ford'];
const CLUB_WORDS = ['United', 'City', 'Rovers', 'FC', 'Athletic', 'Wanderers', 'Sporting', 'Dynamo'];

export function teamName(n: number): string {
  const town = `${TOWN_HEADS[n % 10]}${TOWN_TAILS[Math.floor(n / 10) % 8]}`;
  return `${town} ${CLUB_WORDS[Math.floor(n / 80) % 8]}`;
}

export function settlementLines(i: number, count: number): SettlementLine[] {
  const lines: SettlementLine[] = [];
  for (let k = 0; k < count; k++) {
    const o = (i + k) % 3;
    lines.push({
      line_id: i * 100 + k,
      period: k < 3 ? 0 : 1 + (k % 2),
      market: k === 0 ? 'moneyline' : k % 2 ? 'spread' : 'totals',
      line: k === 0 ? null : (k % 5) - 2.5,
      outcome_home: OUTCOMES[o] ?? 'win',
      outcome_draw: 'loss',
      outcome_away: OUTCOMES[(o + 1) % 3] ?? 'loss',
    });
  }
  return lines;
}

export function settledEvent(
  i: number,
  lineCount = 10,
  opts: { sports?: number; leagues?: number } = {},
): SettledEvent {
  const sports = opts.sports ?? 5;
  const leagues = opts.leagues ?? 40;
  return {
    event_id: 1_000_000 + i,
    sport_id: 1 + (i % sports),
    league_id: 100 + (i % leagues),
    league_name: `League ${i % leagues}`,
    runner_home: teamName(i % 640),
    runner_away: teamName((i * 7 + 3) % 640),
    starts: formatServiceTime(settledAtSeconds(i) * 1000 - 2 * 3600_000),
    score_home: i % 4,
    score_away: (i * 3) % 4,
    status: 'ended',
    settled_at: formatServiceTime(settledAtSeconds(i) * 1000),
    settlement: settlementLines(i, lineCount),
  };
}

export function market(lineId: number, seq: number): Market {
  const base = 1.5 + ((lineId * 31 + seq * 7) % 100) / 40;
  return {
    line_id: lineId,
    period: lineId % 3,
    market: lineId % 4 === 0 ? 'moneyline' : 'spread',
    side: null,
    line: lineId % 4 === 0 ? null : (lineId % 7) - 3.5,
    prices: { home: base, away: 1 + 1 / (base - 1), draw: lineId % 4 === 0 ? 3.4 : undefined },
    max_win: 500 + (seq % 10) * 100,
    updated_at: '2026-01-01T00:00:00',
  };
}

/** Strips undefined prices so objects compare equal after a round-trip. */
export function cleanMarket(m: Market): Market {
  const prices = m.prices ? Object.fromEntries(Object.entries(m.prices).filter(([, v]) => v !== undefined)) : null;
  return { ...m, prices };
}
