// The tick-to-screen bench's window on a process's event loop (bench/tickToScreen.ts): the `web` host runs it when
// ODDSDESK_BENCH_LOOP_DELAY=1, and the bench's bare pipeline always, as the yardstick taken on the same machine in
// the same window. A 10 ms timer samples the loop (perf_hooks.monitorEventLoopDelay), and each SIGUSR2 (and the exit)
// writes what it saw since the last one as one line, `loop-delay {json}`, then starts over. The figures are ms past
// the timer's due time: the histogram holds whole intervals, so its 10 ms are taken off. Unset, as in every normal
// run of the host, nothing is sampled and SIGUSR2 keeps its default.
import { monitorEventLoopDelay } from 'node:perf_hooks';

export function reportLoopDelayOnRequest(out: NodeJS.WritableStream = process.stderr): void {
  const resolutionMs = 10;
  const h = monitorEventLoopDelay({ resolution: resolutionMs });
  h.enable();
  const ms = (ns: number) => Number(Math.max(0, ns / 1e6 - resolutionMs).toFixed(2));
  const report = () => {
    const seen = h.count > 0;
    const at = (p: number) => (seen ? ms(h.percentile(p)) : 0);
    const figures = {
      count: h.count,
      p50: at(50),
      p90: at(90),
      p99: at(99),
      max: seen ? ms(h.max) : 0,
      mean: seen ? ms(h.mean) : 0,
    };
    out.write(`loop-delay ${JSON.stringify(figures)}\n`);
    h.reset();
  };
  process.on('SIGUSR2', report);
  process.once('exit', report);
}
