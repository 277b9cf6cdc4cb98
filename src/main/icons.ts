// The app and tray icons, drawn in code and encoded as PNG: the tray needs one picture per connection state, and
// drawing them here means no image file has to be found inside (or unpacked from) the asar at run time.
// resources/make-icons.ts writes the same app icon to resources/icon.png for electron-builder.
import { deflateSync } from 'node:zlib';

type Rgba = readonly [number, number, number, number];

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A minimal PNG encoder: 8-bit RGBA, no filtering. */
export function encodePng(width: number, height: number, rgba: Uint8Array): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type RGBA
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    // Each scanline starts with its filter byte (0: none).
    Buffer.from(rgba.buffer, rgba.byteOffset + y * width * 4, width * 4).copy(raw, y * (width * 4 + 1) + 1);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', new Uint8Array()),
  ]);
}

/**
 * Rasterises `shade` (unit-square coordinates -> colour or null) with 4x4 supersampling, so edges are smooth at
 * tray sizes without an image library.
 */
function render(size: number, shade: (u: number, v: number) => Rgba | null): Buffer {
  const out = new Uint8Array(size * size * 4);
  const n = 4;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const c = shade((x + (sx + 0.5) / n) / size, (y + (sy + 0.5) / n) / size);
          if (!c) continue;
          const w = c[3] / 255;
          r += c[0] * w;
          g += c[1] * w;
          b += c[2] * w;
          a += w;
        }
      }
      const i = (y * size + x) * 4;
      if (a > 0) {
        out[i] = Math.round(r / a);
        out[i + 1] = Math.round(g / a);
        out[i + 2] = Math.round(b / a);
      }
      out[i + 3] = Math.round((a / (n * n)) * 255);
    }
  }
  return encodePng(size, size, out);
}

/** Inside the triangle with apex (ax, ay) and base on y = by, half-width hw at the base. */
function inTriangle(u: number, v: number, ax: number, ay: number, by: number, hw: number): boolean {
  const t = (v - ay) / (by - ay);
  return t >= 0 && t <= 1 && Math.abs(u - ax) <= hw * t;
}

function inRoundedSquare(u: number, v: number, margin: number, radius: number): boolean {
  const lo = margin + radius;
  const hi = 1 - margin - radius;
  const dx = Math.max(lo - u, 0, u - hi);
  const dy = Math.max(lo - v, 0, v - hi);
  return u >= margin && u <= 1 - margin && v >= margin && v <= 1 - margin && dx * dx + dy * dy <= radius * radius;
}

const BACKGROUND: Rgba = [15, 18, 22, 255];
const UP: Rgba = [63, 185, 80, 255];
const DOWN: Rgba = [248, 81, 73, 255];

/** The app icon: a rising ▲ and a falling ▼ on the window's background colour. */
export function appIconPng(size = 512): Buffer {
  return render(size, (u, v) => {
    if (!inRoundedSquare(u, v, 0.04, 0.16)) return null;
    if (inTriangle(u, v, 0.31, 0.26, 0.6, 0.17)) return UP;
    if (inTriangle(u, v, 0.69, 0.74, 0.4, 0.17)) return DOWN;
    return BACKGROUND;
  });
}

export type TrayState = 'online' | 'offline' | 'unknown' | 'attention';

const TRAY_COLOURS: Record<TrayState, Rgba> = {
  online: UP,
  offline: DOWN,
  unknown: [139, 148, 158, 255],
  attention: [210, 153, 34, 255],
};

/** The tray icon: a ▲ in the colour of the connection state, with a dark rim so it reads on light and dark bars. */
export function trayIconPng(state: TrayState, size = 32): Buffer {
  return render(size, (u, v) => {
    if (inTriangle(u, v, 0.5, 0.16, 0.86, 0.4)) return TRAY_COLOURS[state];
    if (inTriangle(u, v, 0.5, 0.06, 0.94, 0.5)) return BACKGROUND;
    return null;
  });
}
