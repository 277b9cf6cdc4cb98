// Top movers: every side of the watched events' lines ranked by its fair-price move over 5, 15 or 60 minutes, with the
// line's max_win and its own move beside it (a drop with a rising limit is the signal). Keys: 1/2/3 rank by 5/15/60
// minutes, arrows (PgUp/PgDn, Home/End) move, Enter opens the event with the line that moved chosen, Esc there comes
// back. The keyboard's row is kept by line and side, so the 5-second refresh re-ranking under it does not move it.
import { marketName } from '../../../shared/trading';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { MoverRow } from '../../../shared/domain';
import type { AppError } from '../../../shared/errors';
import { host } from '../host';
import { KeyHint } from '../components/KeyHint';
import {
  arrowOf,
  COLOUR_LEGEND,
  COLOUR_LEGEND_IMPLIED,
  formatPercent,
  movePctIn,
  toneOf,
  type OddsFormat,
} from '../../../shared/formats';
import { fmtMoney, useOddsFormat, useOdds } from '../format';
import { useListKeys } from '../keys';
import { useStore } from '../store';

const WINDOWS = [5, 15, 60] as const;
type Window = (typeof WINDOWS)[number];
const REFRESH_MS = 5_000;

/** A row's move over `w` minutes as the trader reads it: the fair price's, or in implied-% mode its probability's. */
const moveOf = (r: MoverRow, w: Window, format: OddsFormat) =>
  movePctIn(format, w === 5 ? r.move5 : w === 15 ? r.move15 : r.move60);
/** "▲ +11.5%": the arrow the colour legend promises, and the signed move. */
const fmtMove = (x: number | null) =>
  x === null ? formatPercent(x) : `${arrowOf(x)} ${formatPercent(x, { sign: true })}`.trim();

/** The biggest moves first (either way); ties by event and line, so the order is stable. */
const rank = (rows: readonly MoverRow[], w: Window, format: OddsFormat) =>
  [...rows].sort(
    (a, b) =>
      Math.abs(moveOf(b, w, format) ?? 0) - Math.abs(moveOf(a, w, format) ?? 0) ||
      a.eventId - b.eventId ||
      a.lineId - b.lineId,
  );
/** A row's identity: its line and side. */
const rowKey = (r: MoverRow) => `${r.lineId}:${r.side}`;

export function TopMoversView() {
  const [rows, setRows] = useState<MoverRow[] | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const [span, setSpan] = useState<Window>(15);
  const cursor = useStore((s) => s.listCursor.movers);
  const setCursor = useStore((s) => s.setListCursor);
  const fmtOdds = useOdds();
  const format = useOddsFormat();
  const implied = format === 'implied';
  const load = useCallback(async () => {
    const r = await host.invoke('movers:list');
    if (r.ok) {
      setRows(r.value);
      setError(null);
    } else setError(r.error);
  }, []);
  useEffect(() => {
    void load();
    const t = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(t);
  }, [load]);

  const ranked = useMemo(() => rank(rows ?? [], span, format), [rows, span, format]);
  const selected = cursor === null ? -1 : ranked.findIndex((r) => rowKey(r) === cursor);
  const table = useRef<HTMLTableElement>(null);
  useListKeys('movers', {
    count: ranked.length,
    index: selected,
    select: (i) => setCursor('movers', rowKey(ranked[i]!)),
    open: (i) => {
      const r = ranked[i]!;
      useStore.getState().openEvent(r.eventId, { lineId: r.lineId, from: 'movers' });
    },
    other: (e) => {
      if (e.key !== '1' && e.key !== '2' && e.key !== '3') return false;
      const w = WINDOWS[Number(e.key) - 1]!;
      setSpan(w);
      // The new ranking's top row.
      const top = rank(rows ?? [], w, format)[0];
      setCursor('movers', top ? rowKey(top) : null);
      return true;
    },
  });
  useEffect(() => {
    if (selected >= 0)
      table.current?.querySelector(`[data-testid="mover-row-${selected}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [selected]);

  return (
    <section className="view" aria-labelledby="movers-title">
      <header className="view-header">
        <h1 id="movers-title">Top movers</h1>
        <div className="segmented" role="group" aria-label="Rank by">
          {WINDOWS.map((w, i) => (
            <button key={w} aria-pressed={span === w} data-testid={`movers-window-${w}`} onClick={() => setSpan(w)}>
              {w} min <KeyHint k={String(i + 1)} />
            </button>
          ))}
        </div>
      </header>
      <p className="muted small-text">
        Ranked by the size of the {span}-minute move of the fair (no-vig, chosen model) price:{' '}
        {implied
          ? 'the relative change of its probability (+ = more likely, a steam; − = less likely)'
          : 'its relative change, as the drop alert measures it (− = shortened, a steam; + = drifted)'}
        . A line missing a side it had is left out. ↑↓ move, Enter opens the event at this line (Esc comes back).
      </p>
      <p className="muted small-text" data-testid="colour-legend">
        {implied ? COLOUR_LEGEND_IMPLIED : COLOUR_LEGEND}
      </p>
      {error && (
        <p className="calm-message" role="alert">
          {error.message}
        </p>
      )}
      {rows && ranked.length === 0 && (
        <p className="calm-message">No priced lines on the watchlist yet: watch a few events (W).</p>
      )}
      {ranked.length > 0 && (
        // A table wider than the pane (at 1280 px: three move columns and two limit columns) scrolls in its own box, the
        // event in sight; the view itself never runs off sideways.
        <div className="table-scroll">
          <table className="grid" data-testid="movers-table" ref={table}>
            <thead>
              <tr>
                <th className="sticky-first">Event</th>
                <th>Line</th>
                <th>Side</th>
                <th className="num">Price</th>
                <th className="num">Fair</th>
                {WINDOWS.map((w) => (
                  <th key={w} className={`num${w === span ? ' sorted' : ''}`}>
                    {w} min
                  </th>
                ))}
                <th className="num" title="Limit: the maximum stake accepted on the line">
                  Max stake
                </th>
                <th className="num" title="How the maximum stake accepted moved over the last 60 minutes">
                  Max stake 60 min
                </th>
              </tr>
            </thead>
            <tbody>
              {ranked.map((r, i) => (
                <tr
                  key={`${r.lineId}:${r.side}`}
                  className={i === selected ? 'selected-row cursor' : undefined}
                  aria-selected={i === selected}
                  data-testid={`mover-row-${i}`}
                  data-line-id={r.lineId}
                  onClick={() => setCursor('movers', rowKey(r))}
                  onDoubleClick={() => useStore.getState().openEvent(r.eventId, { lineId: r.lineId, from: 'movers' })}
                >
                  <td className="sticky-first">{r.label}</td>
                  <td>{marketName(r.market)}</td>
                  <td data-testid={`mover-side-${i}`}>{r.sideWords}</td>
                  <td className="num">{fmtOdds(r.price)}</td>
                  <td className="num">{fmtOdds(r.fair)}</td>
                  {WINDOWS.map((w) => (
                    <td
                      key={w}
                      className={`num ${toneOf(moveOf(r, w, format))}`}
                      data-testid={w === span ? `mover-move-${i}` : undefined}
                    >
                      {fmtMove(moveOf(r, w, format))}
                    </td>
                  ))}
                  <td className="num">{fmtMoney(r.maxWin)}</td>
                  <td className={`num ${toneOf(r.maxWinMove60)}`} data-testid={`mover-maxwin-move-${i}`}>
                    {fmtMove(r.maxWinMove60)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
