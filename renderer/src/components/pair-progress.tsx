// A pass's progress: one bar with items, bytes, speed and time left, then the transfers running now (a transfer that has not moved a byte yet says what it is doing).
import { ArrowDown, ArrowUp } from 'lucide-preact';
import type { JSX } from 'preact';
import type { PairView } from '../../../common/contract.ts';
import { formatBytes, formatSpeed, formatTimeLeft } from '../../../common/units.ts';

type Progress = NonNullable<PairView['progress']>;

export function PairProgress({ progress, name }: { progress: Progress; name: string }): JSX.Element {
  // Bytes say more than items when there are any: one large file is most of the wait.
  const byBytes = progress.bytesTotal > 0;
  const max = byBytes ? progress.bytesTotal : Math.max(progress.itemsTotal, 1);
  const value = byBytes ? progress.bytesDone : progress.itemsDone;
  const parts = [
    `${progress.itemsDone.toLocaleString()} of ${progress.itemsTotal.toLocaleString()} items`,
    `${formatBytes(progress.bytesDone)} of ${formatBytes(progress.bytesTotal)}`,
  ];
  if (progress.bytesPerSecond !== null) parts.push(formatSpeed(progress.bytesPerSecond));
  if (progress.secondsLeft !== null) parts.push(`${formatTimeLeft(progress.secondsLeft)} left`);
  return (
    <div class="progress-block">
      <progress max={max} value={Math.min(value, max)} aria-label={`Progress of ${name}`} />
      <p class="progress-numbers">{parts.join(' · ')}</p>
      {progress.transfers.length > 0 && (
        <ul class="transfers" aria-label={`Transfers running in ${name}`}>
          {progress.transfers.map((transfer) => (
            <li key={`${transfer.direction}:${transfer.path}`}>
              {transfer.direction === 'up' ? <ArrowUp /> : <ArrowDown />}
              <span class="visually-hidden">{transfer.direction === 'up' ? 'Uploading' : 'Downloading'}</span>
              <span class="transfer-path" title={transfer.path}>
                {transfer.path}
              </span>
              <span class="transfer-size">
                {transfer.starting === true
                  ? `${transfer.direction === 'up' ? 'Reading it to send' : 'Starting'} · ${formatBytes(transfer.bytesTotal)}`
                  : `${formatBytes(transfer.bytesDone)} of ${formatBytes(transfer.bytesTotal)}`}
              </span>
              {/* Without a value the bar is indeterminate: it moves before the first byte does. */}
              {transfer.starting === true ? (
                <progress aria-label={`Progress of ${transfer.path}`} />
              ) : (
                <progress
                  max={Math.max(transfer.bytesTotal, 1)}
                  value={Math.min(transfer.bytesDone, Math.max(transfer.bytesTotal, 1))}
                  aria-label={`Progress of ${transfer.path}`}
                />
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
