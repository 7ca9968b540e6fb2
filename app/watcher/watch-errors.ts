// What a failure of the local watcher means (errno codes to a typed error), with the next step in the message.
import { MchError } from '../../common/errors.ts';

/** Why the live service must rescan the whole folder instead of trusting the events. */
export type RescanReason =
  /** The inotify watch limit is reached: some folders are not watched. */
  | 'watch-limit'
  /** The process ran out of file descriptors. */
  | 'too-many-files'
  /** Any other watcher failure. */
  | 'watcher-error'
  /** The synced folder itself vanished or was replaced. */
  | 'root-changed'
  /** The machine slept: events may have been lost meanwhile. */
  | 'wake'
  /** The hourly safety net. */
  | 'hourly';

export type LiveWatchErrorCode = 'WATCH_LIMIT' | 'TOO_MANY_OPEN_FILES' | 'WATCHER_FAILED' | 'ROOT_CHANGED';

/** A failure of the local watcher; the live service falls back to a full rescan and shows `message`. */
export class LiveWatchError extends MchError {
  declare readonly code: LiveWatchErrorCode;
  readonly reason: RescanReason;

  constructor(
    code: LiveWatchErrorCode,
    reason: RescanReason,
    title: string,
    message: string,
    cause?: unknown,
  ) {
    super(code, title, message, cause === undefined ? undefined : { cause });
    this.reason = reason;
  }
}

const LIMIT_VALUE = 524288;

/** The two commands that raise Linux's inotify watch limit now and for good. */
export const RAISE_WATCH_LIMIT =
  `sudo sysctl fs.inotify.max_user_watches=${LIMIT_VALUE}, and to keep it after a restart: ` +
  `echo fs.inotify.max_user_watches=${LIMIT_VALUE} | sudo tee /etc/sysctl.d/60-mch-sync.conf`;

function errnoCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Whether a folder's watch or listing failed for a reason that is no watcher failure: the folder is
 * unreadable (the scanner reports it, with its reason, on the next pass, as chokidar's
 * `ignorePermissionErrors` leaves it) or gone or replaced already (its parent's event says so).
 */
export function isSkippedFolderError(error: unknown): boolean {
  const code = errnoCode(error);
  return code === 'EACCES' || code === 'EPERM' || code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP';
}

/** The one place that reads errno codes of watcher errors (style.md §4). */
export function liveWatchError(error: unknown): LiveWatchError {
  const code = errnoCode(error);
  if (code === 'ENOSPC') {
    return new LiveWatchError(
      'WATCH_LIMIT',
      'watch-limit',
      'Too many folders to watch',
      'The system limit on watched folders (inotify max_user_watches) is reached, so some folders are ' +
        'not watched: changes there are found by the regular check for changes (every 30 s) instead of ' +
        'at once; a full scan runs now. To raise the limit: ' +
        ` ${RAISE_WATCH_LIMIT}; then restart mch-sync.`,
      error,
    );
  }
  if (code === 'EMFILE' || code === 'ENFILE') {
    return new LiveWatchError(
      'TOO_MANY_OPEN_FILES',
      'too-many-files',
      'Too many open files',
      'mch-sync ran out of open files while watching the folder, so some changes are only found by a ' +
        'full scan, which runs now. To raise the limit: `ulimit -n 65536` in the shell that starts ' +
        'mch-sync (or LimitNOFILE=65536 in its systemd unit), then restart mch-sync.',
      error,
    );
  }
  const detail = code ?? (error instanceof Error ? error.message : String(error));
  return new LiveWatchError(
    'WATCHER_FAILED',
    'watcher-error',
    'Watching the folder failed',
    `Watching the folder for changes failed (${detail}); a full scan runs now to catch up.`,
    error,
  );
}

/** The synced folder itself was deleted, moved or replaced while it was watched. */
export function rootChangedError(root: string): LiveWatchError {
  return new LiveWatchError(
    'ROOT_CHANGED',
    'root-changed',
    'Synced folder missing',
    `The synced folder ${root} was moved or deleted; a full scan checks it now, and nothing is deleted ` +
      'on the device while it is missing.',
  );
}
