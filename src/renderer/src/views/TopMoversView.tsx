// Top movers: every side of the watched events' lines ranked by its fair-price move over 5, 15 or 60 minutes, with the
// line's max_win and its own move beside it (a drop with a rising limit is the signal). Keys: 1/2/3 rank by 5/15/60
// minutes, arrows move, Enter opens the event.
import { marketName } from '../../../shared/trading';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { MoverRow } from '../../../shared/domain';
import type { AppError } from '../../../shared/errors';
import { api } from '../api';
import { COLOUR_LEGEND, formatPercent, toneOf } from '../../../shared/formats';
import { fmtMoney, useOdds } from '../format';
import { setViewKeys } from '../keys';
import { useStore } from '../store';

const WINDOWS = [5, 15, 60] as const;
type Window = (typeof WINDOWS)[number];
const REFRESH_MS = 5_000;

const moveOf = (r: MoverRow, w: Window) => (w === 5 ? r.move5 : w === 15 ? r.move15 : r.move60);
const fmtMove = (x: number | null) => formatPercent(x, { sign: true });

export function TopMoversView() {
  const [rows, setRows] = useState<MoverRow[] | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const [span, setSpan] = useState<Window>(15);
  const [selected, setSelected] = useState(0);
  const fmtOdds = useOdds();
  const load = useCallback(async () => {
    const r = await api.invoke('movers:list');
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

  const ranked = useMemo(
    () => [...(rows ?? [])].sort((a, b) => Math.abs(moveOf(b, span) ?? 0) - Math.abs(moveOf(a, span) ?? 0) || a.eventId - b.eventId || a.lineId - b.lineId),
    [rows, span],
  );
  const state = useRef({ ranked, selected });
  state.current = { ranked, selected };

  useEffect(
    () =>
      setViewKeys('movers', (e) => {
        const { ranked: list, selected: i } = state.current;
        if (e.key === '1' || e.key === '2' || e.key === '3') {
          setSpan(WINDOWS[Number(e.key) - 1]!);
          setSelected(0);
          return true;
        }
        if (e.key === 'ArrowDown') return setSelected(Math.min(list.length - 1, i + 1)), true;
        if (e.key === 'ArrowUp') return setSelected(Math.max(0, i - 1)), true;
        if (e.key === 'Enter' && list[i]) {
          const s = useStore.getState();
          s.selectEvent(list[i].eventId);
          s.setView('watchlist');
          s.setDetailOpen(true);
          return true;
        }
        return false;
      }),
    [],
  );
  useEffect(() => {
    document.querySelector(`[data-testid="mover-row-${selected}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [selected]);

  return (
    <section className="view" aria-labelledby="movers-title">
      <header className="view-header">
        <h1 id="movers-title">Top movers</h1>
        <div className="segmented" role="group" aria-label="Rank by">
          {WINDOWS.map((w, i) => (
            <button key={w} aria-pressed={span === w} data-testid={`movers-window-${w}`} onClick={() => setSpan(w)}>
              {w} min <kbd>{i + 1}</kbd>
            </button>
          ))}
        </div>
      </header>
      <p className="muted small-text">Ranked by the size of the {span}-minute move of the fair (no-vig, chosen model) price: its relative change, as the drop alert measures it (− = shortened, a steam; + = drifted). A line missing a side it had is left out. ↑↓ move, Enter opens the event.</p>
      <p className="muted small-text" data-testid="colour-legend">
        {COLOUR_LEGEND}
      </p>
      {error && (
        <p className="calm-message" role="alert">
          {error.message}
        </p>
      )}
      {rows && ranked.length === 0 && <p className="calm-message">No priced lines on the watchlist yet: watch a few events (W).</p>}
      {ranked.length > 0 && (
        <table className="grid" data-testid="movers-table">
          <thead>
            <tr>
              <th>Event</th>
              <th>Line</th>
              <th>Side</th>
              <th className="num">Price</th>
              <th className="num">Fair</th>
              {WINDOWS.map((w) => (
                <th key={w} className={`num${w === span ? ' sorted' : ''}`}>
                  {w} min
                </th>
              ))}
              <th className="num" title="Limit: the maximum stake accepted on the line">Max stake</th>
              <th className="num" title="How the maximum stake accepted moved over the last 60 minutes">Max stake 60 min</th>
            </tr>
          </thead>
          <tbody>
            {ranked.map((r, i) => (
              <tr
                key={`${r.lineId}:${r.side}`}
                className={i === selected ? 'selected-row' : undefined}
                aria-selected={i === selected}
                data-testid={`mover-row-${i}`}
                onClick={() => setSelected(i)}
              >
                <td>{r.label}</td>
                <td>{marketName(r.market)}</td>
                <td data-testid={`mover-side-${i}`}>{r.sideWords}</td>
                <td className="num">{fmtOdds(r.price)}</td>
                <td className="num">{fmtOdds(r.fair)}</td>
                {WINDOWS.map((w) => (
                  <td key={w} className={`num ${toneOf(moveOf(r, w))}`} data-testid={w === span ? `mover-move-${i}` : undefined}>
                    {fmtMove(moveOf(r, w))}
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
      )}
    </section>
  );
}
