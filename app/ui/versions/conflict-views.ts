// A conflict as the window shows it: both files side by side, with whose each is, and the first lines of a text or a small picture of an image.
import { open, readFile } from 'node:fs/promises';
import exifr from 'exifr';
import type { ConflictPreviewView, ConflictSideView, ConflictView } from '../../../common/contract.ts';
import { localPath } from '../../sync/local/local-paths.ts';
import { isPlaceholder } from '../../sync/local/placeholders.ts';
import { conflictPreview, type ConflictEntry, type ConflictSide } from '../../versions/conflict-list.ts';
import type { VersionsTarget } from './versions-place.ts';

/** Lines of a text shown, each cut to this many characters. */
const TEXT_LINES = 6;
const LINE_CHARACTERS = 160;
/** An image is sent whole up to this size; past it, a JPEG's own EXIF thumbnail when it has one. */
const IMAGE_BYTES = 64_000;
/** Where a JPEG keeps its EXIF thumbnail: the APP1 segment at its start, at most 64 KiB. */
const EXIF_HEAD_BYTES = 70_000;
/**
 * Only the newest conflicts get previews: a burst of hundreds would send megabytes of pictures the
 * window does not show at once. The others say to open the files.
 */
export const PREVIEWED_CONFLICTS = 50;

const FROM: Record<string, Pick<ConflictSideView, 'from' | 'fromWords'>> = {
  'this computer': { from: 'this-computer', fromWords: 'This computer' },
  'the device': { from: 'device', fromWords: 'The device' },
  'another computer': { from: 'other-computer', fromWords: 'Another computer' },
};

export async function conflictView(
  target: VersionsTarget,
  entry: ConflictEntry,
  withPreview: boolean,
): Promise<ConflictView> {
  return {
    pairId: target.pairId,
    copyPath: entry.copyPath,
    originalPath: entry.originalPath,
    madeAtMs: entry.madeAtMs,
    copy: await sideView(target, entry.copy, withPreview),
    original: await sideView(target, entry.original, withPreview),
  };
}

async function sideView(
  target: VersionsTarget,
  side: ConflictSide,
  withPreview: boolean,
): Promise<ConflictSideView> {
  return {
    path: side.path,
    localPath: target.localPath(side.path),
    size: side.size,
    mTimeMs: side.mTimeMs,
    ...(FROM[side.from] ?? FROM['another computer']!),
    preview: withPreview
      ? await previewOf(target.place.root, side.path, side.size)
      : { kind: 'none', words: 'Open it to see what it holds.' },
  };
}

/** The first lines of a text, an image small enough to send (or its EXIF thumbnail), else why not. */
export async function previewOf(root: string, path: string, size: number): Promise<ConflictPreviewView> {
  const absolute = localPath(root, path);
  try {
    if (isPlaceholder(absolute))
      return { kind: 'none', words: 'On the device only: open it to download it.' };
    const found = await conflictPreview(root, path, TEXT_LINES);
    if (found.kind === 'text') {
      return { kind: 'text', lines: found.lines.map((line) => line.slice(0, LINE_CHARACTERS)) };
    }
    if (found.kind === 'none')
      return { kind: 'none', words: 'No preview of this kind of file: open it to compare.' };
    if (size <= IMAGE_BYTES) return image(await readFile(absolute), found.mime);
    const thumbnail = found.mime === 'image/jpeg' ? await exifThumbnail(absolute) : undefined;
    if (thumbnail !== undefined) return image(thumbnail, 'image/jpeg');
    return { kind: 'none', words: 'An image too large to show here: open it to compare.' };
  } catch {
    // Gone or locked since it was listed: the list says what it can, the file is opened to see.
    return { kind: 'none', words: 'It cannot be read just now: open it to compare.' };
  }
}

function image(bytes: Uint8Array, mime: string): ConflictPreviewView {
  return { kind: 'image', dataUrl: `data:${mime};base64,${Buffer.from(bytes).toString('base64')}` };
}

/** A camera's own small picture of the photo, read from the file's head (never the whole photo). */
async function exifThumbnail(absolute: string): Promise<Uint8Array | undefined> {
  const file = await open(absolute, 'r');
  let head: Buffer;
  try {
    const buffer = Buffer.alloc(EXIF_HEAD_BYTES);
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    head = buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
  try {
    const thumbnail = await exifr.thumbnail(head);
    return thumbnail !== undefined && thumbnail.length > 0 && thumbnail.length <= IMAGE_BYTES
      ? thumbnail
      : undefined;
  } catch {
    return undefined;
  }
}
