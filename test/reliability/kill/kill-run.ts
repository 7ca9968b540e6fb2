// One seed of the SIGKILL runs: real `mch-sync run` children killed mid-work, then runs until quiet, then the invariants.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeviceClient } from '../../../app/api/device-client.ts';
import { folderKey, indexFilePath, openIndexDb } from '../../../app/index/index-db.ts';
import { IndexStore } from '../../../app/index/index-store.ts';
import type { IndexRow } from '../../../app/model/items.ts';
import { staysOut, type PassReport } from '../../../app/sync/pass-report.ts';
import { ensureRemoteFolder } from '../../../app/sync/remote/remote-folder.ts';
import { clientFor } from '../../helpers/api-client.ts';
import { startTestDevice, type TestDevice } from '../../helpers/device.ts';
import { signedInProfile, type SignedInProfile } from '../../helpers/signed-in-profile.ts';
import {
  applyLocalChange,
  applyRemoteChange,
  buildLocalTree,
  buildRemoteTree,
  type LocalSide,
  type RemoteSide,
} from '../canopy/apply.ts';
import { checkState, requiredContents, type PassState, type VersionsSeen } from '../canopy/invariants.ts';
import { checkReport, checkStable } from '../canopy/report-checks.ts';
import { readDeviceTree, readLocalTree, readTrashedContents, readVersionStore } from '../canopy/snapshot.ts';
import { checkNoConflictedCopies, checkNoDuplicates, checkNoLeftovers } from './checks.ts';
import { runChild, type ChildRun, type RunTarget } from './child.ts';
import { generateKillScenario, type KillMoment, type KillScenario, type WorkKind } from './scenario.ts';

/** One device and one signed-in profile for many seeds, with the data of both in memory where it can be. */
export interface KillRig {
  device: TestDevice;
  /** Holds the profile and every seed's folders. */
  base: string;
  profile: string;
  env: NodeJS.ProcessEnv;
  /** Another computer of the same user: the device-side changes go through it. */
  other: DeviceClient;
  stop(): Promise<void>;
}

export interface KillSeedOptions {
  /** Files in the initial tree. */
  files: number;
  /** Print what each run did. */
  log?: boolean;
  /** A rig shared by many seeds; without one, the seed starts its own and stops it. */
  rig?: KillRig;
}

/** Memory where there is one: uploads flush to disk, which is not under test and is most of the time on one. */
function scratchBase(): string {
  return existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
}

export async function startKillRig(): Promise<KillRig> {
  const base = mkdtempSync(join(scratchBase(), 'mch-kill-'));
  const device = await startTestDevice({ dataDir: join(base, 'device') });
  const stop = async (): Promise<void> => {
    await device.stop();
    rmSync(base, { recursive: true, force: true });
  };
  let signedIn: SignedInProfile;
  try {
    signedIn = await signedInProfile(device, 'home-', base);
  } catch (error) {
    await stop();
    throw error;
  }
  const { profile, env } = signedIn;
  return { device, base, profile, env, other: clientFor(device).device, stop };
}

export interface KillSeedResult {
  /** Empty when the seed converged with every invariant held; each is `code: message`. */
  violations: string[];
  kind: WorkKind;
  /** Runs that SIGKILL ended mid-work (the others reached their end before their moment). */
  killed: number;
  /** Live runs killed after they said they were up to date. */
  killedIdle: number;
  /** Runs meant to be killed. */
  moments: number;
}

/** Runs seed `seed` and says what broke (nothing, when it converged with every invariant held). */
export async function runKillSeed(seed: number, options: KillSeedOptions): Promise<KillSeedResult> {
  const rig = options.rig ?? (await startKillRig());
  try {
    return await runSeed(rig, generateKillScenario(seed, options.files), options.log === true);
  } finally {
    if (options.rig === undefined) await rig.stop();
  }
}

/** The runs (not killed) after the kills: one to finish the work, one that must find nothing to do. */
const QUIET_RUNS = 2;

