// The account of upstream requests by purpose: the closed list of purposes and the shape of a count. Shared by
// the core's governor (which counts), the IPC contract (which carries the current hour's split) and the renderer.

/**
 * Why a request is made: the settled walk, the fetch again of a settlement that arrived malformed ("repair"),
 * period results, specials and outrights, stream opens, fixtures and other look-ups, and what the trader asked
 * for themselves ("ui": their own look-ups).
 */
export const PURPOSES = ['settled', 'repair', 'results', 'specials', 'stream', 'lookup', 'ui'] as const;
export type Purpose = (typeof PURPOSES)[number];

/**
 * Trader-facing names of the purposes, in the order they are listed: what the request was for, in a trader's words
 * (the Coverage view, the quota's tooltip, the recorder's summary).
 */
export const PURPOSE_LABELS: Record<Purpose, string> = {
  settled: 'checking for settlements',
  repair: 'incomplete settlements asked for again',
  results: 'period results',
  specials: 'specials and outrights',
  stream: 'price streams opened',
  lookup: 'fixtures and match details',
  ui: 'your own look-ups',
};

/** The requests the service turned away this hour (HTTP 429), in words: "3 turned away (too many requests)". */
export const turnedAwayWords = (n: number): string => `${n.toLocaleString('en-US')} turned away (too many requests)`;

/** Requests the app held back for being over their purpose's share, in words: nothing was sent. */
export const HELD_BACK_WORDS = 'held back over their share (not sent)';

/** Where the hourly limit comes from, in words: "limit 1,000 an hour, as the service states it". */
export function quotaSourceWords(limit: number | null, source: 'headers' | 'setting' | null): string {
  const figure = limit != null ? `limit ${limit.toLocaleString('en-US')} an hour, ` : '';
  if (source === 'headers') return `${figure}as the service states it`;
  if (source === 'setting') return `${figure}from your setting (Settings › Hourly quota)`;
  return 'not connected';
}

export interface RequestCounts {
  /** Requests sent (every attempt, 429s and failures included). */
  total: number;
  /** Of those, the ones the service answered 429. */
  rateLimited: number;
  byPurpose: Record<Purpose, number>;
  /**
   * Requests the governor refused because their purpose had used its share of the hour: nothing was sent, so they
   * are in neither `total` nor `byPurpose`.
   */
  refused: Record<Purpose, number>;
}

export function emptyByPurpose(): Record<Purpose, number> {
  return { settled: 0, repair: 0, results: 0, specials: 0, stream: 0, lookup: 0, ui: 0 };
}

/** The hourly quota assumed until the trader states the plan's figure (the spec does not give it). */
export const DEFAULT_QUOTA_PER_HOUR = 1000;
export const QUOTA_PER_HOUR_RANGE = { min: 1, max: 1_000_000 } as const;

/** A clock skew worth telling the trader about: beyond it, ages and reset times read from our clock would mislead. */
export const NOTABLE_SKEW_MS = 5_000;

/** The split in the order purposes are listed, each with its label; `nonZero` leaves out what nothing was spent on. */
export function purposeSplit(
  byPurpose: Record<Purpose, number>,
  nonZero = false,
): Array<{ purpose: Purpose; label: string; count: number }> {
  return PURPOSES.map((purpose) => ({
    purpose,
    label: PURPOSE_LABELS[purpose],
    count: byPurpose[purpose] ?? 0,
  })).filter((r) => !nonZero || r.count > 0);
}

/** "the service's clock is 12 s ahead of this machine's", or null when the skew is too small to matter. */
export function describeSkew(skewMs: number | null | undefined): string | null {
  if (skewMs == null || !Number.isFinite(skewMs) || Math.abs(skewMs) < NOTABLE_SKEW_MS) return null;
  return `the service's clock is ${skewAmount(skewMs)} ${skewMs > 0 ? 'ahead of' : 'behind'} this machine's`;
}

/** "12 s", "10 min", "3.0 h": the size of a skew, unsigned. */
export function skewAmount(skewMs: number): string {
  const s = Math.round(Math.abs(skewMs) / 1000);
  return s < 120 ? `${s} s` : s < 7200 ? `${Math.round(s / 60)} min` : `${(s / 3600).toFixed(1)} h`;
}

/** A quota figure typed by the trader (`--quota`, the Settings field): a whole number in range, else null. */
export function parseQuotaPerHour(text: string): number | null {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return null;
  const n = Number(t);
  return n >= QUOTA_PER_HOUR_RANGE.min && n <= QUOTA_PER_HOUR_RANGE.max ? n : null;
}
