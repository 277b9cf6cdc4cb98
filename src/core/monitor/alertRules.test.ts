import { describe, expect, it } from 'vitest';
import type { SettledEvent } from '../../shared/api';
import { periodNames } from '../../shared/periods';
import { maxWinDecision, settlementDecision } from './alertRules';
import { createMaxWinAlerts } from './maxWinAlerts';
import { DEFAULT_MONITOR_SETTINGS } from '../settingsService';
import type { MonitorSettings } from './index';

const settled = (over: Partial<SettledEvent> = {}): SettledEvent => ({
  event_id: 42,
  sport_id: 2,
  league_id: 77,
  league_name: 'ATP Vienna',
  runner_home: 'Alcaraz',
  runner_away: 'Sinner',
  starts: '2026-11-20T12:00:00',
  score_home: 2,
  score_away: 1,
  status: 'ended',
  settled_at: '2026-11-20T14:00:00',
  settlement: [
    {
      line_id: 1,
      period: 0,
      market: 'moneyline',
      line: null,
      outcome_home: 'win',
      outcome_draw: 'loss',
      outcome_away: 'loss',
    },
    {
      line_id: 2,
      period: 0,
      market: 'spread',
      line: -1.5,
      outcome_home: 'loss',
      outcome_draw: 'loss',
      outcome_away: 'win',
    },
    {
      line_id: 3,
      period: 1,
      market: 'totals',
      line: 12.5,
      outcome_home: 'loss',
      outcome_draw: 'loss',
      outcome_away: 'win',
    },
  ],
  ...over,
});

const settings = (over: Partial<MonitorSettings> = {}): MonitorSettings => ({ ...DEFAULT_MONITOR_SETTINGS, ...over });

describe('settlementDecision', () => {
  it('by default alerts for watched matches only', () => {
    expect(settlementDecision(settled(), true, settings()).alert).not.toBeNull();
    expect(settlementDecision(settled(), false, settings())).toEqual({ alert: null, notify: null });
  });

  it('with "all settlements" alerts and notifies for an unwatched match too, unless muted', () => {
    const all = settings({ settlementAlerts: 'all' });
    const d = settlementDecision(settled(), false, all);
    expect(d.alert?.eventId).toBe(42);
    expect(d.notify).not.toBeNull();
    expect(settlementDecision(settled(), false, { ...all, mutedEvents: new Set([42]) }).alert).toBeNull();
  });

  it('with chosen sports and leagues alerts for those (and still for watched matches)', () => {
    const bySport = settings({ settlementAlerts: 'chosen', settlementSports: [2] });
    expect(settlementDecision(settled(), false, bySport).alert).not.toBeNull();
    expect(settlementDecision(settled({ sport_id: 3 }), false, bySport).alert).toBeNull();
    const byLeague = settings({ settlementAlerts: 'chosen', settlementLeagues: [77] });
    expect(settlementDecision(settled({ sport_id: 9 }), false, byLeague).alert).not.toBeNull();
    expect(settlementDecision(settled({ league_id: 78 }), false, byLeague).alert).toBeNull();
    expect(settlementDecision(settled({ league_id: 78 }), true, byLeague).alert).not.toBeNull();
  });

  it('names the event, the score and each line in words, with the service period names', () => {
    const d = settlementDecision(settled(), true, settings(), {
      sportName: 'Tennis',
      periodNames: periodNames([{ period: 1, description: 'First Set' }]),
    });
    expect(d.notify?.title).toBe('Settled: Alcaraz v Sinner 2–1');
    expect(d.notify?.body.split('\n')).toEqual([
      'Moneyline Home: won',
      'Away +1.5: won',
      'Under 12.5 (First Set): won',
    ]);
    expect(d.alert?.message).toBe(`${d.notify?.title}\n${d.notify?.body}`);
    expect(d.alert?.message).not.toMatch(/\bH [WLP]\b|\(p\d+\)/);
  });

  it('a settlement whose status is not ended says it; a quarter line reads its half result; a team total names its team', () => {
    const s = settled({
      status: 'abandoned',
      score_home: 1,
      score_away: 1,
      settlement: [
        {
          line_id: 5,
          period: 0,
          market: 'spread',
          line: -0.25,
          outcome_home: 'loss',
          outcome_draw: 'loss',
          outcome_away: 'win',
        },
        {
          line_id: 6,
          period: 0,
          market: 'team_total',
          line: 0.5,
          outcome_home: 'win',
          outcome_draw: 'loss',
          outcome_away: 'loss',
        },
      ],
    });
    const d = settlementDecision(s, true, settings(), { teams: new Map([[6, 'away' as const]]) });
    expect(d.notify?.title).toBe('Settled (abandoned): Alcaraz v Sinner 1–1');
    expect(d.notify?.body.split('\n')).toEqual(['Away +0.25: half won', 'Away team total Over 0.5: won']);
  });

  it('notifies with sound only when the trader asked for it, and not at all when silenced', () => {
    expect(settlementDecision(settled(), true, settings()).notify?.sound).toBe(false);
    expect(settlementDecision(settled(), true, settings({ settlementSound: true })).notify?.sound).toBe(true);
    const quiet = settlementDecision(settled(), true, settings({ doNotDisturb: true }));
    expect(quiet.alert).not.toBeNull();
    expect(quiet.notify).toBeNull();
    expect(settlementDecision(settled(), true, settings({ notifySettlements: false })).notify).toBeNull();
  });
});

