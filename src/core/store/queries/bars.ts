// The packed one-minute bars of a market line: one blob per line per clock hour, folded from raw odds ticks by
// compaction and read back by the history readers. Pure (no SQL): the blob layout lives here once.
//
// Layout (version 1): a version byte, then the hour's bars in minute order, each:
//   varint  minute (the first bar) or minutes since the previous bar
//   varint  ticks folded into the bar
//   byte    sides present (bit per SIDES entry)
//   byte    flags: 1 first tick offline, 2 last tick offline, 4 line follows, 8 max_win follows
//   per side present: open, close, high, low            (numbers, see below)
//   line, max_win at the bar's end, only when they differ from the previous bar's (always in the first bar)
// A number is a varint u: an even u is a zig-zag delta (u / 2), in thousandths, from a base (the side's previous
// close for open; the open for close; the higher of open and close for high, the lower for low; the previous value
// for line and max_win); u == 1 is followed by a float64 (any value that thousandths cannot hold exactly); u == 3
// is null. Decimal odds carry at most three
// decimals, so nearly every price is one or two bytes, and the round-trip is exact whatever the upstream sends.
import type { Prices } from '../../../shared/api';

export const BAR_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const SIDES = ['home', 'draw', 'away', 'over', 'under'] as const;
export type Side = (typeof SIDES)[number];
const FORMAT = 1;
const SCALE = 1000;
/** Beyond this a price or limit goes as float64: its thousandths would lose integer precision. */
const MAX_SCALED = 1e9;

export interface Ohlc {
  open: number;
  high: number;
  low: number;
  close: number;
}

export interface Bar {
  /** Minute within the hour, 0..59. */
  minute: number;
  ticks: number;
  sides: Partial<Record<Side, Ohlc>>;
  /** The bar's first (last) tick had no prices: the market was offline. */
  openOffline: boolean;
  closeOffline: boolean;
  /** At the bar's end. */
  line: number | null;
  maxWin: number | null;
}

/** The columns of one raw tick that a bar folds. */
export interface TickValues {
  at: number;
  line: number | null;
  price_home: number | null;
  price_draw: number | null;
  price_away: number | null;
  price_over: number | null;
  price_under: number | null;
  max_win: number | null;
}

export const hourOf = (at: number): number => Math.floor(at / HOUR_MS);
export const minuteOf = (at: number): number => Math.floor((at - hourOf(at) * HOUR_MS) / BAR_MS);

function priceOf(t: TickValues, s: Side): number | null {
  switch (s) {
    case 'home':
      return t.price_home;
    case 'draw':
      return t.price_draw;
    case 'away':
      return t.price_away;
    case 'over':
      return t.price_over;
    case 'under':
      return t.price_under;
  }
}

/**
 * Folds one tick into its bar, in time order: a later tick moves the close. A tick that comes after its minute
 * was compacted (a clock jump) is folded the same way: it counts in high and low and becomes the close.
 */
export function foldTick(bars: Map<number, Bar>, t: TickValues): void {
  const minute = minuteOf(t.at);
  const offline = SIDES.every((s) => priceOf(t, s) === null);
  let bar = bars.get(minute);
  if (!bar) {
    bar = { minute, ticks: 0, sides: {}, openOffline: offline, closeOffline: offline, line: t.line, maxWin: t.max_win };
    bars.set(minute, bar);
  }
  bar.ticks++;
  for (const s of SIDES) {
    const p = priceOf(t, s);
    if (p === null) continue;
    const o = bar.sides[s];
    if (!o) bar.sides[s] = { open: p, high: p, low: p, close: p };
    else {
      if (p > o.high) o.high = p;
      if (p < o.low) o.low = p;
      o.close = p;
    }
  }
  bar.closeOffline = offline;
  bar.line = t.line;
  bar.maxWin = t.max_win;
}

// ---- encoding ----

class Writer {
  private buf = new Uint8Array(256);
  private n = 0;
  private room(k: number): void {
    if (this.n + k <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.n + k));
    next.set(this.buf.subarray(0, this.n));
    this.buf = next;
  }
  byte(b: number): void {
    this.room(1);
    this.buf[this.n++] = b;
  }
  /** Unsigned, up to 2^53, by arithmetic (bit operators stop at 32 bits). */
  varint(u: number): void {
    this.room(8);
    while (u >= 128) {
      this.buf[this.n++] = (u % 128) + 128;
      u = Math.floor(u / 128);
    }
    this.buf[this.n++] = u;
  }
  float64(v: number): void {
    this.room(8);
    new DataView(this.buf.buffer, this.buf.byteOffset + this.n, 8).setFloat64(0, v, true);
    this.n += 8;
  }
  done(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.n));
  }
}

