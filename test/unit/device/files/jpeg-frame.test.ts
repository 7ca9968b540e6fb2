// Unit tests of the JPEG segment walk that finds the frame size without reading segment bodies.
import { describe, expect, it } from 'vitest';
import { jpegFrameSize, type ReadAt } from '../../../../device/files/jpeg-frame.ts';
import { jpegWithExif } from '../../../helpers/images.ts';

interface CountingReader {
  readAt: ReadAt;
  bytesRead(): number;
}

function readerOf(bytes: Uint8Array): CountingReader {
  let total = 0;
  return {
    readAt: async (offset, length) => {
      const slice = bytes.subarray(offset, offset + length);
      total += slice.length;
      return slice;
    },
    bytesRead: () => total,
  };
}

const SOI = [0xff, 0xd8];
/** A frame header of the given marker: length 11, precision 8, height, width, one component. */
function frame(marker: number, width: number, height: number): number[] {
  return [0xff, marker, 0x00, 0x0b, 8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0];
}

describe('jpegFrameSize', () => {
  it('reads the size of the frame header that follows SOI at once', async () => {
    const bytes = Buffer.from([...SOI, ...frame(0xc0, 300, 200)]);
    expect(await jpegFrameSize(readerOf(bytes).readAt)).toEqual({ width: 300, height: 200 });
  });

  it('reads a progressive (SOF2) frame header', async () => {
    const bytes = Buffer.from([...SOI, ...frame(0xc2, 4032, 3024)]);
    expect(await jpegFrameSize(readerOf(bytes).readAt)).toEqual({ width: 4032, height: 3024 });
  });

  it('skips a Huffman table (C4), which is no frame header, and fill bytes before a marker', async () => {
    const table = [0xff, 0xc4, 0x00, 0x04, 0xaa, 0xbb];
    const bytes = Buffer.from([...SOI, ...table, 0xff, 0xff, ...frame(0xc1, 64, 48)]);
    expect(await jpegFrameSize(readerOf(bytes).readAt)).toEqual({ width: 64, height: 48 });
  });

  it('reads only segment headers, not their bodies', async () => {
    const bytes = jpegWithExif({ width: 640, height: 480, padding: 1_000_000 });
    const reader = readerOf(bytes);
    expect(await jpegFrameSize(reader.readAt)).toEqual({ width: 640, height: 480 });
    expect(reader.bytesRead()).toBeLessThan(200);
  });

  it('gives nothing when the scan starts before any frame header', async () => {
    const scan = [0xff, 0xda, 0x00, 0x02];
    expect(await jpegFrameSize(readerOf(Buffer.from([...SOI, ...scan])).readAt)).toBeUndefined();
  });

  it('gives nothing for a file cut off inside a segment header', async () => {
    expect(await jpegFrameSize(readerOf(Buffer.from([...SOI, 0xff, 0xc0, 0x00])).readAt)).toBeUndefined();
  });

  it('gives nothing where a marker should start but does not', async () => {
    expect(await jpegFrameSize(readerOf(Buffer.from([...SOI, 0x12, 0x34])).readAt)).toBeUndefined();
  });
});
