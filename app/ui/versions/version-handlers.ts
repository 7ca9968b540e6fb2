// Contract calls of versions and "Recently deleted": a file's kept versions and one put back, the deleted files of a pair (by name) and some put back where they were; the pair syncs at once.
import { existsSync, statSync } from 'node:fs';
import type {
  DeletedFileView,
  DeletedRestoreView,
  FileVersionsView,
  VersionView,
} from '../../../common/contract.ts';
import { BugError } from '../../../common/errors.ts';
import { localPath } from '../../sync/local/local-paths.ts';
import { listDeleted, listVersions } from '../../versions/version-list.ts';
import { VersionsError } from '../../versions/versions-errors.ts';
import type { ContractHandlers } from '../dispatch.ts';
import type { HandlerCore } from '../handler-core.ts';
import { WindowError } from '../ui-errors.ts';
import { fileTarget, runningPairIds, versionsTarget, type VersionsTarget } from './versions-place.ts';
import { restoreFromTrash, trashedViews } from './trashed-views.ts';

type Handlers = Pick<
  ContractHandlers,
  'versions:list' | 'versions:restore' | 'deleted:list' | 'deleted:restore'
>;

/** "Recently deleted" sends at most this many (the newest); a search by name finds the others. */
export const DELETED_SHOWN = 500;

export function versionHandlers(core: HandlerCore): Handlers {
  return {
    'versions:list': ({ localPath: given }) => {
      const { target, path } = fileTarget(core, given);
      return Promise.resolve(fileVersions(target, path));
    },
    'versions:restore': async ({ pairId, path, versionId }) => {
      const target = versionsTarget(core, pairId);
      const numberOf = (): number =>
        target.place.index.versions.ofPath(path).findIndex((row) => row.id === versionId) + 1;
      if (numberOf() === 0) {
        throw new VersionsError(
          'VERSION_NOT_FOUND',
          `That version of ${path} is no longer kept (the list changed meanwhile). Look at its versions again.`,
        );
      }
      if (currentOf(target, path) === 'folder') {
        throw new VersionsError(
          'DESTINATION_EXISTS',
          `${path} is a folder now. Move it away, then restore the version.`,
        );
      }
      let outcome = await target.change({ kind: 'restore', path, number: numberOf() });
      // The change waits for a pass under way, which may keep a newer version of the file and so shift
      // the numbers: the one asked for is then still kept, and put back now (what came back first is
      // kept as a version in turn, like any file a restore replaces).
      if (numberOf() !== 0) outcome = await target.change({ kind: 'restore', path, number: numberOf() });
      if (outcome.kind !== 'restored') throw new BugError(`a restore answered ${outcome.kind}`);
      const name = path.slice(path.lastIndexOf('/') + 1);
      return {
        file: fileVersions(target, path),
        words:
          `Version ${outcome.restored.number} of ${name} is back` +
          (outcome.restored.replacedKept ? '; the file it replaced is kept as a version. ' : '. ') +
          target.deviceWords(1),
      };
    },
    'deleted:list': async ({ pairId, query }) => {
      const targets = (pairId === null ? runningPairIds(core) : [pairId]).map((id) =>
        versionsTarget(core, id),
      );
      const wanted = (query ?? '').trim().normalize('NFC').toLocaleLowerCase();
      const trashed = (await Promise.all(targets.map((target) => trashedViews(core, target)))).flat();
      const files = newestOfEach([...targets.flatMap((target) => deletedOf(target)), ...trashed])
        .filter((file) => wanted === '' || nameOf(file.path).includes(wanted))
        .sort((a, b) => b.deletedAtMs - a.deletedAtMs);
      const roots = new Map(targets.map((target) => [target.pairId, target.place.root]));
      const shown: DeletedFileView[] = [];
      let back = 0;
      for (const file of files) {
        if (shown.length === DELETED_SHOWN) break;
        // Restored, and not synced up yet (its item comes with the pass that uploads it), an older
        // version of it would be listed: something is at its place, it is not deleted any more.
        if (existsSync(localPath(roots.get(file.pairId) ?? '', file.path))) back += 1;
        else shown.push(file);
      }
      return { files: shown, total: files.length - back };
    },
    'deleted:restore': async ({ pairId, paths }) => {
      const target = versionsTarget(core, pairId);
      const outcome: DeletedRestoreView = { restored: [], skipped: [], words: '' };
      for (const path of new Set(paths)) {
        try {
          const kept = target.place.index.versions.ofPath(path)[0]?.keptAtMs;
          if (await restoreFromTrash(core, target, path, kept)) {
            outcome.restored.push(path);
            continue;
          }
          const done = await target.change({ kind: 'restore-deleted', path });
          if (done.kind !== 'restored-deleted') throw new BugError(`a restore answered ${done.kind}`);
          outcome.restored.push(...done.restored.map((restored) => restored.path));
          outcome.skipped.push(...done.skipped);
        } catch (error) {
          if (!(error instanceof VersionsError)) throw error;
          // Restored meanwhile (another window), or thinned away: nothing to put back.
          outcome.skipped.push({ path, reason: 'it is no longer kept' });
        }
      }
      if (outcome.restored.length > 0) core.conflicts.changed(pairId);
      outcome.words = restoreWords(outcome, target);
      return outcome;
    },
  };
}

