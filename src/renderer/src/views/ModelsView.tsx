// Models: which of the five de-vig models this book's closing prices call best, from the trader's own history
// (docs/trading.md, "Scoring the models"). The sentence, the table of log loss and Brier score with their 95%
// intervals and the lines behind them, a reliability plot per model (uPlot, in the theme's colours), and the same
// scores by sport and by market. The core scores in chunks; the view shows how far it has got meanwhile. The figures
// are the core's, the same `cli report models` prints for the same file.
import { useCallback, useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { AppError } from '../../../shared/errors';
import type {
  ModelReliability,
  ModelScoreboard,
  ScoreGroup,
  ScoreInterval,
  ScoreProgress,
} from '../../../shared/scoreboard';
import { formatScore } from '../../../shared/scoreboard';
import { countOf, dayStartIn, zoneLabel } from '../../../shared/formats';
import { host } from '../host';
import { DayInput } from '../components/DayInput';
import { useTimeZone } from '../format';
import { useStore } from '../store';
import { LabLink } from './LabView';

const PROGRESS_MS = 200;
const count = (n: number) => n.toLocaleString('en-US');
const interval = (i: ScoreInterval) =>
  i.low === null || i.high === null ? '—' : `${formatScore(i.low)} – ${formatScore(i.high)}`;
const css = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';

interface Filter {
  sportId: number | null;
  /** YYYY-MM-DD, from midnight in the trader's zone, or '' for all. */
  since: string;
}

export function ModelsView() {
  const [filter, setFilter] = useState<Filter>({ sportId: null, since: '' });
  const [board, setBoard] = useState<ModelScoreboard | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const [progress, setProgress] = useState<ScoreProgress | null>(null);
  const [sports, setSports] = useState<Array<{ id: number; label: string }>>([]);
  const asked = useRef(0);
  const zone = useTimeZone();

  const score = useCallback(
    async (f: Filter) => {
      const ask = ++asked.current;
      setProgress({ running: true, done: 0, total: 0 });
      // The core scores a chunk at a time; meanwhile the view asks how far it has got.
      const poll = setInterval(() => {
        void host.invoke('models:progress').then((r) => {
          if (r.ok && ask === asked.current && r.value.running) setProgress(r.value);
        });
      }, PROGRESS_MS);
      // The day's start in the trader's zone, as every other day filter reads it.
      const since = dayStartIn(f.since, zone);
      const r = await host.invoke('models:score', {
        ...(f.sportId === null ? {} : { sportId: f.sportId }),
        ...(since === undefined ? {} : { since }),
      });
      clearInterval(poll);
      if (ask !== asked.current) return;
      setProgress(null);
      if (!r.ok) {
        setError(r.error);
        return;
      }
      setError(null);
      setBoard(r.value);
      // The sports to choose from: those of the whole history, as first seen.
      if (f.sportId === null) setSports(r.value.bySport.map((g) => ({ id: Number(g.key), label: g.label })));
    },
    [zone],
  );

  useEffect(() => {
    void score(filter);
  }, [score, filter]);

  const working = progress !== null;
  return (
    <section className="view" aria-labelledby="models-title" data-testid="models-view">
      <header className="view-header">
        <h1 id="models-title">Models</h1>
        <LabLink testId="models-open-lab" />
        <label className="check">
          Sport
          <select
            value={filter.sportId ?? ''}
            onChange={(e) => setFilter({ ...filter, sportId: e.target.value === '' ? null : Number(e.target.value) })}
            data-testid="models-sport"
          >
            <option value="">All sports</option>
            {sports.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <span className="muted">Kick-off since</span>
        <DayInput
          value={filter.since}
          onChange={(since) => setFilter((f) => ({ ...f, since }))}
          label="Kick-off since (YYYY-MM-DD)"
          testId="models-since"
          zone={zone}
        />
        <span className="muted small-text" data-testid="models-zone">
          {zoneLabel(zone, Date.now())}
        </span>
        <button onClick={() => void score(filter)} disabled={working} data-testid="models-refresh">
          {working ? 'Scoring…' : 'Score again'}
        </button>
        {working && <Progress progress={progress} />}
      </header>
      {error && (
        <p className="calm-message" role="alert">
          {error.message}
        </p>
      )}
      {!board && !error && <p className="calm-message">Scoring the closes of your settled lines…</p>}
      {board && <Scoreboard board={board} stale={working} />}
    </section>
  );
}

function Progress({ progress }: { progress: ScoreProgress }) {
  return (
    <span className="muted" data-testid="models-progress" role="status">
      <progress
        value={progress.done}
        max={Math.max(1, progress.total)}
        style={{ width: 120, verticalAlign: 'middle', marginRight: 6 }}
      />
      {progress.total > 0 ? `${count(progress.done)} of ${count(progress.total)} lines` : 'Reading the history…'}
    </span>
  );
}

function Scoreboard({ board, stale }: { board: ModelScoreboard; stale: boolean }) {
  const all = board.all;
  return (
    <div style={{ opacity: stale ? 0.6 : 1 }}>
      <p data-testid="models-sentence" style={{ maxWidth: 980, lineHeight: 1.45, margin: '2px 0 10px' }}>
        {board.sentence}
      </p>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: '4px 28px', alignItems: 'flex-start' }}>
        <div style={{ maxWidth: 600 }}>
          {all.lines > 0 && (
            <>
              <ScoreTable group={all} />
              <p className="muted small-text" data-testid="models-lines">
                {countOf(all.lines, 'line')} from {countOf(all.matches, 'match', 'matches')}
                {board.halfPushes > 0
                  ? `, ${countOf(board.halfPushes, 'quarter line')} scored on the half that did not push`
                  : ''}
              </p>
            </>
          )}
          <Excluded board={board} />
        </div>
        {all.lines > 0 && (
          <div>
            <Breakdown title="By market" testId="models-by-market" groups={board.byMarket} />
            <Breakdown title="By sport" testId="models-by-sport" groups={board.bySport} />
          </div>
        )}
      </div>
      {all.lines > 0 && (
        <>
          <h2>Reliability</h2>
          <p className="muted small-text" style={{ maxWidth: 980 }}>
            Each dot is a bin of sides by the fair closing probability the model gave them (across), against how often
            those sides won (up), with its 95% interval. A model that reads this book's margin right keeps its dots on
            the dashed diagonal.
          </p>
          <div
            className="cards"
            style={{ gridTemplateColumns: 'repeat(auto-fill, minmax(230px, 1fr))' }}
            data-testid="models-reliability"
          >
            {board.reliability.map((r) => (
              <ReliabilityCard key={r.model} reliability={r} leader={all.leader === r.model} />
            ))}
          </div>
          <p className="muted small-text" style={{ maxWidth: 980 }} data-testid="models-method">
            Log loss: −ln of the fair closing probability of the side that won. Brier: the sum over the line's sides of
            (fair probability − outcome)². Lower is better for both; ★ marks the lowest log loss. {board.intervalMethod}{' '}
            Scored in {count(board.computedMs)} ms.
          </p>
        </>
      )}
    </div>
  );
}

