/**
 * Draws Packdesk's app icon (build/icon.png, 512x512: a parcel with a tick on a rounded tile)
 * with nothing but zlib, so the icon is reproducible without image tools:
 *   node build/make-icon.mjs
 * electron-builder turns it into the Windows .ico and the Linux icon set.
 */
import { Buffer } from 'node:buffer';
import { writeFileSync } from 'node:fs';
import { URL, fileURLToPath } from 'node:url';
import process from 'node:process';
import { deflateSync } from 'node:zlib';

const SIZE = 512;
const TILE = [23, 92, 168];
const BOX = [247, 181, 72];
const BOX_DARK = [214, 145, 40];
const TICK = [255, 255, 255];

/** Distance outside a rounded rectangle centred at (cx, cy); negative inside (enough for coverage). */
function roundedRect(x, y, cx, cy, hw, hh, r) {
  const dx = Math.max(Math.abs(x - cx) - hw + r, 0);
  const dy = Math.max(Math.abs(y - cy) - hh + r, 0);
  return Math.hypot(dx, dy) - r;
}

/** Distance from (x, y) to the segment (ax, ay)-(bx, by). */
function segment(x, y, ax, ay, bx, by) {
  const t = Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)));
  return Math.hypot(x - (ax + t * (bx - ax)), y - (ay + t * (by - ay)));
}

/** The colour (RGBA) of one pixel, with a one-pixel soft edge for each shape. */
function pixel(x, y) {
  const cover = (d) => Math.max(0, Math.min(1, 0.5 - d));
  let rgb = [0, 0, 0];
  let alpha = cover(roundedRect(x, y, 256, 256, 240, 240, 96));
  const mix = (colour, a) => {
    rgb = rgb.map((c, i) => c * (1 - a) + colour[i] * a);
  };
  mix(TILE, 1);
  mix(BOX, cover(roundedRect(x, y, 256, 276, 150, 130, 18)));
  mix(BOX_DARK, cover(roundedRect(x, y, 256, 166, 150, 20, 10)));
  mix(BOX_DARK, cover(roundedRect(x, y, 256, 200, 22, 56, 4)));
  const tick = Math.min(segment(x, y, 186, 300, 236, 350), segment(x, y, 236, 350, 336, 240));
  mix(TICK, cover(tick - 20));
  alpha = Math.max(0, Math.min(1, alpha));
  return [...rgb.map((c) => Math.round(c)), Math.round(alpha * 255)];
}

function crc32(buf) {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** Encodes the icon as an RGBA PNG. */
export function drawIcon() {
  const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
  for (let y = 0; y < SIZE; y++) {
    raw[y * (SIZE * 4 + 1)] = 0; // filter: none
    for (let x = 0; x < SIZE; x++) {
      // Sample pixel centres so edges are symmetric.
      const [r, g, b, a] = pixel(x + 0.5, y + 0.5);
      raw.set([r, g, b, a], y * (SIZE * 4 + 1) + 1 + x * 4);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(new URL('./icon.png', import.meta.url), drawIcon());
}