/** The file's versions, newest first, and what is at its path now. */
export function fileVersions(target: VersionsTarget, path: string): FileVersionsView {
  const current = currentOf(target, path);
  if (current === 'folder') {
    throw new WindowError(
      'NOT_A_FILE',
      'A folder',
      `${path} is a folder: each file in it has its own versions.`,
    );
  }
  return {
    pairId: target.pairId,
    path,
    localPath: target.localPath(path),
    current: current ?? null,
    versions: listVersions(target.place.index, path).map((entry): VersionView => ({
      id: entry.id,
      number: entry.number,
      reason: entry.reason,
      why: entry.why,
      size: entry.size,
      mTimeMs: entry.mTimeMs,
      keptAtMs: entry.keptAtMs,
    })),
  };
}

function currentOf(
  target: VersionsTarget,
  path: string,
): { size: number; mTimeMs: number } | 'folder' | undefined {
  try {
    const stats = statSync(localPath(target.place.root, path));
    if (stats.isDirectory()) return 'folder';
    return stats.isFile() ? { size: stats.size, mTimeMs: stats.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

function deletedOf(target: VersionsTarget): DeletedFileView[] {
  return listDeleted(target.place.index).map((entry) => ({
    pairId: target.pairId,
    path: entry.path,
    localPath: target.localPath(entry.path),
    size: entry.size,
    deletedAtMs: entry.keptAtMs,
    reason: entry.reason,
    why: entry.why,
    versions: entry.versions,
  }));
}

/** One entry a path: the one deleted last, of a version kept and the trash. */
function newestOfEach(files: DeletedFileView[]): DeletedFileView[] {
  const newest = new Map<string, DeletedFileView>();
  for (const file of files) {
    const key = `${file.pairId}\n${file.path}`;
    const seen = newest.get(key);
    if (seen === undefined || file.deletedAtMs > seen.deletedAtMs) newest.set(key, file);
  }
  return [...newest.values()];
}

/** The name searched: its last part, in one form and case. */
function nameOf(path: string): string {
  return path
    .slice(path.lastIndexOf('/') + 1)
    .normalize('NFC')
    .toLocaleLowerCase();
}

function restoreWords(outcome: DeletedRestoreView, target: VersionsTarget): string {
  const parts: string[] = [];
  if (outcome.restored.length > 0) {
    const count = outcome.restored.length;
    parts.push(`${counted(count, 'file', 'files')} restored. ${target.deviceWords(count)}`);
  }
  if (outcome.skipped.length > 0) {
    const [first] = outcome.skipped;
    parts.push(
      outcome.skipped.length === 1 && first !== undefined
        ? `${first.path} was left as it is: ${first.reason}.`
        : `${counted(outcome.skipped.length, 'file was', 'files were')} left as they are (something is at their place now, or they are no longer kept).`,
    );
  }
  return parts.join(' ');
}

function counted(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}
