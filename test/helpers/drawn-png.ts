// Real, decodable PNG images drawn pixel by pixel, for tests and screenshots that show a picture (a conflict's two versions of an image).
import { crc32, deflateSync } from 'node:zlib';

type Rgb = readonly [number, number, number];

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, crc]);
}

/** An 8-bit RGB PNG of `width`×`height` whose pixel at (x, y) is `pixel(x, y)`. */
export function drawnPng(width: number, height: number, pixel: (x: number, y: number) => Rgb): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8);
  header.writeUInt8(2, 9);
  // Each row: filter type 0 (none), then its pixels.
  const rows = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const start = y * (1 + width * 3);
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y);
      rows.writeUInt8(r, start + 1 + x * 3);
      rows.writeUInt8(g, start + 2 + x * 3);
      rows.writeUInt8(b, start + 3 + x * 3);
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A receipt: a white slip with grey lines of "text" on a wooden table; `stamped` adds a red PAID
 * stamp, so two versions of it are told apart at a glance.
 */
export function receiptPng(stamped: boolean, width = 120, height = 90): Buffer {
  return drawnPng(width, height, (x, y) => {
    const slip = x >= 30 && x < 90 && y >= 6 && y < 84;
    if (!slip) return (x + y * 3) % 17 < 3 ? [150, 105, 60] : [181, 132, 84];
    if (stamped && Math.abs(x - 60 - (y - 55) / 2) < 14 && y > 46 && y < 64 && (x + y) % 5 !== 0) {
      return [200, 40, 40];
    }
    const line = y >= 14 && y < 78 && (y - 14) % 8 < 2 && x >= 36 && x < 84 - ((y * 7) % 19);
    return line ? [110, 110, 110] : [250, 250, 246];
  });
}
