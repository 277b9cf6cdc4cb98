// The Settlements list as a trader changes its filter: the rows on screen keep saying which filter they answer, so a
// new filter's rows are never confused with the last one's while its query is on its way, and an answer that comes
// back after a newer filter was chosen is dropped.
import { beforeAll, describe, expect, it } from 'vitest';
import type { SettlementPage, SettlementQuery, SettlementRow } from '../../../shared/domain';
import type { OddsdeskApi } from '../../../shared/ipc/contract';
import type { useStore as UseStore } from './index';

let useStore: typeof UseStore;
/** Queries the store sent, each answered when the test says. */
const asked: Array<{ query: SettlementQuery; answer(page: SettlementPage): void }> = [];
const api: OddsdeskApi = {
  invoke: ((channel: string, query: SettlementQuery) => {
    if (channel !== 'settlements:query') return Promise.resolve({ ok: true, value: null });
    return new Promise<unknown>((resolve) =>
      asked.push({ query, answer: (page) => resolve({ ok: true, value: page }) }),
    );
  }) as unknown as OddsdeskApi['invoke'],
  on: () => () => undefined,
};

beforeAll(async () => {
  (globalThis as unknown as { window: { oddsdesk: OddsdeskApi } }).window = { oddsdesk: api };
  ({ useStore } = await import('./index'));
});

const row = (eventId: number, sportId: number): SettlementRow => ({
  eventId,
  sportId,
  leagueId: sportId * 100,
  leagueName: `League ${sportId}`,
  runnerHome: 'A',
  runnerAway: 'B',
  starts: 1,
  settledAt: 2,
  scoreHome: 1,
  scoreAway: 0,
  status: 'settled',
  lineCount: 3,
  moneyline: null,
});
const page = (rows: SettlementRow[]): SettlementPage => ({ rows, total: rows.length, next: null });
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('settlement filter', () => {
  it('the listed rows answer the filter named beside them; a stale answer is dropped', async () => {
    const s = () => useStore.getState();
    void s().loadSettlements();
    asked.shift()!.answer(page([row(1, 1), row(2, 33)]));
    await settle();
    expect(s().settlementIds).toEqual([1, 2]);
    expect(s().settlementListFilter).toBe(s().settlementFilter);

    // Tennis chosen, then Football before tennis answers: until an answer for the filter on screen is in, the rows
    // are the old ones and say so.
    s().setSettlementFilter({ sportId: 33 });
    s().setSettlementFilter({ sportId: 1 });
    const [tennis, football] = [asked.shift()!, asked.shift()!];
    expect(tennis.query.sportId).toBe(33);
    expect(football.query.sportId).toBe(1);
    expect(s().settlementIds).toEqual([1, 2]);
    expect(s().settlementListFilter).not.toBe(s().settlementFilter);
    expect(s().settlementListFilter?.sportId).toBeNull();

    football.answer(page([row(1, 1)]));
    await settle();
    expect(s().settlementIds).toEqual([1]);
    expect(s().settlementListFilter).toBe(s().settlementFilter);
    // Tennis answers late: the trader no longer asks for it, and the list stays Football's.
    tennis.answer(page([row(2, 33)]));
    await settle();
    expect(s().settlementIds).toEqual([1]);
    expect(s().settlementListFilter?.sportId).toBe(1);
  });
});
