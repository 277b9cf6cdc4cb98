// An event's lines as the event detail's forms offer them (recording a bet, a price threshold): the lines with a
// price on some side, each in words with its period, and the options of a line or side select in words.
import { useShallow } from 'zustand/react/shallow';
import type { MarketView, PriceSide } from '../../../shared/domain';
import { labelPeriod } from '../../../shared/periods';
import { lineWords, pricedSides, sideName, sideWords } from '../../../shared/trading';
import { usePeriodNames } from '../hooks';
import { useStore } from '../store';
import { marketKey } from '../store/watchlist';

/** A line in words with its period: "Home team total 1.5 · 1st half". */
export function lineLabel(
  m: Pick<MarketView, 'market' | 'line' | 'side' | 'period'>,
  sport: string,
  names: ReturnType<typeof usePeriodNames>,
): string {
  return `${lineWords(m.market, m.line, { team: m.side })} · ${labelPeriod(sport, m.period, names)}`;
}

/** The event's lines that have a price on at least one side, in the order the event lists them. */
export function usePricedLines(eventId: number): MarketView[] {
  return useStore(
    useShallow((s) =>
      (s.lineIdsByEvent[eventId] ?? [])
        .map((id) => s.markets[marketKey(eventId, id)])
        .filter((m): m is MarketView => !!m && pricedSides(m.prices).length > 0),
    ),
  );
}

/** A side select's options, each side in the words of its line ("Over 2.5"), or its plain name without a line. */
export function SideOptions({ line, sides }: { line: MarketView | undefined; sides: PriceSide[] }) {
  return (
    <>
      {sides.map((s) => (
        <option key={s} value={s}>
          {line ? sideWords(line.market, line.line, s, { team: line.side }) : sideName(s)}
        </option>
      ))}
    </>
  );
}

/** A line select's options, each line in words with its period (the line's id is the value). */
export function LineOptions({ lines, sport }: { lines: MarketView[]; sport: string }) {
  const periodNames = usePeriodNames();
  return (
    <>
      {lines.map((m) => (
        <option key={m.lineId} value={m.lineId}>
          {lineLabel(m, sport, periodNames)}
        </option>
      ))}
    </>
  );
}
