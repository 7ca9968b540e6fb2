// Builds tiny image files byte by byte (JPEG with EXIF, PNG, a corrupt JPEG) for image metadata tests.
import { crc32 } from 'node:zlib';

/** An EXIF rational written as numerator / denominator, e.g. `[1, 125]` for 1/125 s. */
export type Rational = [number, number];

/** The EXIF tags the builder can write; each is left out when undefined. */
export interface ExifTags {
  /** IFD0 ImageWidth / ImageLength: the size of a TIFF image. */
  imageWidth?: number;
  imageHeight?: number;
  make?: string;
  model?: string;
  orientation?: number;
  /** IFD0 DateTime, the last-resort date. */
  dateTime?: string;
  dateTimeOriginal?: string;
  /** Exif IFD DateTimeDigitized (CreateDate to exifr). */
  dateTimeDigitized?: string;
  fNumber?: Rational;
  exposureTime?: Rational;
  isoSpeed?: number;
  focalLength?: Rational;
  flash?: number;
  /** Exif IFD PixelXDimension / PixelYDimension. */
  pixelWidth?: number;
  pixelHeight?: number;
}

export interface JpegOptions {
  width: number;
  height: number;
  exif?: ExifTags;
  /** Leave out the SOF0 frame header, so only EXIF can tell the size. */
  omitFrame?: boolean;
  /** Bytes of an application segment (APP2, ignored by readers) put before the frame header. */
  padding?: number;
}

const ASCII = 2;
const SHORT = 3;
const LONG = 4;
const RATIONAL = 5;

interface IfdEntry {
  tag: number;
  type: number;
  count: number;
  /** Little-endian bytes of the value; over 4 bytes they go to the data area after the IFD. */
  value: Buffer;
}

function ascii(tag: number, text: string): IfdEntry {
  const value = Buffer.concat([Buffer.from(text, 'latin1'), Buffer.from([0])]);
  return { tag, type: ASCII, count: value.length, value };
}

function short(tag: number, n: number): IfdEntry {
  const value = Buffer.alloc(2);
  value.writeUInt16LE(n);
  return { tag, type: SHORT, count: 1, value };
}

function long(tag: number, n: number): IfdEntry {
  const value = Buffer.alloc(4);
  value.writeUInt32LE(n);
  return { tag, type: LONG, count: 1, value };
}

function rational(tag: number, [numerator, denominator]: Rational): IfdEntry {
  const value = Buffer.alloc(8);
  value.writeUInt32LE(numerator);
  value.writeUInt32LE(denominator, 4);
  return { tag, type: RATIONAL, count: 1, value };
}

function ifdSize(entries: IfdEntry[]): number {
  const data = entries.reduce((sum, entry) => sum + (entry.value.length > 4 ? entry.value.length : 0), 0);
  return 2 + entries.length * 12 + 4 + data;
}

/** One IFD written at `offset` (from the TIFF header), its long values right after it. */
function writeIfd(entries: IfdEntry[], offset: number): Buffer {
  const sorted = [...entries].sort((a, b) => a.tag - b.tag);
  const head = Buffer.alloc(2 + sorted.length * 12 + 4);
  const data: Buffer[] = [];
  let dataOffset = offset + head.length;
  head.writeUInt16LE(sorted.length);
  sorted.forEach((entry, index) => {
    const at = 2 + index * 12;
    head.writeUInt16LE(entry.tag, at);
    head.writeUInt16LE(entry.type, at + 2);
    head.writeUInt32LE(entry.count, at + 4);
    if (entry.value.length <= 4) {
      entry.value.copy(head, at + 8);
    } else {
      head.writeUInt32LE(dataOffset, at + 8);
      data.push(entry.value);
      dataOffset += entry.value.length;
    }
  });
  // The next-IFD offset stays 0: no IFD1 (thumbnail).
  return Buffer.concat([head, ...data]);
}

/**
 * A little-endian TIFF structure: IFD0 (size, Make, Model, Orientation, DateTime) pointing to the Exif
 * IFD. With `ifdPadding`, that many zero bytes (where a writer would put image data) precede IFD0.
 */
