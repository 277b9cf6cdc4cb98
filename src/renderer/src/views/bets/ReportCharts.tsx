// The report's two charts (cumulative P/L against expected value, and the CLV distribution), each savable as a PNG
// with its title and legend drawn above the plot.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { countOf } from '../../../../shared/formats';
import type { LedgerReport } from '../../../../shared/ledger';
import { Chart } from '../../components/Chart';
import { useStore } from '../../store';
import { PushShareNote } from '../BetsReportPush';
import { count } from './figures';
import { saveFile } from './saveFile';

const css = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';

// Steps: a running sum moves at each bet and holds until the next.
const SERIES = [
  { label: 'P/L', color: '--c1', stepped: true },
  { label: 'Expected (stake × (1 − push share) × CLV)', color: '--c2', stepped: true },
];

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

/** Both charts side by side; `stamp` names the range in the saved files' names. */
export function ReportCharts({ report, stamp }: { report: LedgerReport; stamp: string }) {
  const toast = useStore((s) => s.toast);
  const chartBox = useRef<HTMLDivElement>(null);
  const histBox = useRef<HTMLDivElement>(null);
  const t = report.total;
  const png = (
    box: HTMLElement | null,
    title: string,
    legend: Array<{ label: string; color: string }>,
    name: string,
  ) => {
    if (!savePng(box, title, legend, `oddsdesk-bets-${name}-${stamp}.png`))
      toast('Nothing drawn to save yet.', 'error');
  };
  return (
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
          onClick={() => png(chartBox.current, `Cumulative P/L and expected value (${report.model})`, SERIES, 'pnl-ev')}
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
