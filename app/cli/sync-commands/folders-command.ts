// `mch-sync folders list|add|remove`: the folder pairs of the profile, which `mch-sync run` (without --folder) and the desktop app sync.
import { statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { forgetFolderPair, registerFolderPair } from '../../profile/folder-pairs.ts';
import { knownFolderPairs } from '../../profile/known-pairs.ts';
import { notSyncedError, pairOverlaps, recordNewPair } from '../../profile/pair-check.ts';
import { askService } from '../../live-service/control-client.ts';
import { controlSocketPath } from '../../live-service/control-socket-path.ts';
import { moveToTrash } from '../../sync/trash/local-trash.ts';
import { remoteFolderSegments, RemoteFolderError } from '../../sync/remote/remote-folder.ts';
import { shownPath } from '../terminal/issue-lines.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import { UsageError, type CommandContext } from '../terminal/cli-context.ts';
import { acquireFolderLock, folderLockPath } from '../../profile/folder-lock.ts';
import { RunError } from './run-command.ts';
import { askOverOf, askOverWords, givesAskOver } from './ask-over.ts';
import {
  cacheLimitOf,
  cacheLimitWords,
  noDownloadOf,
  setCacheLimit,
  setNoDownload,
} from '../on-demand-commands/cache-limit-option.ts';
import { readPairSelection } from '../../profile/pair-selection.ts';
import { readPairOnDemand } from '../../profile/pair-on-demand.ts';
import { setAskOver } from '../../selection/selection-change.ts';
import { OnDemandError, onDemandUnavailable } from '../../on-demand/on-demand-pair.ts';
import { switchOnDemand, switchWhole } from '../on-demand-commands/on-demand-switch.ts';
import { releaseCache } from '../../on-demand/whole-pair.ts';
import { FoldersError } from './folder-service.ts';
import { placePairInSidebars, takePairFromSidebars } from '../../integrate/sidebar-places.ts';
import { syncRootOf } from '../../profile/pair-on-demand.ts';
import type { FolderPair } from '../../profile/folder-pairs.ts';
import {
  setVersionsPolicy,
  versionsPolicyOf,
  versionsSummary,
  versionsWords,
  type VersionsSummary,
} from '../version-commands/versions-policy-option.ts';

export const FOLDERS_USAGE = `Usage: mch-sync [--profile DIR] folders list [--json]
       mch-sync [--profile DIR] folders add --folder DIR [--remote-folder PATH] [--ask-over SIZE|off]
                                        [--ask-over-files N|off] [--on-demand]
       mch-sync [--profile DIR] folders set --folder DIR [--ask-over SIZE|off] [--ask-over-files N|off]
                                        [--cache-limit SIZE|off] [--no-download LIST|default]
                                        [--on-demand|--no-on-demand] [--keep-versions DAYS]
                                        [--versions-cap SIZE|default]
                                        [--conflicts ask|newer|this|device] [--json]
       mch-sync [--profile DIR] folders remove --folder DIR [--delete-local-files]

The folder pairs this profile syncs: \`mch-sync run\` without --folder, and the desktop app, sync
every one. \`add\` records a pair (the next run syncs it); \`set\` changes one; \`remove\` forgets it and its index (its
files stay, unless --delete-local-files moves the folder to the trash). A pair whose sync runs
cannot be removed: stop it first.

Pairs never overlap: a folder inside or around another pair's folder, inside or around the profile
folder, or inside a .mch-sync folder is refused, and so is a device folder inside or around another
pair's (/ is around every folder). \`list\` marks pairs of older versions that overlap: they are not
synced until one of them is removed.

Options:
  --folder DIR          the local folder
  --remote-folder PATH  the folder on the device (default /<name of the local folder>)
  --ask-over SIZE|off   a new device folder holding more than SIZE (500MB, 2GB...; default 500MB)
                        waits, not synced, until \`mch-sync include\` or \`exclude\` answers; off: never
  --ask-over-files N|off  the same for a new device folder of more than N files (default off)
  --on-demand           files on demand (Linux, FUSE): the folder shows every device file, and
                        downloads one when it is opened; \`mch-sync pin\` keeps files here, \`free\`
                        gives their room back. A folder that holds files keeps them: they move,
                        without a copy, into the pair's cache folder in the profile
  --no-on-demand        with set: every file here again: one pass downloads what is only on the
                        device, then the files move back into the folder (live sync stopped first)
  --cache-limit SIZE|off  on demand: past SIZE (default 10GB) of files here that are not pinned,
                        live sync frees the least recently used after a pass; off: never
  --no-download LIST|default  on demand: the programs that see a file not here but never
                        download it (names or patterns, comma-separated: tracker-miner-fs-3,*thumbnail*);
                        default: file managers, indexers, thumbnailers, updatedb, gvfsd, clamav.
                        Live sync takes it at its next start
  --keep-versions DAYS  versions (content this computer replaced or removed: \`mch-sync versions\`)
                        are thinned as they age (all for an hour, one an hour for a day, then one
                        a day) and go after DAYS (default 30); taken at the next pass
  --versions-cap SIZE|default  versions take at most SIZE (the oldest go first); default: 5% of
                        the disk that holds the folder, at least 1 GB
  --conflicts ask|newer|this|device  a new conflict: ask keeps both and lists it for you (default);
                        newer, this (this computer) or device settle it at once, in the pass that
                        finds it, the other side kept as a version
  --delete-local-files  with remove: move the local folder to the trash
  --json                with list: [{"localRoot", "remoteFolder", "running", "overlap", "versions"}],
                        overlap being why the pair is not synced, or null; with set:
                        {"localRoot", "askOverBytes", "askOverFiles", "cacheLimitBytes", "versions"};
                        versions: {"keepDays", "capBytes" (null: the default), "capBytesNow",
                        "conflicts", "kept": {"count", "bytes"}}
  -h, --help            show this help`;

type Values = Record<string, string | boolean | undefined>;

export async function runFolders(context: CommandContext, values: Values, args: string[]): Promise<number> {
  const [verb, ...extra] = args;
  if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}".`, FOLDERS_USAGE);
  if (verb === undefined) throw new UsageError('Say list, add, set or remove.', FOLDERS_USAGE);
  switch (verb) {
    case 'list':
      return listPairs(context, values['json'] === true);
    case 'add':
      return addPair(context, values);
    case 'set':
      return setPair(context, values);
    case 'remove':
      return removePair(context, values);
    default:
      throw new UsageError(`Unknown "${verb}": say list, add, set or remove.`, FOLDERS_USAGE);
  }
}

