// Service date-times: `YYYY-MM-DDTHH:MM:SS` without a zone, meaning UTC (docs/service/assumptions.md, Conventions).
// We also accept a trailing Z, an offset and fractional seconds, because a tolerant reader loses nothing.

const SERVICE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Milliseconds since the epoch, or null when the text is not a service date-time. */
export function parseServiceTime(text: string): number | null {
  const m = SERVICE_TIME.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return null;
  let ms = Date.UTC(Number(y), month - 1, day, hour, minute, second);
  // Date.UTC rolls 2026-02-31 over into March: reject it instead of guessing.
  if (new Date(ms).getUTCDate() !== day) return null;
  if (frac) ms += Math.round(Number(`0${frac}`) * 1000);
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const offsetMin = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4));
    ms -= sign * offsetMin * 60_000;
  }
  return ms;
}

export function isServiceTime(text: string): boolean {
  return parseServiceTime(text) !== null;
}

/** The service's own shape: UTC, whole seconds, no zone. */
export function formatServiceTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19);
}

export function toUnixSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}
