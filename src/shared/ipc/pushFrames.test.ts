import { describe, expect, it } from 'vitest';
import {
  createOddsFlow,
  createPushBatcher,
  hasOdds,
  ODDS_IN_FLIGHT,
  unpackPushes,
  type PushMessage,
} from './pushFrames';

describe('desktop push frames', () => {
  it('sends the pushes of one turn as one message in their order, a lone push as itself', () => {
    const sent: PushMessage[] = [];
    const turns: Array<() => void> = [];
    const b = createPushBatcher(
      (m) => sent.push(m),
      (f) => turns.push(f),
    );
    b.push('onOdds', { at: 1 });
    b.push('onAlert', { id: 1 });
    b.push('onAlert', { id: 2 });
    expect(sent).toEqual([]); // nothing before the turn ends
    expect(turns).toHaveLength(1); // one flush per turn, however many pushes
    turns.shift()!();
    expect(sent).toEqual([
      {
        pushes: [
          { event: 'onOdds', payload: { at: 1 } },
          { event: 'onAlert', payload: { id: 1 } },
          { event: 'onAlert', payload: { id: 2 } },
        ],
      },
    ]);
    b.push('onStatus', null);
    turns.shift()!();
    expect(sent[1]).toEqual({ event: 'onStatus', payload: null });
    expect(unpackPushes(sent[0]).map((p) => p.payload)).toEqual([{ at: 1 }, { id: 1 }, { id: 2 }]);
    expect(unpackPushes(sent[1])).toEqual([{ event: 'onStatus', payload: null }]);
  });

  it('unpacks nothing from a message that is neither shape', () => {
    for (const m of [null, 'x', 3, {}, { event: 4 }, { pushes: 'no' }]) expect(unpackPushes(m)).toEqual([]);
    expect(unpackPushes({ pushes: [null, { event: 'onOdds', payload: 1 }, { event: 2 }] })).toEqual([
      { event: 'onOdds', payload: 1 },
    ]);
  });
});

describe('odds in push frames: latest value wins', () => {
  const batch = (at: number, eventId: number, lineId: number, home: number) => ({
    at,
    events: [
      {
        eventId,
        markets: [
          {
            lineId,
            period: 0,
            market: 'moneyline',
            side: null,
            line: null,
            prices: { home, away: 2 },
            maxWin: 100,
            updatedAt: null,
            seenAt: at,
          },
        ],
      },
    ],
  });
  const homes = (m: PushMessage | undefined) =>
    unpackPushes(m)
      .filter((p) => p.event === 'onOdds')
      .flatMap((p) =>
        (p.payload as ReturnType<typeof batch>).events.flatMap((e) =>
          e.markets.map((x) => `${e.eventId}:${x.lineId}=${x.prices.home}`),
        ),
      );

  it('the odds batches of one turn go as one batch in the place of the first, with the latest price per line', () => {
    const sent: PushMessage[] = [];
    const turns: Array<() => void> = [];
    const b = createPushBatcher(
      (m) => sent.push(m),
      (f) => turns.push(f),
    );
    b.push('onStatus', 's');
    b.push('onOdds', batch(1, 7, 1, 2.0));
    b.push('onAlert', { id: 1 });
    b.push('onOdds', batch(2, 7, 1, 2.1));
    b.push('onOdds', batch(3, 8, 1, 3.0));
    turns.shift()!();
    expect(unpackPushes(sent[0]).map((p) => p.event)).toEqual(['onStatus', 'onOdds', 'onAlert']);
    expect(homes(sent[0])).toEqual(['7:1=2.1', '8:1=3']);
  });

  it('a congested receiver gets no odds until it has caught up, then one batch of the newest prices, ahead of newer pushes', () => {
    const sent: PushMessage[] = [];
    const turns: Array<() => void> = [];
    const retries: Array<() => void> = [];
    let congested = true;
    const b = createPushBatcher(
      (m) => sent.push(m),
      (f) => turns.push(f),
      { congested: () => congested, retry: (f) => retries.push(f) },
    );
    // A thousand turns of odds while the page is not reading, with an alert among them.
    for (let i = 1; i <= 1_000; i++) {
      b.push('onOdds', batch(i, 7, i % 3, 2 + i / 1000));
      if (i === 500) b.push('onAlert', { id: 9 });
      turns.shift()!();
    }
    // The alert went; no odds did, and only one retry is pending however many turns passed.
    expect(sent.flatMap((m) => unpackPushes(m).map((p) => p.event))).toEqual(['onAlert']);
    expect(retries).toHaveLength(1);
    congested = false;
    b.push('onStatus', 'later');
    retries.shift()!();
    const last = sent[sent.length - 1];
    expect(unpackPushes(last).map((p) => p.event)).toEqual(['onOdds', 'onStatus']);
    // The newest price of each of the three lines, once: 998, 999 and 1000 were the last moves of lines 2, 0 and 1.
    expect(homes(last).sort()).toEqual(['7:0=2.999', '7:1=3', '7:2=2.998']);
  });
});

describe('odds flow: a page that acknowledges has at most ODDS_IN_FLIGHT odds frames on their way', () => {
  it('holds odds, folded, while the page has not taken in the frames already sent; other pushes go', () => {
    const sent: PushMessage[] = [];
    const turns: Array<() => void> = [];
    const flow = createOddsFlow();
    const b = createPushBatcher(
      (m) => {
        flow.sent(m);
        sent.push(m);
      },
      (f) => turns.push(f),
      { congested: () => flow.held() },
    );
    const odds = (n: number) => ({
      at: n,
      events: [
        {
          eventId: 1,
          markets: [
            {
              lineId: 1,
              period: 0,
              market: 'moneyline',
              side: null,
              line: null,
              prices: { home: n, away: 2 },
              maxWin: 1,
              updatedAt: null,
              seenAt: n,
            },
          ],
        },
      ],
    });
    const oddsSent = () => sent.filter(hasOdds).length;
    // A page that never acknowledged is not held back.
    for (let n = 1; n <= 5; n++) {
      b.push('onOdds', odds(n));
      turns.shift()!();
    }
    expect(oddsSent()).toBe(5);
    // Its first ack: from now on at most ODDS_IN_FLIGHT unacknowledged (five sent, one taken: held at once).
    flow.ack();
    for (let n = 6; n <= 50; n++) {
      b.push('onOdds', odds(n));
      if (n === 20) b.push('onStatus', 's');
      turns.shift()!();
    }
    expect(oddsSent()).toBe(5);
    expect(sent.some((m) => unpackPushes(m).some((p) => p.event === 'onStatus'))).toBe(true);
    // The page takes in frames until fewer than ODDS_IN_FLIGHT are on their way: the held odds go as one frame, the newest.
    while (flow.held()) flow.ack();
    b.flush();
    expect(oddsSent()).toBe(6);
    const last = unpackPushes(sent[sent.length - 1]).find((p) => p.event === 'onOdds')!.payload as ReturnType<
      typeof odds
    >;
    expect(last.events[0]!.markets[0]!.prices.home).toBe(50);
    expect(ODDS_IN_FLIGHT).toBe(2);
  });
});
