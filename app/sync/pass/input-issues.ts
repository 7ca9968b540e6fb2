// What the scan and the walk left out of a round, as the pass's issues: by the rules (no problem) or unsynced.
import { assertNever } from '../../../common/errors.ts';
import { fileErrorOf } from '../local/file-errors.ts';
import { remoteNameProblem, temporaryOrSystemReason } from '../local/local-names.ts';
import { STATE_FOLDER_NAME } from '../../model/names.ts';
import { isAscii, nameKey, type RelativePath, type RemoteEntry } from '../../model/items.ts';
import { unsyncedItem, type PassIssue } from '../pass-report.ts';
import type { RemoteWalkResult } from '../remote/remote-walk.ts';
import type { ScanResult } from '../local/scanner.ts';

export function normalisationClash(path: RelativePath, side: 'local' | 'remote'): PassIssue {
  const where = side === 'local' ? 'On this computer' : 'On the device';
  // Only this side's item is left out: the other side's item with this spelling may be synced with
  // the one kept here (an NFC/NFD-only difference is no change). It is not synced: the sides differ.
  return unsyncedItem(
    'NAME_CLASH',
    path,
    `${where}: another item in its folder has the same name in another Unicode normal form, and ` +
      `most systems treat them as one. Rename one of them to sync it.`,
    side,
  );
}

function codeOfSkip(reason: string): string {
  return reason.toUpperCase().replaceAll('-', '_');
}

/**
 * Why a remote item is not brought to this computer, or undefined when it is: left out by the rules
 * (a temporary or system name, which is no problem), or a name this computer cannot hold (not synced).
 */
export function remoteLeftOut(path: RelativePath, name: string): PassIssue | undefined {
  const byRule =
    nameKey(name) === STATE_FOLDER_NAME
      ? "the name of this client's own state folder"
      : temporaryOrSystemReason(name);
  if (byRule !== undefined) {
    return { kind: 'skipped', path, code: 'NOT_SYNCED_NAME', message: `On the device: ${byRule}.` };
  }
  const problem = remoteNameProblem(name);
  return problem === undefined ? undefined : unsyncedItem('NAME_NOT_ALLOWED', path, problem);
}

/** A remote item the listing refused (a name that could escape its folder, a malformed item), in words. */
export function refusedRemoteItem(rejected: RemoteWalkResult['rejected'][number]): PassIssue {
  const { folderPath, name } = rejected;
  if (name === undefined) {
    // No usable name: the folder it is in is the place the user knows (never the device's id).
    return unsyncedItem(
      'REMOTE_ITEM_REFUSED',
      folderPath,
      'On the device: an item in this folder is described in a way mch-sync cannot read, so it is left out. If it stays, report it with the log.',
    );
  }
  const path = folderPath === '' ? name : `${folderPath}/${name}`;
  const problem =
    rejected.error.code === 'INVALID_NAME'
      ? remoteNameProblem(name)
      : 'On the device: it is described in a way mch-sync cannot read, so it is left out. If it stays, report it with the log.';
  return unsyncedItem('REMOTE_ITEM_REFUSED', path, problem ?? rejected.error.message);
}

/**
 * What the scan skipped (but the client's own folder) and its portability warnings, as issues. Left out
 * by the rules (ignored, temporary, a symlink) is no problem; unreadable, vanished or a name the device
 * cannot store leaves the sides different.
 */
export function scanIssues(scan: ScanResult): PassIssue[] {
  const issues: PassIssue[] = [];
  for (const skipped of scan.skipped) {
    const issue = scanIssue(skipped);
    if (issue !== undefined) issues.push(issue);
  }
  for (const warning of scan.portability) {
    issues.push({ kind: 'warning', path: warning.path, code: 'NOT_PORTABLE', message: warning.detail });
  }
  return issues;
}

function scanIssue(skipped: ScanResult['skipped'][number]): PassIssue | undefined {
  const { path, reason, detail } = skipped;
  switch (reason) {
    // The client's own folder is not the user's business.
    case 'state-folder':
      return undefined;
    case 'unreadable': {
      const error = fileErrorOf(skipped.errno ?? 'EIO', 'list');
      return unsyncedItem(error.code, path, error.message);
    }
    case 'retry-later':
      return unsyncedItem('CHANGED_MEANWHILE', path, 'It changed during the scan; the next run looks again.');
    case 'invalid-name':
      return unsyncedItem('INVALID_NAME', path, detail);
    case 'excluded':
      return {
        kind: 'skipped',
        path,
        code: 'EXCLUDED',
        message:
          'The device folder is excluded from this computer: this copy stays here and is not synced. Include the folder to sync it again.',
      };
    case 'symlink':
    case 'special-file':
    case 'temporary-or-system':
    case 'ignored':
      return { kind: 'skipped', path, code: codeOfSkip(reason), message: detail };
    default:
      return assertNever(reason, 'skip reason');
  }
}

/**
 * For each name (NFC) in each remote folder that can hold two spellings of one name, the item synced
 * under it: the one the index knows, else the NFC spelling, else the first listed. Two different names
 * are one under NFC only when one of them is not ASCII, so only folders holding such a name are in
 * `folders` (usually none: a pass over 100,000 ASCII names makes no key).
 */
export function chosenRemoteNames(
  walk: RemoteWalkResult,
  isKnown: (id: string) => boolean,
): { folders: Set<string>; chosen: Map<string, string> } {
  const folders = new Set<string>();
  for (const entry of walk.entries.values()) if (!isAscii(entry.name)) folders.add(entry.parentId);
  const chosen = new Map<string, string>();
  if (folders.size === 0) return { folders, chosen };
  const rank = (entry: RemoteEntry): number =>
    isKnown(entry.id) ? 0 : entry.name === entry.name.normalize('NFC') ? 1 : 2;
  const byId = walk.entries;
  for (const entry of byId.values()) {
    if (!folders.has(entry.parentId)) continue;
    const key = `${entry.parentId}/${nameKey(entry.name)}`;
    const current = chosen.get(key);
    const holder = current === undefined ? undefined : byId.get(current);
    if (holder === undefined || rank(entry) < rank(holder)) chosen.set(key, entry.id);
  }
  return { folders, chosen };
}
