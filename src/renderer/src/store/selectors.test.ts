// Why a watched row shows no price (issue 25: half the first screen read "off" in every column with no reason): the
// reason the grid shows in place of the price columns, for each state the row can be in, and none while a main line
// has a price.
import { beforeAll, describe, expect, it } from 'vitest';
import type { MarketView, WatchedEventView } from '../../../shared/domain';
import type { OddsdeskApi, StatusView, StreamState } from '../../../shared/ipc/contract';
import type { useStore as UseStore } from './index';
import type { NoPriceReason, noPriceReason as NoPriceReasonFn } from './selectors';

let useStore: typeof UseStore;
let noPriceReason: typeof NoPriceReasonFn;
const api: OddsdeskApi = { invoke: async () => ({ ok: true, value: null }) as never, on: () => () => undefined };

beforeAll(async () => {
  (globalThis as unknown as { window: { oddsdesk: OddsdeskApi } }).window = { oddsdesk: api };
  ({ useStore } = await import('./index'));
  ({ noPriceReason } = await import('./selectors'));
});

const EVENT = 1600123;
const watched = (markets: MarketView[], settled = false): WatchedEventView => ({
  eventId: EVENT,
  sportId: 1,
  sportName: 'Soccer',
  leagueId: 101,
  leagueName: 'Premier Division',
  runnerHome: 'Lions',
  runnerAway: 'Kings',
  starts: 5,
  liveStatus: 1,
  scoreHome: 0,
  scoreAway: 0,
  addedAt: 1,
  settled,
  markets,
});
const market = (
  lineId: number,
  kind: 'moneyline' | 'spread' | 'totals',
  prices: MarketView['prices'],
  period = 0,
): MarketView => ({
  lineId,
  period,
  market: kind,
  side: null,
  line: kind === 'moneyline' ? null : 0.5,
  prices,
  maxWin: 2500,
  updatedAt: null,
  seenAt: 1,
});
const status = (stream: StreamState | null, extra: Partial<StatusView> = {}): StatusView =>
  ({
    connection: 'online',
    connectionSince: null,
    demo: true,
    auth: 'ok',
    plan: 'enterprise',
    restricted: [],
    streams: stream
      ? [{ eventId: EVENT, state: stream, lastMessageAt: null, endReason: stream === 'ended' ? 'removed' : null }]
      : [],
    lastSettledSync: null,
    lastError: null,
    ...extra,
  }) as StatusView;

function reason(
  markets: MarketView[],
  stream: StreamState | null,
  o: { settled?: boolean; extra?: Partial<StatusView>; host?: boolean; period?: number } = {},
): NoPriceReason | null {
  useStore.getState().setWatchlist([watched(markets, o.settled)]);
  useStore.setState({ status: status(stream, o.extra), hostConnected: o.host ?? true });
  return noPriceReason(useStore.getState(), EVENT, o.period ?? 0);
}

const offline = [market(1, 'moneyline', null), market(2, 'spread', null), market(3, 'totals', null)];
const priced = [
  market(1, 'moneyline', { home: 2.1, draw: 3.3, away: 3.6 }),
  market(2, 'spread', null),
  market(3, 'totals', null),
];

describe('noPriceReason', () => {
  it('is null while any main line has a price, whatever the feed (a stale price is dimmed, not explained away)', () => {
    expect(reason(priced, 'live')).toBeNull();
    expect(reason(priced, 'reconnecting')).toBeNull();
    expect(reason(priced, 'live', { extra: { connection: 'offline' } })).toBeNull();
  });

  it('says what the stream says of the markets: suspended, not offered yet, no lines in the period', () => {
    expect(reason(offline, 'live')).toBe('suspended');
    expect(reason([], 'live')).toBe('not_offered');
    expect(reason(priced, 'live', { period: 1 })).toBe('no_lines');
  });

  it("says when the stream itself is why: connecting, reconnecting, failing, stopped, or the plan's", () => {
    expect(reason([], 'connecting')).toBe('connecting');
    expect(reason(offline, 'reconnecting')).toBe('reconnecting');
    expect(reason(offline, 'failing')).toBe('failing');
    expect(reason([], 'failed')).toBe('failed');
    expect(reason([], 'restricted')).toBe('restricted');
    // A starter key: no stream is opened at all, and the status names the restricted path.
    expect(
      reason([], null, {
        extra: { restricted: [{ path: '/api/stream/event', requiredPlan: 'enterprise', yourPlan: 'starter' }] },
      }),
    ).toBe('restricted');
  });

  it('puts the connection before the stream, and an ended event before everything', () => {
    expect(reason(offline, 'reconnecting', { extra: { connection: 'offline' } })).toBe('offline');
    expect(reason(offline, 'live', { host: false })).toBe('host');
    expect(reason(priced, 'live', { settled: true })).toBe('settled');
    expect(reason(offline, 'ended')).toBe('removed');
  });
});
