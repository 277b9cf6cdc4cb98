// Event detail (the right pane for the selected row): live score, markets by period with prices and the fair
// probability under the chosen de-vig model (computed here from the live prices), period results with their labels,
// and charts of the chosen line's price and max_win over time.
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { DevigModel } from '../../../shared/api';
import type { EventView, LineHistoryPoint, MarketView } from '../../../shared/domain';
import { labelPeriod } from '../../../shared/periods';
import {
  fairPrices,
  lineWords,
  marketKind,
  marketName,
  marketSides,
  pricedSides,
  sideName,
  sideWords,
} from '../../../shared/trading';
import { host } from '../host';
import { Chart } from '../components/Chart';
import { EventBadge } from '../components/EventBadge';
import { OpenInWindowButton } from '../components/OpenInWindow';
import { PeriodResults } from '../components/PeriodResults';
import { PriceCell, type PriceSide } from '../components/PriceCell';
import { Time } from '../components/Time';
import { SettledLines } from '../components/SettledLines';
import { usePeriodNames, useQuery } from '../hooks';
import { eventName, fmtMoney, fmtPct, fmtScore, useOdds } from '../format';
import { SnoozeSelect } from '../components/Snooze';
import { useStore } from '../store';
import { marketKey } from '../store/watchlist';
import { lineLabel, PriceAlerts } from './PriceAlerts';
import { RecordBet } from './RecordBet';

const MARKET_ORDER = ['moneyline', 'spread', 'totals', 'team_total'];
/** The sides a line shows: a moneyline's draw column once it has had a draw price (`seen`), even while it lacks one. */
export function sidesOf(m: Pick<MarketView, 'market' | 'prices'>, seen?: ReadonlySet<PriceSide>): PriceSide[] {
  if (marketKind(m.market) === 'moneyline')
    return m.prices?.draw === undefined && !seen?.has('draw') ? ['home', 'away'] : ['home', 'draw', 'away'];
  return marketSides(m.market);
}

/**
 * Fair probabilities of a market's sides under a model, or null when it has none: the trading module's rule (a
 * market lacking a side it has had is partial; a model that cannot price it, MPTO on an extreme longshot, is n/a).
 */
export function fairOf(
  m: Pick<MarketView, 'market' | 'prices'>,
  model: DevigModel,
  seen?: ReadonlySet<PriceSide>,
): Partial<Record<PriceSide, number>> | null {
  const fair = fairPrices(m.prices, model, seen);
  if (!fair) return null;
  return Object.fromEntries(Object.entries(fair).map(([s, f]) => [s, 1 / f]));
}

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
  const odds = useOdds();
  // The sides this row has seen priced: a moneyline that loses its draw for a moment has no fair price meanwhile.
  const seen = useRef(new Set<PriceSide>());
  for (const s of pricedSides(market.prices)) seen.current.add(s);
  const fair = useMemo(() => fairOf(market, model, seen.current), [market, model]);
  const sides = sidesOf(market, seen.current);
  const team = market.side;
  return (
    <tr
      className={`mrow${chosen ? ' chosen' : ''}${market.prices === null ? ' offline' : ''}`}
      onClick={() => onChoose(market.lineId)}
      data-testid={`market-${market.lineId}`}
      title="Click to chart this line"
    >
      <td>
        {marketKind(market.market) === 'team_total'
          ? lineWords(market.market, null, { team })
          : marketName(market.market)}
      </td>
      <td className="sides">
        {sides.map((s) => (
          <span key={s} className="side">
            <span className="side-label" data-testid={`side-${market.lineId}-${s}`}>
              {sideWords(market.market, market.line, s, { team }).replace(/^(Home|Away) team total /, '')}
            </span>
            {live ? (
              <PriceCell eventId={eventId} lineId={market.lineId} side={s} />
            ) : (
              <span className="cell num price">{odds(market.prices?.[s])}</span>
            )}
            <span
              className="fair"
              data-testid={`fair-${market.lineId}-${s}`}
              title={
                fair
                  ? `fair probability (${model})`
                  : market.prices
                    ? `no fair price under ${model}: the market is partial or the model cannot price it`
                    : 'offline'
              }
            >
              {market.prices && !fair && pricedSides(market.prices).length ? 'n/a' : fmtPct(fair?.[s])}
            </span>
          </span>
        ))}
      </td>
      <td className="num muted">{fmtMoney(market.maxWin)}</td>
    </tr>
  );
}

