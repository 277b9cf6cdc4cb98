// Stream messages' data for the stream tests (the client's against a scripted server, the book's on its own): a
// moneyline market of event 7 and its snapshot, as the service sends them.

/** A moneyline line of event 7; `home: null` is an offline market. */
export const market = (lineId: number, home: number | null, maxWin = 500) => ({
  line_id: lineId,
  period: 0,
  market: 'moneyline',
  side: null,
  line: null,
  prices: home === null ? null : { home, away: 2.1 },
  max_win: maxWin,
  updated_at: '2026-11-22T12:00:00',
});

/** Event 7's header, as a snapshot carries it (without markets). */
export const header = {
  event_id: 7,
  sport_id: 1,
  league_id: 2,
  league_name: 'L',
  runner_home: 'A',
  runner_away: 'B',
  starts: '2026-11-22T13:00:00',
  live_status: 0,
  score_home: null,
  score_away: null,
};

/** Event 7's snapshot with two lines. */
export const snapshot = { ...header, markets: [market(1, 1.9), market(2, 1.8)] };