// Every folder name below goes through terminalSafe: a newline or an escape sequence in a name can
// neither forge a line nor drive the terminal (issue 27).
async function listPairs(context: CommandContext, json: boolean): Promise<number> {
  const pairs = await knownFolderPairs(context.profileDir, context.warn);
  const overlaps = pairOverlaps(context.profileDir, pairs);
  const rows = await Promise.all(
    pairs.map(async (pair) => {
      const overlap = overlaps.get(pair.localRoot);
      return {
        localRoot: pair.localRoot,
        remoteFolder: pair.remoteFolder,
        running:
          (await askService(controlSocketPath(context.profileDir, pair.localRoot), { op: 'status' })) !==
          undefined,
        overlap: overlap === undefined ? null : notSyncedError(pair.localRoot, overlap).message,
        versions: await pairVersions(context, pair),
      };
    }),
  );
  if (json) {
    context.print(JSON.stringify(rows, null, 2));
    return 0;
  }
  if (rows.length === 0) context.print('No folder is synced yet: `mch-sync folders add --folder DIR`.');
  for (const row of rows) {
    const running = row.running ? '  (live sync running)' : '';
    context.print(`${shownPath(row.localRoot)}  ↔  ${shownPath(row.remoteFolder)}${running}`);
    if (row.overlap !== null) context.print(`  ${terminalSafe(row.overlap)}`);
    context.print(`  ${versionsWords(row.versions)}`);
  }
  return 0;
}

/** The pair's versions policy and what its versions take (in its sync root: an on-demand pair's cache). */
function pairVersions(context: CommandContext, pair: FolderPair): Promise<VersionsSummary> {
  const syncRoot = syncRootOf(pair, readPairOnDemand(context.profileDir, pair.localRoot));
  return versionsSummary(context.profileDir, { pair, syncRoot });
}

