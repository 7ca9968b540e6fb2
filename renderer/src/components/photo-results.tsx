// Photos found by date: when taken (or modified), camera, size and dimensions, with the same actions as files.
import { Image } from 'lucide-preact';
import type { JSX } from 'preact';
import type { PhotoView } from '../../../common/contract.ts';
import { formatBytes } from '../../../common/units.ts';
import { formatWhen } from '../format.ts';
import { ResultActions } from './result-actions.tsx';

export function PhotoResults({ photos }: { photos: PhotoView[] }): JSX.Element {
  return (
    <ul class="result-list photo-grid" aria-label="Photos">
      {photos.map((photo) => {
        const headingId = `photo-${photo.id}`;
        const camera = [photo.cameraMake, photo.cameraModel].filter((part) => part !== null).join(' ');
        const when =
          photo.mediaTimeMs === null
            ? 'Date unknown'
            : `${photo.mediaTimeSource === 'camera' ? 'Taken' : 'Modified'} ${formatWhen(photo.mediaTimeMs)}`;
        return (
          <li key={photo.id} class="card result">
            <p class="result-head">
              <Image />
              <span id={headingId} class="result-name">
                {photo.name}
              </span>
            </p>
            <p class="muted small">{when}</p>
            <p class="muted small">
              {camera === '' ? 'Camera unknown' : camera}
              {' · '}
              {formatBytes(photo.size)}
              {photo.width !== null && photo.height !== null && ` · ${photo.width}×${photo.height}`}
            </p>
            <ResultActions localPath={photo.localPath} isFolder={false} describedBy={headingId} />
          </li>
        );
      })}
    </ul>
  );
}