const LiveMarketRow = memo(function LiveMarketRow(props: {
  eventId: number;
  lineId: number;
  chosen: boolean;
  onChoose: (lineId: number) => void;
}) {
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

  const sidesKey = (
    current ? sidesOf(current) : sidesOf({ market: 'moneyline', prices: all.find((p) => p.prices)?.prices ?? null })
  ).join(',');
  const sides = useMemo(() => sidesKey.split(',') as PriceSide[], [sidesKey]);
  const priceData = useMemo(
    () => [all.map((p) => p.at), ...sides.map((s) => all.map((p) => p.prices?.[s] ?? null))],
    [all, sides],
  );
  const maxWinData = useMemo(() => [all.map((p) => p.at), all.map((p) => p.maxWin)], [all]);
  const color = (i: number) => `--c${i + 1}`;

  if (error) return <p className="calm-message">The line's history is not available: {error.message}</p>;
  if (!points) return <p className="calm-message">Loading the line's history…</p>;
  if (all.length === 0) return <p className="calm-message">No ticks recorded for this line yet.</p>;
  if (all.length === 1)
    return <p className="calm-message">One tick recorded so far; the charts start with the next one.</p>;
  return (
    <div className="charts">
      <Chart
        title="Price"
        testId="chart-price"
        log
        data={priceData}
        series={sides.map((s, i) => ({
          label: current ? sideWords(current.market, current.line, s, { team: current.side }) : sideName(s),
          color: color(i),
        }))}
        values="odds"
      />
      <Chart
        title="Max stake"
        testId="chart-maxwin"
        data={maxWinData}
        series={[{ label: 'max stake', color: color(1), stepped: true }]}
        values="money"
      />
    </div>
  );
}

/** "kick-off in 2 h 05 min": how long a match with no score yet has to go, or "kick-off due" once its time has come. */
export function untilKickOff(startsMs: number, nowMs: number): string {
  const min = Math.ceil((startsMs - nowMs) / 60_000);
  if (min <= 0) return 'kick-off due';
  if (min < 60) return `kick-off in ${min} min`;
  if (min < 48 * 60) return `kick-off in ${Math.floor(min / 60)} h ${String(min % 60).padStart(2, '0')} min`;
  return `kick-off in ${Math.floor(min / 1440)} days`;
}

/**
 * The time to kick-off in the detail's header, where a score goes once there is one: drawn again every 15 s. The start
 * is the service's time, so it is read on the service's clock (ours moved by the measured skew): a service minutes
 * ahead of this machine kicks off minutes before our clock reaches its start.
 */
function KickOffIn({ starts }: { starts: number }) {
  const skew = useStore((s) => s.status?.quota.clockSkewMs ?? 0);
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(t);
  }, []);
  return (
    <span className="muted small-text" data-testid="detail-kickoff">
      {untilKickOff(starts, now + skew)}
    </span>
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
      <h3>
        Settled{detail ? ` ${detail.settlement.score_home}–${detail.settlement.score_away}` : ''}: it has left the book
      </h3>
      {detail ? (
        <SettledLines detail={detail} />
      ) : (
        <p className="calm-message">
          {detail === null ? 'The settlement is not cached.' : 'Loading the settled lines…'}
        </p>
      )}
    </section>
  );
}