/** `--on-demand` or `--no-on-demand` (not both). */
function switchOf(values: Values): 'on-demand' | 'whole' | undefined {
  const on = values['on-demand'] === true;
  const off = values['no-on-demand'] === true;
  if (on && off) throw new UsageError('Say --on-demand or --no-on-demand, not both.', FOLDERS_USAGE);
  return on ? 'on-demand' : off ? 'whole' : undefined;
}

function folderOf(values: Values): string {
  const folder = values['folder'];
  if (typeof folder !== 'string' || folder === '') throw new UsageError('--folder is needed.', FOLDERS_USAGE);
  return resolve(folder);
}

async function setPair(context: CommandContext, values: Values): Promise<number> {
  const localRoot = folderOf(values);
  const asked = askOverOf(values, FOLDERS_USAGE);
  const cacheLimit = cacheLimitOf(values, FOLDERS_USAGE);
  const switchTo = switchOf(values);
  const noDownload = noDownloadOf(values, FOLDERS_USAGE);
  const versions = versionsPolicyOf(values, FOLDERS_USAGE);
  if (
    !givesAskOver(asked) &&
    cacheLimit === undefined &&
    switchTo === undefined &&
    noDownload === undefined &&
    versions === undefined
  ) {
    throw new UsageError(
      'Say what to set: --ask-over SIZE|off, --ask-over-files N|off, --cache-limit SIZE|off, --no-download LIST|default, --on-demand, --no-on-demand, --keep-versions DAYS, --versions-cap SIZE|default or --conflicts ask|newer|this|device.',
      FOLDERS_USAGE,
    );
  }
  const pairs = await knownFolderPairs(context.profileDir, context.warn);
  const pair = pairs.find((known) => known.localRoot === localRoot);
  if (pair === undefined) {
    throw new UsageError(`${terminalSafe(localRoot)} is not a synced folder of this profile.`, FOLDERS_USAGE);
  }
  if (switchTo === 'on-demand') {
    const why = onDemandUnavailable();
    if (why !== undefined) throw new OnDemandError('ON_DEMAND_UNAVAILABLE', why);
    await switchOnDemand(context, localRoot);
  } else if (switchTo === 'whole') {
    await switchWhole(context, localRoot);
  }
  if (cacheLimit !== undefined) await setCacheLimit(context.profileDir, localRoot, cacheLimit, FOLDERS_USAGE);
  if (noDownload !== undefined) await setNoDownload(context.profileDir, localRoot, noDownload, FOLDERS_USAGE);
  // Read by the engine at each pass: a running live sync takes it at its next one.
  if (versions !== undefined) await setVersionsPolicy(context.profileDir, localRoot, versions);
  const selection = givesAskOver(asked)
    ? await setAskOver(context.profileDir, { localRoot, remoteFolder: pair.remoteFolder }, asked)
    : readPairSelection(context.profileDir, localRoot);
  const limit = readPairOnDemand(context.profileDir, localRoot)?.cacheLimitBytes;
  const kept = await pairVersions(context, pair);
  if (values['json'] === true) {
    const { askOverBytes, askOverFiles } = selection;
    context.print(
      JSON.stringify(
        {
          localRoot,
          askOverBytes,
          askOverFiles,
          ...(limit === undefined ? {} : { cacheLimitBytes: limit }),
          versions: kept,
        },
        null,
        2,
      ),
    );
  } else {
    context.print(`${terminalSafe(localRoot)}: ${askOverWords(selection)}.`);
    if (limit !== undefined) context.print(`${terminalSafe(localRoot)}: ${cacheLimitWords(limit)}.`);
    context.print(`${terminalSafe(localRoot)}: ${versionsWords(kept)}.`);
  }
  return 0;
}

