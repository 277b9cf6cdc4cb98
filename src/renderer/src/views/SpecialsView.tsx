// Specials of a watched event: fixtures and contestants; under each of the five de-vig models the CLV of the opening
// offered odds against the fair close, beside the fair price's own move; and the timeline of the limit (max stake).
import { fairPriceProblem } from '../../../shared/devig';
import { useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { DEVIG_MODELS } from '../../../shared/api';
import type { AppError } from '../../../shared/errors';
import type { ClvRow } from '../../../shared/domain';
import type { SpecialView, SpecialsView as SpecialsViewData } from '../../../shared/ipc/contract';
import { labelPeriod } from '../../../shared/periods';
import { lineWords } from '../../../shared/trading';
import { marketKey } from '../store/watchlist';
import { host } from '../host';
import { Chart } from '../components/Chart';
import { Time } from '../components/Time';
import { usePeriodNames, useQuery } from '../hooks';
import { COLOUR_LEGEND, toneOf } from '../../../shared/formats';
import { eventName, fmtLine, fmtMoney, fmtSignedPct, serviceMs, useOdds } from '../format';
import { useStore } from '../store';

/** A special's bet type as a trader says it; the service's code on hover. */
const BET_TYPE_WORDS: Record<string, string> = {
  MULTI_WAY_HEAD_TO_HEAD: 'Multi-way',
  SPREAD: 'Spread',
  OVER_UNDER: 'Over/under',
};
export function betTypeWords(code: string): string {
  const known = BET_TYPE_WORDS[code];
  if (known) return known;
  const words = code.trim().replace(/_/g, ' ').toLowerCase();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'Special';
}

function PlanRestricted({ error }: { error: AppError }) {
  const setView = useStore((s) => s.setView);
  return (
    <div className="calm-message plan" data-testid="specials-restricted">
      Specials need the {error.requiredPlan ?? 'enterprise'} plan; your plan:{' '}
      {error.yourPlan ?? useStore.getState().status?.plan ?? 'unknown'}.{' '}
      <button onClick={() => setView('settings')}>Use another key</button>
    </div>
  );
}

const CLV_TITLE =
  'CLV: the opening offered odds (what one could have bet at the open) against the fair closing price under this model, minus 1. ' +
  "Fair move: the fair price's own move from the opening record to the closing record (nothing one could have bet).";

function ClvCell({ row, id }: { row: ClvRow | undefined; id: string }) {
  const clv = row?.clv ?? null;
  const closed = row?.closingTrueOdds != null;
  const fmtOdds = useOdds();
  const open = fmtOdds(row?.openingOdds);
  return (
    <td className="num clv-cell" data-testid={id} title={CLV_TITLE}>
      <div data-testid={`${id}-prices`}>
        {open} → {fmtOdds(row?.closingTrueOdds)}
      </div>
      <div className={clv == null ? 'muted' : toneOf(clv * 100)} data-testid={`${id}-clv`}>
        {!closed ? 'open' : clv == null ? 'CLV —' : `CLV ${clv >= 0 ? '▲' : '▼'} ${fmtSignedPct(clv)}`}
      </div>
      <div
        className="muted"
        data-testid={`${id}-fair-move`}
        title={`Fair (no-vig) price under this model: ${fmtOdds(row?.openingTrueOdds)} at the open → ${fmtOdds(row?.closingTrueOdds)} at the close`}
      >
        {closed ? `fair move ${fmtSignedPct(row?.fairMove)}` : `fair open ${fmtOdds(row?.openingTrueOdds)}`}
      </div>
    </td>
  );
}

function SpecialTable({
  special,
  chosen,
  onChoose,
}: {
  special: SpecialView;
  chosen: number | null;
  onChoose: (contestantId: number) => void;
}) {
  // The trader's model: the opening and closing records carry true odds under every model; between them the
  // service's todds follows the model asked for when the tick was fetched.
  const model = useStore((s) => s.devigModel);
  const fmtOdds = useOdds();
  return (
    <section className="special" data-testid={`special-${special.specialId}`}>
      <h3>
        {special.specialName}{' '}
        <span className="muted">
          · <span title={`Bet type ${special.betType}`}>{betTypeWords(special.betType)}</span> · {special.category} ·
          cutoff{' '}
        </span>
        <Time ms={serviceMs(special.cutoff)} withDate className="muted" />
      </h3>
      {/* Wider than the pane, the table scrolls sideways in its own box, the contestant kept in sight. */}
      <div className="table-scroll">
        <table className="grid specials-grid">
          <thead>
            <tr>
              <th rowSpan={2} className="sticky-first">
                Contestant
              </th>
              <th rowSpan={2} className="num">
                Hcp
              </th>
              <th rowSpan={2} className="num">
                Odds
              </th>
              <th
                rowSpan={2}
                className="num"
                title={`True (no-vig) odds under ${model}, your de-vig model (Settings)`}
                data-testid="specials-true-head"
              >
                True ({model})
              </th>
              <th rowSpan={2} className="num" title="Limit: the maximum stake accepted on this market (max_win)">
                Max stake
              </th>
              {DEVIG_MODELS.map((m) => (
                <th key={m} className="num model-head">
                  {m}
                </th>
              ))}
            </tr>
            <tr>
              {DEVIG_MODELS.map((m) => (
                <th key={m} className="num muted sub" title={CLV_TITLE}>
                  open odds → fair close · CLV · fair move
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {special.contestants.map((c) => {
              const byModel = c.trueOddsByModel?.[model];
              const fair = byModel ?? c.todds;
              const problem = fairPriceProblem(c.odds, fair);
              return (
                <tr
                  key={c.contestantId}
                  className={chosen === c.contestantId ? 'chosen' : undefined}
                  onClick={() => onChoose(c.contestantId)}
                  title="Click for the max stake timeline"
                >
                  <td className="sticky-first">{c.contestantName}</td>
                  <td className="num">{fmtLine(c.handicap)}</td>
                  <td className="num">{fmtOdds(c.odds)}</td>
                  <td
                    className="num"
                    data-testid={`true-${special.specialId}-${c.contestantId}`}
                    title={
                      problem ??
                      (byModel !== undefined
                        ? `${model}, from the service's true odds by model`
                        : `The service's todds of the latest tick (under the model asked for when it was fetched)`)
                    }
                  >
                    {problem ? '—' : fmtOdds(fair)}
                  </td>
                  <td className="num" title="Maximum stake accepted">
                    {fmtMoney(c.maxWin)}
                  </td>
                  {DEVIG_MODELS.map((m) => (
                    <ClvCell
                      key={m}
                      row={c.clv.find((r) => r.model === m)}
                      id={`clv-${special.specialId}-${c.contestantId}-${m}`}
                    />
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function ContestantTimeline({
  eventId,
  specialId,
  contestantId,
  name,
}: {
  eventId: number;
  specialId: number;
  contestantId: number;
  name: string;
}) {
  const { data: raw, error } = useQuery(`${eventId}:${specialId}:${contestantId}`, () =>
    host.invoke('specials:history', eventId, specialId, contestantId),
  );
  const points = useMemo(() => (raw ? [...raw].sort((a, b) => a.at - b.at) : null), [raw]);
  const data = useMemo(() => (points ? [points.map((p) => p.at), points.map((p) => p.maxWin)] : [[], []]), [points]);
  const odds = useMemo(
    () => (points ? [points.map((p) => p.at), points.map((p) => p.odds), points.map((p) => p.todds)] : [[], [], []]),
    [points],
  );
  if (error) return <p className="calm-message">The history is not available: {error.message}</p>;
  if (!points) return <p className="calm-message">Loading {name}'s history…</p>;
  if (points.length === 0) return <p className="calm-message">No ticks recorded for {name} yet.</p>;
  return (
    <div className="charts two">
      <Chart
        title={`${name}: max stake`}
        data={data}
        series={[{ label: 'max stake', color: '--c2', stepped: true }]}
        values="money"
        testId="chart-special-maxwin"
      />
      <Chart
        title={`${name}: odds`}
        log
        data={odds}
        series={[
          { label: 'odds', color: '--c1' },
          { label: 'true', color: '--c3' },
        ]}
        values="odds"
      />
    </div>
  );
}

interface TimelineRow {
  key: string;
  at: number;
  what: string;
  /** The service's ids, for the hover only. */
  ids: string;
  detail: string;
  from: number | null;
  to: number | null;
  kind: 'special' | 'line';
}

/** Every change of the limit (max_win: the maximum stake accepted) of the event, specials and market lines alike, newest first. */
function MaxWinTimeline({ data }: { data: SpecialsViewData }) {
  const names = usePeriodNames();
  const sport = useStore((s) => s.watchEvents[data.eventId]?.sportName ?? '');
  // The team of each team-total line the page holds (its market's side).
  const teamKey = useStore((s) =>
    data.lineMaxWinPoints.map((p) => s.markets[marketKey(data.eventId, p.lineId)]?.side ?? '').join(','),
  );
  const teams = useMemo(() => {
    const sides = teamKey.split(',');
    return new Map(data.lineMaxWinPoints.map((p, i) => [p.lineId, (sides[i] || null) as 'home' | 'away' | null]));
  }, [teamKey, data]);
  const rows = useMemo(() => {
    const out: TimelineRow[] = data.maxWinPoints.map((p) => ({
      key: `s-${p.specialId}-${p.contestantId}-${p.at}`,
      at: p.at,
      what: p.specialName ?? 'A special',
      ids: `Special id ${p.specialId} · contestant id ${p.contestantId}`,
      detail: p.contestantName ?? 'A contestant',
      from: p.previousMaxWin,
      to: p.maxWin,
      kind: 'special',
    }));
    for (const p of data.lineMaxWinPoints) {
      out.push({
        key: `l-${p.lineId}-${p.at}`,
        at: p.at,
        // A team total names its team where the stream showed the line (its market's side).
        ids: `Line id ${p.lineId}`,
        what:
          p.market === null
            ? 'A line no longer offered'
            : lineWords(p.market, p.line, { team: teams.get(p.lineId) ?? null }),
        detail: p.period === null ? '' : labelPeriod(sport, p.period, names),
        from: p.previousMaxWin,
        to: p.maxWin,
        kind: 'line',
      });
    }
    return out.sort((a, b) => b.at - a.at).slice(0, 300);
  }, [data, names, sport, teams]);
  return (
    <section className="special">
      <h3 title="The maximum stake accepted (max_win), each change">Max stake timeline</h3>
      <p className="muted small-text" data-testid="colour-legend">
        {COLOUR_LEGEND}
      </p>
      <table className="grid" data-testid="maxwin-timeline">
        <thead>
          <tr>
            <th>Time</th>
            <th>Special / line</th>
            <th>Contestant / period</th>
            <th className="num">From</th>
            <th className="num">To</th>
            <th className="num">Change</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const ch = r.from && r.to !== null ? r.to / r.from - 1 : null;
            return (
              <tr key={r.key} data-kind={r.kind}>
                <td>
                  <Time ms={r.at} withDate />
                </td>
                <td title={r.ids}>{r.what}</td>
                <td>{r.detail}</td>
                <td className="num">{r.from == null ? 'baseline' : fmtMoney(r.from)}</td>
                <td className="num">{fmtMoney(r.to)}</td>
                <td className={`num ${ch == null ? 'muted' : toneOf(ch * 100)}`}>
                  {ch == null ? '—' : `${ch >= 0 ? '▲' : '▼'} ${fmtSignedPct(ch)}`}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

export function SpecialsView() {
  const watched = useStore(
    useShallow((s) =>
      s.watchIds.map((id) => `${id}\t${eventName(s.watchEvents[id]?.runnerHome, s.watchEvents[id]?.runnerAway, id)}`),
    ),
  );
  const selected = useStore((s) => s.selectedEventId);
  const selectEvent = useStore((s) => s.selectEvent);
  const setView = useStore((s) => s.setView);
  const eventId = selected ?? (watched[0] ? Number(watched[0].split('\t')[0]) : null);
  const { data, error, reload } = useQuery(
    eventId === null ? null : String(eventId),
    () => host.invoke('specials:list', eventId ?? 0),
    30_000,
  );
  const [chosenFor, setChosenFor] = useState<{
    eventId: number | null;
    specialId: number;
    contestantId: number;
  } | null>(null);
  const chosen = chosenFor?.eventId === eventId ? chosenFor : null;
  const setChosen = (c: { specialId: number; contestantId: number }) => setChosenFor({ eventId, ...c });

  const restricted = data?.restricted ?? (error?.kind === 'plan' ? error : null);
  const chosenName = useMemo(() => {
    if (!chosen || !data) return '';
    const sp = data.specials.find((s) => s.specialId === chosen.specialId);
    return sp?.contestants.find((c) => c.contestantId === chosen.contestantId)?.contestantName ?? '';
  }, [chosen, data]);

  return (
    <section className="view specials" aria-labelledby="specials-title">
      <header className="view-header">
        <h1 id="specials-title">Specials</h1>
        <select
          value={eventId ?? ''}
          onChange={(e) => selectEvent(Number(e.target.value))}
          aria-label="Watched event"
          data-testid="specials-event-select"
          disabled={watched.length === 0}
        >
          {eventId !== null && !watched.some((w) => w.startsWith(`${eventId}\t`)) && (
            <option value={eventId}>#{eventId}</option>
          )}
          {watched.map((w) => {
            const [id, name] = w.split('\t');
            return (
              <option key={id} value={id}>
                {name}
              </option>
            );
          })}
        </select>
        <span className="spacer" />
        <button onClick={reload} disabled={eventId === null}>
          Refresh
        </button>
      </header>
      {eventId === null && (
        <div className="calm-message">
          Specials are shown for a watched event.{' '}
          <button onClick={() => setView('watchlist')}>Go to the watchlist</button>
        </div>
      )}
      {restricted && <PlanRestricted error={restricted} />}
      {error && !restricted && (
        <div className="calm-message" role="alert">
          Specials are not available: {error.message} <button onClick={reload}>Try again</button>
        </div>
      )}
      {eventId !== null && !data && !error && <p className="calm-message">Loading specials…</p>}
      {data && !restricted && data.specials.length === 0 && <p className="calm-message">This event has no specials.</p>}
      {data?.specials.map((sp) => (
        <SpecialTable
          key={sp.specialId}
          special={sp}
          chosen={chosen?.specialId === sp.specialId ? chosen.contestantId : null}
          onChoose={(contestantId) => setChosen({ specialId: sp.specialId, contestantId })}
        />
      ))}
      {chosen && eventId !== null && (
        <ContestantTimeline
          eventId={eventId}
          specialId={chosen.specialId}
          contestantId={chosen.contestantId}
          name={chosenName}
        />
      )}
      {data && (data.maxWinPoints.length > 0 || data.lineMaxWinPoints.length > 0) && <MaxWinTimeline data={data} />}
    </section>
  );
}
