// `mch-sync run`: one sync pass of a folder pair (--once) or live sync until stopped, under a per-folder lock.
import type { StateService } from '../../file-state/state-service.ts';
import { mkdir } from 'node:fs/promises';
import { basename } from 'node:path';
import { assertNever, MchError } from '../../../common/errors.ts';
import { DeviceClient } from '../../api/device-client.ts';
import { Session } from '../../auth/session.ts';
import type { DeviceName } from '../../sync/guards/device-check.ts';
import { indexFilePath, openIndexDb } from '../../index/index-db.ts';
import { IndexStore } from '../../index/index-store.ts';
import { registerFolderPair, type FolderPair } from '../../profile/folder-pairs.ts';
import { placePairInSidebars } from '../../integrate/sidebar-places.ts';
import { pairSelectionStore } from '../../profile/pair-selection.ts';
import { readPairVersions } from '../../profile/pair-versions.ts';
import { pinnedIdsReader, readPairOnDemand } from '../../profile/pair-on-demand.ts';
import { pinnedPolicy } from '../../on-demand/pinned-policy.ts';
import { tellAdopted } from '../../on-demand/mount-keeper.ts';
import { adoptUnmountedContent } from '../../on-demand/unmounted-content.ts';
import { knownFolderPairs } from '../../profile/known-pairs.ts';
import {
  newPairOverlap,
  notSyncedError,
  recordNewPair,
  refuseOverlappingPair,
} from '../../profile/pair-check.ts';
import { resolveProfileDir } from '../../profile/profile-dir.ts';
import { SyncEngine, type EngineLogLine } from '../../sync/engine.ts';
import { META_REMOTE_FOLDER, META_REMOTE_ROOT } from '../../index/meta-keys.ts';
import type { PassReport } from '../../sync/pass-report.ts';
import { commandContext, stoppedByUser, UsageError, type CommandContext } from '../terminal/cli-context.ts';
import { deviceRoute, routeChoice } from '../../auth/device-address.ts';
import { lockSyncedFolder } from '../../profile/folder-lock.ts';
import { LimitsWatcher, limitsInWords } from '../../auth/limits-watcher.ts';
import type { NetworkMonitor } from '../../network/network-monitor.ts';
import type * as RunLive from './run-live.ts';
import { checkLocalFolder, readRequest, type RunRequest } from './run-request.ts';
import { formatRunSummary } from './run-summary.ts';
import { shownPath } from '../terminal/issue-lines.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import { safeText } from '../terminal/output.ts';
import { RUN_USAGE } from '../usage.ts';

type Values = Record<string, string | boolean | undefined>;

/**
 * The live service and what only it uses (the state service, the network watch, the live display),
 * loaded when a run is live: `run --once` (a script's, the benches') starts without them.
 */
function liveRunning(): Promise<typeof RunLive> {
  return import('./run-live.ts');
}

/** Exit code of a pass held for a choice: a mass delete or an emptied folder (0 done, 1 failed, 2 usage error). */
export const EXIT_HELD = 3;

export { RunError, type RunErrorCode } from './run-request.ts';

/**
 * `states` and `network`: the process's state service and network monitor, when several pairs run live
 * in it (else each run starts its own).
 */
export async function runRun(
  context: CommandContext,
  values: Values,
  states?: StateService,
  network?: NetworkMonitor,
): Promise<number> {
  if (context.auth.transport === undefined) {
    // One set of limits for the process, shared by every pair it runs and following the settings.
    const limits = await LimitsWatcher.start({
      profileDir: context.profileDir,
      warn: context.warn,
      onApplied: (now) => context.deps.stderr(`mch-sync: limits changed: ${limitsInWords(now)}\n`),
    });
    try {
      return await runRun(
        { ...context, auth: { ...context.auth, transport: limits.transport } },
        values,
        states,
        network,
      );
    } finally {
      limits.close();
    }
  }
  if (values['folder'] === undefined) return runEveryPair(context, values);
  return runFolder(
    context,
    values,
    (request, report) => printReport(context, request, report),
    states,
    network,
  );
}

/** What becomes of a finished pass: printed (or kept), and the exit code it means. */
type PassOutcome = (request: RunRequest, report: PassReport) => number;