// ---- the split between the grid and the detail: the trader drags it (or moves it by keys), kept on this machine ----
const WIDTH_KEY = 'oddsdesk.detailWidth';
const MIN_WIDTH = 320;
const readWidth = (): number | null => {
  try {
    const w = Number(localStorage.getItem(WIDTH_KEY));
    return Number.isFinite(w) && w >= MIN_WIDTH ? w : null;
  } catch {
    return null;
  }
};
/** The pane's width as the app's grid reads it (styles.css: --detail-width); none: the default, 28% of the window. */
function applyWidth(w: number | null): void {
  const root = document.documentElement.style;
  if (w === null) root.removeProperty('--detail-width');
  else root.setProperty('--detail-width', `clamp(${MIN_WIDTH}px, ${Math.round(w)}px, 65vw)`);
}
applyWidth(readWidth());
function keepWidth(w: number | null): void {
  applyWidth(w);
  try {
    if (w === null) localStorage.removeItem(WIDTH_KEY);
    else localStorage.setItem(WIDTH_KEY, String(Math.round(w)));
  } catch {
    // private mode: for this session only
  }
}

/**
 * The pane's left edge: drag it to give the grid or the detail more room; ←/→ move it by keys (Shift: further),
 * Home/End to the narrowest and widest, a double click (or Enter) back to the default.
 */
function DetailResizer() {
  const [width, setWidth] = useState<number | null>(readWidth);
  const pane = (el: HTMLElement) => el.closest('.detail')!.getBoundingClientRect().width;
  const set = (w: number | null) => {
    const clamped = w === null ? null : Math.max(MIN_WIDTH, Math.min(w, window.innerWidth * 0.65));
    setWidth(clamped);
    keepWidth(clamped);
  };
  return (
    <div
      className="detail-resizer"
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the detail pane (arrows; Enter: default width)"
      aria-valuemin={MIN_WIDTH}
      aria-valuenow={width ?? undefined}
      tabIndex={0}
      title="Drag to resize the detail pane; double-click for the default width"
      data-testid="detail-resizer"
      onPointerDown={(e) => {
        e.preventDefault();
        const el = e.currentTarget;
        el.setPointerCapture(e.pointerId);
        const startX = e.clientX;
        const startW = pane(el);
        const move = (ev: PointerEvent) => set(startW + (startX - ev.clientX));
        const up = () => {
          el.removeEventListener('pointermove', move);
          el.removeEventListener('pointerup', up);
          el.removeEventListener('pointercancel', up);
        };
        el.addEventListener('pointermove', move);
        el.addEventListener('pointerup', up);
        el.addEventListener('pointercancel', up);
      }}
      onDoubleClick={() => set(null)}
      onKeyDown={(e) => {
        const step = e.shiftKey ? 64 : 16;
        const now = pane(e.currentTarget);
        const next =
          e.key === 'ArrowLeft'
            ? now + step
            : e.key === 'ArrowRight'
              ? now - step
              : e.key === 'Home'
                ? MIN_WIDTH
                : e.key === 'End'
                  ? window.innerWidth
                  : e.key === 'Enter'
                    ? null
                    : undefined;
        if (next === undefined) return;
        // The grid's arrows and Home/End are not for this key.
        e.preventDefault();
        e.stopPropagation();
        set(next);
      }}
    />
  );
}

/**
 * The markets' structure (periods, kinds, lines), by period in the order a trader reads them: the live lines of a
 * watched event (their prices are read per row from the store), else the fetched detail's.
 */
