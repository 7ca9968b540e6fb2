// Finds a JPEG's frame size by walking its segment headers, reading past the head only where it must.

/** Reads `length` bytes at `offset`; fewer at the end of the file. */
export type ReadAt = (offset: number, length: number) => Promise<Uint8Array>;

export interface PixelSize {
  width: number;
  height: number;
}

// Segments before the frame header are application data, tables and comments; a real file has tens.
const MAX_SEGMENTS = 1024;

/** SOF0-3, 5-7, 9-11, 13-15; C4 (DHT), C8 (JPG) and CC (DAC) share the range but are not frames. */
function isFrameMarker(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** Markers without a length field (ITU T.81 B.1.1.3): TEM and RST0-7; SOI is handled by the caller. */
function isStandalone(marker: number): boolean {
  return marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);
}

/**
 * The size in the first frame header (SOFn), as stored: no EXIF orientation is applied. Undefined when
 * the segments do not lead to one before the scan, the end of the file or `MAX_SEGMENTS`.
 *
 * image-size reads only its buffer and gives up when an early segment (a large ICC profile, XMP or
 * Photoshop block) runs past it; this walk skips such segments by their length instead of reading them.
 */
export async function jpegFrameSize(readAt: ReadAt): Promise<PixelSize | undefined> {
  let offset = 2; // after SOI
  for (let segment = 0; segment < MAX_SEGMENTS; segment += 1) {
    const head = await readAt(offset, 2);
    if (head.length < 2 || head[0] !== 0xff) return undefined;
    const marker = head[1] as number;
    // T.81 B.1.1.2: any number of 0xFF fill bytes may precede a marker.
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (isStandalone(marker)) {
      offset += 2;
      continue;
    }
    // The scan (SOS) or the end (EOI) before any frame header: the file is not a usable JPEG.
    if (marker === 0xda || marker === 0xd9 || marker === 0xd8) return undefined;
    const header = await readAt(offset + 2, isFrameMarker(marker) ? 7 : 2);
    if (header.length < 2) return undefined;
    const length = ((header[0] as number) << 8) | (header[1] as number);
    if (length < 2) return undefined;
    if (isFrameMarker(marker)) {
      if (header.length < 7) return undefined;
      // Length (2), sample precision (1), number of lines (2), samples per line (2).
      const height = ((header[3] as number) << 8) | (header[4] as number);
      const width = ((header[5] as number) << 8) | (header[6] as number);
      return { width, height };
    }
    offset += 2 + length;
  }
  return undefined;
}