export function exifTiff(tags: ExifTags, ifdPadding = 0): Buffer {
  const ifd0: IfdEntry[] = [];
  if (tags.imageWidth !== undefined) ifd0.push(long(0x0100, tags.imageWidth));
  if (tags.imageHeight !== undefined) ifd0.push(long(0x0101, tags.imageHeight));
  if (tags.make !== undefined) ifd0.push(ascii(0x010f, tags.make));
  if (tags.model !== undefined) ifd0.push(ascii(0x0110, tags.model));
  if (tags.orientation !== undefined) ifd0.push(short(0x0112, tags.orientation));
  if (tags.dateTime !== undefined) ifd0.push(ascii(0x0132, tags.dateTime));
  const exif: IfdEntry[] = [];
  if (tags.exposureTime) exif.push(rational(0x829a, tags.exposureTime));
  if (tags.fNumber) exif.push(rational(0x829d, tags.fNumber));
  if (tags.isoSpeed !== undefined) exif.push(short(0x8827, tags.isoSpeed));
  if (tags.dateTimeOriginal !== undefined) exif.push(ascii(0x9003, tags.dateTimeOriginal));
  if (tags.dateTimeDigitized !== undefined) exif.push(ascii(0x9004, tags.dateTimeDigitized));
  if (tags.flash !== undefined) exif.push(short(0x9209, tags.flash));
  if (tags.focalLength) exif.push(rational(0x920a, tags.focalLength));
  if (tags.pixelWidth !== undefined) exif.push(long(0xa002, tags.pixelWidth));
  if (tags.pixelHeight !== undefined) exif.push(long(0xa003, tags.pixelHeight));
  const ifd0Offset = 8 + ifdPadding;
  const header = Buffer.from([0x49, 0x49, 0x2a, 0x00, 0, 0, 0, 0]);
  header.writeUInt32LE(ifd0Offset, 4);
  const withPointer = exif.length > 0 ? [...ifd0, long(0x8769, 0)] : ifd0;
  const exifOffset = ifd0Offset + ifdSize(withPointer);
  if (exif.length > 0) withPointer[withPointer.length - 1] = long(0x8769, exifOffset);
  const parts: Buffer[] = [header, Buffer.alloc(ifdPadding), writeIfd(withPointer, ifd0Offset)];
  if (exif.length > 0) parts.push(writeIfd(exif, exifOffset));
  return Buffer.concat(parts);
}

function segment(marker: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(0xff00 | marker);
  // The length counts itself (2 bytes) and the payload, not the marker.
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

/** SOF0 of a baseline 3-component image: precision, height, width, then one triple per component. */
function frameHeader(width: number, height: number): Buffer {
  const payload = Buffer.alloc(6 + 3 * 3);
  payload.writeUInt8(8, 0);
  payload.writeUInt16BE(height, 1);
  payload.writeUInt16BE(width, 3);
  payload.writeUInt8(3, 5);
  for (let component = 0; component < 3; component += 1) {
    payload.writeUInt8(component + 1, 6 + component * 3);
    payload.writeUInt8(0x11, 7 + component * 3);
    payload.writeUInt8(0, 8 + component * 3);
  }
  return segment(0xc0, payload);
}

/**
 * A JPEG made only of headers: SOI, APP1 Exif (when `exif` is given), optional APP2 padding, DQT, SOF0
 * with the size, EOI. It does not decode, but size and EXIF readers need nothing more.
 */
export function jpegWithExif(options: JpegOptions): Buffer {
  const parts: Buffer[] = [Buffer.from([0xff, 0xd8])];
  if (options.exif) {
    parts.push(segment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), exifTiff(options.exif)])));
  }
  // A segment holds at most 65533 payload bytes, so large padding takes several.
  for (let left = options.padding ?? 0; left > 0; left -= 65_533) {
    parts.push(segment(0xe2, Buffer.alloc(Math.min(left, 65_533), 0x20)));
  }
  // A quantization table precedes the frame in every real file (image-size counts on a segment there).
  parts.push(segment(0xdb, Buffer.alloc(65, 1).fill(0, 0, 1)));
  if (!options.omitFrame) parts.push(frameHeader(options.width, options.height));
  parts.push(Buffer.from([0xff, 0xd9]));
  return Buffer.concat(parts);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, crc]);
}

