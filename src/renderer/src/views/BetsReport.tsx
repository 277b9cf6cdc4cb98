// The Bets view's Report tab: the trader's ledger in pictures (issue 27, part 1; docs/trading.md, "The ledger
// report"). Cumulative P/L and cumulative expected value (stake x (1 - push share) x CLV) on one chart, so luck and skill separate; the
// CLV distribution; P/L, ROI, CLV and the beat-the-close rate by sport, league, market, side, odds band and model;
// a range of days in the trader's zone. The core aggregates (`bets:report`, src/shared/ledger.ts); the page formats
// in the trader's odds format, unit and zone. The table and the series export as CSV, each chart as PNG, through a
// download in both hosts (the desktop's asks where to save it), as the bet log's CSV does.
import { useCallback, useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { AppError } from '../../../shared/errors';
import { countOf, dayStartIn, EDGE_PCT_DECIMALS, formatPercent, toneOf, zoneLabel } from '../../../shared/formats';
import {
  CLV_STATE_WORDS,
  CLV_STATES,
  LEDGER_DIMENSION_NAMES,
  ledgerCsv,
  ledgerSeriesCsv,
  oddsBandLabel,
  type LedgerGroup,
  type LedgerReport,
} from '../../../shared/ledger';
import { PushShareNote } from './BetsReportPush';
import { formatMoney } from '../../../shared/trading';
import { api } from '../api';
import { Chart } from '../components/Chart';
import { DayInput } from '../components/DayInput';
import { useOddsFormat, useTimeZone } from '../format';
import { useStore } from '../store';

const fmtPct2 = (x: number | null | undefined) => formatPercent(x, { sign: true, decimals: EDGE_PCT_DECIMALS });
const tone = (x: number | null | undefined) => toneOf(x, EDGE_PCT_DECIMALS);
const count = (n: number) => n.toLocaleString('en-US');
const css = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';

// Steps: a running sum moves at each bet and holds until the next.
const SERIES = [
  { label: 'P/L', color: '--c1', stepped: true },
  { label: 'Expected (stake × (1 − push share) × CLV)', color: '--c2', stepped: true },
];

/** Hands a file to the browser's download (browser mode: the Downloads folder; the desktop: its save dialog). */
function saveFile(blob: Blob, name: string) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/**
 * A chart as a PNG: uPlot's canvas (the plot and its axes) on the theme's panel colour, with the chart's title and
 * legend drawn above it (uPlot keeps those in the page, not on the canvas).
 */
function savePng(
  box: HTMLElement | null,
  title: string,
  legend: Array<{ label: string; color: string }>,
  name: string,
): boolean {
  const plot = box?.querySelector('canvas');
  if (!plot || plot.width === 0) return false;
  const scale = plot.clientWidth > 0 ? plot.width / plot.clientWidth : 1;
  const pad = Math.round(10 * scale);
  const head = Math.round(44 * scale);
  const out = document.createElement('canvas');
  out.width = plot.width + 2 * pad;
  out.height = plot.height + head + 2 * pad;
  const g = out.getContext('2d');
  if (!g) return false;
  g.fillStyle = css('--panel');
  g.fillRect(0, 0, out.width, out.height);
  g.fillStyle = css('--text');
  g.font = `600 ${Math.round(14 * scale)}px system-ui, sans-serif`;
  g.textBaseline = 'middle';
  g.fillText(title, pad, pad + Math.round(9 * scale));
  g.font = `${Math.round(12 * scale)}px system-ui, sans-serif`;
  let x = pad;
  const y = pad + Math.round(30 * scale);
  for (const l of legend) {
    g.fillStyle = l.color.startsWith('--') ? css(l.color) : l.color;
    g.fillRect(x, y - Math.round(5 * scale), Math.round(14 * scale), Math.round(10 * scale));
    x += Math.round(20 * scale);
    g.fillStyle = css('--text');
    g.fillText(l.label, x, y);
    x += g.measureText(l.label).width + Math.round(18 * scale);
  }
  g.drawImage(plot, pad, pad + head);
  out.toBlob((blob) => blob && saveFile(blob, name), 'image/png');
  return true;
}

export function BetsReport() {
  const toast = useStore((s) => s.toast);
  const unit = useStore((s) => s.settings?.moneyUnit ?? '');
  const model = useStore((s) => s.devigModel);
  const format = useOddsFormat();
  const zone = useTimeZone();
  const [range, setRange] = useState({ from: '', to: '' });
  const [report, setReport] = useState<LedgerReport | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const [working, setWorking] = useState(false);
  const asked = useRef(0);
  const chartBox = useRef<HTMLDivElement>(null);
  const histBox = useRef<HTMLDivElement>(null);
  const money = (n: number | null, sign = false) => (n === null ? '—' : formatMoney(n, unit, { sign }));

  const load = useCallback(async () => {
    const ask = ++asked.current;
    setWorking(true);
    const from = dayStartIn(range.from, zone);
    const to = dayStartIn(range.to, zone, 1); // the "to" day is included
    const r = await api.invoke('bets:report', {
      ...(from === undefined ? {} : { from }),
      ...(to === undefined ? {} : { to }),
    });
    if (ask !== asked.current) return;
    setWorking(false);
    if (r.ok) {
      setReport(r.value);
      setError(null);
    } else setError(r.error);
  }, [range, zone]);
  useEffect(() => {
    void load();
    // The trader's model changes every CLV: ask again.
  }, [load, model]);

  const stamp =
    range.from || range.to ? `${range.from || 'start'}_${range.to || 'now'}` : new Date().toISOString().slice(0, 10);
  const exportTable = () =>
    report &&
    saveFile(
      new Blob([ledgerCsv(report, format)], { type: 'text/csv;charset=utf-8' }),
      `oddsdesk-bets-report-${stamp}.csv`,
    );
  const exportSeries = () =>
    report &&
    saveFile(
      new Blob([ledgerSeriesCsv(report)], { type: 'text/csv;charset=utf-8' }),
      `oddsdesk-bets-series-${stamp}.csv`,
    );
  const png = (
    box: HTMLElement | null,
    title: string,
    legend: Array<{ label: string; color: string }>,
    name: string,
  ) => {
    if (!savePng(box, title, legend, `oddsdesk-bets-${name}-${stamp}.png`))
      toast('Nothing drawn to save yet.', 'error');
  };

  const t = report?.total;
  const notCounted = report ? CLV_STATES.filter((s) => s !== 'counted' && report.clvStates[s] > 0) : [];
  return (
    <div data-testid="bets-report" style={{ opacity: working && report ? 0.6 : 1 }}>
      <div className="view-header" style={{ paddingBottom: 4 }}>
        <span className="muted">Placed from</span>
        <DayInput
          value={range.from}
          onChange={(from) => setRange((r) => ({ ...r, from }))}
          label="Placed from (YYYY-MM-DD)"
          testId="report-from"
          zone={zone}
        />
        <span className="muted">to</span>
        <DayInput
          value={range.to}
          onChange={(to) => setRange((r) => ({ ...r, to }))}
          label="Placed to (YYYY-MM-DD)"
          testId="report-to"
          zone={zone}
        />
        <span className="muted small-text">{zoneLabel(zone, Date.now())}</span>
        <button onClick={exportTable} disabled={!report} data-testid="report-export-csv">
          Export table CSV
        </button>
        <button onClick={exportSeries} disabled={!report} data-testid="report-export-series">
          Export series CSV
        </button>
        {working && (
          <span className="muted" role="status" data-testid="report-working">
            Adding up…
          </span>
        )}
      </div>
      {error && (
        <p className="calm-message" role="alert">
          {error.message}
        </p>
      )}
      {t && report && (
        <>
          <dl className="totals" data-testid="report-totals">
            <div>
              <dt>Bets</dt>
              <dd data-testid="report-count">{count(t.bets)}</dd>
            </div>
            <div>
              <dt>Settled</dt>
              <dd data-testid="report-settled">{count(t.settled)}</dd>
            </div>
            <div>
              <dt>Stake</dt>
              <dd data-testid="report-stake">{money(t.stake)}</dd>
            </div>
            <div>
              <dt>P/L</dt>
              <dd className={tone(t.pnl)} data-testid="report-pnl">
                {money(t.pnl, true)}
              </dd>
            </div>
            <div>
              <dt>ROI</dt>
              <dd className={tone(t.roi)} data-testid="report-roi">
                {fmtPct2(t.roi)}
              </dd>
            </div>
            <div>
              <dt>Average CLV ({report.model})</dt>
              <dd className={tone(t.averageClv)} data-testid="report-avg-clv">
                {fmtPct2(t.averageClv)}
              </dd>
            </div>
            <div>
              <dt>Beat the close</dt>
              <dd data-testid="report-beat">{beat(t)}</dd>
            </div>
            <div>
              <dt>Expected value</dt>
              <dd className={tone(t.ev)} data-testid="report-ev">
                {money(t.ev, true)}
              </dd>
            </div>
          </dl>
          {t.bets === 0 ? (
            <p className="calm-message">No bets placed in this range.</p>
          ) : (
            <>
              <div className="charts two">
                <div className="card">
                  <div ref={chartBox}>
                    <Chart
                      title="Cumulative P/L and expected value (settled bets, in the order placed)"
                      data={[report.series.placedAt, report.series.cumPnl, report.series.cumEv]}
                      series={SERIES}
                      values="money"
                      height={240}
                      minSpanMs={3_600_000}
                      testId="report-chart"
                    />
                  </div>
                  <PushShareNote report={report} />
                  <button
                    className="link"
                    onClick={() =>
                      png(chartBox.current, `Cumulative P/L and expected value (${report.model})`, SERIES, 'pnl-ev')
                    }
                    data-testid="report-chart-png"
                  >
                    Save chart as PNG
                  </button>
                </div>
                <div className="card">
                  <div ref={histBox}>
                    <ClvHistogramPlot report={report} />
                  </div>
                  <button
                    className="link"
                    onClick={() =>
                      png(
                        histBox.current,
                        `CLV distribution (${report.model}), ${countOf(t.clvBets, 'bet')}`,
                        [
                          { label: 'below zero', color: '--down' },
                          { label: 'zero or above', color: '--up' },
                        ],
                        'clv',
                      )
                    }
                    data-testid="report-histogram-png"
                  >
                    Save chart as PNG
                  </button>
                </div>
              </div>
              <p className="muted small-text" style={{ maxWidth: 1100 }} data-testid="report-reading">
                P/L is what the settled bets made; expected value is what their prices were worth against the no-vig
                close (stake × (1 − push share) × CLV under {report.model}: on a line that can push, only the part of
                the stake that does not push earns the edge). The P/L line wandering above or below the expected-value
                line is luck; the expected-value line climbing is skill. CLV counts only the real close of the bet's own
                line:{' '}
                {notCounted.length === 0
                  ? 'every bet here has one.'
                  : notCounted.map((s, i) => (
                      <span key={s} data-testid={`report-clv-state-${s}`} data-count={report.clvStates[s]}>
                        {countOf(report.clvStates[s], 'bet')}: {CLV_STATE_WORDS[s]}
                        {i < notCounted.length - 1 ? '; ' : '. '}
                      </span>
                    ))}
                {notCounted.length > 0 &&
                  'They count in the stake, P/L and ROI, and not in the CLV, the beat-the-close rate or the expected value.'}{' '}
                Computed in {count(report.computedMs)} ms.
              </p>
              <Breakdowns report={report} money={money} />
            </>
          )}
        </>
      )}
      {!report && !error && <p className="calm-message">Adding up your bets…</p>}
    </div>
  );
}

const beat = (g: LedgerGroup) =>
  g.beatRate === null ? '—' : `${formatPercent(g.beatRate)} (${count(g.beatClose)} of ${count(g.clvBets)})`;

function Breakdowns({ report, money }: { report: LedgerReport; money: (n: number | null, sign?: boolean) => string }) {
  const format = useOddsFormat();
  const row = (dimension: string, g: LedgerGroup, label: string) => {
    const id = `report-row-${dimension}-${g.key}`;
    return (
      <tr key={id} data-testid={id}>
        <td>{label}</td>
        <td className="num" data-testid={`${id}-bets`}>
          {count(g.bets)}
        </td>
        <td className="num">{count(g.settled)}</td>
        <td className="num">{money(g.stake)}</td>
        <td className={`num ${tone(g.pnl)}`} data-testid={`${id}-pnl`}>
          {money(g.pnl, true)}
        </td>
        <td className={`num ${tone(g.roi)}`} data-testid={`${id}-roi`}>
          {fmtPct2(g.roi)}
        </td>
        <td className="num">{count(g.clvBets)}</td>
        <td className={`num ${tone(g.averageClv)}`} data-testid={`${id}-clv`}>
          {fmtPct2(g.averageClv)}
        </td>
        <td className="num" data-testid={`${id}-beat`}>
          {beat(g)}
        </td>
        <td className={`num ${tone(g.ev)}`}>{money(g.ev, true)}</td>
      </tr>
    );
  };
  return (
    <table className="grid" data-testid="report-breakdowns" style={{ marginTop: 8 }}>
      <thead>
        <tr>
          <th />
          <th className="num">Bets</th>
          <th className="num">Settled</th>
          <th className="num">Stake</th>
          <th className="num">P/L</th>
          <th className="num">ROI</th>
          <th className="num" title="Bets whose CLV counts">
            CLV bets
          </th>
          <th className="num">Average CLV</th>
          <th className="num">Beat the close</th>
          <th
            className="num"
            title="Σ stake × (1 − push share) × CLV over the bets whose CLV counts and whose push share is known"
          >
            Expected value
          </th>
        </tr>
      </thead>
      <tbody>
        {row('all', report.total, 'All bets')}
        {report.breakdowns.map((d) => [
          <tr key={`head-${d.dimension}`}>
            <th colSpan={10} style={{ textAlign: 'left', paddingTop: 10 }}>
              By {LEDGER_DIMENSION_NAMES[d.dimension].toLowerCase()}
              {d.dimension === 'model' && (
                <span className="muted small-text"> (P/L does not depend on the model; CLV is under each)</span>
              )}
              {d.dimension === 'oddsBand' && <span className="muted small-text"> (the price taken)</span>}
            </th>
          </tr>,
          ...d.groups.map((g) =>
            row(
              d.dimension,
              g,
              d.dimension === 'oddsBand' && g.band
                ? oddsBandLabel(g.band, format)
                : d.dimension === 'model' && g.key === report.model
                  ? `${g.label} (yours)`
                  : g.label,
            ),
          ),
        ])}
      </tbody>
    </table>
  );
}

/** The CLV histogram: bars below zero in the theme's red, at or above zero in its green. Rebuilt on a theme change. */
function ClvHistogramPlot({ report }: { report: LedgerReport }) {
  const theme = useStore((s) => s.theme);
  const box = useRef<HTMLDivElement>(null);
  const h = report.histogram;
  useEffect(() => {
    const el = box.current;
    if (!el || h.bins.length === 0) return;
    const xs = h.bins.map((b) => b.from + h.width / 2);
    const below = h.bins.map((b) => (b.to <= 0 ? b.count : null));
    const above = h.bins.map((b) => (b.from >= 0 ? b.count : null));
    const axis = {
      stroke: css('--muted'),
      grid: { stroke: css('--line'), width: 1 },
      ticks: { stroke: css('--line'), width: 1 },
    };
    const bars = uPlot.paths.bars?.({ size: [0.92, Infinity], align: 0 });
    const height = 240;
    const opts: uPlot.Options = {
      title: `CLV distribution (${report.model}), ${countOf(report.total.clvBets, 'bet')}`,
      width: Math.max(200, el.clientWidth),
      height,
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      scales: {
        x: { time: false, range: [h.bins[0]!.from, h.bins[h.bins.length - 1]!.to] },
        y: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] },
      },
      axes: [
        { ...axis, size: 32, values: (_u, vals) => vals.map((v) => `${v > 0 ? '+' : ''}${v}%`) },
        { ...axis, size: 44, values: (_u, vals) => vals.map((v) => (Number.isInteger(v) ? count(v) : '')) },
      ],
      series: [
        {},
        {
          label: 'below zero',
          stroke: css('--down'),
          fill: css('--down-bg'),
          width: 1,
          paths: bars,
          points: { show: false },
        },
        {
          label: 'zero or above',
          stroke: css('--up'),
          fill: css('--up-bg'),
          width: 1,
          paths: bars,
          points: { show: false },
        },
      ],
    };
    const u = new uPlot(opts, [xs, below, above], el);
    const ro = new ResizeObserver(() => u.setSize({ width: Math.max(200, el.clientWidth), height }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      u.destroy();
    };
  }, [h, report.model, report.total.clvBets, theme]);
  if (h.bins.length === 0)
    return (
      <p className="muted" data-testid="report-histogram">
        No bet here has a CLV that counts yet.
      </p>
    );
  const tails = [h.below > 0 ? `${count(h.below)} below −50%` : '', h.above > 0 ? `${count(h.above)} above +50%` : '']
    .filter(Boolean)
    .join(', ');
  return (
    <>
      <div className="chart" ref={box} data-testid="report-histogram" data-bins={h.bins.length} data-theme={theme} />
      <p className="muted small-text" style={{ margin: 0 }}>
        Bars {countOf(h.width, 'point')} wide{tails ? `; outside the chart: ${tails}` : ''}.
      </p>
    </>
  );
}