describe('maxWinDecision: a limit alerts on its move since the value that last alerted (issue 22)', () => {
  const change = (from: number, to: number) => ({
    eventId: 42,
    specialId: null,
    contestantId: null,
    lineId: 7,
    from,
    to,
    at: '2026-11-20T12:00:00',
    label: 'Moneyline · Full match',
  });

  /** Walks a limit's values through the rule, carrying the base as the monitor does; the alerts' messages. */
  function walk(values: readonly number[], over: Partial<MonitorSettings> = {}): string[] {
    const s = settings({ maxWinThresholdPct: 10, ...over });
    const out: string[] = [];
    let base: number | undefined;
    for (let i = 1; i < values.length; i++) {
      const d = maxWinDecision(change(values[i - 1]!, values[i]!), true, s, base);
      base = d.base;
      if (d.alert) out.push(d.alert.message.replace(' on Moneyline · Full match', ''));
    }
    return out;
  }

  it.each([
    // Cut 2% at a time: -2.0%, -4.0%, -6.0% from 1000 stay quiet; 900 is -10.0% from 1000 and alerts, then 900 is the
    // base: 880 is -2.2%, 810 is -10.0% from 900 (not from 880, -8.0%).
    {
      name: 'a limit cut in small steps',
      values: [1000, 980, 960, 940, 900, 880, 810],
      alerts: ['Max stake 1,000 → 900 (-10.0%)', 'Max stake 900 → 810 (-10.0%)'],
    },
    // Raises count alike: +4.0%, +8.0%, then 1100 is +10.0% from 1000.
    {
      name: 'a limit raised in small steps',
      values: [1000, 1040, 1080, 1100],
      alerts: ['Max stake 1,000 → 1,100 (+10.0%)'],
    },
    // Back and forth about the base never adds up: -5.0%, 0, +5.0%, then 1100 is +10.0% from 1000 (+4.8% from 1050).
    {
      name: 'a limit that swings back',
      values: [1000, 950, 1000, 1050, 1100],
      alerts: ['Max stake 1,000 → 1,100 (+10.0%)'],
    },
    // A jump alerts at once, as before: 1000 → 500 is -50.0%; 500 → 480 is -4.0% from the new base.
    { name: 'a jump', values: [1000, 500, 480], alerts: ['Max stake 1,000 → 500 (-50.0%)'] },
    // Under the threshold in total: 1000 → 910 is -9.0%.
    { name: 'a slide short of the threshold', values: [1000, 970, 940, 910], alerts: [] },
  ])('$name: $values', ({ values, alerts }) => {
    expect(walk(values)).toEqual(alerts);
  });

  it('threshold 0 alerts every change, each from the one before', () => {
    expect(walk([1000, 990, 995], { maxWinThresholdPct: 0 })).toEqual([
      'Max stake 1,000 → 990 (-1.0%)',
      'Max stake 990 → 995 (+0.5%)',
    ]);
  });

  it("the alert's data is the move from the last alerted value, with the value just before; its notification says Max stake", () => {
    const d = maxWinDecision(change(940, 900), true, settings({ maxWinThresholdPct: 10 }), 1000);
    expect(d.alert).toMatchObject({
      kind: 'max_win',
      eventId: 42,
      data: { lineId: 7, from: 1000, to: 900, pct: -10, previous: 940 },
    });
    expect(d.notify?.title).toBe('Max stake -10.0%: Moneyline · Full match');
    expect(d.notify?.body).toBe('Max stake 1,000 → 900 (-10.0%) on Moneyline · Full match');
    expect(d.base).toBe(900);
  });

  it('a muted or unwatched event does not alert and keeps its base; without a base the change is measured from its own previous value', () => {
    const muted = settings({ maxWinThresholdPct: 10, mutedEvents: new Set([42]) });
    expect(maxWinDecision(change(940, 900), true, muted, 1000)).toEqual({ alert: null, notify: null, base: 1000 });
    expect(maxWinDecision(change(940, 900), false, settings({ maxWinThresholdPct: 10 }), 1000)).toEqual({
      alert: null,
      notify: null,
      base: 1000,
    });
    expect(maxWinDecision(change(940, 900), true, settings({ maxWinThresholdPct: 10 })).base).toBe(940);
  });
});