export interface PngOptions {
  /** An eXIf chunk with these tags, before the image data. */
  exif?: ExifTags;
  /** Bytes of an IDAT chunk (zeros; the image need not decode), to make the file large. */
  dataBytes?: number;
}

/** The PNG signature and an IHDR chunk (8-bit RGB), then optional eXIf and IDAT, then IEND. */
export function minimalPng(width: number, height: number, options: PngOptions = {}): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8);
  ihdr.writeUInt8(2, 9);
  const parts: Buffer[] = [
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
  ];
  if (options.exif) parts.push(pngChunk('eXIf', exifTiff(options.exif)));
  if (options.dataBytes) parts.push(pngChunk('IDAT', Buffer.alloc(options.dataBytes)));
  parts.push(pngChunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(parts);
}

/** A GIF header: signature and logical screen size (no image data). */
export function minimalGif(width: number, height: number): Buffer {
  const screen = Buffer.alloc(7);
  screen.writeUInt16LE(width, 0);
  screen.writeUInt16LE(height, 2);
  return Buffer.concat([Buffer.from('GIF89a', 'latin1'), screen, Buffer.from([0x3b])]);
}

/** A BMP file header and BITMAPINFOHEADER of a 24-bit image, without pixels. */
export function minimalBmp(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(54);
  bytes.write('BM', 0, 'latin1');
  bytes.writeUInt32LE(54, 2);
  bytes.writeUInt32LE(54, 10);
  bytes.writeUInt32LE(40, 14);
  bytes.writeInt32LE(width, 18);
  bytes.writeInt32LE(height, 22);
  bytes.writeUInt16LE(1, 26);
  bytes.writeUInt16LE(24, 28);
  return bytes;
}

/** An extended WebP: RIFF header and a VP8X chunk holding the canvas size. */
export function minimalWebp(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(30);
  bytes.write('RIFF', 0, 'latin1');
  bytes.writeUInt32LE(bytes.length - 8, 4);
  bytes.write('WEBPVP8X', 8, 'latin1');
  bytes.writeUInt32LE(10, 16);
  bytes.writeUIntLE(width - 1, 24, 3);
  bytes.writeUIntLE(height - 1, 27, 3);
  return bytes;
}

function box(type: string, ...children: Buffer[]): Buffer {
  const head = Buffer.alloc(8);
  const body = Buffer.concat(children);
  head.writeUInt32BE(8 + body.length);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}

/** An HEIF header (`ftyp` with `brand`, then `meta` → `iprp` → `ipco` → `ispe`), without image data. */
export function minimalHeif(width: number, height: number, brand = 'heic'): Buffer {
  const ispe = Buffer.alloc(12);
  ispe.writeUInt32BE(width, 4);
  ispe.writeUInt32BE(height, 8);
  const fullBoxHeader = Buffer.alloc(4);
  return Buffer.concat([
    box('ftyp', Buffer.from(`${brand}\0\0\0\0mif1${brand}`, 'latin1')),
    box('meta', fullBoxHeader, box('iprp', box('ipco', box('ispe', ispe)))),
  ]);
}

/**
 * Starts like a JPEG with EXIF but breaks off: the APP1 segment claims more bytes than follow, its TIFF
 * header points past the end, and no frame header follows.
 */
export function corruptJpeg(): Buffer {
  const broken = Buffer.from([0x49, 0x49, 0x2a, 0x00, 0xff, 0xff, 0x00, 0x10]);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0x40, 0x00]),
    Buffer.from('Exif\0\0', 'latin1'),
    broken,
    Buffer.from('not really an image'),
  ]);
}

/** The EXIF of a typical camera photo, with the values a test expects back. */
export const CAMERA_EXIF = {
  make: 'Canon',
  model: 'Canon EOS 5D Mark IV',
  orientation: 1,
  dateTimeOriginal: '2024:06:15 14:30:05',
  fNumber: [28, 10],
  exposureTime: [1, 125],
  isoSpeed: 400,
  focalLength: [50, 1],
  flash: 0x10,
} satisfies ExifTags;
