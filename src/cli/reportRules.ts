// `report rules`: the rule lab of a recorded database, offline (docs/trading.md, "Scoring a drop rule"): the
// candidate drop rules (sizes 2-15% in two windows, and the current rule) replayed through the live drop rule over the
// recorded history, each scored by CLV against the close, beat-the-close rate, P/L at flat stakes and alerts a day,
// chosen on the earlier part of the history and scored on the later. JSON: the lab's result as one object, the figures
// the Lab view shows. CSV: a row per part and rule, through the app's one CSV writer; the sentence goes to stderr.
import type { Writable } from 'node:stream';
import { labOfFile } from '../core/lab/history';
import { defaultCandidates, ruleOfSettings } from '../core/lab/run';
import { DEFAULT_SETTINGS } from '../core/settingsService';
import type { DevigModel } from '../shared/api';
import { csvRow } from '../shared/csv';
import type { LabRule, RuleLabResult } from '../shared/ruleLab';
import { noDatabase, printReport, reportFailed } from './report';

export interface RulesReportOptions {
  db: string;
  format: 'json' | 'csv';
  since: number | null;
  sport: number | null;
  model?: DevigModel;
  /** The trader's current rule (default: the app's defaults). */
  current?: Partial<LabRule>;
}

export const RULES_CSV_COLUMNS = [
  'part',
  'rule',
  'drop_pct',
  'window_min',
  'min_prob_pts',
  'phase',
  'current',
  'chosen',
  'alerts',
  'by_bars',
  'per_day',
  'matches',
  'clv_alerts',
  'clv',
  'clv_low',
  'clv_high',
  'beat_rate',
  'beat_low',
  'beat_high',
  'settled_alerts',
  'roi',
  'roi_low',
  'roi_high',
  'vs_current',
  'vs_current_low',
  'vs_current_high',
  'significant',
] as const;

/** The lab's result as CSV rows: the earlier part's rules, then the later part's. */
export function* rulesCsv(r: RuleLabResult): Generator<string> {
  yield csvRow(RULES_CSV_COLUMNS);
  for (const part of ['earlier', 'later'] as const) {
    for (const [i, s] of r[part].rules.entries()) {
      const rule = r.rules[i]!;
      const v: Record<(typeof RULES_CSV_COLUMNS)[number], unknown> = {
        part,
        rule: s.key,
        drop_pct: rule.dropPct,
        window_min: rule.dropWindowMinutes,
        min_prob_pts: rule.minProbPts,
        phase: rule.phase,
        current: s.key === r.current,
        chosen: s.key === r.chosen,
        alerts: s.alerts,
        by_bars: s.byBars,
        per_day: s.perDay,
        matches: s.matches,
        clv_alerts: s.clvAlerts,
        clv: s.clv.mean,
        clv_low: s.clv.low,
        clv_high: s.clv.high,
        beat_rate: s.beatRate.mean,
        beat_low: s.beatRate.low,
        beat_high: s.beatRate.high,
        settled_alerts: s.settledAlerts,
        roi: s.roi.mean,
        roi_low: s.roi.low,
        roi_high: s.roi.high,
        vs_current: s.vsCurrent?.clv.mean ?? null,
        vs_current_low: s.vsCurrent?.clv.low ?? null,
        vs_current_high: s.vsCurrent?.clv.high ?? null,
        significant: s.vsCurrent?.significant ?? null,
      };
      yield csvRow(RULES_CSV_COLUMNS.map((c) => v[c] ?? null));
    }
  }
}

/** The trader's current rule from the app's settings (or the defaults), with any part given instead. */
export function currentRule(over: Partial<LabRule> = {}): LabRule {
  return { ...ruleOfSettings(DEFAULT_SETTINGS), ...over };
}

export async function runRulesReport(
  options: RulesReportOptions,
  sink: Writable = process.stdout,
  err: (text: string) => void = (t) => void process.stderr.write(t),
): Promise<number> {
  if (noDatabase(options.db, err)) return 2;
  try {
    const current = currentRule(options.current);
    const result = await labOfFile(
      options.db,
      { since: options.since, sportId: options.sport },
      { rules: defaultCandidates(current), current, model: options.model ?? DEFAULT_SETTINGS.devigModel },
    );
    return await printReport(options.format, result, rulesCsv, sink, err);
  } catch (e) {
    return reportFailed(e, err);
  }
}
