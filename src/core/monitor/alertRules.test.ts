import { describe, expect, it } from 'vitest';
import type { SettledEvent } from '../../shared/api';
import { periodNames } from '../../shared/periods';
import { settlementDecision } from './alertRules';
import { DEFAULT_MONITOR_SETTINGS } from '../settings';
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
    { line_id: 1, period: 0, market: 'moneyline', line: null, outcome_home: 'win', outcome_draw: 'loss', outcome_away: 'loss' },
    { line_id: 2, period: 0, market: 'spread', line: -1.5, outcome_home: 'loss', outcome_draw: 'loss', outcome_away: 'win' },
    { line_id: 3, period: 1, market: 'totals', line: 12.5, outcome_home: 'loss', outcome_draw: 'loss', outcome_away: 'win' },
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
    expect(d.notify?.body.split('\n')).toEqual(['Moneyline Home: won', 'Spread -1.5 Away: won', 'Total 12.5 Under (First Set): won']);
    expect(d.alert?.message).toBe(`${d.notify?.title}\n${d.notify?.body}`);
    expect(d.alert?.message).not.toMatch(/\bH [WLP]\b|\(p\d+\)/);
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
