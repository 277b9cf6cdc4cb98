import { describe, expect, it } from 'vitest';
import { createPushBatcher, unpackPushes, type PushMessage } from './pushFrames';

describe('desktop push frames', () => {
  it('sends the pushes of one turn as one message in their order, a lone push as itself', () => {
    const sent: PushMessage[] = [];
    const turns: Array<() => void> = [];
    const b = createPushBatcher((m) => sent.push(m), (f) => turns.push(f));
    b.push('onOdds', { at: 1 });
    b.push('onAlert', { id: 1 });
    b.push('onAlert', { id: 2 });
    expect(sent).toEqual([]); // nothing before the turn ends
    expect(turns).toHaveLength(1); // one flush per turn, however many pushes
    turns.shift()!();
    expect(sent).toEqual([{ pushes: [{ event: 'onOdds', payload: { at: 1 } }, { event: 'onAlert', payload: { id: 1 } }, { event: 'onAlert', payload: { id: 2 } }] }]);
    b.push('onStatus', null);
    turns.shift()!();
    expect(sent[1]).toEqual({ event: 'onStatus', payload: null });
    expect(unpackPushes(sent[0]).map((p) => p.payload)).toEqual([{ at: 1 }, { id: 1 }, { id: 2 }]);
    expect(unpackPushes(sent[1])).toEqual([{ event: 'onStatus', payload: null }]);
  });

  it('unpacks nothing from a message that is neither shape', () => {
    for (const m of [null, 'x', 3, {}, { event: 4 }, { pushes: 'no' }]) expect(unpackPushes(m)).toEqual([]);
    expect(unpackPushes({ pushes: [null, { event: 'onOdds', payload: 1 }, { event: 2 }] })).toEqual([{ event: 'onOdds', payload: 1 }]);
  });
});
