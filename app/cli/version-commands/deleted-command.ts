// `mch-sync deleted`: the files gone from the synced folders that can be put back, newest first: kept as versions, or in the OS trash.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { formatBytes } from '../../../common/units.ts';
import { listDeleted } from '../../versions/version-list.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import type { CommandContext } from '../terminal/cli-context.ts';
import { readVersions } from './versions-access.ts';
import { placesOfFolder, userPath, type VersionsPlace } from './versions-place.ts';
import { TRASHED_WHY, trashedAt } from './trashed-files.ts';
import { counted, localTime, sinceOf } from './versions-words.ts';

export const DELETED_USAGE = `Usage: mch-sync [--profile DIR] deleted [--folder DIR] [--since TIME] [--json]

Lists the files that are gone from the synced folders and can be put back, newest first: files
deleted on the device (this computer's copy was kept as a version when the delete came down),
conflicted copies settled away, files deleted here that the trash still holds (Linux), and files deleted
here after a version of them was kept (the newest version comes back, not what was deleted). Each
with when it was deleted or kept, its size, why, and how many versions are kept.
\`mch-sync restore --deleted PATH\` puts one (or a folder's) back.

A file deleted here without the trash (rm) is deleted on the device too, and nothing keeps it.

Options:
  --folder DIR   only below DIR (a synced folder, or a folder in one); default every synced folder
  --since TIME   only those kept since TIME: an age (30min, 2h, 3d, 1w), a day (2026-11-20, from
                 its start on this computer's clock) or a time (2026-11-20T18:00)
  --json         [{"folder", "path", "from", "kind", "keptAtMs", "mTimeMs", "size", "reason", "why",
                 "versions", "placeTaken"}], path absolute; from "versions" (reason deleted,
                 conflict, replaced or restored) or "trash" (reason trashed, kind file or folder,
                 mTimeMs null, versions 0); placeTaken: something is at its place now (a version
                 can still go elsewhere: restore PATH --version N --to DEST)
  -h, --help     show this help

Exit codes: 0 listed (none too), 1 failed, 2 usage error (a folder outside every synced folder).`;

type Values = Record<string, string | boolean | undefined>;

interface DeletedJson {
  folder: string;
  path: string;
  from: 'versions' | 'trash';
  kind: 'file' | 'folder';
  /** When it was kept as a version, or went to the trash. */
  keptAtMs: number;
  mTimeMs: number | null;
  size: number;
  reason: string;
  why: string;
  versions: number;
  /** Something is at its place now (put there since, or restored and not synced yet). */
  placeTaken: boolean;
}

export async function runDeleted(context: CommandContext, values: Values): Promise<number> {
  const sinceMs =
    typeof values['since'] === 'string' ? sinceOf(values['since'], '--since', DELETED_USAGE) : 0;
  const places = await placesOfFolder(context, values['folder'], DELETED_USAGE);
  const found: DeletedJson[] = [];
  for (const place of places) found.push(...(await deletedAt(context, place, sinceMs)));
  found.sort((a, b) => b.keptAtMs - a.keptAtMs || a.path.localeCompare(b.path));
  if (values['json'] === true) {
    context.print(JSON.stringify(found, null, 2));
    return 0;
  }
  const since = sinceMs === 0 ? '' : ` since ${localTime(sinceMs)}`;
  if (found.length === 0) {
    context.print(`No deleted file${since} is kept.`);
    return 0;
  }
  for (const entry of found) {
    const versions = entry.versions > 1 ? `, ${entry.versions} versions` : '';
    const taken = entry.placeTaken ? '; something is at its place now' : '';
    const size = entry.kind === 'folder' ? 'folder' : formatBytes(entry.size);
    context.print(
      `${localTime(entry.keptAtMs)}  ${size.padStart(8)}  ${terminalSafe(entry.path)}  (${entry.why}${versions}${taken})`,
    );
  }
  context.print(
    `${counted(found.length, 'deleted file')}${since} can be restored: mch-sync restore --deleted PATH (or --all-since TIME).`,
  );
  return 0;
}

/** What is gone at or below the place and can come back: its versions' deleted files, and its trash's. */
async function deletedAt(
  context: CommandContext,
  place: VersionsPlace,
  sinceMs: number,
): Promise<DeletedJson[]> {
  const found: DeletedJson[] = [];
  const taken = (path: string): boolean => existsSync(join(place.syncRoot, ...path.split('/')));
  const kept = (await readVersions(place, ({ index }) => listDeleted(index, place.path, sinceMs))) ?? [];
  for (const entry of kept) {
    found.push({
      folder: place.pair.localRoot,
      path: userPath(place, entry.path),
      from: 'versions',
      kind: 'file',
      keptAtMs: entry.keptAtMs,
      mTimeMs: entry.mTimeMs,
      size: entry.size,
      reason: entry.reason,
      why: entry.why,
      versions: entry.versions,
      placeTaken: taken(entry.path),
    });
  }
  for (const entry of await trashedAt(context, place, sinceMs)) {
    found.push({
      folder: place.pair.localRoot,
      path: userPath(place, entry.path),
      from: 'trash',
      kind: entry.kind,
      keptAtMs: entry.trashedAtMs,
      mTimeMs: null,
      size: entry.size,
      reason: 'trashed',
      why: TRASHED_WHY,
      versions: 0,
      placeTaken: taken(entry.path),
    });
  }
  return found;
}
