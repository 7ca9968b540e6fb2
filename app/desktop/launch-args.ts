// What a start of the desktop app asks for (`--share <paths…>`, `--hidden`, `--view`), and the batching of forwarded share requests.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { ViewName } from '../../common/contract.ts';
import { Debouncer } from '../watcher/debouncer.ts';
import { systemClock, type Clock } from '../system/clock.ts';

export interface LaunchRequest {
  /** Absolute paths to share as one link, deduplicated in the order given; empty when none. */
  share: string[];
  /** Start without showing the window (start at login). */
  hidden: boolean;
  /** The view to open (`--view settings`), or null for the default. */
  openView: ViewName | null;
}

export interface LaunchArgsOptions {
  /** Whose path rules apply (`win32`: `C:\…`, backslashes); this process's platform by default. */
  platform?: NodeJS.Platform;
}

const VIEW_NAMES: ReadonlySet<string> = new Set<ViewName>([
  'first-run',
  'status',
  'activity',
  'issues',
  'deleted',
  'shares',
  'search',
  'settings',
]);

function pathModule(platform: NodeJS.Platform | undefined): path.PlatformPath {
  return (platform ?? process.platform) === 'win32' ? path.win32 : path.posix;
}

/**
 * Reads a start's arguments: the whole `process.argv` may be given. Words that are not an option or
 * a value of one are ignored, which skips the executable and, in development, the app's own path
 * (`electron .`). Options this app does not know (Chromium's and Electron's switches: `--no-sandbox`,
 * `--enable-features=…`, `--allow-file-access-from-files`, `--inspect=…`) are ignored too; they all
 * carry their value after `=`, so none of them takes the next word.
 *
 * `--share` takes every following word up to the next option (`--share=PATH` takes one, and after
 * `--` every remaining word is a path, for a name that starts with `-`): file managers run
 * `<app> --share %F`, and Windows Explorer runs `<app> --share "%1"` once per selected file.
 * Relative paths are resolved against `cwd`, the folder the start was made from.
 */
export function parseLaunchArgs(
  argv: readonly string[],
  cwd: string,
  options: LaunchArgsOptions = {},
): LaunchRequest {
  const paths = pathModule(options.platform);
  const share = new Set<string>();
  let hidden = false;
  let openView: ViewName | null = null;
  let sharing = false;
  let rest = false;
  const addPath = (word: string): void => {
    const absolute = absolutePath(word, cwd, paths);
    if (absolute !== null) share.add(absolute);
  };
  for (let index = 0; index < argv.length; index += 1) {
    const word = argv[index] ?? '';
    if (rest) {
      if (sharing) addPath(word);
      continue;
    }
    if (word === '--') {
      rest = true;
      continue;
    }
    if (!word.startsWith('-') || word === '-') {
      if (sharing) addPath(word);
      continue;
    }
    sharing = false;
    const equals = word.indexOf('=');
    const name = equals < 0 ? word : word.slice(0, equals);
    const value = equals < 0 ? null : word.slice(equals + 1);
    if (name === '--share') {
      if (value === null) sharing = true;
      else addPath(value);
    } else if (name === '--hidden' && value === null) {
      hidden = true;
    } else if (name === '--view') {
      // `--view NAME` takes the next word only when it names a view, so a stray `--view` eats no path.
      const candidate = value ?? argv[index + 1] ?? '';
      if (VIEW_NAMES.has(candidate)) {
        openView = candidate as ViewName;
        if (value === null) index += 1;
      }
    }
  }
  return { share: [...share], hidden, openView };
}

/** The word as an absolute, normalised path; `file://` URLs too (some launchers pass `%U`); null for nothing. */
function absolutePath(word: string, cwd: string, paths: path.PlatformPath): string | null {
  if (word === '' || word.includes('\0')) return null;
  if (word.startsWith('file://')) {
    try {
      return paths.normalize(fileURLToPath(word, { windows: paths === path.win32 }));
    } catch {
      return null;
    }
  }
  return paths.resolve(cwd, word);
}

