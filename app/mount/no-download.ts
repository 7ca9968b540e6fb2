// The processes that never download a placeholder by opening it (file managers, indexers, thumbnailers).
//
// They open files to read a few bytes for an icon, a preview or an index, and would fetch every file of
// an on-demand folder. Through the mount they get the metadata (size, times) and EACCES on open.

/**
 * A pattern is a process name (`nautilus`), a prefix (`gvfsd*`) or a part of a name (`*thumbnail*`).
 * The mount matches them against `/proc/<pid>/comm` of the calling thread and of its process, which
 * Linux cuts at 15 bytes: a longer name or prefix also matches its first 15 bytes, and a cut name that
 * ends with the first 4 or more bytes of a part (`evince-thumbnai`) matches that part.
 */
export type NoDownloadPattern = string;

/** The defaults, from OpenVFS's config.json; the settings may replace them. */
export const DEFAULT_NO_DOWNLOAD: readonly NoDownloadPattern[] = [
  // File managers and their I/O workers.
  'nautilus',
  'nemo',
  'caja',
  'thunar',
  'Thunar',
  'dolphin',
  'kioworker*',
  'kioslave5*',
  'kioslave*',
  // Indexers.
  'baloo_file',
  'baloo_file_extractor',
  'baloorunner',
  'tracker-miner-fs',
  'tracker-miner-fs-3',
  'tracker-extract',
  'tracker-extract-3',
  'localsearch*',
  'updatedb',
  'updatedb.plocate',
  'plocate',
  'mlocate',
  // Thumbnailers and previews.
  'tumblerd',
  '*thumbnail*',
  'gnome-thumbnailers',
  'ffmpegthumbnailer',
  'totem-video-thumbnailer',
  'evince-thumbnailer',
  'gdk-pixbuf-thumbnailer',
  // GNOME's virtual file system daemons.
  'gvfsd*',
  // Virus scanners.
  'clamd',
  'clamscan',
  'freshclam',
];

/** Linux keeps the first 15 bytes of a process name (TASK_COMM_LEN 16 with its NUL). */
export const COMM_LENGTH = 15;

function cut(text: string): string {
  return Buffer.from(text).subarray(0, COMM_LENGTH).toString('latin1');
}

/** Whether a process name as `/proc/<pid>/comm` gives it matches one pattern (the mount's C rule). */
export function matchesPattern(name: string, pattern: NoDownloadPattern): boolean {
  const bytes = Buffer.from(name).toString('latin1');
  const full = Buffer.from(pattern).toString('latin1');
  if (full.length >= 2 && full.startsWith('*') && full.endsWith('*')) {
    const part = full.slice(1, -1);
    if (part.length === 0) return false;
    if (bytes.includes(part)) return true;
    if (bytes.length !== COMM_LENGTH) return false;
    for (let tail = part.length - 1; tail >= 4; tail--) {
      if (bytes.endsWith(part.slice(0, tail))) return true;
    }
    return false;
  }
  if (full.endsWith('*')) return bytes.startsWith(cut(full.slice(0, -1)));
  if (bytes === full) return true;
  return full.length > COMM_LENGTH && bytes.length === COMM_LENGTH && bytes === cut(full);
}

/** Whether a process of this name may only see metadata (never download by opening a placeholder). */
export function isNoDownloadProcess(
  name: string,
  patterns: readonly NoDownloadPattern[] = DEFAULT_NO_DOWNLOAD,
): boolean {
  return name !== '' && patterns.some((pattern) => matchesPattern(name, pattern));
}

/** Reads a list given on the command line or in the settings; undefined when it is not one. */
export function parseNoDownloadList(json: string): NoDownloadPattern[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value)) return undefined;
  const patterns = value.filter((item): item is string => typeof item === 'string' && item !== '');
  return patterns.length === value.length ? patterns : undefined;
}
