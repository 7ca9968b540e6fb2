// `mch-sync status`: what the live service of a folder is doing, or what the index says when none runs.
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { MchError } from '../../../common/errors.ts';
import type { EngineState, SyncStatus } from '../../../common/sync-status.ts';
import { indexFilePath, openIndexDb } from '../../index/index-db.ts';
import { IndexStore } from '../../index/index-store.ts';
import { askService } from '../../live-service/control-client.ts';
import { ServiceRefusalError } from '../../live-service/control-errors.ts';
import type { ControlRequest } from '../../live-service/control-protocol.ts';
import { controlSocketPath } from '../../live-service/control-socket-path.ts';
import {
  META_LAST_PASS,
  META_LAST_SYNC,
  META_LOCAL_ROOT,
  META_REMOTE_FOLDER,
  type StoredPassSummary,
} from '../../sync/pass/pass-record.ts';
import { ISSUE_REMEDIES } from '../../sync/pass-report.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import { UsageError, type CommandContext } from '../terminal/cli-context.ts';
import { unsyncedWords } from '../terminal/issue-lines.ts';
import { formatStatus } from './status-output.ts';

type Values = Record<string, string | boolean | undefined>;

export const STATUS_USAGE = `Usage: mch-sync [--profile DIR] status [--folder DIR] [--json]

Shows the state of live sync for a folder: what it is doing, progress, when both sides last matched,
and the items it could not sync. When live sync is not running, shows what the last pass left in the
sync index.

Options:
  --folder DIR   the synced folder (default: the only folder this profile syncs)
  --json         machine-readable output
  -h, --help     show this help

Exit codes: 0 shown, 1 the folder was never synced (or the service could not be asked), 2 usage error.`;

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

/** The last pass as `status --json` shows it: its issues are in `issues`. */
export type LastPassJson = Omit<StoredPassSummary, 'issues'>;

/**
 * `status --json`: the `SyncStatus` of the running service, or one built from the index (`pid: null`,
 * no progress or activity, and the state the last pass left: `held` → `held`, `errors` → `error`,
 * `synced` → `idle`), plus what only the index knows.
 */
export interface StatusJson extends SyncStatus {
  /** Whether a live service answered. */
  running: boolean;
  /** Items in the index, null when it could not be read. */
  itemsSynced: number | null;
  /** Remote changes whose outcome is unknown, checked at the next pass; null when the index could not be read. */
  pendingChanges: number | null;
  lastPass: LastPassJson | null;
}

export interface SyncedFolder {
  localRoot: string;
  indexPath: string;
}

/** What the last pass left in the index. */
export interface IndexSummary {
  remoteFolder: string | undefined;
  lastSyncAtMs: number | null;
  lastPass: StoredPassSummary | null;
  itemsSynced: number;
  pendingChanges: number;
}

export async function runStatus(context: CommandContext, values: Values): Promise<number> {
  const folder = chooseFolder(context, values, STATUS_USAGE);
  const answer = await askFolderService(context, folder, { op: 'status' });
  const summary = readIndexSummary(folder.indexPath, context.warn);
  let json: StatusJson;
  if (answer !== undefined) {
    json = {
      ...answer,
      running: true,
      itemsSynced: summary?.itemsSynced ?? null,
      pendingChanges: summary?.pendingChanges ?? null,
      lastPass: summary?.lastPass ? withoutIssues(summary.lastPass) : null,
    };
  } else {
    if (summary === undefined || (summary.lastPass === null && summary.lastSyncAtMs === null)) {
      throw new ServiceCommandError(
        'FOLDER_NEVER_SYNCED',
        `${terminalSafe(folder.localRoot)} was never synced with this profile: run \`mch-sync run --folder ${terminalSafe(folder.localRoot)}\`.`,
      );
    }
    json = statusFromIndex(folder.localRoot, summary);
  }
  if (values['json'] === true) {
    context.print(JSON.stringify(json, null, 2));
  } else {
    for (const line of formatStatus(json, Date.now())) context.print(line);
  }
  return 0;
}

/** The state a stopped service left, as documented on `StatusJson`. */
export function statusFromIndex(localRoot: string, summary: IndexSummary): StatusJson {
  const pass = summary.lastPass;
  let state: EngineState = 'idle';
  let detail: string | null = null;
  if (pass?.status === 'held') {
    state = 'held';
    detail = pass.hold?.advice ?? 'The last pass was held.';
  } else if (pass?.status === 'errors') {
    state = 'error';
    // The record keeps the first issues only: their words, or the total when none of them is unsynced.
    const words = unsyncedWords(pass.issues) ?? `${pass.issueCount} items are not synced`;
    detail = `${words}; see the issues.`;
  }
  return {
    state,
    detail,
    localRoot,
    remoteFolder: summary.remoteFolder ?? '',
    progress: null,
    lastSyncAtMs: summary.lastSyncAtMs,
    activity: [],
    issues: pass?.issues ?? [],
    pid: null,
    running: false,
    itemsSynced: summary.itemsSynced,
    pendingChanges: summary.pendingChanges,
    lastPass: pass === null ? null : withoutIssues(pass),
  };
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

/** Undefined when the folder has no index; a damaged last-pass record is left out with a warning. */
function readIndexSummary(indexPath: string, warn: (message: string) => void): IndexSummary | undefined {
  // openIndexDb would create a missing index: a status must not leave one behind.
  if (!existsSync(indexPath)) return undefined;
  return withIndex(indexPath, (store) => {
    const lastSync = Number(store.getMeta(META_LAST_SYNC));
    return {
      remoteFolder: store.getMeta(META_REMOTE_FOLDER),
      lastSyncAtMs: Number.isFinite(lastSync) && lastSync > 0 ? lastSync : null,
      lastPass: parseLastPass(store.getMeta(META_LAST_PASS), warn),
      itemsSynced: store.count(),
      pendingChanges: store.pendingIntents().length,
    };
  });
}

function withIndex<T>(indexPath: string, read: (store: IndexStore) => T): T {
  const db = openIndexDb(indexPath);
  try {
    return read(new IndexStore(db));
  } finally {
    db.close();
  }
}

// Every field of a stored issue is declared: z.object drops the rest, and `--json` carries `remedy`, the
// class the help points scripts to, with or without a running service (issue 27).
const issueSchema = z.object({
  kind: z.enum(['skipped', 'retry', 'failed', 'warning']),
  path: z.string(),
  code: z.string(),
  message: z.string(),
  remedy: z.enum(ISSUE_REMEDIES).optional(),
  side: z.enum(['local', 'remote']).optional(),
});

// What this command reads of the engine's record; the rest is shown as stored.
const lastPassSchema = z.looseObject({
  status: z.enum(['synced', 'held', 'errors']),
  finishedAtMs: z.number(),
  counts: z.record(z.string(), z.number()),
  hold: z.looseObject({ reason: z.string(), advice: z.string() }).nullable(),
  issues: z.array(issueSchema),
  issueCount: z.number(),
});

function parseLastPass(text: string | undefined, warn: (message: string) => void): StoredPassSummary | null {
  if (text === undefined) return null;
  try {
    const result = lastPassSchema.safeParse(JSON.parse(text));
    if (result.success) return result.data as unknown as StoredPassSummary;
  } catch {
    // Not JSON: same warning as a wrong shape.
  }
  warn('the record of the last pass in the sync index is unreadable; the next pass rewrites it.');
  return null;
}

function withoutIssues(pass: StoredPassSummary): LastPassJson {
  const { issues: _issues, ...rest } = pass;
  return rest;
}
