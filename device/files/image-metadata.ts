// Reads an image's size and EXIF fields from the head of its content, for the File's `image` object
// (interface.md "Image object fields"; device-api.md §3 "Image metadata").
import { open, type FileHandle } from 'node:fs/promises';
import exifr from 'exifr';
import { imageSize } from 'image-size';
import type { ImageInfo } from '../../common/wire/device-api.ts';
import { jpegFrameSize, type PixelSize, type ReadAt } from './jpeg-frame.ts';

export type ImageFormat = 'jpeg' | 'png' | 'gif' | 'webp' | 'heif' | 'tiff' | 'bmp';

/** Read once for sniffing and sizing; JPEG frame headers and EXIF past it cost a few small reads more. */
export const HEAD_BYTES = 128 * 1024;
/** An upload never waits longer than this for its metadata; past it the file has no `image`. */
export const TIME_LIMIT_MS = 250;
/** Camera strings are short; a longer one is junk and would only bloat the search index. */
export const MAX_STRING_LENGTH = 255;

// exifr reads these containers; GIF, WebP and BMP get a size only.
const EXIF_FORMATS: ReadonlySet<ImageFormat> = new Set(['jpeg', 'png', 'tiff', 'heif']);
const HEIF_BRANDS: ReadonlySet<string> = new Set([
  'heic',
  'heix',
  'hevc',
  'hevx',
  'heim',
  'heis',
  'mif1',
  'msf1',
  'avif',
  'avis',
]);
// BITMAPINFOHEADER and its successors; the old 12-byte core header has 16-bit sizes image-size misreads.
const BMP_INFO_HEADER_SIZES: ReadonlySet<number> = new Set([40, 52, 56, 64, 108, 124]);

const EXIF_OPTIONS = {
  pick: [
    'Make',
    'Model',
    'Orientation',
    'ModifyDate',
    'DateTimeOriginal',
    'CreateDate',
    'FNumber',
    'ExposureTime',
    'ISO',
    'FocalLength',
    'Flash',
    'ExifImageWidth',
    'ExifImageHeight',
    'ImageWidth',
    'ImageHeight',
  ],
  tiff: true,
  exif: true,
  gps: false,
  interop: false,
  ifd1: false,
  makerNote: false,
  userComment: false,
  xmp: false,
  icc: false,
  iptc: false,
  jfif: false,
  ihdr: false,
  // Raw values: dates stay `YYYY:MM:DD HH:MM:SS` text, Flash and Orientation stay numbers.
  translateValues: false,
  reviveValues: false,
  // Collected rather than thrown: exifr closes its file only on the collecting path.
  silentErrors: true,
  // exifr reads the file itself, the head first and then 64 KiB chunks only where the EXIF lies.
  firstChunkSize: HEAD_BYTES,
  chunkSize: 64 * 1024,
  chunkLimit: 8,
};

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.subarray(start, end)).toString('latin1');
}

/** The image format the content's first bytes announce, or undefined for anything else. */
export function sniffImageFormat(head: Uint8Array): ImageFormat | undefined {
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (ascii(head, 0, 8) === '\x89PNG\r\n\x1a\n') return 'png';
  const first6 = ascii(head, 0, 6);
  if (first6 === 'GIF87a' || first6 === 'GIF89a') return 'gif';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'webp';
  if (ascii(head, 4, 8) === 'ftyp' && HEIF_BRANDS.has(ascii(head, 8, 12))) return 'heif';
  const first4 = ascii(head, 0, 4);
  // Classic TIFF and BigTIFF, either byte order; TIFF-based camera raw files are included.
  if (['II*\0', 'MM\0*', 'II+\0', 'MM\0+'].includes(first4)) return 'tiff';
  if (first4.startsWith('BM') && head.length >= 26) {
    const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
    if (view.getUint32(6, true) === 0 && BMP_INFO_HEADER_SIZES.has(view.getUint32(14, true))) return 'bmp';
  }
  return undefined;
}