async function addPair(context: CommandContext, values: Values): Promise<number> {
  const localRoot = folderOf(values);
  const asked = askOverOf(values, FOLDERS_USAGE);
  let isFolder = false;
  try {
    isFolder = statSync(localRoot).isDirectory();
  } catch {
    // Said below.
  }
  if (!isFolder) {
    throw new RunError(
      'LOCAL_FOLDER_MISSING',
      `${terminalSafe(localRoot)} is not a folder: create it first.`,
    );
  }
  const given = values['remote-folder'];
  let segments: string[];
  try {
    segments = remoteFolderSegments(typeof given === 'string' ? given : `/${basename(localRoot)}`);
  } catch (error) {
    if (error instanceof RemoteFolderError)
      throw new UsageError(`--remote-folder: ${error.message}`, FOLDERS_USAGE);
    throw error;
  }
  const pairs = await knownFolderPairs(context.profileDir, context.warn);
  const existing = pairs.find((pair) => pair.localRoot === localRoot);
  const remoteFolder = `/${segments.join('/')}`;
  if (existing !== undefined && existing.remoteFolder !== remoteFolder) {
    throw new UsageError(
      `${terminalSafe(localRoot)} is synced with ${terminalSafe(existing.remoteFolder)} already: remove it first to pair it with ${terminalSafe(remoteFolder)}.`,
      FOLDERS_USAGE,
    );
  }
  if (values['on-demand'] === true) {
    // Refused before anything is recorded: the words say what to install, or to use selective sync.
    const why = onDemandUnavailable();
    if (why !== undefined) throw new OnDemandError('ON_DEMAND_UNAVAILABLE', why);
  }
  if (existing === undefined) {
    await recordNewPair(context.profileDir, { localRoot, remoteFolder }, pairs, context.warn);
  } else {
    await registerFolderPair(context.profileDir, { localRoot, remoteFolder });
  }
  if (values['on-demand'] === true) await switchOnDemand(context, localRoot);
  // Where `integrate --install` put the pairs in the file managers' sidebars, this one too.
  await placePairInSidebars(context.profileDir, localRoot, context.warn);
  const selection = givesAskOver(asked)
    ? await setAskOver(context.profileDir, { localRoot, remoteFolder }, asked)
    : undefined;
  context.print(
    `${terminalSafe(localRoot)} is paired with ${terminalSafe(remoteFolder)}; \`mch-sync run\` syncs it.`,
  );
  if (selection !== undefined) {
    const words = askOverWords(selection);
    context.print(`${words[0]?.toUpperCase() ?? ''}${words.slice(1)}.`);
  }
  return 0;
}

async function removePair(context: CommandContext, values: Values): Promise<number> {
  const localRoot = folderOf(values);
  const pairs = await knownFolderPairs(context.profileDir, context.warn);
  if (!pairs.some((pair) => pair.localRoot === localRoot)) {
    throw new UsageError(`${terminalSafe(localRoot)} is not a synced folder of this profile.`, FOLDERS_USAGE);
  }
  if ((await askService(controlSocketPath(context.profileDir, localRoot), { op: 'status' })) !== undefined) {
    throw new FoldersError(
      'PAIR_RUNNING',
      `Live sync of ${terminalSafe(localRoot)} is running: stop it (Ctrl+C, or quit the app), then remove the folder.`,
    );
  }
  // The profile's lock of the folder guards its index, which goes now: a `run --once` has no control
  // socket to answer above, but holds this lock (FOLDER_BUSY names it). The folder itself may be missing.
  const lock = acquireFolderLock(folderLockPath(context.profileDir, localRoot), {
    folder: localRoot,
    profile: context.profileDir,
  });
  try {
    // An on-demand pair's files are in its cache folder: what is whole there comes back to the folder.
    const onDemand = readPairOnDemand(context.profileDir, localRoot);
    if (onDemand !== undefined) await releaseCache(onDemand.cache, localRoot);
    forgetFolderPair(context.profileDir, localRoot);
  } finally {
    lock.release();
  }
  await takePairFromSidebars(context.profileDir, localRoot, context.warn);
  if (values['delete-local-files'] === true) {
    const trashed = await moveToTrash(localRoot, {
      syncRoot: resolve(localRoot, '..'),
      env: context.deps.env,
    });
    context.print(
      `${terminalSafe(localRoot)} is no longer synced; it is in the trash (${terminalSafe(trashed.location)}).`,
    );
  } else {
    context.print(`${terminalSafe(localRoot)} is no longer synced; its files stay where they are.`);
  }
  return 0;
}