/** Runs per seed in this process, so a second run of a seed gets its own remote folder. */
const runsOfSeed = new Map<number, number>();

async function runSeed(rig: KillRig, plan: KillScenario, log: boolean): Promise<KillSeedResult> {
  const { scenario } = plan;
  const run = (runsOfSeed.get(scenario.seed) ?? 0) + 1;
  runsOfSeed.set(scenario.seed, run);
  const work = mkdtempSync(join(rig.base, `seed-${scenario.seed}-`));
  const local: LocalSide = { root: join(work, 'local'), scratch: join(work, 'scratch') };
  const dataHome = join(work, 'home', '.local', 'share');
  for (const folder of [local.root, local.scratch, dataHome]) mkdirSync(folder, { recursive: true });
  const target: RunTarget = {
    profile: rig.profile,
    env: { ...rig.env, HOME: join(work, 'home'), XDG_DATA_HOME: dataHome },
    localRoot: local.root,
    remoteFolder: `/kill-${scenario.seed}${run === 1 ? '' : `-${run}`}`,
  };
  const remote: RemoteSide = {
    client: rig.other,
    device: rig.device.running.context,
    folderId: (await ensureRemoteFolder(rig.other, target.remoteFolder)).id,
  };
  const say = (text: string): void => {
    if (log) process.stdout.write(`seed ${scenario.seed}: ${text}\n`);
  };
  const violations: string[] = [];
  let killed = 0;
  let killedIdle = 0;
  const result = (violations: string[]): KillSeedResult => ({
    violations,
    kind: plan.kind,
    killed,
    killedIdle,
    moments: plan.kills.length,
  });
  try {
    say(
      `${plan.kind}, ${scenario.initial.length} items from the ${scenario.initialSide} side, ` +
        `${scenario.local.length} local and ${scenario.remote.length} remote changes${plan.setupPass ? ' after a first pass' : ''}`,
    );
    if (scenario.initialSide === 'local') buildLocalTree(local, scenario.initial);
    else await buildRemoteTree(remote, scenario.initial);
    const early = {
      local: scenario.local.slice(0, scenario.local.length - plan.late.local.length),
      remote: scenario.remote.slice(0, scenario.remote.length - plan.late.remote.length),
    };
    if (plan.setupPass) {
      const setup = await runChild(rig.device, target);
      if (setup.code !== 0) return result([`setup: the first pass exited ${setup.code}: ${setup.stderr}`]);
      for (const change of early.local) applyLocalChange(local, change);
      for (const change of early.remote) await applyRemoteChange(remote, change);
    }
    for (const [index, moment] of plan.kills.entries()) {
      const run = await runChild(rig.device, target, moment);
      say(`${describeMoment(moment)}: ${describeRun(run)}`);
      if (run.signal === 'SIGKILL' && run.idle) killedIdle += 1;
      else if (run.signal === 'SIGKILL') killed += 1;
      // A run that ended before its moment is an ordinary run: it must have gone well.
      else if (!moment.live && run.code !== 0)
        violations.push(`pass-failed: a run between kills exited ${run.code}: ${run.stderr.trim()}`);
      if (index === 0) {
        // The user goes on working while nothing runs: the next run starts from the crash and these.
        for (const change of plan.late.local) applyLocalChange(local, change);
        for (const change of plan.late.remote) await applyRemoteChange(remote, change);
        if (plan.late.local.length + plan.late.remote.length > 0)
          say(`then ${plan.late.local.length} local and ${plan.late.remote.length} remote changes`);
      }
    }
    const reports: PassReport[] = [];
    for (let index = 0; index < QUIET_RUNS && violations.length === 0; index += 1) {
      const report = await quietRun(rig, target, violations, say);
      if (report === undefined) break;
      reports.push(report);
      if (index === 0) violations.push(...checkReport(report, 'the run after the kills').map(text));
      else {
        violations.push(...checkStable(report).map(text));
        break;
      }
    }
    const state = readState(rig, target, remote.folderId, reports.at(-1));
    violations.push(
      ...checkState(state, requiredContents(scenario)).map(text),
      ...checkNoLeftovers(state.local).map(text),
      ...checkNoDuplicates(state.local, 'local').map(text),
      ...checkNoDuplicates(state.remote, 'the device').map(text),
      ...(plan.kind === 'mixed' ? [] : checkNoConflictedCopies(state.local).map(text)),
    );
    if (violations.length > 0) say(`violations:\n  ${violations.join('\n  ')}`);
    return result(violations);
  } finally {
    rmSync(work, { recursive: true, force: true });
    // The seed's index, its journal files and its lock: a sweep of hundreds of seeds leaves none.
    const indexFolder = join(rig.profile, 'index');
    for (const name of readdirSync(indexFolder).filter((name) => name.startsWith(folderKey(local.root))))
      rmSync(join(indexFolder, name), { force: true });
    await rig.other.delete(remote.folderId).catch(() => undefined);
  }
}

