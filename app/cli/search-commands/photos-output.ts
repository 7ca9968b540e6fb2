// What `mch-sync photos` prints: one block per photo (time, camera, size, places), or the documented JSON.
import { formatBytes } from '../../../common/units.ts';
import type { RemoteFile } from '../../api/device-client.ts';
import {
  formatWallClock,
  isoWallClock,
  type MediaTimeSource,
  type WallClockRange,
} from '../../search/photo-dates.ts';
import type { PhotoMatch, PhotoSearchResult } from '../../search/photo-search.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import { rejectedJson, type RejectedJson } from './search-output.ts';

/** `photos --json` (documented in PHOTOS_USAGE and app/search/README.md). */
export interface PhotosJson {
  /** The range asked for, on this computer's clock: ISO 8601 without a zone. */
  from: string;
  to: string;
  photos: Array<{
    id: string;
    name: string;
    devicePath: string | null;
    localPath: string | null;
    mimeType: string;
    size: number;
    /** ISO 8601 UTC, null when the device gave none. */
    mTime: string | null;
    /** When it was taken (camera) or last modified, on this computer's clock: ISO 8601 without a zone. */
    mediaTime: string;
    mediaTimeSource: MediaTimeSource;
    width: number | null;
    height: number | null;
    cameraMake: string | null;
    cameraModel: string | null;
  }>;
  /** More files are in the range than --limit let through. */
  more: boolean;
  rejected: RejectedJson[];
}

export function photosJson(range: WallClockRange, result: PhotoSearchResult): PhotosJson {
  return {
    from: isoWallClock(range.from),
    to: isoWallClock(range.to),
    photos: result.photos.map(({ file, mediaTime, devicePath, localPath }) => ({
      id: file.id,
      name: file.name,
      devicePath: devicePath ?? null,
      localPath: localPath ?? null,
      mimeType: file.mimeType,
      size: file.size,
      mTime: file.mTime ?? null,
      mediaTime: isoWallClock(mediaTime.wall),
      mediaTimeSource: mediaTime.source,
      width: file.image?.width ?? null,
      height: file.image?.height ?? null,
      cameraMake: file.image?.cameraMake ?? null,
      cameraModel: file.image?.cameraModel ?? null,
    })),
    more: result.more,
    rejected: rejectedJson(result.rejected),
  };
}

/** One block: path on the device, when, camera, size, and where it is here. */
export function photoLines(photo: PhotoMatch): string[] {
  const { file, mediaTime } = photo;
  const lines = [
    photo.devicePath === undefined
      ? `(place on the device unknown) ${terminalSafe(file.name)}`
      : terminalSafe(photo.devicePath),
  ];
  const when = formatWallClock(mediaTime.wall);
  lines.push(mediaTime.source === 'camera' ? `  taken: ${when}` : `  modified: ${when} (no camera date)`);
  const camera = cameraName(file);
  if (camera !== undefined) lines.push(`  camera: ${terminalSafe(camera)}`);
  const { width, height } = file.image ?? {};
  const dimensions = width !== undefined && height !== undefined ? `${width}×${height}, ` : '';
  lines.push(`  size: ${dimensions}${formatBytes(file.size)}`);
  lines.push(`  local: ${photo.localPath === undefined ? 'not synced here' : terminalSafe(photo.localPath)}`);
  return lines;
}

/**
 * Make and model as people say them: most models already start with the maker's name ("Canon" /
 * "Canon EOS R5", "NIKON CORPORATION" / "NIKON Z 6"), and then the model alone says it all.
 */
export function cameraName(file: RemoteFile): string | undefined {
  const make = file.image?.cameraMake?.trim() ?? '';
  const model = file.image?.cameraModel?.trim() ?? '';
  if (model === '') return make === '' ? undefined : make;
  const brand = make.split(/\s+/)[0]?.toLowerCase() ?? '';
  return brand === '' || model.toLowerCase().startsWith(brand) ? model : `${make} ${model}`;
}

export function photosSummary(range: WallClockRange, result: PhotoSearchResult, videos: boolean): string {
  const what = videos ? 'photos and videos' : 'photos';
  const span = `from ${formatWallClock(range.from)} to ${formatWallClock(range.to)}`;
  const count = result.photos.length;
  if (count === 0) return `No ${videos ? 'photos or videos' : 'photos'} ${span}.`;
  const one = videos ? 'photo or video' : 'photo';
  const found = `${count} ${count === 1 ? one : what} ${span}, oldest first.`;
  return result.more ? `${found} There are more: raise --limit (now ${count}) or narrow the dates.` : found;
}