async function runFolder(
  context: CommandContext,
  values: Values,
  outcome: PassOutcome,
  states?: StateService,
  network?: NetworkMonitor,
): Promise<number> {
  const given = readRequest(values);
  checkLocalFolder(given.localRoot);
  const pairs = await knownFolderPairs(context.profileDir, context.warn);
  // `--folder F` alone syncs F's recorded pair, whatever its device folder is called (issue 27).
  const recorded = pairs.find((pair) => pair.localRoot === given.localRoot);
  const request =
    recorded === undefined || given.remoteFolderGiven
      ? given
      : { ...given, remoteFolder: recorded.remoteFolder };
  checkOverlap(context.profileDir, request, pairs);
  // The sign-in is checked first: a profile that is not signed in gets no lock or index folder.
  const session = await Session.open(context.auth);
  const lock = lockSyncedFolder(context.profileDir, request.localRoot);
  try {
    const route = await deviceRoute(session, context.deps.signal, routeChoice(context.deps.env));
    const client = new DeviceClient({ deviceUrl: route, transport: session.transport });
    const db = openIndexDb(indexFilePath(context.profileDir, request.localRoot));
    try {
      await recordPair(context, request, new IndexStore(db), pairs);
    } catch (error) {
      db.close();
      throw error;
    }
    if (!request.once) {
      route.start();
      try {
        const { runLive } = await liveRunning();
        return await runLive(context, {
          ...request,
          client,
          route,
          index: new IndexStore(db),
          device: deviceOf(session),
          folderLock: lock,
          ...(states === undefined ? {} : { states }),
          ...(network === undefined ? {} : { network }),
        });
      } finally {
        route.stop();
        db.close();
      }
    }
    // One pass goes home when home answers now, even if the last run ended on the relay.
    if (route.state.via !== 'home') await route.check();
    // One pass of an on-demand pair syncs its cache folder, unmounted: placeholders come down.
    const onDemand = readPairOnDemand(context.profileDir, request.localRoot);
    if (onDemand !== undefined) {
      await mkdir(onDemand.cache, { recursive: true, mode: 0o700 });
      // What was saved in the folder while nothing showed there goes into what syncs, as at a mount.
      const adopted = await adoptUnmountedContent(request.localRoot, onDemand.cache);
      tellAdopted(adopted, (_level, message) => context.deps.stderr(`mch-sync: ${safeText(message)}\n`));
    }
    const pinned = pinnedIdsReader(context.profileDir, request.localRoot);
    let report: PassReport;
    try {
      const index = new IndexStore(db);
      const kept = pinnedPolicy(pinned, () => index.getMeta(META_REMOTE_ROOT));
      const engine = new SyncEngine({
        client,
        index,
        localRoot: onDemand?.cache ?? request.localRoot,
        ...(onDemand === undefined ? {} : { pairFolder: request.localRoot, onDemand: kept }),
        remoteFolder: request.remoteFolder,
        device: deviceOf(session),
        folderLock: lock,
        env: context.deps.env,
        selection: pairSelectionStore(context.profileDir, request.localRoot),
        versions: () => readPairVersions(context.profileDir, request.localRoot),
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
    return outcome(request, report);
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
  return exitCode(context, report);
}

function exitCode(context: CommandContext, report: PassReport): number {
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
 * `run` without --folder: every pair of the profile, one pass each in turn (--once), or all live at
 * once, each line of output naming its folder.
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
  if (values['once'] === true) return everyPairOnce(context, pairs, valuesOf, values['json'] === true);
  const { startNetwork, startStates } = await liveRunning();
  // One state service for the process (one socket per running client), closed after every pair.
  const states = await startStates(context);
  // One watch of the network for every pair (one bus connection), like the state service.
  const network = await startNetwork(context);
  // One terminal cannot show several live displays: plain lines, each with its folder's name (which
  // may hold an escape sequence or a newline: shown inert, as every name).
  const codes = await Promise.all(
    pairs.map((pair) => {
      const label = terminalSafe(basename(pair.localRoot));
      const paired = commandContext(
        {
          ...context.deps,
          terminal: undefined,
          stdout: (text) => context.deps.stdout(prefixLines(label, text)),
        },
        context.profileDir,
      );
      // The process's transport (its limits) for every pair.
      paired.auth = context.auth;
      return runRun(paired, valuesOf(pair), states, network).catch((error: unknown) =>
        reportPairFailure(context, pair, error),
      );
    }),
  );
  await states?.close();
  network.stop();
  return Math.max(...codes);
}

function prefixLines(label: string, text: string): string {
  return text.replace(/^(?=.)/gm, `[${label}] `);
}

/** One element of `run --once --json` without --folder: the pair, and its pass report or why it did not run. */
export type PairJson = Pick<FolderPair, 'localRoot' | 'remoteFolder'> &
  (PassReport | { error: { code: string; message: string } });

/**
 * `run --once` without --folder: one pass of each pair in turn, the exit code the worst of theirs. The
 * summaries follow a header naming their pair; with --json, one document a script can read: an array
 * with one element per pair (`PairJson`), and no header.
 */
async function everyPairOnce(
  context: CommandContext,
  pairs: readonly FolderPair[],
  valuesOf: (pair: FolderPair) => Values,
  json: boolean,
): Promise<number> {
  const documents: PairJson[] = [];
  const keep: PassOutcome = ({ localRoot, remoteFolder }, report) => {
    documents.push({ localRoot, remoteFolder, ...report });
    return exitCode(context, report);
  };
  const print: PassOutcome = (request, report) => printReport(context, request, report);
  let worst = 0;
  for (const pair of pairs) {
    const { localRoot, remoteFolder } = pair;
    if (!json) context.print(`${shownPath(localRoot)} ↔ ${shownPath(remoteFolder)}`);
    const code = await runFolder(context, valuesOf(pair), json ? keep : print).catch((error: unknown) => {
      const failed = reportPairFailure(context, pair, error);
      const { code: errorCode, message } = error as MchError;
      documents.push({ localRoot, remoteFolder, error: { code: errorCode, message } });
      return failed;
    });
    worst = Math.max(worst, code);
  }
  if (json) context.print(JSON.stringify(documents, null, 2));
  return worst;
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
    // A new pair: in the file managers' sidebars where `integrate --install` put the others.
    await placePairInSidebars(context.profileDir, pair.localRoot, context.warn);
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
