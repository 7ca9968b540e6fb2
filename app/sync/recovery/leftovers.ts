// What a crashed pass can leave on disk, tidied before the next one plans: download temporaries, parked items.
import { rename, rm } from 'node:fs/promises';
import type { IndexStore } from '../../index/index-store.ts';
import { localPath, statOrUndefined } from '../local/local-paths.ts';
import { isParkedPath } from '../../index/index-writes.ts';
import { DOWNLOAD_TEMP_PREFIX, MOVING_PREFIX } from '../../model/names.ts';
import type { RelativePath } from '../../model/items.ts';
import { baseName, parentPath } from '../../model/paths.ts';
import type { ScanResult } from '../local/scanner.ts';

const LOCAL_PARKED = new RegExp(`^${MOVING_PREFIX.replaceAll('.', '\\.')}\\d+-(.+)$`, 'su');

/** `.mch-dl-x` itself, and with `partials` the downloader's resumable partial file of it, `..mch-dl-x.mch-partial`. */
function isDownloadTemporary(name: string, partials: boolean): boolean {
  return name.startsWith(DOWNLOAD_TEMP_PREFIX) || (partials && name.startsWith(`.${DOWNLOAD_TEMP_PREFIX}`));
}

/**
 * Deletes download temporaries (only this client makes them, and the download can start again; the
 * resumable partial files only with `partials`, when the engine starts: later ones resume) and
 * moves items parked under `.mch-moving-<n>-<name>` back where the index has them, or to `<name>`
 * when that place is taken. Returns whether anything on disk changed (the caller scans again).
 */
export async function tidyLeftovers(
  localRoot: string,
  scan: ScanResult,
  index: IndexStore,
  options: { partials: boolean },
): Promise<boolean> {
  let changed = false;
  for (const skipped of scan.skipped) {
    if (
      skipped.reason !== 'temporary-or-system' ||
      !isDownloadTemporary(baseName(skipped.path), options.partials)
    )
      continue;
    const absolute = localPath(localRoot, skipped.path);
    if ((await statOrUndefined(absolute))?.isFile() === true) {
      await rm(absolute, { force: true });
      changed = true;
    }
  }
  for (const entry of scan.entries) {
    // Nearly every path has no parked name in it: no slice and no match for those.
    if (!entry.path.includes(MOVING_PREFIX)) continue;
    const parked = LOCAL_PARKED.exec(baseName(entry.path));
    if (!parked) continue;
    const row = index.byInode(entry.inode).find((candidate) => candidate.kind === entry.kind);
    const folder = parentPath(entry.path);
    const original: RelativePath = folder === '' ? (parked[1] ?? '') : `${folder}/${parked[1] ?? ''}`;
    for (const target of [row?.path, original]) {
      if (target === undefined || target === '' || isParkedPath(target)) continue;
      const absolute = localPath(localRoot, target);
      const parent = parentPath(target);
      const parentIsThere =
        parent === '' || (await statOrUndefined(localPath(localRoot, parent)))?.isDirectory() === true;
      if (!parentIsThere || (await statOrUndefined(absolute)) !== undefined) continue;
      await rename(localPath(localRoot, entry.path), absolute);
      changed = true;
      break;
    }
  }
  return changed;
}
