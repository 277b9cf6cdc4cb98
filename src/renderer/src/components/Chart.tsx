// A small uPlot time-series chart that fills its container's width. Times are ms; uPlot wants seconds. Odds charts
// use a log scale: on a linear one a 1.01 vs 501 market is a flat line at the bottom and a spike at the top. The time
// axis and the cursor's legend read in the trader's zone on a 24-hour clock (uPlot's own labels are US 12-hour, in
// the browser's zone); odds on the axis and in the legend in the trader's odds format.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatDateTime, formatOdds, type OddsFormat } from '../../../shared/formats';
import { fmtMoney, useOddsFormat, useTimeZone } from '../format';
import { useStore } from '../store';
import { timeAxisLabels } from '../../../shared/timeAxis';

export interface ChartSeries {
  label: string;
  /** A colour, or a CSS custom property name such as '--c1' (follows the theme). */
  color: string;
  /** Draw as steps (max_win changes hold until the next change). */
  stepped?: boolean;
}

interface Props {
  title: string;
  /** [timesMs, ...one array per series] */
  data: Array<Array<number | null>>;
  series: ChartSeries[];
  height?: number;
  testId?: string;
  /** What the values are: decimal prices (shown in the trader's odds format) or amounts (max stake). */
  values: 'odds' | 'money';
  /** A log y scale (uPlot distr 3), for decimal odds; every value must be > 0 (a value <= 0 is left out). */
  log?: boolean;
  /**
   * The least time the x axis spans, in ms (default a minute): one point, or points a few ms apart, get this much
   * room around them, so the axis reads clock times ("15:10:20"), not thousandths of a second or whole years.
   */
  minSpanMs?: number;
}

/**
 * The x range: the data's, widened about its middle to at least `minSpanMs` (uPlot's own, for one point or points
 * ms apart, spans thousandths of a second or years, labelled "17.198 / 17.199" or "1 Jan, 1 Jan").
 */
export function timeRange(min: number | null, max: number | null, minSpanMs: number, nowMs: number): [number, number] {
  const span = minSpanMs / 1000;
  if (min == null || max == null || !Number.isFinite(min) || !Number.isFinite(max))
    return [nowMs / 1000 - span, nowMs / 1000];
  if (max - min >= span) return [min, max];
  const mid = (min + max) / 2;
  return [mid - span / 2, mid + span / 2];
}

/** Decimal prices a price axis may label: the ones a trader reads at a glance. */
const PRICE_TICKS = [
  1.01, 1.02, 1.05, 1.1, 1.2, 1.25, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2, 2.2, 2.5, 2.75, 3, 3.5, 4, 4.5, 5, 6, 7, 8,
  10, 12, 15, 20, 25, 30, 40, 50, 75, 100, 150, 200, 300, 500, 1000,
];

/**
 * A log price axis' range: the data with a little room either side (uPlot's own snaps to whole decades, so 1.50 and
 * 2.75 sat in a thin band between 1 and 10, labelled 1 and 10 only), and its ticks: prices of the ladder inside it,
 * at least a label's height apart on screen.
 */
const logPriceRange = (_u: uPlot, min: number | null, max: number | null): uPlot.Range.MinMax =>
  min == null || max == null ? [1, 10] : [Math.max(1.001, min / 1.06), max * 1.06];
const LABEL_GAP_PX = 22;
function logPriceSplits(u: uPlot, _axis: number, min: number, max: number): number[] {
  const inside = PRICE_TICKS.filter((p) => p >= min && p <= max);
  // A narrow range between two ladder prices: its own ends.
  if (inside.length < 2) return [min, max];
  const height = u.bbox.height / (window.devicePixelRatio || 1);
  const at = (p: number) => ((Math.log(p) - Math.log(min)) / (Math.log(max) - Math.log(min))) * height;
  const kept: number[] = [];
  for (const p of inside) if (kept.length === 0 || at(p) - at(kept[kept.length - 1]!) >= LABEL_GAP_PX) kept.push(p);
  return kept;
}

const valueText = (values: Props['values'], format: OddsFormat) => (v: number) =>
  values === 'odds' ? formatOdds(v, format) : fmtMoney(v);

const css = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';

