// `restore --deleted PATH` and `restore --all-since TIME`: deleted files put back where they were, from the versions (through live sync when it runs) and from the OS trash.
import { MchError } from '../../../common/errors.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import { VersionsError } from '../../versions/versions-errors.ts';
import type { CommandContext } from '../terminal/cli-context.ts';
import { restoredJson, type RestoreReport } from './restore-report.ts';
import { restoreFromTrash } from './trashed-files.ts';
import type { VersionsAction } from '../../versions/versions-actions.ts';
import { changeVersions, outcomeOf } from './versions-access.ts';
import { placesOfFolder, userPath, type VersionsPlace } from './versions-place.ts';
import { localTime } from './versions-words.ts';

/** The deleted file at PATH, or every one below the folder PATH (the pair's folder: all of it). */
export async function restoreDeletedAt(
  context: CommandContext,
  place: VersionsPlace,
  report: RestoreReport,
): Promise<void> {
  const action: VersionsAction =
    place.path === ''
      ? { kind: 'restore-since', sinceMs: 0, folder: '' }
      : { kind: 'restore-deleted', path: place.path };
  const found = await restoreAt(context, place, action, 0, report);
  if (!found) {
    throw new VersionsError(
      'NOTHING_DELETED',
      `Nothing deleted ${place.path === '' ? 'in' : 'at or below'} ${terminalSafe(userPath(place, place.path))} is kept, as a version or in the trash.`,
    );
  }
}

/** Every file deleted since `sinceMs`, in every pair or below `--folder`. */
export async function restoreDeletedSince(
  context: CommandContext,
  sinceMs: number,
  folder: string | boolean | undefined,
  usage: string,
  report: RestoreReport,
): Promise<void> {
  const places = await placesOfFolder(context, folder, usage);
  let found = false;
  for (const place of places) {
    const action: VersionsAction = { kind: 'restore-since', sinceMs, folder: place.path };
    if (await restoreAt(context, place, action, sinceMs, report)) found = true;
  }
  if (!found) {
    const where =
      typeof folder === 'string' && places[0] !== undefined
        ? ` in ${terminalSafe(userPath(places[0], places[0].path))}`
        : '';
    throw new VersionsError(
      'NOTHING_DELETED',
      `No file deleted since ${localTime(sinceMs)}${where} is kept, as a version or in the trash.`,
    );
  }
}

/** The place's deleted files from its versions, then from the trash; false when neither held any. */
async function restoreAt(
  context: CommandContext,
  place: VersionsPlace,
  action: VersionsAction,
  sinceMs: number,
  report: RestoreReport,
): Promise<boolean> {
  let found = false;
  try {
    const change = await changeVersions(context, place, action);
    const outcome = outcomeOf(change, 'restored-deleted');
    for (const result of outcome.restored) report.restored.push(restoredJson(place, result, change.way));
    for (const skipped of outcome.skipped) {
      report.skipped.push({ path: userPath(place, skipped.path), reason: skipped.reason });
    }
    if (outcome.restored.length > 0) report.pairs.set(place.pair.localRoot, change.way);
    found = true;
  } catch (error) {
    // Nothing kept as a version there: the trash may still hold something.
    if (!(error instanceof MchError && error.code === 'NOTHING_DELETED')) throw error;
  }
  const trashed = await restoreFromTrash(context, place, sinceMs);
  for (const entry of trashed.restored) {
    const path = userPath(place, entry.path);
    report.restored.push({
      path,
      to: path,
      from: 'trash',
      version: null,
      size: entry.size,
      replacedKept: false,
      syncsNow: trashed.way.kind === 'now',
    });
  }
  for (const { entry, reason } of trashed.skipped) {
    report.skipped.push({ path: userPath(place, entry.path), reason });
  }
  if (trashed.restored.length > 0 && !report.pairs.has(place.pair.localRoot)) {
    report.pairs.set(place.pair.localRoot, trashed.way);
  }
  return found || trashed.restored.length > 0 || trashed.skipped.length > 0;
}
