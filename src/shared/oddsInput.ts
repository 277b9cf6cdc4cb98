// A price as a trader types it, in their chosen odds format, read into the decimal price the bet log keeps; the
// words the record-bet form reads it back in; and the rule that asks before a price far from the live one is kept
// (docs/trading.md, "Typing a price"). Pure, no I/O. The display side (decimal to each format) is ./formats.ts.
import { formatOdds, type OddsFormat } from './formats';

/** The highest decimal price a bet may be recorded at (the IPC contract refuses more). */
export const MAX_BET_PRICE = 1000;

/** A typed price read: the decimal price kept, and the typed price as it reads back ("+300", "5/2", "25%"). */
export type ParsedPrice = { ok: true; decimal: number; shown: string } | { ok: false; message: string };

/** The example each format's errors and hints give, all for the same price (decimal 2.50). */
export const TYPED_EXAMPLE: Record<OddsFormat, string> = {
  decimal: '2.5',
  american: '+150 or -150',
  fractional: '3/2',
  hongkong: '1.5',
  malay: '-0.667 or 0.5',
  indonesian: '1.5 or -2',
  implied: '40%',
};

/** Each format's name in a sentence: "not an American price". */
const FORMAT_WORDS: Record<OddsFormat, string> = {
  decimal: 'decimal',
  american: 'American',
  fractional: 'fractional',
  hongkong: 'Hong Kong',
  malay: 'Malay',
  indonesian: 'Indonesian',
  implied: 'implied-probability',
};

/** Kept to four decimals: -150 records 1.6667, not 1.6666666666666667, and every format reads it back as typed. */
const keep = (d: number) => Math.round(d * 10_000) / 10_000;

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** A number as typed, with a decimal comma allowed ("1,8"); null when it is not one. */
function number(text: string): number | null {
  const t = text.replace(',', '.');
  return NUMBER.test(t) ? Number(t) : null;
}

const fail = (message: string): ParsedPrice => ({ ok: false, message });

/**
 * Reads `text` as a price in `format` (worked examples in oddsInput.test.ts): American +300 -> 4.00, -150 -> 1.6667
 * (a number without a sign is a plus price); fractional 5/2 -> 3.50 ("evens" is 1/1); Hong Kong 0.8 -> 1.80; Malay
 * 0.5 -> 1.50, -0.5 -> 3.00; Indonesian 1.5 -> 2.50, -2 -> 1.50; implied 25% -> 4.00 (the % may be left off).
 * Whatever the format, the price must come out above 1 and at most MAX_BET_PRICE; otherwise the message says why,
 * in the trader's format, with an example.
 */
