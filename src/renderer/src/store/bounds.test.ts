// A trading day through the renderer store: 200 watched events ticking, thousands of alerts and live
// settlements, charts opened on many lines. What the store holds must stay bounded (the same at the end of the day
// as at midday), and an open chart grows by the pushes instead of re-fetching its line's history.
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  AlertRecord,
  LineHistoryPoint,
  MarketView,
  SettlementRow,
  WatchedEventView,
} from '../../../shared/domain';
import type { OddsdeskApi } from '../../../shared/ipc/contract';
import type { useStore as UseStore } from './index';

const EVENTS = 200;
const LINES = 12;
const DAY_S = 86_400;
const FRAME_S = 30; // one applied odds frame per 30 simulated seconds, each carrying 60 market updates
const calls: Record<string, number> = {};
let useStore: typeof UseStore;
let caps: {
  ALERTS_KEEP: number;
  SETTLEMENT_LIST_KEEP: number;
  SETTLEMENT_LIVE_KEEP: number;
  LINE_SERIES_KEEP: number;
  LINE_POINTS_KEEP: number;
};

// A deterministic generator, so a failure replays.
let seed = 12345;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = (n: number) => Math.floor(rand() * n);

const market = (lineId: number, at: number): MarketView => ({
  lineId,
  period: lineId % 3,
  market: lineId % 4 === 0 ? 'moneyline' : 'spread',
  side: null,
  line: lineId % 4 === 0 ? null : -1.5,
  prices: { home: 1.5 + rand(), away: 1.5 + rand() },
  maxWin: 500 + pick(10) * 100,
  updatedAt: null,
  seenAt: at,
});
const watched = (eventId: number, at: number): WatchedEventView => ({
  eventId,
  sportId: 1,
  sportName: 'Soccer',
  leagueId: 1 + (eventId % 30),
  leagueName: `League ${eventId % 30}`,
  runnerHome: `H${eventId}`,
  runnerAway: `A${eventId}`,
  starts: at,
  liveStatus: 1,
  scoreHome: 0,
  scoreAway: 0,
  addedAt: at,
  settled: false,
  markets: Array.from({ length: LINES }, (_, k) => market(eventId * 100 + k, at)),
});
const settlement = (eventId: number, at: number): SettlementRow => ({
  eventId,
  sportId: 1,
  leagueId: 1 + (eventId % 30),
  leagueName: `League ${eventId % 30}`,
  runnerHome: `H${eventId}`,
  runnerAway: `A${eventId}`,
  starts: at - 7_200_000,
  settledAt: at,
  scoreHome: 1,
  scoreAway: 0,
  status: 'ended',
  lineCount: 10,
  moneyline: { home: 'win', draw: 'loss', away: 'loss' },
});
/** A recorded history as the core returns it (ticks up to a minute before the chart opens). */
const history = (lineId: number, until: number): LineHistoryPoint[] =>
  Array.from({ length: 300 }, (_, i) => ({
    at: until - 60_000 - i * 10_000,
    line: null,
    prices: { home: 2, away: 1.9 },
    maxWin: 500 + (lineId % 3),
  }));

let now = 0;
const api: OddsdeskApi = {
  async invoke(channel, ...args) {
    calls[channel] = (calls[channel] ?? 0) + 1;
    const ok = (value: unknown) => ({ ok: true, value }) as never;
    switch (channel) {
      case 'event:lineHistory':
        return ok(history(args[1] as number, now));
      case 'settlements:query':
        return ok({
          rows: Array.from({ length: 200 }, (_, i) => settlement(900_000 + i, now - i * 60_000)),
          total: 200,
          next: null,
        });
      case 'alerts:list':
        return ok([]);
      default:
        return ok(null);
    }
  },
  on: () => () => undefined,
};

beforeAll(async () => {
  (globalThis as unknown as { window: { oddsdesk: OddsdeskApi } }).window = { oddsdesk: api };
  ({ useStore } = await import('./index'));
  const [alerts, settlements, lines] = await Promise.all([
    import('./alerts'),
    import('./settlements'),
    import('./lineHistory'),
  ]);
  caps = { ...alerts, ...settlements, ...lines };
});

const flush = () => new Promise((r) => setTimeout(r, 0));

function sizes() {
  const s = useStore.getState();
  const seriesPoints = Object.values(s.lineSeries).map((x) => x.points.length);
  return {
    alerts: Object.keys(s.alertsById).length,
    alertIds: s.alertIds.length,
    settlements: Object.keys(s.settlementsById).length,
    settlementIds: s.settlementIds.length,
    live: s.liveSettlementIds.length,
    markets: Object.keys(s.markets).length,
    series: Object.keys(s.lineSeries).length,
    maxSeriesPoints: Math.max(0, ...seriesPoints),
    json: JSON.stringify({ ...s, toasts: [] }).length,
  };
}

