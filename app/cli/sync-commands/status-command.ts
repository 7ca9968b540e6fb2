// `mch-sync status`: what the live service of a folder is doing, or what the index says when none runs.
import { existsSync } from 'node:fs';
import { z } from 'zod';
import type { EngineState } from '../../../common/sync-status.ts';
import { type StoredPassSummary } from '../../sync/pass/pass-record.ts';
import { META_LAST_PASS, META_LAST_SYNC, META_REMOTE_FOLDER } from '../../index/meta-keys.ts';
import { ISSUE_REMEDIES } from '../../sync/pass-report.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import type { CommandContext } from '../terminal/cli-context.ts';
import { unsyncedWords } from '../terminal/issue-lines.ts';
import { askFolderService, chooseFolder, ServiceCommandError, withIndex } from './folder-service.ts';
import type { LastPassJson, StatusJson } from './status-json.ts';
import { formatStatus } from './status-output.ts';
import { readPairSelection } from '../../profile/pair-selection.ts';
import { readPairOnDemand } from '../../profile/pair-on-demand.ts';

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
      selection: selectionSummary(context, folder.localRoot),
      onDemand: onDemandSummary(context, folder.localRoot, summary?.lastPass ?? null),
    };
  } else {
    if (summary === undefined || (summary.lastPass === null && summary.lastSyncAtMs === null)) {
      throw new ServiceCommandError(
        'FOLDER_NEVER_SYNCED',
        `${terminalSafe(folder.localRoot)} was never synced with this profile: run \`mch-sync run --folder ${terminalSafe(folder.localRoot)}\`.`,
      );
    }
    json = {
      ...statusFromIndex(folder.localRoot, summary),
      selection: selectionSummary(context, folder.localRoot),
      onDemand: onDemandSummary(context, folder.localRoot, summary.lastPass),
    };
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
    selection: null,
    onDemand: null,
  };
}

/** The pair's selection in numbers; null (with a warning) when its record cannot be read. */
function selectionSummary(context: CommandContext, localRoot: string): StatusJson['selection'] {
  try {
    const selection = readPairSelection(context.profileDir, localRoot);
    return {
      excluded: selection.excluded.length,
      waiting: selection.waiting,
      askOverBytes: selection.askOverBytes,
    };
  } catch (error) {
    context.warn((error as Error).message);
    return null;
  }
}

/** An on-demand pair's use, pins and limit; null for a pair not on demand (or a record that cannot be read, with a warning). */
function onDemandSummary(
  context: CommandContext,
  localRoot: string,
  lastPass: StoredPassSummary | null,
): StatusJson['onDemand'] {
  try {
    const onDemand = readPairOnDemand(context.profileDir, localRoot);
    if (onDemand === undefined) return null;
    const use = lastPass?.onDemand ?? null;
    return {
      use,
      pinned: onDemand.pinned.map(({ path }) => ({ path })),
      cacheLimitBytes: onDemand.cacheLimitBytes,
      cacheUsedBytes: use?.whole.bytes ?? null,
    };
  } catch (error) {
    context.warn((error as Error).message);
    return null;
  }
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
