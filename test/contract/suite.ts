// The IPC contract, channel by channel, as a suite any host runs through its own transport: the desktop wiring
// (Electron's ipcMain, through the stand-in; test/shell/desktop-wiring.test.ts) and browser mode's bridge (the page's
// own WebSocket client; test/contract/bridge.test.ts). Every request channel of src/shared/ipc/channels.ts has a case
// that calls it with valid arguments against a real upstream (the simulator behind a real HTTP front) and checks what
// a trader would see come back. The cases run in order and build on each other (a key stored, an event watched, a bet
// recorded), and leave the host connected to the service with its key, as a trader's session would be.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Result } from '../../src/shared/errors';
import { REQUEST_CHANNELS } from '../../src/shared/ipc/channels';
import type { ResponseMap } from '../../src/shared/ipc/contract';
import type { Service } from './service';

/** A host's transport: `invoke(channel, ...args)` as the page calls it. */
export type Invoke = (channel: string, ...args: unknown[]) => Promise<Result<unknown>>;

export interface ContractHost {
  /** The host's name as app:info gives it. */
  host: 'electron' | 'browser';
  invoke: Invoke;
  service: Service;
  /** The host's save dialog, where it has one: set what the next dialog answers (a path; null = Cancel). */
  saveDialog?: (answer: string | null) => void;
  /** A folder the suite may write into. */
  scratch: string;
}

/** What the cases hand on to the cases after them. */
interface State {
  betId?: number;
  settled?: number;
  csv?: string;
}

interface ContractCase {
  channel: string;
  does: string;
  run(h: ContractHost, s: State): Promise<void>;
}

/** The answer's value, after checking it is one (a failed result shows its error in the message). */
async function ok<C extends keyof ResponseMap>(
  h: ContractHost,
  channel: C,
  ...args: unknown[]
): Promise<ResponseMap[C]> {
  const r = await h.invoke(channel, ...args);
  expect(r.ok, `${channel} answered ${JSON.stringify(r).slice(0, 500)}`).toBe(true);
  return (r as { ok: true; value: ResponseMap[C] }).value;
}

