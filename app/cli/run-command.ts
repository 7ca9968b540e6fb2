// `mch-sync run`: one sync pass of a folder pair (--once) or live sync until stopped, under a per-folder lock.
import { statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { assertNever, MchError } from '../../common/errors.ts';
import { DeviceClient } from '../api/device-client.ts';
import { Session } from '../auth/session.ts';
import type { DeviceName } from '../sync/device-check.ts';
import { indexFilePath, openIndexDb } from '../index/index-db.ts';
import { IndexStore } from '../index/index-store.ts';
import { registerFolderPair, type FolderPair } from '../profile/folder-pairs.ts';
import { knownFolderPairs } from '../profile/known-pairs.ts';
import {
  newPairOverlap,
  notSyncedError,
  recordNewPair,
  refuseOverlappingPair,
} from '../profile/pair-check.ts';
import { resolveProfileDir } from '../profile/profile-dir.ts';
import { SyncEngine, type EngineLogLine } from '../sync/engine.ts';
import { META_REMOTE_FOLDER } from '../sync/pass-record.ts';
import type { PassReport } from '../sync/pass-report.ts';
import { remoteFolderSegments, RemoteFolderError } from '../sync/remote-folder.ts';
import { commandContext, stoppedByUser, UsageError, type CommandContext } from './cli-context.ts';
import { deviceAddress } from './device-session.ts';
import { lockSyncedFolder } from './folder-lock.ts';
import { runLive } from './run-live.ts';
import { formatRunSummary } from './run-summary.ts';
import { shownPath } from './issue-lines.ts';
import { terminalSafe } from '../search/terminal-text.ts';
import { RUN_USAGE } from './usage.ts';

type Values = Record<string, string | boolean | undefined>;

/** Exit code of a pass held for a choice: a mass delete or an emptied folder (0 done, 1 failed, 2 usage error). */
export const EXIT_HELD = 3;

export type RunErrorCode = 'LOCAL_FOLDER_MISSING' | 'LOCAL_FOLDER_NOT_A_FOLDER';

export class RunError extends MchError {
  declare readonly code: RunErrorCode;

  constructor(code: RunErrorCode, message: string, options?: { cause?: unknown }) {
    const titles: Record<RunErrorCode, string> = {
      LOCAL_FOLDER_MISSING: 'Folder missing',
      LOCAL_FOLDER_NOT_A_FOLDER: 'Not a folder',
    };
    super(code, titles[code], message, options);
  }
}

interface RunRequest {
  /** One pass and exit; otherwise live until stopped. */
  once: boolean;
  localRoot: string;
  remoteFolder: string;
  confirmDeletes: boolean;
  restore: boolean;
  json: boolean;
  verbose: boolean;
}

function readRequest(values: Values): RunRequest {
  const once = values['once'] === true;
  if (
    !once &&
    (values['confirm-deletes'] === true || values['restore'] === true || values['json'] === true)
  ) {
    throw new UsageError(
      '--confirm-deletes, --restore and --json go with --once; a live run that is held says so in ' +
        '`mch-sync status`, and `mch-sync resume` takes the same choices.',
      RUN_USAGE,
    );
  }
  if (values['confirm-deletes'] === true && values['restore'] === true) {
    throw new UsageError(
      '--confirm-deletes and --restore are the two ways out of an emptied folder: choose one.',
      RUN_USAGE,
    );
  }
  const folder = values['folder'];
  if (typeof folder !== 'string' || folder === '') {
    throw new UsageError('--folder is needed: the local folder to sync.', RUN_USAGE);
  }
  const localRoot = resolve(folder);
  const given = values['remote-folder'];
  const remoteFolder = typeof given === 'string' ? given : `/${basename(localRoot)}`;
  if (remoteFolder === '/' && given === undefined) {
    throw new UsageError(
      '--remote-folder is needed when --folder is the root of the file system.',
      RUN_USAGE,
    );
  }
  let segments: string[];
  try {
    segments = remoteFolderSegments(remoteFolder);
  } catch (error) {
    if (error instanceof RemoteFolderError)
      throw new UsageError(`--remote-folder: ${error.message}`, RUN_USAGE);
    throw error;
  }
  if (segments.some((segment) => segment === '.' || segment === '..')) {
    throw new UsageError(
      `--remote-folder must not contain "." or ".." (got ${JSON.stringify(remoteFolder)}).`,
      RUN_USAGE,
    );
  }
  return {
    once,
    localRoot,
    remoteFolder: `/${segments.join('/')}`,
    confirmDeletes: values['confirm-deletes'] === true,
    restore: values['restore'] === true,
    json: values['json'] === true,
    verbose: values['verbose'] === true,
  };
}

/** Refuses a missing folder before anything else happens: never sync an unmounted drive as "empty". */
function checkLocalFolder(localRoot: string): void {
  let isFolder: boolean;
  try {
    isFolder = statSync(localRoot).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new RunError(
      'LOCAL_FOLDER_MISSING',
      code === 'ENOENT'
        ? `The folder ${localRoot} does not exist: create it (mkdir) or check the path (a drive that is not mounted?). Nothing was synced.`
        : `The folder ${localRoot} cannot be read (${code ?? 'unknown error'}). Nothing was synced.`,
      { cause: error },
    );
  }
  if (!isFolder) {
    throw new RunError(
      'LOCAL_FOLDER_NOT_A_FOLDER',
      `${localRoot} is a file, not a folder. Nothing was synced.`,
    );
  }
}

export async function runRun(context: CommandContext, values: Values): Promise<number> {
  if (values['folder'] === undefined) return runEveryPair(context, values);
  const request = readRequest(values);
  checkLocalFolder(request.localRoot);
  const pairs = await knownFolderPairs(context.profileDir, context.warn);
  checkOverlap(context.profileDir, request, pairs);
  // The sign-in is checked first: a profile that is not signed in gets no lock or index folder.
  const session = await Session.open(context.auth);
  const lock = lockSyncedFolder(context.profileDir, request.localRoot);
  try {
    const deviceUrl = await deviceAddress(session, context.deps.signal);
    const client = new DeviceClient({ deviceUrl, transport: session.transport });
    const db = openIndexDb(indexFilePath(context.profileDir, request.localRoot));
    try {
      await recordPair(context, request, new IndexStore(db), pairs);
    } catch (error) {
      db.close();
      throw error;
    }
    if (!request.once) {
      try {
        return await runLive(context, {
          ...request,
          client,
          index: new IndexStore(db),
          device: deviceOf(session),
        });
      } finally {
        db.close();
      }
    }
    let report: PassReport;
    try {
      const engine = new SyncEngine({
        client,
        index: new IndexStore(db),
        localRoot: request.localRoot,
        remoteFolder: request.remoteFolder,
        device: deviceOf(session),
        env: context.deps.env,
        ...(request.verbose ? { log: (line: EngineLogLine) => context.deps.stderr(logText(line)) } : {}),
      });
      report = await engine.syncOnce({
        confirmDeletes: request.confirmDeletes,
        restore: request.restore,
        ...(context.deps.signal === undefined ? {} : { signal: context.deps.signal }),
      });
    } finally {
      db.close();
    }
    return printReport(context, request, report);
  } finally {
    lock.release();
  }
}

function printReport(context: CommandContext, request: RunRequest, report: PassReport): number {
  if (request.json) {
    context.print(JSON.stringify(report, null, 2));
  } else {
    const lines = formatRunSummary(report, {
      localRoot: request.localRoot,
      remoteFolder: request.remoteFolder,
      confirmCommand: runCommand(context, request, '--confirm-deletes'),
      restoreCommand: runCommand(context, request, '--restore'),
    });
    for (const line of lines) context.print(line);
  }
  if (stoppedByUser(context.deps.signal)) {
    context.deps.stderr('mch-sync: stopped (Ctrl+C); the next run continues from here.\n');
    return 1;
  }
  switch (report.status) {
    case 'synced':
      return 0;
    case 'errors':
      return 1;
    case 'held':
      // "Held" for scripts means a choice waits (--confirm-deletes, --restore); neither brings back a
      // missing folder.
      return report.hold?.reason === 'local-root-missing' ? 1 : EXIT_HELD;
    default:
      return assertNever(report.status, 'pass status');
  }
}

/**
 * `run` without --folder: every pair of the profile, one pass each in turn (--once; the exit code is
 * the worst of theirs), or all live at once, each line of output naming its folder.
 */
async function runEveryPair(context: CommandContext, values: Values): Promise<number> {
  if (values['remote-folder'] !== undefined) {
    throw new UsageError('--remote-folder goes with --folder.', RUN_USAGE);
  }
  const pairs = await knownFolderPairs(context.profileDir, context.warn);
  if (pairs.length === 0) {
    throw new UsageError(
      'This profile syncs no folder yet: give one with --folder, or add one with `mch-sync folders add`.',
      RUN_USAGE,
    );
  }
  const valuesOf = (pair: FolderPair): Values => ({
    ...values,
    folder: pair.localRoot,
    'remote-folder': pair.remoteFolder,
  });
  if (values['once'] === true) {
    let worst = 0;
    for (const pair of pairs) {
      context.print(`${shownPath(pair.localRoot)} ↔ ${shownPath(pair.remoteFolder)}`);
      worst = Math.max(
        worst,
        await runRun(context, valuesOf(pair)).catch((error: unknown) =>
          reportPairFailure(context, pair, error),
        ),
      );
    }
    return worst;
  }
  // One terminal cannot show several live displays: plain lines, each with its folder's name.
  const codes = await Promise.all(
    pairs.map((pair) => {
      const label = basename(pair.localRoot);
      const paired = commandContext(
        {
          ...context.deps,
          terminal: undefined,
          stdout: (text) => context.deps.stdout(prefixLines(label, text)),
        },
        context.profileDir,
      );
      return runRun(paired, valuesOf(pair)).catch((error: unknown) =>
        reportPairFailure(context, pair, error),
      );
    }),
  );
  return Math.max(...codes);
}

function prefixLines(label: string, text: string): string {
  return text.replace(/^(?=.)/gm, `[${label}] `);
}

/** One pair that cannot run does not stop the others: its error is said, and the exit code is 1. */
function reportPairFailure(context: CommandContext, pair: FolderPair, error: unknown): number {
  if (!(error instanceof MchError)) throw error;
  context.deps.stderr(`mch-sync: ${shownPath(pair.localRoot)}: ${error.message}\n`);
  return 1;
}

/**
 * Refuses a pair that overlaps another of the profile: a new one (this run would record it) with the
 * reason, a recorded one (made by an older version) with the reason and how to fix it.
 */
function checkOverlap(profileDir: string, request: RunRequest, pairs: readonly FolderPair[]): void {
  const recorded = pairs.some((pair) => pair.localRoot === request.localRoot);
  if (!recorded) {
    refuseOverlappingPair(profileDir, request, pairs);
    return;
  }
  const overlap = newPairOverlap(profileDir, request, pairs);
  if (overlap !== undefined) throw notSyncedError(request.localRoot, overlap);
}

/**
 * Records the pair in the profile (commands given only a path and the file-manager entries read it),
 * unless the index is paired with another device folder: the engine refuses that run. A new pair is
 * checked again as it is recorded (recordNewPair), against pairs added meanwhile.
 */
async function recordPair(
  context: CommandContext,
  request: RunRequest,
  index: IndexStore,
  pairs: readonly FolderPair[],
): Promise<void> {
  const pairedWith = index.getMeta(META_REMOTE_FOLDER);
  if (pairedWith !== undefined && pairedWith !== request.remoteFolder) return;
  const pair = { localRoot: request.localRoot, remoteFolder: request.remoteFolder };
  if (pairs.some((known) => known.localRoot === request.localRoot)) {
    await registerFolderPair(context.profileDir, pair);
  } else {
    await recordNewPair(context.profileDir, pair, pairs, context.warn);
  }
}

/** The command line that goes on from a held pass with `choice`, as the user would type it. */
function runCommand(
  context: CommandContext,
  request: RunRequest,
  choice: '--confirm-deletes' | '--restore',
): string {
  const words = ['mch-sync'];
  if (resolveProfileDir({ env: context.deps.env }) !== context.profileDir) {
    words.push('--profile', context.profileDir);
  }
  words.push('run', '--folder', request.localRoot, '--remote-folder', request.remoteFolder, '--once');
  words.push(choice);
  return words.map(shellQuote).join(' ');
}

function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** One log line on stderr, whatever the path or message holds (a newline, an escape sequence). */
function logText(line: EngineLogLine): string {
  const path = line.path === undefined ? '' : `${shownPath(line.path)}: `;
  return `mch-sync: ${line.level}: ${path}${terminalSafe(line.message)}\n`;
}

/** The device the profile chose (deviceAddress has checked there is one): a pair synced with another is held. */
function deviceOf(session: Session): DeviceName | undefined {
  const chosen = session.settings.device;
  return chosen === undefined ? undefined : { id: chosen.id, name: chosen.name };
}
