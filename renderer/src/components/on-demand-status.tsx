// On an on-demand pair's card: the files downloading because a program opened them, each with its bar ("Opening photo.jpg for gimp… 40 %"), and an open that failed lately, in the core's words.
import { FileDown, FileWarning } from 'lucide-preact';
import type { JSX } from 'preact';
import type { PairView } from '../../../common/contract.ts';
import { formatBytes } from '../../../common/units.ts';
import { formatWhen, isoTime } from '../format.ts';

export function OnDemandStatus({ pair, name }: { pair: PairView; name: string }): JSX.Element | null {
  const onDemand = pair.onDemand ?? null;
  if (onDemand === null) return null;
  const { opening, lastFailure } = onDemand;
  return (
    <>
      {opening.length > 0 && (
        <ul class="transfers opening-files" aria-label={`Files opening in ${name}`}>
          {opening.map((file) => (
            <li key={`${file.process}:${file.path}`}>
              <FileDown aria-hidden="true" />
              <span class="transfer-path" title={file.path}>
                {file.words}
              </span>
              <span class="transfer-size">
                {file.bytesTotal > 0
                  ? `${formatBytes(file.bytesDone)} of ${formatBytes(file.bytesTotal)}`
                  : formatBytes(file.bytesDone)}
              </span>
              {file.bytesTotal > 0 ? (
                <progress
                  max={file.bytesTotal}
                  value={Math.min(file.bytesDone, file.bytesTotal)}
                  aria-label={`Download of ${file.path}`}
                />
              ) : (
                <progress aria-label={`Download of ${file.path}`} />
              )}
            </li>
          ))}
        </ul>
      )}
      {lastFailure !== null && (
        <p class="note note-warn open-failure" role="status">
          <FileWarning aria-hidden="true" />
          <span>
            {lastFailure.words}{' '}
            <span class="muted">
              (<time dateTime={isoTime(lastFailure.atMs)}>{formatWhen(lastFailure.atMs)}</time>)
            </span>
          </span>
        </p>
      )}
    </>
  );
}