/** Asks until `check` holds (short polling: the core works on the real clock), then returns the last answer. */
async function until<C extends keyof ResponseMap>(
  h: ContractHost,
  check: (v: ResponseMap[C]) => boolean,
  channel: C,
  ...args: unknown[]
): Promise<ResponseMap[C]> {
  const end = Date.now() + 15_000;
  for (;;) {
    const v = await ok(h, channel, ...args);
    if (check(v)) return v;
    if (Date.now() > end)
      throw new Error(`${channel} never answered as expected; last: ${JSON.stringify(v).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Online with the key accepted: the watched match's stream is live again. */
const online = (h: ContractHost) =>
  until(
    h,
    (s) =>
      s.connection === 'online' &&
      s.auth === 'ok' &&
      s.streams.some((x) => x.eventId === h.service.eventId && x.state === 'live'),
    'status:get',
  );

export const CONTRACT_CASES: ContractCase[] = [
  {
    channel: 'settings:setApiKey',
    does: 'stores the key for the service address given with it and connects there',
    async run(h) {
      const v = await ok(h, 'settings:setApiKey', h.service.key, h.service.front.url);
      expect(v).toMatchObject({
        baseUrl: h.service.front.url,
        hasKey: true,
        demo: false,
        keychain: { available: true },
      });
      expect(JSON.stringify(v)).not.toContain(h.service.key);
    },
  },
  {
    channel: 'settings:get',
    does: 'gives the settings with the service, that a key is stored (never the key), and the keychain usable',
    async run(h) {
      const v = await ok(h, 'settings:get');
      expect(v).toMatchObject({
        baseUrl: h.service.front.url,
        hasKey: true,
        keychain: { available: true, message: null },
      });
      expect(JSON.stringify(v)).not.toContain(h.service.key);
    },
  },
  {
    channel: 'settings:update',
    does: 'saves a change and answers with it (and settings:get agrees)',
    async run(h) {
      const v = await ok(h, 'settings:update', { devigModel: 'EM', dropAlertPct: 5, maxWinThresholdPct: 1000 });
      expect(v).toMatchObject({ devigModel: 'EM', dropAlertPct: 5, baseUrl: h.service.front.url });
      expect(await ok(h, 'settings:get')).toMatchObject({ devigModel: 'EM', dropAlertPct: 5 });
    },
  },
  {
    channel: 'app:info',
    does: "names the host, the service and the profile's history file, which exists",
    async run(h) {
      const v = await ok(h, 'app:info');
      expect(v).toMatchObject({ host: h.host, demo: false, baseUrl: h.service.front.url });
      expect(existsSync(v.historyPath), v.historyPath).toBe(true);
    },
  },
  {
    channel: 'coverage:get',
    does: 'gives the events per sport the service counts',
    async run(h) {
      const v = await ok(h, 'coverage:get');
      expect(v.sports.length).toBeGreaterThan(0);
      expect(v.sports.reduce((n, s) => n + s.events, 0)).toBe(Object.values(v.raw.standard).reduce((n, c) => n + c, 0));
    },
  },
  {
    channel: 'sports:list',
    does: 'lists the sports',
    async run(h) {
      expect((await ok(h, 'sports:list')).length).toBeGreaterThan(0);
    },
  },
  {
    channel: 'periods:list',
    does: "gives the service's period names once the connection fetched them",
    async run(h) {
      await until(h, (p) => p.length > 0, 'periods:list');
    },
  },
  {
    channel: 'fixtures:list',
    does: "lists the book's fixtures, the scripted match among them, not watched yet",
    async run(h) {
      const v = await ok(h, 'fixtures:list', {});
      expect(v.find((f) => f.event_id === h.service.eventId)).toMatchObject({ watched: false });
    },
  },
  {
    channel: 'watch:add',
    does: 'watches the match',
    async run(h) {
      expect(await ok(h, 'watch:add', h.service.eventId)).toMatchObject({ eventId: h.service.eventId });
    },
  },
  {
    channel: 'watch:list',
    does: 'has the watched match',
    async run(h) {
      expect((await ok(h, 'watch:list')).map((w) => w.eventId)).toContain(h.service.eventId);
    },
  },
  {
    channel: 'event:detail',
    does: "shows the watched match with its moneyline at the service's price (the stream's snapshot arrived)",
    async run(h) {
      const v = await until(
        h,
        (d) => d.markets.some((m) => m.lineId === h.service.lineId && m.prices?.home === 2.0),
        'event:detail',
        h.service.eventId,
      );
      expect(v).toMatchObject({ watched: true, settled: false, event: { eventId: h.service.eventId } });
    },
  },
  {
    channel: 'app:reconnect',
    does: 'reconnects and answers with the status; the connection comes back online, its stream live again',
    async run(h) {
      const s = await ok(h, 'app:reconnect');
      expect(s.auth).toBe('ok');
      await online(h);
    },
  },
  {
    channel: 'event:lineHistory',
    does: "has the line's recorded prices",
    async run(h) {
      const points = await ok(h, 'event:lineHistory', h.service.eventId, h.service.lineId);
      expect(points.at(-1)?.prices).toMatchObject({ home: 2.0, away: 1.9 });
    },
  },
  {
    channel: 'specials:list',
    does: "gives the match's specials, not restricted on an enterprise key",
    async run(h) {
      expect(await ok(h, 'specials:list', h.service.eventId)).toMatchObject({
        eventId: h.service.eventId,
        restricted: null,
      });
    },
  },
  {
    channel: 'specials:history',
    does: "gives a special's recorded prices (the first special's first contestant, where the match has one)",
    async run(h) {
      const { specials } = await ok(h, 'specials:list', h.service.eventId);
      const special = specials[0];
      const contestant = special?.contestants[0];
      const points = await ok(
        h,
        'specials:history',
        h.service.eventId,
        special?.specialId ?? 0,
        contestant?.contestantId ?? 0,
      );
      if (contestant?.odds != null) expect(points.length).toBeGreaterThan(0);
      else expect(points).toEqual([]);
    },
  },
  {
    channel: 'outrights:list',
    does: 'lists outright markets',
    async run(h) {
      const v = await ok(h, 'outrights:list', { minContestants: 1 });
      expect(v.length).toBeGreaterThan(0);
    },
  },
  {
    channel: 'status:get',
    does: "reports the connection online, the key accepted, the plan known and the watched match's stream live",
    async run(h) {
      const s = await until(h, (v) => v.plan === 'enterprise', 'status:get');
      expect(s).toMatchObject({ connection: 'online', auth: 'ok', demo: false, lastError: null });
      expect(s.streams).toContainEqual(expect.objectContaining({ eventId: h.service.eventId, state: 'live' }));
    },
  },
  {
    channel: 'settlements:syncNow',
    does: 'walks the settled matches now: after it every match the service has settled is stored, and a walk again adds none',
    async run(h) {
      // The walk at connection may be under way: this one runs after it, or is it.
      const first = await ok(h, 'settlements:syncNow');
      const settled = h.service.sim.truth.settled().map((e) => e.event_id);
      expect(settled.length).toBeGreaterThan(0);
      expect(first.added).toBeLessThanOrEqual(settled.length);
      const page = await ok(h, 'settlements:query', { limit: settled.length + 10 });
      expect(page.total).toBe(settled.length);
      expect(page.rows.map((r) => r.eventId).sort((a, b) => a - b)).toEqual([...settled].sort((a, b) => a - b));
      expect(await ok(h, 'settlements:syncNow')).toEqual({ added: 0 });
    },
  },
  {
    channel: 'settlements:query',
    does: "pages the settlements (the simulator's history has some)",
    async run(h, s) {
      const page = await until(h, (p) => p.rows.length > 0, 'settlements:query', { limit: 20 });
      expect(page.total).toBeGreaterThanOrEqual(page.rows.length);
      s.settled = page.rows[0]!.eventId;
    },
  },
  {
    channel: 'settlements:detail',
    does: 'explains one settlement',
    async run(h, s) {
      expect(await ok(h, 'settlements:detail', s.settled)).toMatchObject({ settlement: { event_id: s.settled } });
    },
  },
  {
    channel: 'settlements:exportCsv',
    does: 'exports the settlements as CSV: a header and a row per settlement',
    async run(h, s) {
      const csv = await ok(h, 'settlements:exportCsv', {});
      const { total } = await ok(h, 'settlements:query', {});
      expect(csv.trimEnd().split(/\r?\n/)).toHaveLength((total ?? 0) + 1);
      s.csv = csv;
    },
  },
  {
    channel: 'settlements:exportCsvToFile',
    does: 'streams the CSV to the file the save dialog names (a host without one says so); Cancel writes nothing',
    async run(h, s) {
      if (!h.saveDialog) {
        const r = await h.invoke('settlements:exportCsvToFile', {});
        expect(r).toMatchObject({
          ok: false,
          error: { kind: 'validation', message: expect.stringContaining('no save dialog') },
        });
        return;
      }
      const file = `${h.scratch}/settlements.csv`;
      h.saveDialog(file);
      const v = await ok(h, 'settlements:exportCsvToFile', {});
      expect(v).toMatchObject({ path: file });
      expect(readFileSync(file, 'utf8')).toBe(s.csv);
      expect(v!.rows).toBe(s.csv!.trimEnd().split(/\r?\n/).length - 1);
      h.saveDialog(null);
      expect(await ok(h, 'settlements:exportCsvToFile', {})).toBeNull();
    },
  },
  {
    channel: 'alerts:mute',
    does: "mutes a match's alerts and unmutes them (the settings show it)",
    async run(h) {
      expect(await ok(h, 'alerts:mute', h.service.eventId, true)).toBeNull();
      expect((await ok(h, 'settings:get')).mutedEvents).toContain(h.service.eventId);
      await ok(h, 'alerts:mute', h.service.eventId, false);
      expect((await ok(h, 'settings:get')).mutedEvents).not.toContain(h.service.eventId);
    },
  },
  {
    channel: 'alerts:snooze',
    does: "snoozes a match's alerts until an instant and ends the snooze (the settings show it)",
    async run(h) {
      const till = Date.now() + 3_600_000;
      expect(await ok(h, 'alerts:snooze', h.service.eventId, till)).toContainEqual({
        eventId: h.service.eventId,
        until: till,
      });
      expect((await ok(h, 'settings:get')).snoozedEvents).toContainEqual({ eventId: h.service.eventId, until: till });
      const after = await ok(h, 'alerts:snooze', h.service.eventId, null);
      expect(after.map((e) => e.eventId)).not.toContain(h.service.eventId);
    },
  },
  {
    channel: 'store:usage',
    does: "measures the history file's size",
    async run(h) {
      const v = await ok(h, 'store:usage');
      expect(v.fileBytes).toBeGreaterThan(0);
      expect(v.kinds.reduce((n, k) => n + k.bytes, 0)).toBe(v.fileBytes);
    },
  },
  {
    channel: 'store:compact',
    does: 'compacts what is past the raw window, to the end',
    async run(h) {
      expect(await ok(h, 'store:compact')).toMatchObject({ done: true });
    },
  },
  {
    channel: 'bets:add',
    does: 'records a bet on the watched line',
    async run(h, s) {
      const bet = await ok(h, 'bets:add', {
        eventId: h.service.eventId,
        lineId: h.service.lineId,
        side: 'home',
        price: 2.0,
        stake: 10,
      });
      expect(bet).toMatchObject({
        eventId: h.service.eventId,
        lineId: h.service.lineId,
        side: 'home',
        price: 2.0,
        stake: 10,
        result: null,
      });
      s.betId = bet.id;
    },
  },
  {
    channel: 'bets:list',
    does: 'lists the bet with the totals',
    async run(h, s) {
      const v = await ok(h, 'bets:list', {});
      expect(v.bets.map((b) => b.id)).toEqual([s.betId]);
      expect(v.totals).toMatchObject({ count: 1, stake: 10 });
    },
  },
  {
    channel: 'bets:exportCsv',
    does: 'exports the bet log as CSV',
    async run(h) {
      const lines = (await ok(h, 'bets:exportCsv', {})).trimEnd().split(/\r?\n/);
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain(String(h.service.eventId));
    },
  },
  {
    channel: 'bets:settle',
    does: "takes the trader's result for a bet, with its P/L",
    async run(h, s) {
      expect(await ok(h, 'bets:settle', s.betId, 'win')).toMatchObject({
        id: s.betId,
        result: 'win',
        resultBy: 'hand',
        pnl: 10,
      });
    },
  },
  {
    channel: 'bets:report',
    does: 'adds up the ledger: the settled bet’s P/L and ROI, no CLV while its line is open, and a range that leaves it out',
    async run(h, s) {
      const v = await ok(h, 'bets:report', {});
      expect(v.total).toMatchObject({
        bets: 1,
        settled: 1,
        stake: 10,
        pnl: 10,
        roi: 100,
        clvBets: 0,
        averageClv: null,
        ev: 0,
      });
      expect(v.clvStates).toMatchObject({ counted: 0, notClosed: 1 });
      expect(v.series).toMatchObject({ betId: [s.betId], cumPnl: [10], cumEv: [0] });
      expect(v.breakdowns.map((d) => d.dimension)).toEqual(['sport', 'league', 'market', 'side', 'oddsBand', 'model']);
      expect(v.breakdowns.find((d) => d.dimension === 'side')!.groups).toMatchObject([
        { key: 'home', bets: 1, pnl: 10 },
      ]);
      const placedAt = (await ok(h, 'bets:list', {})).bets[0]!.placedAt;
      expect((await ok(h, 'bets:report', { from: placedAt + 1 })).total.bets).toBe(0);
      expect((await ok(h, 'bets:report', { from: placedAt, to: placedAt + 1 })).total.bets).toBe(1);
    },
  },
  {
    channel: 'bets:update',
    does: 'changes the bet’s price, stake and note',
    async run(h, s) {
      expect(await ok(h, 'bets:update', s.betId, { price: 2.1, stake: 20, note: 'taken late' })).toMatchObject({
        id: s.betId,
        price: 2.1,
        stake: 20,
        note: 'taken late',
      });
    },
  },
  {
    channel: 'bets:remove',
    does: 'removes the bet',
    async run(h, s) {
      expect(await ok(h, 'bets:remove', s.betId)).toBeNull();
      expect((await ok(h, 'bets:list', {})).bets).toEqual([]);
    },
  },
  {
    channel: 'bets:restore',
    does: 'brings the removed bet back as it was',
    async run(h, s) {
      expect(await ok(h, 'bets:restore', s.betId)).toMatchObject({
        id: s.betId,
        price: 2.1,
        stake: 20,
        note: 'taken late',
      });
      expect((await ok(h, 'bets:list', {})).bets.map((b) => b.id)).toEqual([s.betId]);
    },
  },
  {
    channel: 'bets:history',
    does: 'gives every change to the bet, oldest first',
    async run(h, s) {
      expect((await ok(h, 'bets:history', s.betId)).map((r) => r.change)).toEqual([
        'recorded',
        'edited',
        'removed',
        'restored',
      ]);
    },
  },
  {
    channel: 'movers:list',
    does: "lists every priced side of the watched match's lines at the service's price, with its fair-price move: the handicap moved from 2.00 / 1.90 to 1.80 / 1.95 leads",
    async run(h) {
      const { sim, eventId, spreadLineId: lineId } = h.service;
      sim.script.setMarket(eventId, lineId, { home: 1.8, away: 1.95 });
      const rows = await until(
        h,
        (r) => r.some((x) => x.lineId === lineId && x.side === 'home' && x.price === 1.8),
        'movers:list',
      );
      // Every side the service prices on the match (nothing else moved on its manual clock), at the service's price.
      const offered = sim.truth.event(eventId)!.markets.flatMap((m) =>
        Object.entries(m.prices ?? {})
          .filter(([, p]) => p !== undefined && p > 1)
          .map(([side, p]) => `${m.line_id} ${side} ${p}`),
      );
      expect(rows.map((r) => `${r.lineId} ${r.side} ${r.price}`).sort()).toEqual(offered.sort());
      // EM fair prices (docs/trading.md): 2.00 / 1.90 is 2.0526 / 1.9500; 1.80 / 1.95 is 1.9231 / 2.0833. The move is
      // the drop rule's measure, and the line's is the largest (the away side's +6.84%) and then its home's (-6.31%).
      const [top, second] = rows;
      expect(top).toMatchObject({ eventId, lineId, side: 'away', price: 1.95 });
      expect(second).toMatchObject({ eventId, lineId, side: 'home', price: 1.8 });
      expect(top!.fair).toBeCloseTo(2.0833, 4);
      expect(second!.fair).toBeCloseTo(1.9231, 4);
      for (const r of [top!, second!]) expect([r.move5, r.move15, r.move60]).toEqual([r.move5, r.move5, r.move5]);
      expect(top!.move5).toBeCloseTo(6.84, 2);
      expect(second!.move5).toBeCloseTo(-6.31, 2);
      for (const r of rows.slice(2)) expect(r.move15 === 0, `${r.lineId} ${r.side} moved ${r.move15}`).toBe(true);
    },
  },
  {
    channel: 'alerts:list',
    does: 'lists the alerts: the drop of the handicap moved above (fair home 2.0526 to 1.9231, over the 5% rule), and no other',
    async run(h) {
      const { eventId, spreadLineId: lineId } = h.service;
      const alerts = await until(h, (a) => a.some((x) => x.kind === 'drop'), 'alerts:list', { limit: 50 });
      expect(alerts.map((a) => [a.kind, a.eventId])).toEqual([['drop', eventId]]);
      expect(alerts[0]!.data).toMatchObject({ lineId, side: 'home', model: 'EM', count: 1 });
      const data = alerts[0]!.data as { from: number; to: number; pct: number };
      expect(data.from).toBeCloseTo(2.0526, 4);
      expect(data.to).toBeCloseTo(1.9231, 4);
      expect(data.pct).toBeCloseTo(-6.31, 2);
    },
  },
  {
    channel: 'lines:closing',
    does: "gives the watched moneyline's opening price",
    async run(h) {
      // Recorded in small batches a moment after the stream's snapshot.
      const rows = await until(
        h,
        (r) => r.some((x) => x.lineId === h.service.lineId),
        'lines:closing',
        h.service.eventId,
      );
      expect(rows.find((r) => r.lineId === h.service.lineId)).toMatchObject({
        opening: { home: 2.0, away: 1.9 },
        closing: null,
      });
    },
  },
  {
    channel: 'priceAlerts:get',
    does: 'gives the match’s price alert rules (none set)',
    async run(h) {
      expect(await ok(h, 'priceAlerts:get', h.service.eventId)).toMatchObject({ thresholds: [] });
    },
  },
  {
    channel: 'priceAlerts:set',
    does: 'sets a threshold, which priceAlerts:get then gives',
    async run(h) {
      const rules = { thresholds: [{ lineId: h.service.lineId, side: 'home', price: 1.5 }] };
      expect(await ok(h, 'priceAlerts:set', h.service.eventId, rules)).toEqual(rules);
      expect(await ok(h, 'priceAlerts:get', h.service.eventId)).toMatchObject(rules);
      await ok(h, 'priceAlerts:set', h.service.eventId, { thresholds: [] });
    },
  },
  {
    channel: 'models:score',
    does: 'scores the de-vig models on the history: nothing yet (the watched match has not kicked off), and says so',
    async run(h) {
      const v = await ok(h, 'models:score', {});
      expect(v.all).toMatchObject({ lines: 0, matches: 0, leader: null });
      expect(v.all.models.map((m) => m.model)).toEqual(['LOG', 'EM', 'MPTO', 'SHIN', 'OR']);
      expect(v.sentence).toMatch(/^No settled line with a stored close yet/);
      expect(v.comparison).toBeNull();
    },
  },
  {
    channel: 'models:progress',
    does: 'says how far the latest scoring run got: finished, over every line it had',
    async run(h) {
      expect(await ok(h, 'models:progress')).toEqual({ running: false, done: 0, total: 0 });
    },
  },
  {
    channel: 'lab:run',
    does: 'replays the history through the drop rules: the current rule among 20, chosen on the earlier part',
    async run(h) {
      const v = await ok(h, 'lab:run', {});
      expect(v.rulesTried).toBe(20);
      expect(v.current).toBe('5%/15m/1pt/both/all/all');
      expect(v.earlier.rules).toHaveLength(20);
      expect(v.sentence).toMatch(/rules tried/);
    },
  },
  {
    channel: 'lab:progress',
    does: 'says how far the latest lab run got: finished',
    async run(h) {
      expect((await ok(h, 'lab:progress')).running).toBe(false);
    },
  },
  {
    channel: 'lab:cancel',
    does: 'stops a running lab: none runs now, so it says false',
    async run(h) {
      expect(await ok(h, 'lab:cancel')).toBe(false);
    },
  },
  {
    channel: 'watch:remove',
    does: 'unwatches the match, and watching it again works',
    async run(h) {
      expect(await ok(h, 'watch:remove', h.service.eventId)).toBeNull();
      expect((await ok(h, 'watch:list')).map((w) => w.eventId)).not.toContain(h.service.eventId);
      await ok(h, 'watch:add', h.service.eventId);
    },
  },
  {
    channel: 'settings:clearApiKey',
    does: 'clears the key (no key any more), and a new one connects again',
    async run(h) {
      expect(await ok(h, 'settings:clearApiKey')).toMatchObject({ hasKey: false, baseUrl: h.service.front.url });
      await ok(h, 'settings:setApiKey', h.service.key, h.service.front.url);
      await online(h);
    },
  },
  {
    channel: 'settings:forgetAllKeys',
    does: 'forgets every stored key (no key any more), and a new one connects again',
    async run(h) {
      const v = await ok(h, 'settings:forgetAllKeys');
      expect(v.removed).toBeGreaterThanOrEqual(1);
      expect(v.settings.hasKey).toBe(false);
      await ok(h, 'settings:setApiKey', h.service.key, h.service.front.url);
      await online(h);
    },
  },
];

/** Registers the suite's tests for one host; `host()` is called when they run (the host is set up in a beforeAll). */
export function contractSuite(name: string, host: () => ContractHost): void {
  describe(`the IPC contract through ${name}`, () => {
    const state: State = {};
    const current = new Set<string>(REQUEST_CHANNELS);

    it('has a case for every request channel of the contract', () => {
      const covered = new Set(CONTRACT_CASES.map((c) => c.channel));
      expect(
        REQUEST_CHANNELS.filter((c) => !covered.has(c)),
        'channels without a case',
      ).toEqual([]);
    });

    for (const c of CONTRACT_CASES) {
      // A case for a channel the contract does not have (yet, or any more) is not run.
      it.skipIf(!current.has(c.channel))(`${c.channel}: ${c.does}`, () => c.run(host(), state), 30_000);
    }
  });
}