export function parseOddsInput(text: string, format: OddsFormat): ParsedPrice {
  const t = text.trim().replace(/\s+/g, '');
  const example = `type it as ${TYPED_EXAMPLE[format]}`;
  if (t === '')
    return fail(
      `Type ${/^[AEIOUaeiou]/.test(FORMAT_WORDS[format]) ? 'an' : 'a'} ${FORMAT_WORDS[format]} price: ${example}.`,
    );
  let decimal: number;
  let shown = t.replace(',', '.');
  switch (format) {
    case 'decimal': {
      const n = number(t);
      if (n === null || t.startsWith('-') || t.startsWith('+'))
        return fail(`"${text.trim()}" is not a decimal price: ${example}.`);
      if (!(n > 1)) return fail(`A decimal price is above 1 (${n} is not).`);
      decimal = n;
      break;
    }
    case 'american': {
      const n = number(t);
      if (n === null) return fail(`"${text.trim()}" is not an American price: ${example}.`);
      if (Math.abs(n) < 100)
        return fail(`An American price is +100 or more, or -100 or less (${t} is neither): ${example}.`);
      decimal = n > 0 ? 1 + n / 100 : 1 + 100 / -n;
      shown = n > 0 ? `+${t.replace(/^\+/, '')}` : t;
      break;
    }
    case 'fractional': {
      if (/^(evens|evs|even)$/i.test(t)) {
        decimal = 2;
        shown = '1/1';
        break;
      }
      const m = /^(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/.exec(t);
      if (!m) return fail(`"${text.trim()}" is not a fraction: ${example} (winnings / stake).`);
      const [num, den] = [Number(m[1]), Number(m[2])];
      if (!(num > 0) || !(den > 0)) return fail(`A fractional price has both parts above 0 (${t} does not).`);
      decimal = 1 + num / den;
      break;
    }
    case 'hongkong': {
      const n = number(t);
      if (n === null || t.startsWith('-') || t.startsWith('+'))
        return fail(`"${text.trim()}" is not a Hong Kong price: ${example} (winnings per 1 staked).`);
      if (!(n > 0)) return fail(`A Hong Kong price is above 0 (${n} is not).`);
      decimal = 1 + n;
      break;
    }
    case 'malay': {
      const n = number(t);
      if (n === null) return fail(`"${text.trim()}" is not a Malay price: ${example}.`);
      if (n === 0 || Math.abs(n) > 1)
        return fail(`A Malay price is between -1 and 1, not 0 (${t} is not): ${example}.`);
      decimal = n > 0 ? 1 + n : 1 + 1 / -n;
      break;
    }
    case 'indonesian': {
      const n = number(t);
      if (n === null) return fail(`"${text.trim()}" is not an Indonesian price: ${example}.`);
      if (Math.abs(n) < 1)
        return fail(`An Indonesian price is 1 or more, or -1 or less (${t} is neither): ${example}.`);
      decimal = n > 0 ? 1 + n : 1 + 1 / -n;
      break;
    }
    case 'implied': {
      const n = number(t.replace(/%$/, ''));
      if (n === null || t.startsWith('+') || t.startsWith('-'))
        return fail(`"${text.trim()}" is not a probability: ${example}.`);
      if (!(n > 0) || !(n < 100)) return fail(`An implied probability is above 0% and below 100% (${n}% is not).`);
      decimal = 100 / n;
      shown = `${t.replace(/%$/, '')}%`;
      break;
    }
  }
  decimal = keep(decimal);
  if (!(decimal > 1)) return fail(`${shown} is too short a price to record (decimal ${decimal}).`);
  if (decimal > MAX_BET_PRICE)
    return fail(
      `${shown} is decimal ${decimal.toFixed(3)}, above ${MAX_BET_PRICE}, the longest price a bet is recorded at.`,
    );
  return { ok: true, decimal, shown };
}

/** The live price as the price box is filled with it: decimal as the service quotes it (2.5), else as the grid shows it. */
export const priceBoxText = (decimal: number, format: OddsFormat): string =>
  format === 'decimal' ? String(decimal) : formatOdds(decimal, format);

/**
 * A price read back in words: "Draw at +300 (decimal 4.000)"; in decimal, "Draw at 4.000". `shown` is the price as
 * the trader typed it (the default: as the format writes `decimal`); `link` joins the two ("Home crosses +150 ..." for
 * a price alert's threshold).
 */
export function priceInWords(what: string, decimal: number, format: OddsFormat, shown?: string, link = 'at'): string {
  const price =
    format === 'decimal'
      ? formatOdds(decimal, 'decimal')
      : `${shown ?? formatOdds(decimal, format)} (decimal ${formatOdds(decimal, 'decimal')})`;
  return `${what} ${link} ${price}`;
}

/**
 * How far a typed price may be from the live one before the form asks: the larger of the two over the smaller. The
 * same ratio in decimal and in implied probability (one is the inverse of the other), so 1.2 is "more than 20% apart"
 * whichever way the trader reads prices: 2.00 vs 2.40 (50% vs 41.7%) is at the edge and kept without a question.
 */
export const FAR_FROM_LIVE_RATIO = 1.2;

/** Whether `typed` is far enough from `live` to ask before keeping it (never when there is no live price). */
export function farFromLive(typed: number, live: number | null | undefined): boolean {
  if (live == null || !(live > 1) || !(typed > 1)) return false;
  // The nudge keeps a ratio of exactly 1.2 (2.00 vs 2.40) on the near side despite binary rounding.
  return Math.max(typed / live, live / typed) > FAR_FROM_LIVE_RATIO + 1e-9;
}