// ---- forwarding from a second start ------------------------------------------------------------

/** Bounds on what a second start may forward: Linux's PATH_MAX-sized paths are far below Windows' 32,767. */
export const MAX_FORWARDED_PATHS = 10_000;
export const MAX_FORWARDED_PATH_LENGTH = 32_767;

/**
 * What the second start hands to `app.requestSingleInstanceLock(data)`: its own parsed paths. The
 * argv the first instance receives in `second-instance` is reordered by Chromium (switches first,
 * electron#20322), so `--share a b` can no longer be told apart from the app path; the data is not.
 */
export function shareRequestData(request: Pick<LaunchRequest, 'share'>): { share: string[] } {
  return { share: [...request.share] };
}

/**
 * The paths of a second start's data, or null when it is not ours or not well formed: only absolute
 * paths (of this platform), at most MAX_FORWARDED_PATHS of at most MAX_FORWARDED_PATH_LENGTH characters.
 */
export function readShareRequestData(data: unknown, options: LaunchArgsOptions = {}): string[] | null {
  const paths = pathModule(options.platform);
  const schema = z.object({
    share: z
      .array(
        z
          .string()
          .min(1)
          .max(MAX_FORWARDED_PATH_LENGTH)
          .refine((value) => !value.includes('\0') && isFullyAbsolute(value, paths), 'not an absolute path'),
      )
      .max(MAX_FORWARDED_PATHS),
  });
  const parsed = schema.safeParse(data);
  if (!parsed.success) return null;
  return [...new Set(parsed.data.share.map((value) => paths.normalize(value)))];
}

/** Absolute with its root: on Windows `\dir` and `C:dir` depend on the current drive or folder. */
function isFullyAbsolute(value: string, paths: path.PlatformPath): boolean {
  if (!paths.isAbsolute(value)) return false;
  if (paths !== path.win32) return true;
  return /^[A-Za-z]:[\\/]/.test(value) || /^[\\/]{2}[^\\/]/.test(value);
}

export interface ShareBatcherOptions {
  clock?: Clock;
  /** Deliver this long after the last request (300 ms: Explorer starts its processes within that). */
  delayMs?: number;
  /** ...but no later than this long after the first, so a steady stream still makes links. */
  maxWaitMs?: number;
  onBatch: (paths: string[]) => void;
}

/**
 * Joins share requests that arrive close together into one: Explorer starts one process per selected
 * file, each forwarding one path, and the user meant one link for the selection. Paths are
 * deduplicated in the order they first arrived.
 */
export class ShareBatcher {
  readonly #onBatch: (paths: string[]) => void;
  readonly #debouncer: Debouncer;
  /** A Set keeps the order of first arrival and makes a thousand-file selection cheap to deduplicate. */
  #pending = new Set<string>();
  #closed = false;

  constructor(options: ShareBatcherOptions) {
    this.#onBatch = options.onBatch;
    this.#debouncer = new Debouncer({
      quietMs: options.delayMs ?? 300,
      maxWaitMs: options.maxWaitMs ?? 2000,
      clock: options.clock ?? systemClock,
      onFire: () => this.#deliver(),
    });
  }

  add(paths: readonly string[]): void {
    if (this.#closed || paths.length === 0) return;
    for (const item of paths) this.#pending.add(item);
    this.#debouncer.trigger();
  }

  /** Delivers what is waiting now (nothing when nothing is). */
  flush(): void {
    this.#debouncer.flush();
  }

  /** Drops what is waiting and ignores later requests (the app is quitting). */
  close(): void {
    this.#closed = true;
    this.#debouncer.cancel();
    this.#pending = new Set();
  }

  #deliver(): void {
    const batch = [...this.#pending];
    this.#pending = new Set();
    if (batch.length > 0) this.#onBatch(batch);
  }
}
