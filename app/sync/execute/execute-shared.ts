// What the operations that change the device share: checks of the local side, errors that mean "look again".
import { ApiError } from '../../../common/errors.ts';
import type { ContentSource, RemoteFile } from '../../api/device-client.ts';
import { readOneVersion } from './content-read.ts';
import type { ExecutionContext } from './execution-context.ts';
import { ReplanNeeded } from './replan-needed.ts';
import { entryFromStats, isUnchanged, localPath, statNowOrUndefined } from '../local/local-paths.ts';
import type { LocalEntry, RelativePath } from '../../model/items.ts';
import type { Operation } from '../plan/operations.ts';

export type Op<Name extends Operation['op']> = Extract<Operation, { op: Name }>;

export function codeOf(error: unknown): string | undefined {
  return error instanceof ApiError ? error.code : undefined;
}

/** What each answer that makes a round look again means for the item (the device's words name ids). */
const LOOK_AGAIN: Readonly<Record<string, string>> = {
  PRECONDITION_FAILED: 'It changed on the device during the pass; the next round looks again.',
  NOT_FOUND: 'It (or its folder) is no longer on the device; the next round looks again.',
  CONFLICT: 'Another item on the device has taken its name; the next round looks again.',
  OUTCOME_UNKNOWN: 'The connection broke while it was sent; the next round looks whether it arrived.',
};

/** The device's answer means the plan is stale: another look decides what to do. */
export function replanOn(error: unknown, path: RelativePath, codes: readonly string[]): never {
  const code = codeOf(error);
  if (code !== undefined && codes.includes(code)) {
    throw new ReplanNeeded(code, path, LOOK_AGAIN[code] ?? (error as ApiError).message);
  }
  throw error;
}

/** The item's folder as this round's walk saw it, else as the index has it. */
export function remoteParentOf(context: ExecutionContext, remoteId: string): string | undefined {
  const remote = context.setup.remote.get(remoteId);
  // A parked item's entry says where the index has it; its listing is the folder it waits in.
  return (
    remote?.parkedAs?.parentId ?? remote?.parentId ?? context.setup.index.store.get(remoteId)?.parentRemoteId
  );
}

/** The index path of `name` in the folder `folderId` as the index has that folder now; undefined when it is not indexed. */
export function indexPathIn(
  context: ExecutionContext,
  folderId: string | undefined,
  name: string,
): RelativePath | undefined {
  if (folderId === undefined) return undefined;
  if (folderId === context.setup.remoteRootId) return name;
  const folder = context.setup.index.store.get(folderId);
  return folder === undefined ? undefined : `${folder.path}/${name}`;
}

/** The item's folder listing changes with it: the next walk must not trust its cached copy. */
export function touchParentOf(context: ExecutionContext, remoteId: string): void {
  const parent = remoteParentOf(context, remoteId);
  if (parent !== undefined) context.ledger.touchedFolders.add(parent);
}

/** What recovery after a crash needs to know of the local side of a create or an edit. */
export function localDetail(local: LocalEntry): Record<string, unknown> {
  return { size: local.size, inode: local.inode, localMtimeNs: local.mtimeNs.toString() };
}

/** Checks that the local item is still what the plan saw, returning its absolute path. */
export async function unchangedLocal(
  context: ExecutionContext,
  path: RelativePath,
  expected: LocalEntry,
): Promise<string> {
  const absolute = localPath(context.setup.localRoot, path);
  // At once, not awaited: one lstat costs less than a trip through the thread pool.
  const now = entryFromStats(path, statNowOrUndefined(absolute));
  if (!isUnchanged(expected, now)) {
    throw new ReplanNeeded('LOCAL_CHANGED', path, 'It changed on this computer during the pass.');
  }
  return absolute;
}

/** After a create whose answer was lost or refused: the item already there, if it is the one we meant. */
export async function existingMatch(
  context: ExecutionContext,
  folderId: string,
  name: string,
  matches: (file: RemoteFile) => boolean,
): Promise<RemoteFile | undefined> {
  const found = await context.setup.client.findByName(folderId, name, { signal: context.setup.signal });
  return found !== undefined && matches(found) ? found : undefined;
}

/** The issue code of a file that changed while it was read or sent: it was not committed on the device. */
export const CHANGED_DURING_UPLOAD = 'LOCAL_CHANGED_DURING_UPLOAD';

/**
 * What an upload that met a file changing while it was read becomes: an item to try again, with the
 * index untouched (the next round or pass sees the file differ and sends it again; the guard in
 * file-source.ts lets it through only once it stays the same while it is read). Other errors pass.
 */
export function changedWhileSent(error: unknown, path: RelativePath): unknown {
  if (codeOf(error) !== 'SOURCE_CHANGED') return error;
  return new ReplanNeeded(
    CHANGED_DURING_UPLOAD,
    path,
    'It changed while it was being sent; sent again once it is quiet.',
  );
}

/**
 * The content of a local file to send and its hash, both of the version the plan saw (content-read.ts):
 * LOCAL_CHANGED when the file is not that version any more, LOCAL_CHANGED_DURING_UPLOAD when it changes
 * while it is read.
 */
export async function readToSend(
  context: ExecutionContext,
  path: RelativePath,
  absolute: string,
  expected: LocalEntry,
): Promise<{ content: ContentSource; contentHash: string }> {
  let read: Awaited<ReturnType<typeof readOneVersion>>;
  try {
    read = await readOneVersion(absolute, expected, { signal: context.setup.signal });
  } catch (error) {
    throw changedWhileSent(error, path);
  }
  if (read === undefined)
    throw new ReplanNeeded('LOCAL_CHANGED', path, 'It changed on this computer during the pass.');
  return read;
}

/** Reports a transfer's bytes to the plan's progress (for the status: bytes done, transfers running). */
export function transferProgress(
  context: ExecutionContext,
  path: RelativePath,
  direction: 'up' | 'down',
  bytes: number,
): (progress: { bytesDone: number }) => void {
  const report = context.ledger.transferStarted(path, direction, bytes);
  return (progress) => report(progress.bytesDone);
}
