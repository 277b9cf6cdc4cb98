// Rule lab: which drop rule would have beaten the close on the trader's own history (docs/trading.md, "Scoring a
// drop rule"). The sentence, a chart of CLV and alerts a day against the drop size, a table per rule (the earlier
// part, where a rule is chosen, and the later part, where the choice is scored), and one action: "Use this rule",
// which makes the row's rule the drop rule in Settings, with an undo. The figures are the core's, the same
// `cli report rules` prints for the same file; the core runs in slices and the view shows how far it has got.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AppError } from '../../../shared/errors';
import {
  labInterval,
  labPct,
  labPerDay,
  labRuleExplained,
  labRuleWords,
  labShare,
  type LabProgress,
  type LabRule,
  type LabRuleScore,
  type RuleLabResult,
} from '../../../shared/ruleLab';
import { countOf, zoneLabel } from '../../../shared/formats';
import { fmtDateTime, useTimeZone, utcTitle } from '../format';
import { host } from '../host';
import { useStore } from '../store';

const PROGRESS_MS = 200;

/** The way to the lab from the views a trader comes from (Alerts, Models); the key L goes there from anywhere. */
export function LabLink({ testId }: { testId: string }) {
  return (
    <button
      onClick={() => useStore.getState().setView('lab')}
      data-testid={testId}
      title="Which drop rule beats the close (key L)"
    >
      Rule lab
    </button>
  );
}

export function LabView() {
  const [result, setResult] = useState<RuleLabResult | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const [progress, setProgress] = useState<LabProgress | null>(null);
  const asked = useRef(0);

  const run = useCallback(async () => {
    const ask = ++asked.current;
    setProgress({ running: true, done: 0, total: 0 });
    const poll = setInterval(() => {
      void host.invoke('lab:progress').then((r) => {
        if (r.ok && ask === asked.current && r.value.running) setProgress(r.value);
      });
    }, PROGRESS_MS);
    const r = await host.invoke('lab:run', {});
    clearInterval(poll);
    if (ask !== asked.current) return;
    setProgress(null);
    if (!r.ok) return setError(r.error);
    setError(null);
    setResult(r.value);
  }, []);

  useEffect(() => {
    void run();
  }, [run]);

  const working = progress !== null;
  return (
    <section className="view lab-view" aria-labelledby="lab-title" data-testid="lab-view">
      <header className="view-header">
        <h1 id="lab-title">Rule lab</h1>
        <button onClick={() => void run()} disabled={working} data-testid="lab-run">
          {working ? 'Replaying…' : 'Run again'}
        </button>
        {working && (
          <>
            <span className="muted" role="status" data-testid="lab-progress">
              <progress max={progress.total || 1} value={progress.done} /> {progress.done} of {progress.total} matches
            </span>
            <button onClick={() => void host.invoke('lab:cancel')} data-testid="lab-cancel">
              Stop
            </button>
          </>
        )}
      </header>
      {error && (
        <p className="calm-message" role="alert">
          {error.message}
        </p>
      )}
      {!result && !error && <p className="calm-message">Replaying your recorded history through the drop rules…</p>}
      {result && <LabResult result={result} />}
    </section>
  );
}

function LabResult({ result }: { result: RuleLabResult }) {
  const zone = useTimeZone();
  return (
    <div className="lab-body">
      <p className="lab-sentence" data-testid="lab-sentence">
        {result.sentence}
      </p>
      <p className="muted" data-testid="lab-split">
        {result.rulesTried} rules tried (every one a chance to fit luck): chosen on{' '}
        {countOf(result.earlier.events, 'match', 'matches')} from{' '}
        <time title={utcTitle(result.earlier.from, zone)}>{fmtDateTime(result.earlier.from, zone)}</time> to{' '}
        <time title={utcTitle(result.splitAt, zone)}>{fmtDateTime(result.splitAt, zone)}</time>, scored on{' '}
        {countOf(result.later.events, 'match', 'matches')} after; times in {zoneLabel(zone, result.splitAt)}. CLV under{' '}
        {result.model}; P/L per 100 staked at the alert&apos;s price. Alerts priced from one-minute bars are counted
        apart, never scored.
      </p>
      <LabChart result={result} />
      <LabTable result={result} />
    </div>
  );
}