function cleanString(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  // Fixed-size EXIF fields are padded with NULs; some writers pad with spaces too.
  const cleaned = value.replaceAll('\0', '').trim();
  if (cleaned === '') return undefined;
  const characters = [...cleaned];
  return characters.length > MAX_STRING_LENGTH
    ? characters.slice(0, MAX_STRING_LENGTH).join('').trimEnd()
    : cleaned;
}

/** A positive finite number; exifr gives an array for a tag with several values, of which the first counts. */
function positiveNumber(value: unknown): number | undefined {
  const first: unknown = Array.isArray(value) ? (value as unknown[])[0] : value;
  return typeof first === 'number' && Number.isFinite(first) && first > 0 ? first : undefined;
}

function positiveInteger(value: unknown): number | undefined {
  const n = positiveNumber(value);
  return n !== undefined && Number.isSafeInteger(n) ? n : undefined;
}

const EXIF_DATE = /^(\d{4})[:-](\d{2})[:-](\d{2})[ T](\d{2}):(\d{2}):(\d{2})/;

/**
 * `YYYY:MM:DD HH:MM:SS`, or undefined for a blank or impossible date (cameras without a set clock
 * write `0000:00:00 00:00:00` or spaces). Dashes and a `T` are accepted; anything after the seconds
 * (fractions, a zone) is dropped, as the wire form has no room for it.
 */
export function normalizeExifDate(value: unknown): string | undefined {
  const match = EXIF_DATE.exec(cleanString(value) ?? '');
  if (!match) return undefined;
  const [, year = '', month = '', day = '', hour = '', minute = '', second = ''] = match;
  const within = (text: string, min: number, max: number): boolean =>
    Number(text) >= min && Number(text) <= max;
  const valid =
    within(year, 1, 9999) &&
    within(month, 1, 12) &&
    within(day, 1, 31) &&
    within(hour, 0, 23) &&
    within(minute, 0, 59) &&
    within(second, 0, 59);
  return valid ? `${year}:${month}:${day} ${hour}:${minute}:${second}` : undefined;
}

function pixelPair(width: unknown, height: unknown): PixelSize | undefined {
  const w = positiveInteger(width);
  const h = positiveInteger(height);
  return w !== undefined && h !== undefined ? { width: w, height: h } : undefined;
}

/**
 * The `image` object from a size read from the image data and the tags exifr found, or undefined when
 * no size is known: an `image` always has width and height, and other fields only where present.
 * The size is the stored pixels, before EXIF orientation; for orientation 5-8 a viewer swaps them.
 */
export function toImageInfo(
  size: PixelSize | undefined,
  exif: Readonly<Record<string, unknown>> | undefined,
): ImageInfo | undefined {
  const tags = exif ?? {};
  const pixels =
    (size && pixelPair(size.width, size.height)) ??
    pixelPair(tags.ExifImageWidth, tags.ExifImageHeight) ??
    pixelPair(tags.ImageWidth, tags.ImageHeight);
  if (!pixels) return undefined;
  const info: ImageInfo = {};
  const date =
    normalizeExifDate(tags.DateTimeOriginal) ??
    normalizeExifDate(tags.CreateDate) ??
    normalizeExifDate(tags.ModifyDate);
  if (date !== undefined) info.date = date;
  info.width = pixels.width;
  info.height = pixels.height;
  const cameraMake = cleanString(tags.Make);
  if (cameraMake !== undefined) info.cameraMake = cameraMake;
  const cameraModel = cleanString(tags.Model);
  if (cameraModel !== undefined) info.cameraModel = cameraModel;
  const aperture = positiveNumber(tags.FNumber);
  if (aperture !== undefined) info.aperture = aperture;
  const exposureTime = positiveNumber(tags.ExposureTime);
  if (exposureTime !== undefined) info.exposureTime = exposureTime;
  const isoSpeed = positiveInteger(tags.ISO);
  if (isoSpeed !== undefined) info.isoSpeed = isoSpeed;
  const focalLength = positiveNumber(tags.FocalLength);
  if (focalLength !== undefined) info.focalLength = focalLength;
  // EXIF 2.3 Flash: bit 0 says whether the flash fired; the other bits describe mode and return light.
  const flash = typeof tags.Flash === 'number' && Number.isSafeInteger(tags.Flash) ? tags.Flash : undefined;
  if (flash !== undefined && flash >= 0) info.flashFired = (flash & 1) === 1;
  const orientation = positiveInteger(tags.Orientation);
  if (orientation !== undefined && orientation <= 8) info.orientation = orientation;
  return info;
}

