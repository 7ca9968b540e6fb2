// The synced folder a command means (`--folder`, else the profile's only one) and a question to its live service: what status, pause and resume share.
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MchError } from '../../../common/errors.ts';
import type { SyncStatus } from '../../../common/sync-status.ts';
import { indexFilePath, openIndexDb } from '../../index/index-db.ts';
import { IndexStore } from '../../index/index-store.ts';
import { askService } from '../../live-service/control-client.ts';
import { ServiceRefusalError } from '../../live-service/control-errors.ts';
import type { ControlRequest } from '../../live-service/control-protocol.ts';
import { controlSocketPath } from '../../live-service/control-socket-path.ts';
import { META_LOCAL_ROOT } from '../../index/meta-keys.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import { UsageError, type CommandContext } from '../terminal/cli-context.ts';

type Values = Record<string, string | boolean | undefined>;

export type ServiceCommandErrorCode = 'NO_SYNCED_FOLDER' | 'FOLDER_NEVER_SYNCED' | 'SERVICE_NOT_RUNNING';

export class ServiceCommandError extends MchError {
  declare readonly code: ServiceCommandErrorCode;

  constructor(code: ServiceCommandErrorCode, message: string) {
    const titles: Record<ServiceCommandErrorCode, string> = {
      NO_SYNCED_FOLDER: 'No synced folder',
      FOLDER_NEVER_SYNCED: 'Never synced',
      SERVICE_NOT_RUNNING: 'Live sync not running',
    };
    super(code, titles[code], message);
  }
}

/** A change to a pair that its running live sync would not survive (remove it, switch it). */
export class FoldersError extends MchError {
  constructor(code: 'PAIR_RUNNING', message: string) {
    super(code, 'Folder still syncing', message);
  }
}

export interface SyncedFolder {
  localRoot: string;
  indexPath: string;
}

/**
 * The folder of `--folder`, else the one folder the profile syncs (from the indexes' `localRoot`);
 * several are a usage error that lists them.
 */
export function chooseFolder(context: CommandContext, values: Values, usage: string): SyncedFolder {
  const given = values['folder'];
  if (typeof given === 'string') {
    if (given === '') throw new UsageError('--folder needs a folder.', usage);
    const localRoot = resolve(given);
    return { localRoot, indexPath: indexFilePath(context.profileDir, localRoot) };
  }
  const folders = listSyncedFolders(context.profileDir, context.warn);
  const [only] = folders;
  if (only === undefined) {
    throw new ServiceCommandError(
      'NO_SYNCED_FOLDER',
      'This profile syncs no folder yet: start with `mch-sync run --folder DIR`.',
    );
  }
  if (folders.length > 1) {
    // One line per folder, whatever its name holds.
    const list = folders.map((folder) => `  ${terminalSafe(folder.localRoot)}`).join('\n');
    throw new UsageError(`This profile syncs several folders; choose one with --folder:\n${list}`, usage);
  }
  return only;
}

/** Every folder with an index in the profile that has been paired with a device folder. */
export function listSyncedFolders(profileDir: string, warn: (message: string) => void): SyncedFolder[] {
  const dir = join(profileDir, 'index');
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.db'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const folders: SyncedFolder[] = [];
  for (const name of names.sort()) {
    const indexPath = join(dir, name);
    try {
      const localRoot = withIndex(indexPath, (store) => store.getMeta(META_LOCAL_ROOT));
      if (localRoot !== undefined) folders.push({ localRoot, indexPath });
    } catch (error) {
      warn(`skipped the index ${indexPath}: ${(error as Error).message}`);
    }
  }
  return folders.sort((a, b) => a.localRoot.localeCompare(b.localRoot));
}

/**
 * Sends `request` to the folder's live service: the status it answers, or undefined when none runs.
 * A refusal by the service is thrown with the service's code.
 */
export async function askFolderService(
  context: CommandContext,
  folder: SyncedFolder,
  request: ControlRequest,
): Promise<SyncStatus | undefined> {
  const socketPath = controlSocketPath(context.profileDir, folder.localRoot);
  const signal = context.deps.signal;
  const answer = await askService(socketPath, request, signal === undefined ? {} : { signal });
  if (answer === undefined) return undefined;
  if (!answer.ok) throw new ServiceRefusalError(answer.error);
  return answer.status;
}

/** Runs `read` on the folder's index store, closing the index after. */
export function withIndex<T>(indexPath: string, read: (store: IndexStore) => T): T {
  const db = openIndexDb(indexPath);
  try {
    return read(new IndexStore(db));
  } finally {
    db.close();
  }
}