function useMarketStructure(
  eventId: number,
  watched: boolean,
  fetched: MarketView[] | undefined,
): Array<[number, MarketView[]]> {
  const lineIds = useStore(useShallow((s) => s.lineIdsByEvent[eventId] ?? []));
  const liveMarkets = useStore(
    useShallow((s) =>
      lineIds
        .map((id) => s.markets[marketKey(eventId, id)])
        .map((m) => (m ? `${m.lineId}:${m.period}:${m.market}:${m.line}` : '')),
    ),
  );
  return useMemo(() => {
    const s = useStore.getState();
    const list: MarketView[] = watched
      ? lineIds.map((id) => s.markets[marketKey(eventId, id)]).filter((m): m is MarketView => !!m)
      : (fetched ?? []);
    const byPeriod = new Map<number, MarketView[]>();
    for (const m of list) byPeriod.set(m.period, [...(byPeriod.get(m.period) ?? []), m]);
    for (const ms of byPeriod.values())
      ms.sort(
        (a, b) =>
          MARKET_ORDER.indexOf(a.market) - MARKET_ORDER.indexOf(b.market) ||
          (a.line ?? 0) - (b.line ?? 0) ||
          a.lineId - b.lineId,
      );
    return [...byPeriod.entries()].sort((a, b) => a[0] - b[0]);
    // liveMarkets is the structural fingerprint of the live lines.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [watched, liveMarkets, fetched, eventId]);
}

/**
 * The line the charts show: the one the trader clicked, or the one the pane was opened at (a mover, an alert, a bet),
 * which is also scrolled to once its row is there.
 */
function useChosenLine(eventId: number, structure: Array<[number, MarketView[]]>) {
  const [chosenLine, setChosenLine] = useState<number | null>(null);
  const focusLine = useStore((s) => (s.focusLine?.eventId === eventId ? s.focusLine : null));
  const scrolledFor = useRef(0);
  useEffect(() => {
    if (focusLine) setChosenLine(focusLine.lineId);
  }, [focusLine]);
  useEffect(() => {
    if (!focusLine || scrolledFor.current === focusLine.seq) return;
    const row = document.querySelector(`.detail [data-testid="market-${focusLine.lineId}"]`);
    if (!row) return;
    scrolledFor.current = focusLine.seq;
    row.scrollIntoView({ block: 'center' });
  }, [focusLine, structure]);
  return [chosenLine, setChosenLine] as const;
}

/** The pane's header: the match, where and when, its badge and score (or the time to kick-off), and Close. */
function DetailHeader({ eventId, event, settled }: { eventId: number; event: EventView | null; settled: boolean }) {
  const setDetailOpen = useStore((s) => s.setDetailOpen);
  return (
    <header className="detail-head">
      <div>
        <h2 data-testid="detail-title">{eventName(event?.runnerHome, event?.runnerAway, eventId)}</h2>
        <div className="muted" title={`Event id ${eventId}`} data-testid="detail-subtitle">
          {event?.sportName} · {event?.leagueName} · <Time ms={event?.starts} withDate />
        </div>
      </div>
      <div className="detail-score" data-testid="detail-score">
        <EventBadge eventId={eventId} settled={settled} live={event?.liveStatus === 1} testId="detail-badge" />{' '}
        {fmtScore(event?.scoreHome, event?.scoreAway) ||
          (event?.starts != null ? <KickOffIn starts={event.starts} /> : '–')}
      </div>
      {/* In the pane's header, which stays in view as the pane scrolls: always there to close it. */}
      <button
        className="detail-close"
        onClick={() => setDetailOpen(false)}
        aria-label="Close detail"
        data-testid="detail-close"
      >
        Close (Esc)
      </button>
    </header>
  );
}

/** What the trader does with the event: watch or unwatch, mute, snooze, record a bet, price alerts, its own window. */
function DetailActions({ eventId, watched }: { eventId: number; watched: boolean }) {
  const muted = useStore((s) => s.settings?.mutedEvents.includes(eventId) ?? false);
  const { muteEvent, removeWatch, addWatch, toast } = useStore(
    useShallow((s) => ({
      muteEvent: s.muteEvent,
      removeWatch: s.removeWatchWithUndo,
      addWatch: s.addWatch,
      toast: s.toast,
    })),
  );
  return (
    <div className="detail-actions">
      {watched ? (
        <button onClick={() => void removeWatch(eventId)} data-testid="unwatch">
          Unwatch (Del)
        </button>
      ) : (
        <button onClick={() => void addWatch(eventId).then((e) => e && toast(e.message, 'error'))}>Watch</button>
      )}
      <button
        onClick={() => void muteEvent(eventId, !muted).then((e) => e && toast(e.message, 'error'))}
        data-testid="mute-event"
        aria-pressed={muted}
      >
        {muted ? 'Unmute alerts' : 'Mute alerts'}
      </button>
      <SnoozeSelect eventId={eventId} />
      <RecordBet eventId={eventId} />
      <PriceAlerts eventId={eventId} />
      <span className="spacer" />
      <OpenInWindowButton target={{ view: 'event', eventId }} />
    </div>
  );
}

/** One period's markets: live rows (each reads its own market) for a watched event, else the fetched prices. */
function PeriodMarkets({
  eventId,
  title,
  markets,
  watched,
  chosen,
  onChoose,
}: {
  eventId: number;
  title: string;
  markets: MarketView[];
  watched: boolean;
  chosen: number | null;
  onChoose: (lineId: number) => void;
}) {
  return (
    <section className="period">
      <h3>{title}</h3>
      <table className="grid markets">
        <tbody>
          {markets.map((m) =>
            watched ? (
              <LiveMarketRow
                key={m.lineId}
                eventId={eventId}
                lineId={m.lineId}
                chosen={m.lineId === chosen}
                onChoose={onChoose}
              />
            ) : (
              <MarketRowView
                key={m.lineId}
                eventId={eventId}
                market={m}
                live={false}
                chosen={m.lineId === chosen}
                onChoose={onChoose}
              />
            ),
          )}
        </tbody>
      </table>
    </section>
  );
}

export function EventDetail({ eventId }: { eventId: number }) {
  const watched = useStore((s) => !!s.watchEvents[eventId]);
  const ev = useStore(useShallow((s) => s.watchEvents[eventId] ?? null));
  // The pane is keyed by event id (App.tsx), so its local state starts fresh for each event.
  const { data: detail, error } = useQuery(String(eventId), () => host.invoke('event:detail', eventId), 20_000);
  const periodNames = usePeriodNames();

  const event = ev ?? detail?.event ?? null;
  const sport = event?.sportName ?? '';
  const structure = useMarketStructure(eventId, watched, detail?.markets);
  const [chosenLine, setChosenLine] = useChosenLine(eventId, structure);

  const firstLine = structure[0]?.[1][0]?.lineId ?? null;
  const lineForCharts = chosenLine ?? firstLine;
  const chartLine =
    lineForCharts === null ? undefined : structure.flatMap(([, ms]) => ms).find((m) => m.lineId === lineForCharts);

  return (
    <aside className="detail" aria-label="Event detail" data-testid="event-detail">
      <DetailResizer />
      <div className="detail-body" data-testid="detail-body">
        <DetailHeader eventId={eventId} event={event} settled={!!detail?.settled} />
        <DetailActions eventId={eventId} watched={watched} />
        {error && !watched && <p className="calm-message">The event's detail is not available: {error.message}</p>}
        {(detail?.settled || ev?.settled) && <SettledSection eventId={eventId} />}
        {structure.length === 0 && !error && (
          <p className="calm-message">{watched || detail ? 'No markets offered right now.' : 'Loading…'}</p>
        )}
        {structure.map(([period, markets]) => (
          <PeriodMarkets
            key={period}
            eventId={eventId}
            title={labelPeriod(sport, period, periodNames)}
            markets={markets}
            watched={watched}
            chosen={lineForCharts}
            onChoose={setChosenLine}
          />
        ))}
        {lineForCharts !== null && (
          <section className="period">
            <h3 title={`Line id ${lineForCharts}`} data-testid="chart-line-title">
              {chartLine ? `${lineLabel(chartLine, sport, periodNames)} over time` : 'The line over time'}
            </h3>
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
      </div>
    </aside>
  );
}
