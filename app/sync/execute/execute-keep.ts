// What the local operations keep before they replace or remove content here: a version (app/sync/versions/), else the OS trash for a delete.
import type { Operation } from '../plan/operations.ts';
import type { ExecutionContext } from './execution-context.ts';
import type { PreparedLink } from '../versions/version-store.ts';
import { isPlaceholder } from '../local/placeholders.ts';
import { errnoOf } from '../local/file-errors.ts';

type Op<Name extends Operation['op']> = Extract<Operation, { op: Name }>;

/**
 * Before a newer version from the device replaces the file here: the file (the device's old version)
 * to link into the versions, in steps the download's placing takes (putInPlace). Nothing for a
 * placeholder (it holds no content) or when versions are off.
 */
export function keepBeforeReplace(
  context: ExecutionContext,
  op: Op<'download-content'>,
  absolute: string,
): PreparedLink | undefined {
  const store = context.setup.versions;
  if (store === undefined) return undefined;
  if (context.setup.onDemand !== undefined && isPlaceholder(absolute)) return undefined;
  const file = {
    size: op.expected.size,
    mTimeMs: Number(op.expected.mtimeNs / 1_000_000n),
    remoteId: op.remote.id,
    // Not looked up: 17 us a file of a pass that downloads thousands, for a field nothing reads.
    contentHash: null,
  };
  return store.prepareLink(op.path, { inode: op.expected.inode }, file, 'replaced');
}

/**
 * A file or folder the device deleted (or replaced by another kind) moved into the versions, each file
 * in it a version of its path. False when versions are off or the store cannot take it here (another
 * file system mounted inside the folder, no permission): the caller moves it to the trash as before.
 */
export async function keepRemoved(context: ExecutionContext, op: Op<'local-trash'>): Promise<boolean> {
  const store = context.setup.versions;
  if (store === undefined) return false;
  const index = context.setup.index.store;
  const known = (path: string): { remoteId?: string; contentHash?: string | null } => {
    const row = index.byPath(path);
    return row === undefined ? {} : { remoteId: row.remoteId, contentHash: row.contentHash };
  };
  try {
    const kept = await store.moveIn(op.path, op.reason === 'type-change' ? 'replaced' : 'deleted', known);
    // Gone already is what the delete wanted.
    if (kept) context.setup.log({ level: 'info', message: 'kept as a version', path: op.path });
    return true;
  } catch (error) {
    const code = errnoOf(error);
    context.setup.log({
      level: 'warn',
      message: `could not keep as a version (${code ?? (error as Error).message}); to the trash instead`,
      path: op.path,
    });
    return false;
  }
}

/** A conflicted copy this pass made: listed until it is settled (by the user or the pair's policy). */
export function recordConflict(context: ExecutionContext, op: Op<'local-move'>): void {
  context.setup.versions?.rows.putConflict({
    copyPath: op.toPath,
    originalPath: op.fromPath,
    // The wall clock, as the pass's start the policy compares it with (`now` may be a test's own clock).
    madeAtMs: Date.now(),
    madeHere: true,
    settled: null,
  });
}