export function Chart({ title, data, series, height = 150, testId, values, log = false, minSpanMs = 60_000 }: Props) {
  const theme = useStore((s) => s.theme);
  const oddsFormat = useOddsFormat();
  const zone = useTimeZone();
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const seriesKey = series.map((s) => `${s.label}:${s.color}:${s.stepped ? 1 : 0}`).join('|');
  const aligned = (): uPlot.AlignedData =>
    [
      data[0]!.map((t) => (t ?? 0) / 1000),
      // A log scale has no place for 0 or less (an offline market's price is null already): a gap, not a broken axis.
      ...data.slice(1).map((ys) => (log ? ys.map((v) => (v != null && v > 0 ? v : null)) : ys)),
    ] as uPlot.AlignedData;
  const dataRef = useRef(aligned);
  dataRef.current = aligned;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    // V8 may keep a destroyed chart's uPlot for good (the hidden class of its `rect` getter holds the first
    // instances' closures): what it was given reaches the chart's element only through `shown`, which the cleanup
    // empties, so a chart it keeps never keeps the closed detail around it (the element's tree, its listeners).
    const shown: { el: HTMLDivElement | null } = { el };
    const axis = {
      stroke: css('--muted'),
      grid: { stroke: css('--line'), width: 1 },
      ticks: { stroke: css('--line'), width: 1 },
    };
    const text = valueText(values, oddsFormat);
    // Implied probability falls as the decimal price rises: its axis runs the other way, so a rise reads as a rise.
    const inverted = values === 'odds' && oddsFormat === 'implied';
    const opts: uPlot.Options = {
      title,
      width: Math.max(200, el.clientWidth),
      height,
      legend: { show: true },
      cursor: { drag: { x: true, y: false } },
      // Ticks fall on the zone's whole hours and days; the labels are ours (24-hour, in the zone).
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), zone),
      scales: {
        x: { time: true, range: (_u, min, max) => timeRange(min, max, minSpanMs, Date.now()) },
        y: { ...(log ? { distr: 3 as const, range: logPriceRange } : {}), ...(inverted ? { dir: -1 as const } : {}) },
      },
      axes: [
        // space: room for "14:05:09.5" between ticks, so labels never run into each other. The labels drawn are
        // kept on the element too (data-x-labels), for the tests and for a screen reader's sake.
        {
          ...axis,
          size: 44,
          space: 80,
          values: (_u, splits, _i, _space, incr) => {
            const labels = timeAxisLabels(splits, incr, zone);
            if (shown.el) shown.el.dataset.xLabels = labels.map((l) => l.replace('\n', ' ')).join(' | ');
            return labels;
          },
        },
        // A tick at or below 1 on a log scale is no price: no label rather than "—".
        {
          ...axis,
          size: 72,
          ...(log ? { splits: logPriceSplits, filter: (_u: uPlot, splits: number[]) => splits } : {}),
          values: (u, vals) => {
            const labels = vals.map((v) => (v == null || (values === 'odds' && v <= 1) ? '' : text(v)));
            // Top to bottom as drawn.
            const drawn = vals
              .map((v, i) => ({ at: u.valToPos(v, 'y'), label: labels[i]! }))
              .filter((l) => l.label !== '');
            if (shown.el)
              shown.el.dataset.yLabels = drawn
                .sort((a, b) => a.at - b.at)
                .map((l) => l.label)
                .join(' | ');
            return labels;
          },
        },
      ],
      series: [
        {
          value: (_u: uPlot, v: number | null) => (v == null ? '—' : formatDateTime(v * 1000, zone, { seconds: true })),
        },
        ...series.map((s) => ({
          label: s.label,
          stroke: s.color.startsWith('--') ? css(s.color) : s.color,
          width: 1.5,
          paths: s.stepped ? uPlot.paths.stepped?.({ align: 1 }) : undefined,
          value: (_u: uPlot, v: number | null) => (v == null ? '—' : text(v)),
        })),
      ],
    };
    // Placed by a function, not given the element: uPlot keeps its target.
    const u = new uPlot(opts, dataRef.current(), (self, init) => {
      shown.el?.appendChild(self.root);
      init();
    });
    plot.current = u;
    const ro = new ResizeObserver(() => shown.el && u.setSize({ width: Math.max(200, shown.el.clientWidth), height }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      u.destroy();
      shown.el = null;
      plot.current = null;
    };
    // Rebuilt only when the shape changes; data updates go through setData below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [title, height, seriesKey, theme, log, values, oddsFormat, zone, minSpanMs]);

  useEffect(() => {
    plot.current?.setData(dataRef.current());
  }, [data]);

  return (
    <div
      className="chart"
      ref={box}
      data-testid={testId}
      data-points={data[0]?.length ?? 0}
      data-scale={log ? 'log' : 'linear'}
      data-zone={zone}
      data-odds-format={values === 'odds' ? oddsFormat : undefined}
    />
  );
}
