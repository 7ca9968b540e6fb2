// What the window shows of files on demand: a pair's setting and its mount (files opening, the last open that failed) in words, and whether this computer can have them at all.
import type { OnDemandSupportView, OpeningFileView, PairOnDemandView } from '../../../common/contract.ts';
import type { MountStatus, OpeningFile } from '../../../common/sync-status.ts';
import { DEFAULT_CACHE_LIMIT_BYTES, readPairOnDemand } from '../../profile/pair-on-demand.ts';

/**
 * How long a failed open stays on the pair's card (and keeps the tray asking for attention): long
 * enough to be seen after the program's own error dialog, short enough not to outlive the problem.
 * The live service drops it after a few minutes too; this bounds what the window shows either way.
 */
export const OPEN_FAILURE_SHOWN_MS = 5 * 60_000;

/**
 * The pair's files on demand from its record and, while its service runs, its mount; null for a pair
 * of whole files, or when the record cannot be read (its service says why when it starts).
 */
export function pairOnDemandView(
  profileDir: string,
  localRoot: string,
  mount: MountStatus | undefined | null,
  nowMs: number,
): PairOnDemandView | null {
  let recorded;
  try {
    recorded = readPairOnDemand(profileDir, localRoot);
  } catch {
    return null;
  }
  if (recorded === undefined) return null;
  const failure = mount?.lastFailure ?? null;
  return {
    cache: recorded.cache,
    cacheLimitBytes: recorded.cacheLimitBytes,
    mounted: mount === undefined || mount === null ? null : mount.mounted,
    opening: (mount?.opening ?? []).map(openingFileView),
    lastFailure:
      failure === null || nowMs - failure.atMs >= OPEN_FAILURE_SHOWN_MS
        ? null
        : {
            path: failure.path,
            atMs: failure.atMs,
            words: `Could not open ${nameOf(failure.path)}: ${continued(failure.message)}`,
          },
  };
}

export function openingFileView(file: OpeningFile): OpeningFileView {
  return { ...file, words: openingWords(file) };
}

/** "Opening photo.jpg for gimp… 40 %"; without a size yet, no percentage. */
export function openingWords(
  file: Pick<OpeningFile, 'path' | 'process' | 'bytesDone' | 'bytesTotal'>,
): string {
  const start = `Opening ${nameOf(file.path)}${file.process === '' ? '' : ` for ${file.process}`}…`;
  if (file.bytesTotal <= 0) return start;
  // Floor: 100 % only once the last byte is in.
  const percent = Math.min(100, Math.floor((file.bytesDone * 100) / file.bytesTotal));
  return `${start} ${percent} %`;
}

/**
 * Whether files on demand can work here, from `onDemandUnavailable()` (app/on-demand/): its words are
 * the command line's, whose way out ("selective sync", `mch-sync select`) is the window's "Choose
 * folders"; what to install is kept.
 */
export function onDemandSupport(unavailable: string | undefined): OnDemandSupportView {
  const defaultCacheLimitBytes = DEFAULT_CACHE_LIMIT_BYTES;
  if (unavailable === undefined) return { available: true, reason: null, defaultCacheLimitBytes };
  const reason = unavailable
    .replace(/:\s*choose the folders to keep here with selective sync \(`mch-sync select`\)\.$/, '.')
    .replace(/,\s*or use selective sync\.$/, '.')
    .replace(/`([^`]*)`/g, '$1')
    .trim();
  return { available: false, reason: `${reason} Use Choose folders instead.`, defaultCacheLimitBytes };
}

/** A sentence of the service's continued after a colon: "The device…" → "the device…" ("USB…" stays), no end stop. */
function continued(message: string): string {
  const trimmed = message.trim().replace(/\.$/, '');
  return /^[A-Z][a-z]/.test(trimmed) ? `${trimmed.charAt(0).toLowerCase()}${trimmed.slice(1)}` : trimmed;
}

/** The last name of a path below the pair. */
function nameOf(path: string): string {
  return (
    path
      .split('/')
      .filter((name) => name !== '')
      .at(-1) ?? path
  );
}