describe('renderer store over a trading day', () => {
  it('stays bounded with 200 events updating all day, and charts never re-fetch a history they hold', async () => {
    const s = () => useStore.getState();
    let ids = Array.from({ length: EVENTS }, (_, i) => 1000 + i);
    let nextEvent = 1000 + EVENTS;
    s().setWatchlist(ids.map((id) => watched(id, 0)));
    await s().loadSettlements();
    let alertId = 1;
    let settledId = 1;
    let opened = 0;
    /** What the store holds when every cap is first reached; the rest of the day must add nothing. */
    let capped: ReturnType<typeof sizes> | null = null;
    let chartKey: { eventId: number; lineId: number } | null = null;

    for (let t = 0; t < DAY_S; t += FRAME_S) {
      now = t * 1000;
      const events = Array.from({ length: 60 }, () => {
        const eventId = ids[pick(ids.length)]!;
        return { eventId, markets: [market(eventId * 100 + pick(LINES), now)] };
      });
      // The chart on screen: its line ticks every frame.
      if (chartKey) events.push({ eventId: chartKey.eventId, markets: [market(chartKey.lineId, now)] });
      s().applyOdds([{ at: now, events }]);
      for (let k = 0; k < 2; k++) {
        s().addAlert({
          id: alertId++,
          at: now,
          kind: 'max_win',
          eventId: ids[pick(ids.length)]!,
          specialId: null,
          contestantId: null,
          message: 'max win up',
          data: { from: 500, to: 900 },
        } satisfies AlertRecord);
        s().addLiveSettlement(settlement(settledId++, now + k));
      }
      if (t % 600 === 0) {
        // The trader opens the detail of another line; the chart fetches its history once.
        const eventId = ids[pick(ids.length)]!;
        chartKey = { eventId, lineId: eventId * 100 + pick(LINES) };
        s().openLineSeries(chartKey.eventId, chartKey.lineId);
        opened++;
        await flush();
      }
      if (t % 3600 === 0 && t > 0) {
        // Every hour 20 events settle and leave the watchlist; 20 new ones are watched.
        ids = [...ids.slice(20), ...Array.from({ length: 20 }, () => nextEvent++)];
        s().setWatchlist(ids.map((id) => watched(id, now)));
      }
      if (!capped && s().alertIds.length === caps.ALERTS_KEEP && s().settlementIds.length === caps.SETTLEMENT_LIST_KEEP)
        capped = sizes();
    }
    const end = sizes();

    expect(alertId - 1).toBeGreaterThan(caps.ALERTS_KEEP);
    expect(settledId - 1).toBeGreaterThan(caps.SETTLEMENT_LIST_KEEP);
    expect(end.alerts).toBeLessThanOrEqual(caps.ALERTS_KEEP);
    expect(end.alertIds).toBeLessThanOrEqual(caps.ALERTS_KEEP);
    expect(end.settlementIds).toBeLessThanOrEqual(caps.SETTLEMENT_LIST_KEEP);
    expect(end.live).toBeLessThanOrEqual(caps.SETTLEMENT_LIVE_KEEP);
    expect(end.settlements).toBeLessThanOrEqual(caps.SETTLEMENT_LIST_KEEP + caps.SETTLEMENT_LIVE_KEEP);
    expect(end.markets).toBe(EVENTS * LINES);
    expect(end.series).toBeLessThanOrEqual(caps.LINE_SERIES_KEEP);
    expect(end.maxSeriesPoints).toBeLessThanOrEqual(caps.LINE_POINTS_KEEP + 500);
    // Hours of alerts, settlements and ticks after the caps were reached add nothing to what the store holds.
    expect(capped).not.toBeNull();
    expect(end.json).toBeLessThanOrEqual(capped!.json * 1.05);

    // One history fetch per chart opened, none on a timer; the open chart holds its history plus every pushed tick.
    expect(calls['event:lineHistory']).toBe(opened);
    const series = s().lineSeries[`${chartKey!.eventId}:${chartKey!.lineId}`]!;
    expect(series.loaded).toBe(true);
    const ats = series.points.map((p) => p.at);
    expect(ats).toEqual([...ats].sort((a, b) => a - b));
    expect(ats.length).toBeGreaterThan(300 + 10);
    // Scrolling the list down after the trim pages in from where the kept rows end.
    const last = s().settlementsById[s().settlementIds.at(-1)!]!;
    expect(s().settlementNext).toEqual({ settledAt: last.settledAt, eventId: last.eventId });
    console.log(
      `renderer store, a day: ${alertId - 1} alerts, ${settledId - 1} settlements, ${(DAY_S / FRAME_S) * 61} market updates, ${opened} charts; holds`,
      end,
    );
  }, 120_000);
});