function ScoreTable({ group }: { group: ScoreGroup }) {
  return (
    <table className="grid" data-testid="models-table">
      <thead>
        <tr>
          <th>Model</th>
          <th className="num">Log loss</th>
          <th className="num">95% interval</th>
          <th className="num">Brier</th>
          <th className="num">95% interval</th>
        </tr>
      </thead>
      <tbody>
        {group.models.map((m) => (
          <tr
            key={m.model}
            data-testid={`models-row-${m.model}`}
            style={group.leader === m.model ? { fontWeight: 600 } : undefined}
          >
            <td>
              {m.model}
              {group.leader === m.model ? ' ★' : ''}
            </td>
            <td className="num" data-testid={`models-logloss-${m.model}`}>
              {formatScore(m.logLoss.mean)}
            </td>
            <td className="num muted" data-testid={`models-logloss-ci-${m.model}`}>
              {interval(m.logLoss)}
            </td>
            <td className="num" data-testid={`models-brier-${m.model}`}>
              {formatScore(m.brier.mean)}
            </td>
            <td className="num muted" data-testid={`models-brier-ci-${m.model}`}>
              {interval(m.brier)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Excluded({ board }: { board: ModelScoreboard }) {
  const x = board.excluded;
  const parts: Array<[keyof typeof x, string, string]> = [
    ['push', 'push', 'pushes'],
    ['void', 'void', 'voids'],
    ['unreadable', 'quarter line not readable', 'quarter lines not readable'],
    ['lineMoved', 'line moved under its id', 'lines moved under their id'],
    ['unpriced', 'close without a fair price under every model', 'closes without a fair price under every model'],
    ['noWinner', 'line no priced side won', 'lines no priced side won'],
  ];
  return (
    <p className="muted small-text" data-testid="models-excluded">
      Left out:{' '}
      {parts.map(([k, one, many], i) => (
        <span key={k} data-testid={`models-excluded-${k}`} data-count={x[k]}>
          {countOf(x[k], one, many)}
          {i < parts.length - 1 ? ', ' : '.'}
        </span>
      ))}{' '}
      {board.awaitingSettlement > 0 && (
        <span data-testid="models-awaiting">
          {board.awaitingSettlement === 1
            ? "1 closed line awaits its match's settlement."
            : `${countOf(board.awaitingSettlement, 'closed line')} await their matches' settlements.`}
        </span>
      )}
    </p>
  );
}

function Breakdown({ title, testId, groups }: { title: string; testId: string; groups: ScoreGroup[] }) {
  if (groups.length === 0) return null;
  const models = groups[0]!.models.map((m) => m.model);
  return (
    <>
      <h2 style={{ marginTop: 0 }}>{title}</h2>
      <table className="grid compact" data-testid={testId} style={{ marginBottom: 10 }}>
        <thead>
          <tr>
            <th />
            <th className="num">Lines</th>
            <th className="num">Matches</th>
            <th>Leads</th>
            {models.map((m) => (
              <th key={m} className="num" title="Log loss">
                {m}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {groups.map((g) => (
            <tr key={g.key} data-testid={`${testId}-${g.key}`}>
              <td>{g.label}</td>
              <td className="num" data-testid={`${testId}-${g.key}-lines`}>
                {count(g.lines)}
              </td>
              <td className="num">{count(g.matches)}</td>
              <td data-testid={`${testId}-${g.key}-leader`}>{g.leader ?? '—'}</td>
              {g.models.map((m) => (
                <td
                  key={m.model}
                  className="num"
                  data-testid={`${testId}-${g.key}-${m.model}`}
                  title={`95% interval ${interval(m.logLoss)}`}
                  style={g.leader === m.model ? { fontWeight: 600 } : undefined}
                >
                  {formatScore(m.logLoss.mean)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function ReliabilityCard({ reliability, leader }: { reliability: ModelReliability; leader: boolean }) {
  const sides = reliability.bins.reduce((a, b) => a + b.count, 0);
  return (
    <div className="card">
      <div style={{ display: 'flex', justifyContent: 'space-between' }}>
        <strong>
          {reliability.model}
          {leader ? ' ★' : ''}
        </strong>
        <span className="muted small-text">{countOf(sides, 'side')}</span>
      </div>
      <ReliabilityPlot reliability={reliability} />
    </div>
  );
}

/**
 * One model's reliability plot: the diagonal (dashed), each bin's observed share at its mean predicted probability,
 * and the bin's 95% interval as a whisker. Rebuilt on a theme change, so its colours are the theme's.
 */
function ReliabilityPlot({ reliability }: { reliability: ModelReliability }) {
  const theme = useStore((s) => s.theme);
  const box = useRef<HTMLDivElement>(null);
  const { bins } = reliability;
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const xs = [0, ...bins.map((b) => b.meanPredicted), 1];
    const data: uPlot.AlignedData = [xs, xs, [null, ...bins.map((b) => b.observed), null]];
    const axis = {
      stroke: css('--muted'),
      grid: { stroke: css('--line'), width: 1 },
      ticks: { stroke: css('--line'), width: 1 },
    };
    const pct = (_u: uPlot, vals: number[]) => vals.map((v) => `${Math.round(v * 100)}%`);
    const colour = css('--c1');
    const height = 170;
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height,
      legend: { show: false },
      cursor: { show: false },
      scales: { x: { time: false, range: [0, 1] }, y: { range: [0, 1] } },
      axes: [
        { ...axis, size: 30, values: pct, splits: () => [0, 0.25, 0.5, 0.75, 1] },
        { ...axis, size: 48, values: pct, splits: () => [0, 0.25, 0.5, 0.75, 1] },
      ],
      series: [
        {},
        { label: 'Calibrated', stroke: css('--muted'), width: 1, dash: [4, 4], points: { show: false } },
        {
          label: 'Won',
          stroke: colour,
          width: 0,
          paths: () => null,
          points: { show: true, size: 7, fill: colour, stroke: colour },
        },
      ],
      hooks: {
        draw: [
          (u) => {
            const ctx = u.ctx;
            ctx.save();
            ctx.strokeStyle = colour;
            ctx.lineWidth = Math.max(1, devicePixelRatio);
            for (const b of bins) {
              const x = u.valToPos(b.meanPredicted, 'x', true);
              ctx.beginPath();
              ctx.moveTo(x, u.valToPos(b.low, 'y', true));
              ctx.lineTo(x, u.valToPos(b.high, 'y', true));
              ctx.stroke();
            }
            ctx.restore();
          },
        ],
      },
    };
    const u = new uPlot(opts, data, el);
    const ro = new ResizeObserver(() => u.setSize({ width: Math.max(200, el.clientWidth), height }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      u.destroy();
    };
  }, [bins, theme]);
  return (
    <div
      className="chart"
      ref={box}
      data-testid={`reliability-${reliability.model}`}
      data-bins={bins.length}
      data-theme={theme}
    />
  );
}