async function readAt(file: FileHandle, offset: number, length: number): Promise<Uint8Array> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, offset);
  return buffer.subarray(0, bytesRead);
}

/** The stored pixel size: image-size on the head, then for JPEG a walk of the segments. */
async function readPixelSize(
  format: ImageFormat,
  head: Uint8Array,
  read: ReadAt,
): Promise<PixelSize | undefined> {
  try {
    const size = imageSize(head);
    const pixels = pixelPair(size.width, size.height);
    if (pixels) return pixels;
  } catch {
    // A frame header past the head, or a damaged file; JPEG gets a second chance below.
  }
  if (format !== 'jpeg') return undefined;
  const frame = await jpegFrameSize(read);
  return frame && pixelPair(frame.width, frame.height);
}

/** EXIF tags, or undefined when there are none or exifr met an error: a damaged block is not trusted. */
async function readExif(path: string): Promise<Record<string, unknown> | undefined> {
  const output: unknown = await exifr.parse(path, EXIF_OPTIONS);
  if (typeof output !== 'object' || output === null) return undefined;
  const tags = output as Record<string, unknown>;
  if (Array.isArray(tags.errors) && tags.errors.length > 0) return undefined;
  return tags;
}

async function extract(path: string, signal: AbortSignal): Promise<ImageInfo | undefined> {
  const file = await open(path, 'r');
  try {
    const { size: fileSize } = await file.stat();
    const head = await readAt(file, 0, Math.min(fileSize, HEAD_BYTES));
    const format = sniffImageFormat(head);
    if (!format) return undefined;
    const read: ReadAt = (offset, length) =>
      offset + length <= head.length
        ? Promise.resolve(head.subarray(offset, offset + length))
        : readAt(file, offset, length);
    const size = await readPixelSize(format, head, read);
    signal.throwIfAborted();
    const exif = EXIF_FORMATS.has(format) ? await readExif(path).catch(() => undefined) : undefined;
    return toImageInfo(size, exif);
  } finally {
    await file.close();
  }
}

export interface ReadImageOptions {
  /** Ends the wait early; by default the wait ends after `TIME_LIMIT_MS`. */
  signal?: AbortSignal;
}

/**
 * The `image` object of the content at `path`, or undefined when it is not an image this device
 * reads, is damaged, or takes longer than the time limit. Never throws: an upload must not fail for it.
 */
export async function readImageMetadata(
  path: string,
  options: ReadImageOptions = {},
): Promise<ImageInfo | undefined> {
  const signal = options.signal ?? AbortSignal.timeout(TIME_LIMIT_MS);
  if (signal.aborted) return undefined;
  let onAbort = (): void => {};
  const aborted = new Promise<undefined>((resolve) => {
    onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    // Work left behind by an abort finishes in the background and closes its files.
    return await Promise.race([extract(path, signal).catch(() => undefined), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** The `items.image` column for the content at `path`: the object as JSON, or null. */
export async function readImageColumn(path: string, options?: ReadImageOptions): Promise<string | null> {
  const info = await readImageMetadata(path, options);
  return info ? JSON.stringify(info) : null;
}