describe('createMaxWinAlerts: the bases per limit, forgotten with the event', () => {
  const s = settings({ maxWinThresholdPct: 10 });
  const line = (lineId: number, from: number, to: number, eventId = 42) => ({
    eventId,
    specialId: null,
    contestantId: null,
    lineId,
    from,
    to,
    at: '',
    label: 'L',
  });
  const special = (specialId: number, contestantId: number, from: number, to: number) => ({
    eventId: 42,
    specialId,
    contestantId,
    lineId: null,
    from,
    to,
    at: '',
    label: 'S',
  });

  it('keeps one base per line and per special contestant', () => {
    const a = createMaxWinAlerts();
    const fired = (c: Parameters<typeof a.decide>[0]) => a.decide(c, true, s).alert !== null;
    // Line 7 and special 7's contestant 1 slide side by side: each alerts on its own slide only.
    expect([
      fired(line(7, 1000, 960)),
      fired(special(7, 1, 200, 196)),
      fired(line(7, 960, 900)),
      fired(special(7, 1, 196, 190)),
    ]).toEqual([false, false, true, false]);
    expect(fired(special(7, 1, 190, 180))).toBe(true); // 200 → 180: -10.0%
    expect(a.held()).toBe(1);
  });

  it('forgets an event (unwatched or left the book): its next change is measured afresh; an unwatched event holds nothing', () => {
    const kept = createMaxWinAlerts();
    const forgot = createMaxWinAlerts();
    for (const a of [kept, forgot]) a.decide(line(7, 1000, 960), true, s);
    forgot.forget(42);
    expect(forgot.held()).toBe(0);
    // Kept, 900 is -10.0% from 1000; forgotten, it is -6.3% from 960.
    expect(kept.decide(line(7, 960, 900), true, s).alert?.message).toBe('Max stake 1,000 → 900 (-10.0%) on L');
    expect(forgot.decide(line(7, 960, 900), true, s).alert).toBeNull();
    const unwatched = createMaxWinAlerts();
    expect(unwatched.decide(line(7, 1000, 500, 43), false, s).alert).toBeNull();
    expect(unwatched.held()).toBe(0);
  });
});