/** CLV on each part and alerts a day against the drop size, for the rules in the current rule's window. */
function LabChart({ result }: { result: RuleLabResult }) {
  const current = result.rules[result.earlier.rules.findIndex((r) => r.key === result.current)]!;
  const idx = result.rules
    .map((r, i) => ({ r, i }))
    .filter(({ r }) => r.dropWindowMinutes === current.dropWindowMinutes)
    .sort((a, b) => a.r.dropPct - b.r.dropPct);
  const W = 640;
  const H = 220;
  const padL = 64;
  const padR = 96;
  const pad = 24;
  const xs = idx.map(({ r }) => r.dropPct);
  const clv = (part: 'earlier' | 'later') => idx.map(({ i }) => result[part].rules[i]!.clv.mean);
  const perDay = idx.map(({ i }) => result.earlier.rules[i]!.perDay);
  const vals = [...clv('earlier'), ...clv('later')].filter((v): v is number => v !== null);
  const lo = Math.min(0, ...vals);
  const hi = Math.max(0, ...vals);
  const maxDay = Math.max(1, ...perDay);
  const x = (d: number) =>
    padL + ((d - Math.min(...xs)) / Math.max(1, Math.max(...xs) - Math.min(...xs))) * (W - padL - padR);
  const y = (v: number) => H - pad - ((v - lo) / Math.max(1e-9, hi - lo)) * (H - 2 * pad);
  const yDay = (v: number) => H - pad - (v / maxDay) * (H - 2 * pad);
  const path = (ys: Array<number | null>) =>
    ys
      .map((v, k) => (v === null ? null : `${x(xs[k]!)},${y(v)}`))
      .filter(Boolean)
      .join(' ');
  // The CLV axis on the left (its top, zero and bottom), the alerts-a-day axis on the right (zero and the tallest bar).
  const clvTicks = [...new Set([hi, 0, lo])];
  return (
    <figure className="lab-chart" data-testid="lab-chart" data-points={idx.length}>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label="CLV and alerts a day against the drop size">
        <line className="lab-axis" x1={padL} x2={W - padR} y1={y(0)} y2={y(0)} />
        {perDay.map((v, k) => (
          <rect key={k} className="lab-bar" x={x(xs[k]!) - 6} width={12} y={yDay(v)} height={H - pad - yDay(v)}>
            <title>{`${xs[k]}%: ${labPerDay(v)} alerts a day`}</title>
          </rect>
        ))}
        <polyline className="lab-line earlier" points={path(clv('earlier'))} />
        <polyline className="lab-line later" points={path(clv('later'))} />
        {xs.map((d) => (
          <text key={d} className="lab-tick" x={x(d)} y={H - pad + 16} textAnchor="middle">
            {d}%
          </text>
        ))}
        <g data-testid="lab-clv-axis">
          {clvTicks.map((v) => (
            <text key={v} className="lab-tick" x={padL - 8} y={y(v) + 4} textAnchor="end">
              {v === 0 ? '0%' : labPct(v)}
            </text>
          ))}
        </g>
        <g data-testid="lab-day-axis">
          <text className="lab-tick" x={W - padR + 8} y={yDay(maxDay) + 4}>
            {labPerDay(maxDay)}/day
          </text>
          <text className="lab-tick" x={W - padR + 8} y={yDay(0) + 4}>
            0/day
          </text>
        </g>
      </svg>
      <figcaption className="muted">
        Drop size ({current.dropWindowMinutes} min window): <span className="lab-key earlier">CLV, earlier part</span>{' '}
        <span className="lab-key later">CLV, later part</span> <span className="lab-key bar">alerts a day</span>
      </figcaption>
    </figure>
  );
}

