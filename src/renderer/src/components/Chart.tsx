// A small uPlot time-series chart that fills its container's width. Times are ms; uPlot wants seconds. Odds charts
// use a log scale: on a linear one a 1.01 vs 501 market is a flat line at the bottom and a spike at the top.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useStore } from '../store';

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
  format?: (v: number) => string;
  /** A log y scale (uPlot distr 3), for decimal odds; every value must be > 0 (a value <= 0 is left out). */
  log?: boolean;
}

const css = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';

export function Chart({ title, data, series, height = 150, testId, format, log = false }: Props) {
  const theme = useStore((s) => s.theme);
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
    const axis = { stroke: css('--muted'), grid: { stroke: css('--line'), width: 1 }, ticks: { stroke: css('--line'), width: 1 } };
    const opts: uPlot.Options = {
      title,
      width: Math.max(200, el.clientWidth),
      height,
      legend: { show: true },
      cursor: { drag: { x: true, y: false } },
      scales: { x: { time: true }, ...(log ? { y: { distr: 3 as const } } : {}) },
      axes: [axis, { ...axis, size: 72, values: format ? (_u, vals) => vals.map((v) => (v == null ? '' : format(v))) : undefined }],
      series: [
        {},
        ...series.map((s) => ({
          label: s.label,
          stroke: s.color.startsWith('--') ? css(s.color) : s.color,
          width: 1.5,
          paths: s.stepped ? uPlot.paths.stepped?.({ align: 1 }) : undefined,
          value: format ? (_u: uPlot, v: number | null) => (v == null ? '—' : format(v)) : undefined,
        })),
      ],
    };
    const u = new uPlot(opts, dataRef.current(), el);
    plot.current = u;
    const ro = new ResizeObserver(() => u.setSize({ width: Math.max(200, el.clientWidth), height }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      u.destroy();
      plot.current = null;
    };
    // Rebuilt only when the shape changes; data updates go through setData below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [title, height, seriesKey, theme, log]);

  useEffect(() => {
    plot.current?.setData(dataRef.current());
  }, [data]);

  return <div className="chart" ref={box} data-testid={testId} data-points={data[0]?.length ?? 0} data-scale={log ? 'log' : 'linear'} />;
}
