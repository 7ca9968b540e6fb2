// Unit tests of image metadata extraction: format sniffing, normalisation of EXIF values, and reading
// real files of each format from disk.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ImageInfo } from '../../../../common/wire/device-api.ts';
import {
  HEAD_BYTES,
  MAX_STRING_LENGTH,
  normalizeExifDate,
  readImageColumn,
  readImageMetadata,
  sniffImageFormat,
  toImageInfo,
} from '../../../../device/files/image-metadata.ts';
import {
  CAMERA_EXIF,
  corruptJpeg,
  exifTiff,
  jpegWithExif,
  minimalBmp,
  minimalGif,
  minimalHeif,
  minimalPng,
  minimalWebp,
} from '../../../helpers/images.ts';

const dir = mkdtempSync(join(tmpdir(), 'mch-image-metadata-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let fileCount = 0;
function fileWith(bytes: Uint8Array | string): string {
  fileCount += 1;
  const path = join(dir, `file-${fileCount}`);
  writeFileSync(path, bytes);
  return path;
}

/** What CAMERA_EXIF reads back as, with the size of the image. */
function cameraInfo(width: number, height: number): ImageInfo {
  return {
    date: '2024:06:15 14:30:05',
    width,
    height,
    cameraMake: 'Canon',
    cameraModel: 'Canon EOS 5D Mark IV',
    aperture: 2.8,
    exposureTime: 0.008,
    isoSpeed: 400,
    focalLength: 50,
    flashFired: false,
    orientation: 1,
  };
}

describe('sniffImageFormat', () => {
  it.each([
    ['jpeg', jpegWithExif({ width: 1, height: 1 })],
    ['png', minimalPng(1, 1)],
    ['gif', minimalGif(1, 1)],
    ['webp', minimalWebp(1, 1)],
    ['heif', minimalHeif(1, 1, 'heic')],
    ['heif', minimalHeif(1, 1, 'avif')],
    ['tiff', exifTiff({ imageWidth: 1, imageHeight: 1 })],
    ['bmp', minimalBmp(1, 1)],
  ])('recognises %s by its first bytes', (format, bytes) => {
    expect(sniffImageFormat(bytes)).toBe(format);
  });

  it.each([
    ['empty content', Buffer.alloc(0)],
    ['text', Buffer.from('hello, world')],
    ['text that starts with BM', Buffer.from('BMW service record, 2024, in plain text')],
    ['an MP4 video', minimalHeif(1, 1, 'isom')],
    ['a PDF', Buffer.from('%PDF-1.7\n')],
  ])('recognises nothing in %s', (_label, bytes) => {
    expect(sniffImageFormat(bytes)).toBeUndefined();
  });
});

describe('normalizeExifDate', () => {
  it('keeps the EXIF form as it is', () => {
    expect(normalizeExifDate('2024:06:15 14:30:05')).toBe('2024:06:15 14:30:05');
  });

  it('rewrites dashes and a T into the EXIF form and drops fractions and zones', () => {
    expect(normalizeExifDate('2024-06-15T14:30:05.123+02:00')).toBe('2024:06:15 14:30:05');
  });

  it('strips NUL padding and spaces', () => {
    expect(normalizeExifDate(' 2024:06:15 14:30:05\0\0')).toBe('2024:06:15 14:30:05');
  });

  it.each([
    ['the zero date of a camera without a clock', '0000:00:00 00:00:00'],
    ['a blank date', '    :  :     :  :  '],
    ['month 13', '2024:13:01 00:00:00'],
    ['hour 24', '2024:01:01 24:00:00'],
    ['a date without a time', '2024:06:15'],
    ['a number', 20240615],
  ])('drops %s', (_label, value) => {
    expect(normalizeExifDate(value)).toBeUndefined();
  });
});

describe('toImageInfo', () => {
  it('gives nothing without a size, however much EXIF there is', () => {
    expect(
      toImageInfo(undefined, { Make: 'Canon', DateTimeOriginal: '2024:06:15 14:30:05' }),
    ).toBeUndefined();
    expect(toImageInfo({ width: 0, height: 10 }, undefined)).toBeUndefined();
  });

  it('prefers the size of the image data to the size EXIF claims', () => {
    const info = toImageInfo({ width: 40, height: 30 }, { ExifImageWidth: 4000, ExifImageHeight: 3000 });
    expect(info).toEqual({ width: 40, height: 30 });
  });

  it('takes the EXIF pixel dimensions, then the TIFF ImageWidth/ImageHeight, when the data has no size', () => {
    expect(toImageInfo(undefined, { ExifImageWidth: 400, ExifImageHeight: 300 })).toEqual({
      width: 400,
      height: 300,
    });
    expect(toImageInfo(undefined, { ImageWidth: 40, ImageHeight: 30 })).toEqual({ width: 40, height: 30 });
    // Half a pair is no size.
    expect(toImageInfo(undefined, { ExifImageWidth: 400, ImageHeight: 30 })).toBeUndefined();
  });

  it('does not swap width and height for a rotated orientation', () => {
    expect(toImageInfo({ width: 40, height: 30 }, { Orientation: 6 })).toEqual({
      width: 40,
      height: 30,
      orientation: 6,
    });
  });

  it('takes the date from DateTimeOriginal, then CreateDate, then ModifyDate, skipping invalid ones', () => {
    const size = { width: 1, height: 1 };
    const all = {
      DateTimeOriginal: '2021:01:01 00:00:01',
      CreateDate: '2022:02:02 00:00:02',
      ModifyDate: '2023:03:03 00:00:03',
    };
    expect(toImageInfo(size, all)?.date).toBe('2021:01:01 00:00:01');
    expect(toImageInfo(size, { ...all, DateTimeOriginal: undefined })?.date).toBe('2022:02:02 00:00:02');
    expect(toImageInfo(size, { ...all, DateTimeOriginal: '0000:00:00 00:00:00', CreateDate: '' })?.date).toBe(
      '2023:03:03 00:00:03',
    );
  });

  it('trims camera strings, strips NULs and leaves out empty ones', () => {
    const info = toImageInfo({ width: 1, height: 1 }, { Make: '  NIK\0ON\0\0 ', Model: ' \0 ' });
    expect(info).toEqual({ width: 1, height: 1, cameraMake: 'NIKON' });
  });

  it('cuts camera strings to the maximum length', () => {
    const info = toImageInfo({ width: 1, height: 1 }, { Model: 'x'.repeat(MAX_STRING_LENGTH + 50) });
    expect(info?.cameraModel).toHaveLength(MAX_STRING_LENGTH);
  });

  it('keeps only positive finite numbers, and integers where the field is one', () => {
    const info = toImageInfo(
      { width: 1, height: 1 },
      {
        FNumber: Number.NaN,
        ExposureTime: Number.POSITIVE_INFINITY,
        FocalLength: -50,
        ISO: 100.5,
        Orientation: 9,
        Make: 42,
      },
    );
    expect(info).toEqual({ width: 1, height: 1 });
  });

  it('takes the first value of a tag with several', () => {
    expect(toImageInfo({ width: 1, height: 1 }, { ISO: [200, 0] })?.isoSpeed).toBe(200);
  });

  it.each([
    [0x00, false],
    [0x01, true],
    [0x10, false],
    [0x19, true],
    [0x18, false],
  ])('reads Flash %i as flashFired %s (bit 0)', (flash, fired) => {
    expect(toImageInfo({ width: 1, height: 1 }, { Flash: flash })?.flashFired).toBe(fired);
  });
});

describe('readImageMetadata', () => {
  it('reads the size and every EXIF field of a camera JPEG', async () => {
    const path = fileWith(jpegWithExif({ width: 640, height: 480, exif: CAMERA_EXIF }));
    expect(await readImageMetadata(path)).toEqual(cameraInfo(640, 480));
  });

  it('reports stored pixels for orientation 6', async () => {
    const path = fileWith(
      jpegWithExif({ width: 640, height: 480, exif: { ...CAMERA_EXIF, orientation: 6 } }),
    );
    expect(await readImageMetadata(path)).toMatchObject({ width: 640, height: 480, orientation: 6 });
  });

  it('reads a JPEG without EXIF as its size only', async () => {
    const path = fileWith(jpegWithExif({ width: 1920, height: 1080 }));
    expect(await readImageMetadata(path)).toEqual({ width: 1920, height: 1080 });
  });

  it('finds a frame header that lies past the head', async () => {
    const bytes = jpegWithExif({ width: 640, height: 480, exif: CAMERA_EXIF, padding: 2 * HEAD_BYTES });
    expect(bytes.length).toBeGreaterThan(2 * HEAD_BYTES);
    expect(await readImageMetadata(fileWith(bytes))).toEqual(cameraInfo(640, 480));
  });

  it('takes the size from EXIF when the JPEG has no frame header', async () => {
    const path = fileWith(
      jpegWithExif({ width: 1, height: 1, omitFrame: true, exif: { pixelWidth: 320, pixelHeight: 240 } }),
    );
    expect(await readImageMetadata(path)).toEqual({ width: 320, height: 240 });
  });

  it('reads the size of a PNG from its IHDR', async () => {
    expect(await readImageMetadata(fileWith(minimalPng(300, 200)))).toEqual({ width: 300, height: 200 });
  });

  it('reads EXIF from a PNG eXIf chunk, also in a file larger than the head', async () => {
    const path = fileWith(minimalPng(300, 200, { exif: CAMERA_EXIF, dataBytes: 2 * HEAD_BYTES }));
    expect(await readImageMetadata(path)).toEqual(cameraInfo(300, 200));
  });

  it.each([
    ['GIF', minimalGif(33, 22)],
    ['BMP', minimalBmp(33, 22)],
    ['WebP', minimalWebp(33, 22)],
    ['HEIC', minimalHeif(33, 22, 'heic')],
    ['AVIF', minimalHeif(33, 22, 'avif')],
    ['TIFF', exifTiff({ imageWidth: 33, imageHeight: 22 })],
  ])('reads the size of a %s', async (_format, bytes) => {
    expect(await readImageMetadata(fileWith(bytes))).toEqual({ width: 33, height: 22 });
  });

  it('reads a TIFF whose first IFD lies past the head, through EXIF', async () => {
    const path = fileWith(exifTiff({ imageWidth: 33, imageHeight: 22, ...CAMERA_EXIF }, 3 * HEAD_BYTES));
    expect(await readImageMetadata(path)).toEqual(cameraInfo(33, 22));
  });

  it('gives nothing for a corrupt JPEG', async () => {
    expect(await readImageMetadata(fileWith(corruptJpeg()))).toBeUndefined();
  });

  it.each([
    ['a text file', 'just some text, nothing more'],
    ['an empty file', ''],
    ['a JPEG signature alone', Buffer.from([0xff, 0xd8, 0xff])],
  ])('gives nothing for %s', async (_label, bytes) => {
    expect(await readImageMetadata(fileWith(bytes))).toBeUndefined();
  });

  it('gives nothing, rather than throwing, for a path that does not exist', async () => {
    expect(await readImageMetadata(join(dir, 'no-such-file'))).toBeUndefined();
  });

  it('gives nothing once its signal has aborted', async () => {
    const path = fileWith(jpegWithExif({ width: 640, height: 480, exif: CAMERA_EXIF }));
    expect(await readImageMetadata(path, { signal: AbortSignal.abort() })).toBeUndefined();
  });

  it('stops waiting when its signal aborts during the work', async () => {
    const path = fileWith(jpegWithExif({ width: 640, height: 480, exif: CAMERA_EXIF }));
    const controller = new AbortController();
    const pending = readImageMetadata(path, { signal: controller.signal });
    controller.abort();
    expect(await pending).toBeUndefined();
  });
});

describe('readImageColumn', () => {
  it('gives the image object as JSON', async () => {
    const path = fileWith(minimalPng(3, 2));
    expect(JSON.parse((await readImageColumn(path)) ?? 'null')).toEqual({ width: 3, height: 2 });
  });

  it('gives null for content that is not an image', async () => {
    expect(await readImageColumn(fileWith('plain text'))).toBeNull();
  });
});
