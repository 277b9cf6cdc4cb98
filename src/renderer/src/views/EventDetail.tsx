// Event detail (the right pane for the selected row): live score, markets by period with prices and the fair
// probability under the chosen de-vig model (computed here from the live prices), period results with their labels,
// and charts of the chosen line's price and max_win over time.
import { memo, useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { DevigModel } from '../../../shared/api';
import { devig } from '../../../shared/devig';
import type { LineHistoryPoint, MarketView } from '../../../shared/domain';
import { labelPeriod } from '../../../shared/periods';
import { api } from '../api';
import { Chart } from '../components/Chart';
import { EventBadge } from '../components/EventBadge';
import { PeriodResults } from '../components/PeriodResults';
import { PriceCell, type PriceSide } from '../components/PriceCell';
import { Time } from '../components/Time';
import { SettledLines } from '../components/SettledLines';
import { usePeriodNames, useQuery } from '../hooks';
import { eventName, fmtLine, fmtMoney, fmtOdds, fmtPct, fmtScore } from '../format';
import { useStore } from '../store';
import { marketKey } from '../store/watchlist';
import { PriceAlerts } from './PriceAlerts';
import { RecordBet } from './RecordBet';

const MARKET_ORDER = ['moneyline', 'spread', 'totals', 'team_total'];
const MARKET_LABEL: Record<string, string> = { moneyline: 'Moneyline', spread: 'Spread', totals: 'Total', team_total: 'Team total' };

export function sidesOf(m: Pick<MarketView, 'market' | 'prices'>): PriceSide[] {
  if (m.market === 'moneyline') return m.prices && m.prices.draw === undefined ? ['home', 'away'] : ['home', 'draw', 'away'];
  if (m.market === 'totals' || m.market === 'team_total') return ['over', 'under'];
  return ['home', 'away'];
}

/** Fair probabilities of a market's sides under a model, or null when its prices cannot be de-vigged. */
export function fairOf(m: Pick<MarketView, 'market' | 'prices'>, model: DevigModel): Partial<Record<PriceSide, number>> | null {
  if (!m.prices) return null;
  const sides = sidesOf(m);
  const odds = sides.map((s) => m.prices![s]);
  if (odds.some((o) => o === undefined)) return null;
  try {
    const { probabilities } = devig(odds as number[], model);
    return Object.fromEntries(sides.map((s, i) => [s, probabilities[i]]));
  } catch {
    return null;
  }
}

const SIDE_LABEL: Record<PriceSide, string> = { home: '1', draw: 'X', away: '2', over: 'O', under: 'U' };

function MarketRowView({
  eventId,
  market,
  live,
  chosen,
  onChoose,
}: {
  eventId: number;
  market: MarketView;
  live: boolean;
  chosen: boolean;
  onChoose: (lineId: number) => void;
}) {
  const model = useStore((s) => s.devigModel);
  const fair = useMemo(() => fairOf(market, model), [market, model]);
  const sides = sidesOf(market);
  const side = market.market === 'team_total' && market.side ? ` ${market.side}` : '';
  return (
    <tr
      className={`mrow${chosen ? ' chosen' : ''}${market.prices === null ? ' offline' : ''}`}
      onClick={() => onChoose(market.lineId)}
      data-testid={`market-${market.lineId}`}
      title="Click to chart this line"
    >
      <td>
        {MARKET_LABEL[market.market] ?? market.market}
        {side} <span className="num">{fmtLine(market.line)}</span>
      </td>
      <td className="sides">
        {sides.map((s) => (
          <span key={s} className="side">
            <span className="side-label">{SIDE_LABEL[s]}</span>
            {live ? <PriceCell eventId={eventId} lineId={market.lineId} side={s} /> : <span className="cell num price">{fmtOdds(market.prices?.[s])}</span>}
            <span className="fair" data-testid={`fair-${market.lineId}-${s}`} title={`fair probability (${model})`}>
              {fmtPct(fair?.[s])}
            </span>
          </span>
        ))}
      </td>
      <td className="num muted">{fmtMoney(market.maxWin)}</td>
    </tr>
  );
}

const LiveMarketRow = memo(function LiveMarketRow(props: { eventId: number; lineId: number; chosen: boolean; onChoose: (lineId: number) => void }) {
  const market = useStore((s) => s.markets[marketKey(props.eventId, props.lineId)]);
  if (!market) return null;
  return <MarketRowView eventId={props.eventId} market={market} live chosen={props.chosen} onChoose={props.onChoose} />;
});

const NO_POINTS: LineHistoryPoint[] = [];

function LineCharts({ eventId, lineId, live }: { eventId: number; lineId: number; live: boolean }) {
  // The history is fetched once per line and then grows by the pushed ticks (store/lineHistory.ts).
  const series = useStore((s) => s.lineSeries[marketKey(eventId, lineId)]);
  const openLineSeries = useStore((s) => s.openLineSeries);
  const held = series !== undefined;
  useEffect(() => {
    if (!held) openLineSeries(eventId, lineId);
  }, [eventId, lineId, held, openLineSeries]);
  const current = useStore((s) => (live ? s.markets[marketKey(eventId, lineId)] : undefined));
  const points = series?.loaded ? series.points : null;
  const error = series?.error ?? null;
  const all = points ?? NO_POINTS;

  const sidesKey = (current ? sidesOf(current) : sidesOf({ market: 'moneyline', prices: all.find((p) => p.prices)?.prices ?? null })).join(',');
  const sides = useMemo(() => sidesKey.split(',') as PriceSide[], [sidesKey]);
  const priceData = useMemo(() => [all.map((p) => p.at), ...sides.map((s) => all.map((p) => p.prices?.[s] ?? null))], [all, sides]);
  const maxWinData = useMemo(() => [all.map((p) => p.at), all.map((p) => p.maxWin)], [all]);
  const color = (i: number) => `--c${i + 1}`;

  if (error) return <p className="calm-message">The line's history is not available: {error.message}</p>;
  if (!points) return <p className="calm-message">Loading the line's history…</p>;
  if (all.length === 0) return <p className="calm-message">No ticks recorded for this line yet.</p>;
  if (all.length === 1) return <p className="calm-message">One tick recorded so far; the charts start with the next one.</p>;
  return (
    <div className="charts">
      <Chart title="Price" testId="chart-price" log data={priceData} series={sides.map((s, i) => ({ label: SIDE_LABEL[s], color: color(i) }))} format={(v) => v.toFixed(3)} />
      <Chart
        title="Max win"
        testId="chart-maxwin"
        data={maxWinData}
        series={[{ label: 'max_win', color: color(1), stepped: true }]}
        format={(v) => fmtMoney(v)}
      />
    </div>
  );
}

/** A settled event: its lines' win/loss/push and its period results, fetched on demand and kept (settlements slice). */
function SettledSection({ eventId }: { eventId: number }) {
  const detail = useStore((s) => s.settlementDetails[eventId]);
  const load = useStore((s) => s.loadSettlementDetail);
  useEffect(() => {
    void load(eventId);
  }, [eventId, load]);
  return (
    <section className="period" data-testid="detail-settlement">
      <h3>Settled{detail ? ` ${detail.settlement.score_home}–${detail.settlement.score_away}` : ''}: it has left the book</h3>
      {detail ? <SettledLines detail={detail} /> : <p className="calm-message">{detail === null ? 'The settlement is not cached.' : 'Loading the settled lines…'}</p>}
    </section>
  );
}

export function EventDetail({ eventId }: { eventId: number }) {
  const watched = useStore((s) => !!s.watchEvents[eventId]);
  const ev = useStore(useShallow((s) => s.watchEvents[eventId] ?? null));
  const lineIds = useStore(useShallow((s) => s.lineIdsByEvent[eventId] ?? []));
  const liveMarkets = useStore(useShallow((s) => lineIds.map((id) => s.markets[marketKey(eventId, id)]).map((m) => (m ? `${m.lineId}:${m.period}:${m.market}:${m.line}` : ''))));
  const muted = useStore((s) => s.settings?.mutedEvents.includes(eventId) ?? false);
  const { muteEvent, removeWatch, addWatch, toast, setDetailOpen } = useStore(
    useShallow((s) => ({ muteEvent: s.muteEvent, removeWatch: s.removeWatch, addWatch: s.addWatch, toast: s.toast, setDetailOpen: s.setDetailOpen })),
  );
  // The pane is keyed by event id (App.tsx), so its local state starts fresh for each event.
  const { data: detail, error } = useQuery(String(eventId), () => api.invoke('event:detail', eventId), 20_000);
  const [chosenLine, setChosenLine] = useState<number | null>(null);
  const periodNames = usePeriodNames();

  const event = ev ?? detail?.event ?? null;
  const sport = event?.sportName ?? '';
  // Structure of the markets (periods, kinds, lines); prices are read per row from the store when live.
  const structure = useMemo(() => {
    const s = useStore.getState();
    const list: MarketView[] = watched
      ? lineIds.map((id) => s.markets[marketKey(eventId, id)]).filter((m): m is MarketView => !!m)
      : (detail?.markets ?? []);
    const byPeriod = new Map<number, MarketView[]>();
    for (const m of list) byPeriod.set(m.period, [...(byPeriod.get(m.period) ?? []), m]);
    for (const ms of byPeriod.values())
      ms.sort((a, b) => MARKET_ORDER.indexOf(a.market) - MARKET_ORDER.indexOf(b.market) || (a.line ?? 0) - (b.line ?? 0) || a.lineId - b.lineId);
    return [...byPeriod.entries()].sort((a, b) => a[0] - b[0]);
    // liveMarkets is the structural fingerprint of the live lines.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [watched, liveMarkets, detail, eventId]);

  const firstLine = structure[0]?.[1][0]?.lineId ?? null;
  const lineForCharts = chosenLine ?? firstLine;

  return (
    <aside className="detail" aria-label="Event detail" data-testid="event-detail">
      <header className="detail-head">
        <div>
          <h2 data-testid="detail-title">{eventName(event?.runnerHome, event?.runnerAway, eventId)}</h2>
          <div className="muted">
            {event?.sportName} · {event?.leagueName} · <Time ms={event?.starts} withDate /> · #{eventId}
          </div>
        </div>
        <div className="detail-score" data-testid="detail-score">
          <EventBadge eventId={eventId} settled={!!detail?.settled} live={event?.liveStatus === 1} testId="detail-badge" /> {fmtScore(event?.scoreHome, event?.scoreAway) || '–'}
        </div>
      </header>
      <div className="detail-actions">
        {watched ? (
          <button onClick={() => void removeWatch(eventId).then((e) => e && toast(e.message, 'error'))}>Unwatch (Del)</button>
        ) : (
          <button onClick={() => void addWatch(eventId).then((e) => e && toast(e.message, 'error'))}>Watch</button>
        )}
        <button onClick={() => void muteEvent(eventId, !muted).then((e) => e && toast(e.message, 'error'))} data-testid="mute-event" aria-pressed={muted}>
          {muted ? 'Unmute alerts' : 'Mute alerts'}
        </button>
        <RecordBet eventId={eventId} />
        <PriceAlerts eventId={eventId} />
        <span className="spacer" />
        <button onClick={() => setDetailOpen(false)} aria-label="Close detail">
          Close (Esc)
        </button>
      </div>
      {error && !watched && <p className="calm-message">The event's detail is not available: {error.message}</p>}
      {(detail?.settled || ev?.settled) && <SettledSection eventId={eventId} />}
      {structure.length === 0 && !error && <p className="calm-message">{watched || detail ? 'No markets offered right now.' : 'Loading…'}</p>}
      {structure.map(([period, markets]) => (
        <section key={period} className="period">
          <h3>{labelPeriod(sport, period, periodNames)}</h3>
          <table className="grid markets">
            <tbody>
              {markets.map((m) =>
                watched ? (
                  <LiveMarketRow key={m.lineId} eventId={eventId} lineId={m.lineId} chosen={m.lineId === lineForCharts} onChoose={setChosenLine} />
                ) : (
                  <MarketRowView key={m.lineId} eventId={eventId} market={m} live={false} chosen={m.lineId === lineForCharts} onChoose={setChosenLine} />
                ),
              )}
            </tbody>
          </table>
        </section>
      ))}
      {lineForCharts !== null && (
        <section className="period">
          <h3>Line {lineForCharts} over time</h3>
          <LineCharts eventId={eventId} lineId={lineForCharts} live={watched} />
        </section>
      )}
      {!(detail?.settled || ev?.settled) && (
        <section className="period">
          <h3>Period results</h3>
          {!detail || detail.periodResults.length === 0 ? (
            <p className="calm-message">No period has a result yet.</p>
          ) : (
            <PeriodResults results={detail.periodResults} testId="period-results" withStatus />
          )}
        </section>
      )}
    </aside>
  );
}
