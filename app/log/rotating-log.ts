// The service's log file: one line per event, rotated by size to `.1`...`.N`, never throwing into its caller.
import {
  closeSync,
  fstatSync,
  fchmodSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface LogLine {
  level: LogLevel;
  message: string;
  /** The item the line is about, relative to the synced folder. */
  path?: string;
  /** When it happened, ms since the epoch; default now. */
  atMs?: number;
}

export interface RotatingLogOptions {
  dir: string;
  /** The file is `<dir>/<name>.log`. */
  name: string;
  /** The size past which the file is rotated (default 5 MiB). */
  maxBytes?: number;
  /** Rotated files kept: `<name>.log.1` (newest) to `<name>.log.<keep>` (default 5; 0 keeps none). */
  keep?: number;
  /** Told of the first failure of a run of failures (disk full, folder removed); the lines are dropped. */
  onError?: (error: Error) => void;
  /** Default `Date.now`. */
  now?: () => number;
}

export interface RotatingLog {
  readonly path: string;
  /** Appends one line; never throws. Writes after `close` are dropped. */
  write(line: LogLine): void;
  close(): Promise<void>;
}

export const DEFAULT_MAX_LOG_BYTES = 5 * 1024 * 1024;
export const DEFAULT_KEEP_LOGS = 5;

const modesApply = process.platform !== 'win32';

/**
 * Opens the log lazily, at the first write, and again after a failure, so a full disk or a removed
 * folder costs the lines written meanwhile, not the rest of the run. Appends are synchronous: the
 * log is low volume, and a line written before a crash is on disk.
 */
export function openRotatingLog(options: RotatingLogOptions): RotatingLog {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_LOG_BYTES;
  const keep = options.keep ?? DEFAULT_KEEP_LOGS;
  if (!Number.isInteger(maxBytes) || maxBytes <= 0)
    throw new RangeError(`maxBytes must be a positive integer, got ${maxBytes}`);
  if (!Number.isInteger(keep) || keep < 0) throw new RangeError(`keep must be a whole number, got ${keep}`);
  const path = join(options.dir, `${options.name}.log`);
  const now = options.now ?? Date.now;
  let fd: number | undefined;
  let size = 0;
  let closed = false;
  let failing = false;
  let rotationFailing = false;

  const open = (): number => {
    mkdirSync(options.dir, { recursive: true, mode: 0o700 });
    const opened = openSync(path, 'a', 0o600);
    try {
      // An existing file may have been copied or restored with a wider mode.
      if (modesApply) fchmodSync(opened, 0o600);
      size = fstatSync(opened).size;
    } catch (error) {
      closeSync(opened);
      throw error;
    }
    return opened;
  };

  const closeFile = (): void => {
    if (fd === undefined) return;
    const open = fd;
    fd = undefined;
    closeSync(open);
  };

  const rotate = (): void => {
    closeFile();
    if (keep === 0) {
      rmSync(path, { force: true });
      return;
    }
    rmSync(`${path}.${keep}`, { force: true });
    for (let index = keep - 1; index >= 1; index--)
      renameIfPresent(`${path}.${index}`, `${path}.${index + 1}`);
    renameSync(path, `${path}.1`);
  };

  return {
    path,
    write(line: LogLine): void {
      if (closed) return;
      const bytes = Buffer.from(formatLogLine(line, now()), 'utf8');
      try {
        fd ??= open();
        if (size > 0 && size + bytes.length > maxBytes) {
          try {
            rotate();
            rotationFailing = false;
          } catch (error) {
            // A file in the way of a rename: keep appending to the current file rather than lose lines.
            if (!rotationFailing) options.onError?.(error as Error);
            rotationFailing = true;
          }
          fd ??= open();
        }
        writeSync(fd, bytes);
        size += bytes.length;
        failing = false;
      } catch (error) {
        // The file may be half-rotated or gone: open it again at the next write.
        try {
          closeFile();
        } catch {
          // Closing a broken descriptor can fail too; it is dropped either way.
        }
        if (!failing) options.onError?.(error as Error);
        failing = true;
      }
    },
    async close(): Promise<void> {
      closed = true;
      try {
        closeFile();
      } catch (error) {
        options.onError?.(error as Error);
      }
    },
  };
}

function renameIfPresent(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * `2026-11-23T17:00:00.000Z INFO message [path]`. Control characters (a newline in a file name) are
 * escaped, so one event is always one line and a name cannot forge another entry.
 */
export function formatLogLine(line: LogLine, nowMs: number): string {
  const at = new Date(line.atMs ?? nowMs).toISOString();
  const path = line.path === undefined ? '' : ` [${escapeControls(line.path)}]`;
  return `${at} ${line.level.toUpperCase()} ${escapeControls(line.message)}${path}\n`;
}

// Every C0 control character and DEL: matching them is the point here.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

function escapeControls(text: string): string {
  return text.replace(
    CONTROL_CHARACTERS,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