function text(violation: { code: string; message: string }): string {
  return `${violation.code}: ${violation.message}`;
}

/** One run to its end; a pass held for the scenario's own deletes goes on as its user would. */
async function quietRun(
  rig: KillRig,
  target: RunTarget,
  violations: string[],
  say: (text: string) => void,
): Promise<PassReport | undefined> {
  let result: ChildRun = await runChild(rig.device, target);
  say(`run to the end: ${describeRun(result)}`);
  if (result.code === 3) {
    result = await runChild(rig.device, target, undefined, ['--confirm-deletes']);
    say(`run to the end with --confirm-deletes: ${describeRun(result)}`);
  }
  const json = result.stdout.slice(result.stdout.indexOf('{'));
  try {
    const report = JSON.parse(json) as PassReport;
    if (result.code !== 0)
      violations.push(`pass-failed: a run after the kills exited ${result.code}: ${result.stderr.trim()}`);
    return report;
  } catch {
    violations.push(
      `pass-failed: a run after the kills exited ${result.code} without a report: ${result.stderr.trim()}`,
    );
    return undefined;
  }
}

function readState(
  rig: KillRig,
  target: RunTarget,
  folderId: string,
  report: PassReport | undefined,
): PassState {
  const db = openIndexDb(indexFilePath(rig.profile, target.localRoot));
  let index: IndexRow[];
  let versions: VersionsSeen;
  try {
    index = [...new IndexStore(db).entries()];
    versions = readVersionStore(target.localRoot, db);
  } finally {
    db.close();
  }
  const dataHome = target.env['XDG_DATA_HOME'] ?? '';
  const skippedOn = (side: 'local' | 'remote' | undefined): string[] =>
    (report?.issues ?? [])
      .filter((issue) => staysOut(issue) && issue.side === side)
      .map((issue) => issue.path);
  return {
    local: readLocalTree(target.localRoot),
    remote: readDeviceTree(rig.device.running.context, folderId),
    index,
    trashed: readTrashedContents([
      join(dataHome, 'Trash', 'files'),
      join(target.localRoot, '.mch-sync', 'trash'),
    ]),
    versions,
    remoteRootId: folderId,
    skipped: skippedOn(undefined),
    skippedLocal: skippedOn('local'),
    skippedRemote: skippedOn('remote'),
  };
}

function describeMoment(moment: KillMoment): string {
  const how = moment.live ? 'live run' : 'run --once';
  if (moment.at === 'request')
    return `${how} killed at request ${moment.request}${moment.thenMs > 0 ? ` + ${moment.thenMs} ms` : ''}`;
  if (moment.at === 'local') return `${how} killed at local change ${moment.event}`;
  return `${how} killed after ${moment.ms} ms`;
}

function describeRun(run: ChildRun): string {
  const end = run.signal === null ? `exited ${run.code}` : `killed (${run.signal})`;
  return `${end} after ${run.requests} requests`;
}