function LabTable({ result }: { result: RuleLabResult }) {
  return (
    <table className="grid-table lab-table" data-testid="lab-table">
      <thead>
        <tr>
          <th>Rule</th>
          <th>Alerts a day, earlier</th>
          <th>CLV earlier (95%)</th>
          <th>CLV later (95%)</th>
          <th>Beat the close, later</th>
          <th>P/L per 100, later</th>
          <th>Later vs your rule</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {result.rules.map((rule, i) => (
          <LabRow
            key={result.earlier.rules[i]!.key}
            i={i}
            rule={rule}
            earlier={result.earlier.rules[i]!}
            later={result.later.rules[i]!}
            current={result.earlier.rules[i]!.key === result.current}
            chosen={result.earlier.rules[i]!.key === result.chosen}
          />
        ))}
      </tbody>
    </table>
  );
}

function LabRow(p: {
  i: number;
  rule: LabRule;
  earlier: LabRuleScore;
  later: LabRuleScore;
  current: boolean;
  chosen: boolean;
}) {
  const { i, rule, earlier, later } = p;
  const vs = later.vsCurrent;
  return (
    <tr className={p.chosen ? 'lab-chosen' : undefined} data-testid={`lab-row-${i}`} data-key={earlier.key}>
      <td title={labRuleExplained(rule)}>
        {labRuleWords(rule)}
        {p.current && <span className="muted"> (yours)</span>}
        {p.chosen && <span title="Chosen on the earlier part"> ★</span>}
        {earlier.byBars + later.byBars > 0 && (
          <span className="muted"> · {earlier.byBars + later.byBars} from bars, not scored</span>
        )}
      </td>
      <td data-testid={`lab-perday-${i}`}>{labPerDay(earlier.perDay)}</td>
      <td data-testid={`lab-clv-earlier-${i}`} title={labInterval(earlier.clv)}>
        {labPct(earlier.clv.mean)} <span className="muted">({earlier.clvAlerts})</span>
      </td>
      <td data-testid={`lab-clv-later-${i}`} title={labInterval(later.clv)}>
        {labPct(later.clv.mean)} <span className="muted">({later.clvAlerts})</span>
      </td>
      <td data-testid={`lab-beat-${i}`}>{labShare(later.beatRate.mean)}</td>
      <td data-testid={`lab-roi-${i}`}>{labPct(later.roi.mean)}</td>
      <td data-testid={`lab-vs-${i}`}>
        {vs ? `${labPct(vs.clv.mean)} (${labInterval(vs.clv)})${vs.significant ? ' significant' : ''}` : '—'}
      </td>
      <td>
        {!p.current && (
          <button onClick={() => void applyRule(rule)} data-testid={`lab-use-${i}`}>
            Use this rule
          </button>
        )}
      </td>
    </tr>
  );
}

/** Makes a rule the drop rule in Settings; the toast's Undo puts the one before back. */
async function applyRule(rule: LabRule): Promise<void> {
  const { toast } = useStore.getState();
  const before = await host.invoke('settings:get');
  if (!before.ok) return toast(`Could not read the settings: ${before.error.message}`, 'error');
  const was = before.value;
  const set = await host.invoke('settings:update', {
    dropAlertPct: rule.dropPct,
    dropWindowMinutes: rule.dropWindowMinutes,
    dropAlertPhase: rule.phase,
    dropAlertSports: [...rule.sports],
  });
  if (!set.ok) return toast(`Could not use the rule: ${set.error.message}`, 'error');
  toast(`Drop rule is now ${labRuleWords(rule)}`, 'info', {
    action: {
      label: 'Undo',
      run: () =>
        void host.invoke('settings:update', {
          dropAlertPct: was.dropAlertPct,
          dropWindowMinutes: was.dropWindowMinutes,
          dropAlertPhase: was.dropAlertPhase,
          dropAlertSports: [...was.dropAlertSports],
        }),
    },
    ms: 15_000,
  });
}
