// Settling a conflict on this computer: one of its two copies kept at the original name, the other kept as a version; or both kept on purpose.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, rename, rm, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DOWNLOAD_TEMP_PREFIX } from '../../model/names.ts';
import type { ConflictRow } from '../../index/version-rows.ts';
import { MchError } from '../../../common/errors.ts';
import { localPath, statOrUndefined } from '../local/local-paths.ts';
import { isPlaceholder } from '../local/placeholders.ts';
import type { VersionStore } from './version-store.ts';

/**
 * Which copy stays at the original name: `original` (the file at the original name, the device's
 * version when this computer made the copy), `copy` (the conflicted copy's content), or `both` (both
 * files stay, and the conflict is no longer listed).
 */
export type ConflictKeep = 'original' | 'copy' | 'both';

export type ConflictSettleErrorCode = 'CONFLICT_GONE' | 'CONFLICT_ONLINE_ONLY';

/**
 * One of the two copies is gone already (`CONFLICT_GONE`), or the one that would be kept as a version is
 * a placeholder (`CONFLICT_ONLINE_ONLY`): nothing to settle now, nothing changed.
 */
export class ConflictSettleError extends MchError {
  declare readonly code: ConflictSettleErrorCode;

  constructor(message: string, code: ConflictSettleErrorCode = 'CONFLICT_GONE') {
    super(code, code === 'CONFLICT_GONE' ? 'Conflict already settled' : 'Online only', message);
  }
}

/**
 * Settles `conflict`: the copy that loses goes into the versions (reason `conflict`), never away. The
 * next pass carries it to the device: the copy's delete, or the original's new content.
 */
export async function settleConflict(
  store: VersionStore,
  root: string,
  conflict: Pick<ConflictRow, 'copyPath' | 'originalPath' | 'madeAtMs' | 'madeHere'>,
  keep: ConflictKeep,
): Promise<void> {
  const copy = await statOrUndefined(localPath(root, conflict.copyPath));
  const original = await statOrUndefined(localPath(root, conflict.originalPath));
  if (copy === undefined || original === undefined || !copy.isFile() || !original.isFile()) {
    throw new ConflictSettleError(
      `${conflict.copyPath} and ${conflict.originalPath} are not both files here any more: there is no conflict to settle.`,
    );
  }
  // A placeholder (files on demand) holds none of its content: kept, the version would be its zeros,
  // and the device's own would go with the upload of the winner (soak seed 606 with --on-demand-rate 1).
  const loser = keep === 'copy' ? conflict.originalPath : keep === 'original' ? conflict.copyPath : null;
  if (loser !== null && isPlaceholder(localPath(root, loser))) {
    throw new ConflictSettleError(
      `${loser} is online only here: open it first, so that its content can be kept as a version, then settle the conflict.`,
      'CONFLICT_ONLINE_ONLY',
    );
  }
  const rows = store.rows;
  if (keep === 'both') {
    rows.putConflict({ ...conflict, settled: 'both' });
    return;
  }
  if (keep === 'original') {
    await store.moveIn(conflict.copyPath, 'conflict');
  } else {
    const kept = await store.linkBeforeReplace(
      conflict.originalPath,
      { inode: original.ino.toString() },
      { size: Number(original.size), mTimeMs: Number(original.mtimeMs), remoteId: null, contentHash: null },
      'conflict',
    );
    // The copy's content goes over the original by a new file, not by renaming the copy: the copy's
    // inode would pair with the copy's synced row, read as the copy moved onto a name the device's
    // original holds. The original is kept first, the copy (its content now at the name) removed last.
    const target = localPath(root, conflict.originalPath);
    const temporary = join(dirname(target), `${DOWNLOAD_TEMP_PREFIX}${randomBytes(6).toString('hex')}`);
    try {
      await copyFile(localPath(root, conflict.copyPath), temporary, constants.COPYFILE_FICLONE);
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      await kept?.abandon();
      throw error;
    }
    kept?.confirm();
    await unlink(localPath(root, conflict.copyPath));
  }
  rows.removeConflict(conflict.copyPath);
}

/**
 * Which copy a policy keeps: `this` keeps what this computer made (the copy), `device` the original,
 * `newer` the one changed last (the original on a tie: it is what the device has).
 */
export function policyKeep(
  policy: 'newer' | 'this' | 'device',
  times: { copyMs: number; originalMs: number },
): 'original' | 'copy' {
  if (policy === 'this') return 'copy';
  if (policy === 'device') return 'original';
  return times.copyMs > times.originalMs ? 'copy' : 'original';
}