class Reader {
  private i = 0;
  constructor(private readonly buf: Uint8Array) {}
  get more(): boolean {
    return this.i < this.buf.length;
  }
  byte(): number {
    if (this.i >= this.buf.length) throw new Error('bar blob truncated');
    return this.buf[this.i++] as number;
  }
  varint(): number {
    let u = 0;
    let mul = 1;
    for (;;) {
      const b = this.byte();
      u += (b % 128) * mul;
      if (b < 128) return u;
      mul *= 128;
      if (mul > 2 ** 56) throw new Error('bar blob: varint too long');
    }
  }
  float64(): number {
    if (this.i + 8 > this.buf.length) throw new Error('bar blob truncated');
    const v = new DataView(this.buf.buffer, this.buf.byteOffset + this.i, 8).getFloat64(0, true);
    this.i += 8;
    return v;
  }
}

/** The thousandths of v when they hold it exactly, else null. */
function scaled(v: number | null): number | null {
  if (v === null || !Number.isFinite(v) || Math.abs(v) > MAX_SCALED || Object.is(v, -0)) return null;
  const s = Math.round(v * SCALE);
  return s / SCALE === v ? s : null;
}

function writeNum(w: Writer, v: number | null, base: number | null): void {
  if (v === null) return w.varint(3);
  const s = scaled(v);
  if (s === null) {
    w.varint(1);
    return w.float64(v);
  }
  const d = s - (scaled(base) ?? 0);
  w.varint((d >= 0 ? 2 * d : -2 * d - 1) * 2);
}

function readNum(r: Reader, base: number | null): number | null {
  const u = r.varint();
  if (u === 3) return null;
  if (u === 1) return r.float64();
  if (u % 2 !== 0) throw new Error(`bar blob: bad number tag ${u}`);
  const z = u / 2;
  const d = z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  return ((scaled(base) ?? 0) + d) / SCALE;
}

/** Bars of one hour, in any order; minutes must be distinct and within 0..59. */
export function encodeBars(bars: Iterable<Bar>): Buffer {
  const w = new Writer();
  w.byte(FORMAT);
  const sorted = [...bars].sort((a, b) => a.minute - b.minute);
  const closes: Partial<Record<Side, number>> = {};
  let prevMinute = -1;
  let line: number | null = null;
  let maxWin: number | null = null;
  sorted.forEach((b, i) => {
    if (!(Number.isInteger(b.minute) && b.minute > prevMinute && b.minute < 60)) {
      throw new Error(`bar minute ${b.minute} out of order or range`);
    }
    w.varint(i === 0 ? b.minute : b.minute - prevMinute);
    prevMinute = b.minute;
    w.varint(b.ticks);
    let mask = 0;
    SIDES.forEach((s, k) => (mask |= b.sides[s] ? 1 << k : 0));
    w.byte(mask);
    const withLine = i === 0 || !Object.is(b.line, line);
    const withMaxWin = i === 0 || !Object.is(b.maxWin, maxWin);
    w.byte((b.openOffline ? 1 : 0) | (b.closeOffline ? 2 : 0) | (withLine ? 4 : 0) | (withMaxWin ? 8 : 0));
    for (const s of SIDES) {
      const o = b.sides[s];
      if (!o) continue;
      writeNum(w, o.open, closes[s] ?? null);
      writeNum(w, o.close, o.open);
      writeNum(w, o.high, Math.max(o.open, o.close));
      writeNum(w, o.low, Math.min(o.open, o.close));
      closes[s] = o.close;
    }
    if (withLine) writeNum(w, b.line, line);
    if (withMaxWin) writeNum(w, b.maxWin, maxWin);
    line = b.line;
    maxWin = b.maxWin;
  });
  return w.done();
}

export function decodeBars(blob: Uint8Array): Bar[] {
  const r = new Reader(blob);
  const format = r.byte();
  if (format !== FORMAT) throw new Error(`bar blob format ${format} is unknown`);
  const out: Bar[] = [];
  const closes: Partial<Record<Side, number>> = {};
  let minute = -1;
  let line: number | null = null;
  let maxWin: number | null = null;
  while (r.more) {
    const step = r.varint();
    minute = out.length === 0 ? step : minute + step;
    const ticks = r.varint();
    const mask = r.byte();
    const flags = r.byte();
    const sides: Partial<Record<Side, Ohlc>> = {};
    SIDES.forEach((s, k) => {
      if (!(mask & (1 << k))) return;
      const open = readNum(r, closes[s] ?? null) as number;
      const close = readNum(r, open) as number;
      const o = {
        open,
        high: readNum(r, Math.max(open, close)) as number,
        low: readNum(r, Math.min(open, close)) as number,
        close,
      };
      sides[s] = o;
      closes[s] = o.close;
    });
    if (flags & 4) line = readNum(r, line);
    if (flags & 8) maxWin = readNum(r, maxWin);
    out.push({ minute, ticks, sides, openOffline: (flags & 1) !== 0, closeOffline: (flags & 2) !== 0, line, maxWin });
  }
  return out;
}

export function barPrices(bar: Bar, edge: 'open' | 'close' | 'high' | 'low'): Prices | null {
  if (edge === 'open' ? bar.openOffline : edge === 'close' ? bar.closeOffline : false) return null;
  const p: Prices = {};
  for (const s of SIDES) {
    const o = bar.sides[s];
    if (o) p[s] = o[edge];
  }
  return Object.keys(p).length > 0 ? p : null;
}
