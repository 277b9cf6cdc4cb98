// The Bets view's Report tab: the trader's ledger in pictures (issue 27, part 1; docs/trading.md, "The ledger
// report"). Cumulative P/L and cumulative expected value (stake x (1 - push share) x CLV) on one chart, so luck and skill separate; the
// CLV distribution; P/L, ROI, CLV and the beat-the-close rate by sport, league, market, side, odds band and model;
// a range of days in the trader's zone. The core aggregates (`bets:report`, src/shared/ledger.ts); the page formats
// in the trader's odds format, unit and zone. The table and the series export as CSV, each chart as PNG, through a
// download in both hosts (the desktop's asks where to save it), as the bet log's CSV does.
// Its charts are ./bets/ReportCharts.tsx, its table ./bets/ReportBreakdowns.tsx.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AppError } from '../../../shared/errors';
import { countOf, dayStartIn, formatDay, zoneLabel } from '../../../shared/formats';
import {
  CLV_STATE_WORDS,
  CLV_STATES,
  ledgerCsv,
  ledgerSeriesCsv,
  type LedgerGroup,
  type LedgerReport,
} from '../../../shared/ledger';
import { host } from '../host';
import { DayInput } from '../components/DayInput';
import { useOddsFormat, useTimeZone } from '../format';
import { useStore } from '../store';
import { count, fmtEdge, tone, StakeTotals, Total, useMoney, type Money } from './bets/figures';
import { beat, Breakdowns } from './bets/ReportBreakdowns';
import { ReportCharts } from './bets/ReportCharts';
import { saveCsv } from './bets/saveFile';

type DayRange = { from: string; to: string };

/** The ledger over the days chosen (in the trader's zone), asked again when they, the zone or the model change. */
function useLedgerReport(range: DayRange, zone: string) {
  const model = useStore((s) => s.devigModel);
  const [report, setReport] = useState<LedgerReport | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const [working, setWorking] = useState(false);
  const asked = useRef(0);

  const load = useCallback(async () => {
    const ask = ++asked.current;
    setWorking(true);
    const from = dayStartIn(range.from, zone);
    const to = dayStartIn(range.to, zone, 1); // the "to" day is included
    const r = await host.invoke('bets:report', {
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
  return { report, error, working };
}

export function BetsReport() {
  const format = useOddsFormat();
  const zone = useTimeZone();
  const money = useMoney();
  const [range, setRange] = useState<DayRange>({ from: '', to: '' });
  const { report, error, working } = useLedgerReport(range, zone);

  const stamp = range.from || range.to ? `${range.from || 'start'}_${range.to || 'now'}` : formatDay(Date.now(), zone);
  const exportTable = () => report && saveCsv(ledgerCsv(report, format), `oddsdesk-bets-report-${stamp}.csv`);
  const exportSeries = () => report && saveCsv(ledgerSeriesCsv(report), `oddsdesk-bets-series-${stamp}.csv`);

  const t = report?.total;
  return (
    <div data-testid="bets-report" style={{ opacity: working && report ? 0.6 : 1 }}>
      <ReportToolbar
        range={range}
        setRange={setRange}
        zone={zone}
        canExport={!!report}
        working={working}
        onExportTable={exportTable}
        onExportSeries={exportSeries}
      />
      {error && (
        <p className="calm-message" role="alert">
          {error.message}
        </p>
      )}
      {t && report && (
        <>
          <ReportTotals report={report} money={money} />
          {t.bets === 0 ? (
            <p className="calm-message">No bets placed in this range.</p>
          ) : (
            <>
              <ReportCharts report={report} stamp={stamp} />
              <ReportReading report={report} />
              <Breakdowns report={report} money={money} />
            </>
          )}
        </>
      )}
      {!report && !error && <p className="calm-message">Adding up your bets…</p>}
    </div>
  );
}

/** The range of days placed, in the trader's zone, and the two CSV exports. */
function ReportToolbar({
  range,
  setRange,
  zone,
  canExport,
  working,
  onExportTable,
  onExportSeries,
}: {
  range: DayRange;
  setRange: (change: (r: DayRange) => DayRange) => void;
  zone: string;
  canExport: boolean;
  working: boolean;
  onExportTable(): void;
  onExportSeries(): void;
}) {
  return (
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
      <button onClick={onExportTable} disabled={!canExport} data-testid="report-export-csv">
        Export table CSV
      </button>
      <button onClick={onExportSeries} disabled={!canExport} data-testid="report-export-series">
        Export series CSV
      </button>
      {working && (
        <span className="muted" role="status" data-testid="report-working">
          Adding up…
        </span>
      )}
    </div>
  );
}

function ReportTotals({ report, money }: { report: LedgerReport; money: Money }) {
  const t: LedgerGroup = report.total;
  return (
    <dl className="totals" data-testid="report-totals">
      <Total term="Bets" testId="report-count">
        {count(t.bets)}
      </Total>
      <Total term="Settled" testId="report-settled">
        {count(t.settled)}
      </Total>
      <StakeTotals prefix="report" stake={t.stake} pnl={t.pnl} roi={t.roi} money={money} />
      <Total term={<>Average CLV ({report.model})</>} testId="report-avg-clv" className={tone(t.averageClv)}>
        {fmtEdge(t.averageClv)}
      </Total>
      <Total term="Beat the close" testId="report-beat">
        {beat(t)}
      </Total>
      <Total term="Expected value" testId="report-ev" className={tone(t.ev)}>
        {money(t.ev, true)}
      </Total>
    </dl>
  );
}

/** How to read the charts, and which bets' CLV does not count and why. */
function ReportReading({ report }: { report: LedgerReport }) {
  const notCounted = CLV_STATES.filter((s) => s !== 'counted' && report.clvStates[s] > 0);
  return (
    <p className="muted small-text" style={{ maxWidth: 1100 }} data-testid="report-reading">
      P/L is what the settled bets made; expected value is what their prices were worth against the no-vig close (stake
      × (1 − push share) × CLV under {report.model}: on a line that can push, only the part of the stake that does not
      push earns the edge). The P/L line wandering above or below the expected-value line is luck; the expected-value
      line climbing is skill. CLV counts only the real close of the bet's own line:{' '}
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
  );
}
