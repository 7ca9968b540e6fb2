// The engine processes of one soak seed (run with syncOnce): started, crashed, replaced, and their passes.
import type { AddressInfo } from 'node:net';
import type { SyncedFolderLock } from '../../../app/profile/folder-lock.ts';
import type { SelectionStore } from '../../../app/model/selection.ts';
import type { OnDemandPolicy, VersionsPolicy } from '../../../app/sync/engine-options.ts';
import { SyncEngine, type EngineLogLine, type SyncOptions } from '../../../app/sync/engine.ts';
import { staysOut, type PassIssue, type PassReport } from '../../../app/sync/pass-report.ts';
import { buildApp } from '../../../device/server.ts';
import { clientFor, type RecordedClient } from '../../helpers/api-client.ts';
import type { TestDevice } from '../../helpers/device.ts';
import { newEngineProcess, openCrashingIndex, type CrashingIndexStore, type EngineProcess } from './crash.ts';
import type { PassState, Violation } from './invariants.ts';
import type { ExpectedIssue } from './report-checks.ts';
import { isQuiet, MAX_PASSES_TO_QUIET } from './soak-invariants.ts';
import type { CrashPlan, FaultPlan } from './soak-scenario.ts';
import { WireRelay, type UploadTap } from './wire.ts';

const FIXED_NOW = new Date('2026-11-23T12:34:56Z');
const PASS_LIMIT_MS = 60_000;

/** The engine of one process: a new one after a crash shares nothing with the dead one but files. */
export interface EngineHost {
  process: EngineProcess;
  index: CrashingIndexStore;
  engine: SyncEngine;
  client: RecordedClient;
  abort: AbortController;
  /** Its own way to the device: a dead process's relay refuses everything for good. */
  relay: WireRelay;
  /** The folder's locks, when the seed takes them as `mch-sync run` does (the OS drops them at death). */
  lock: SyncedFolderLock | undefined;
}

export interface HostOptions {
  device: TestDevice;
  localRoot: string;
  remoteFolder: string;
  indexPath: string;
  env: { HOME: string; XDG_DATA_HOME: string };
  caseInsensitive: boolean;
  /** The engine's client sends files above this as resumable uploads (issue 26's upload seeds). */
  resumable?: { thresholdBytes: number; chunkBytes: number };
  /** Watches the bodies of every process's uploads (issue 26). */
  tap?: UploadTap;
  /** Each process takes the folder's locks before its passes (issue 26's second-process seeds). */
  lock?: () => SyncedFolderLock;
  /** Issue 29: the pair's selection (kept by the user, not by a process), and the issues it makes expected. */
  selection?: SelectionStore;
  expected?: ExpectedIssue;
  /** Issue 30: an on-demand pair's policy (its pins are the user's, not a process's). */
  onDemand?: OnDemandPolicy;
  /** Issue 31: versions off (a device delete to the trash, as before), or a conflict policy. */
  versions?: 'off' | VersionsPolicy;
}

/** Each pass's report, the current engine process, and a new one whenever a process dies. */
export class EngineHosts {
  readonly log: EngineLogLine[] = [];
  readonly issues: PassIssue[] = [];
  readonly requests: string[] = [];
  passes = 0;
  crashed = false;
  last: PassReport | Error | undefined;
  host!: EngineHost;
  readonly #options: HostOptions;

  constructor(options: HostOptions) {
    this.#options = options;
  }

  async start(): Promise<void> {
    this.host = await this.#start();
  }

  async #start(): Promise<EngineHost> {
    const options = this.#options;
    const relay = new WireRelay(options.device.base);
    if (options.tap !== undefined) relay.tapUploads(options.tap);
    const relayUrl = await relay.listen();
    const index = openCrashingIndex(options.indexPath);
    const client = clientFor(options.device, {
      deviceUrl: relayUrl,
      ...(options.resumable === undefined
        ? {}
        : {
            resumableThresholdBytes: options.resumable.thresholdBytes,
            chunkBytes: options.resumable.chunkBytes,
          }),
    });
    // Taken before the engine is made, as `mch-sync run` does, and handed to it: the lock follows a
    // replaced folder the user answers for (soak seed 528).
    const lock = options.lock?.();
    const engine = new SyncEngine({
      client: client.device,
      index,
      localRoot: options.localRoot,
      remoteFolder: options.remoteFolder,
      now: () => FIXED_NOW,
      log: (line) => this.log.push(line),
      env: options.env,
      caseInsensitive: options.caseInsensitive,
      ...(lock === undefined ? {} : { folderLock: lock }),
      ...(options.selection === undefined ? {} : { selection: options.selection }),
      ...(options.onDemand === undefined ? {} : { onDemand: options.onDemand }),
      ...(options.versions === undefined ? {} : { versions: options.versions }),
    });
    return { process: newEngineProcess(), index, engine, client, abort: new AbortController(), relay, lock };
  }

  /** The process dies: no more disk writes, requests or index writes (SQLite rolls back what was open). */
  kill(dying: EngineHost): void {
    this.crashed = true;
    dying.process.kill();
    dying.abort.abort();
    dying.relay.markCrashed();
    if (dying.index.db.open && !dying.index.db.inTransaction) dying.index.db.close();
    dying.lock?.release();
  }

  /** Whether a process was started (the last one is stopped at the end). */
  get started(): boolean {
    return (this.host as EngineHost | undefined) !== undefined;
  }

  async stop(stopped: EngineHost = this.host): Promise<void> {
    this.requests.push(...stopped.client.requests());
    if (stopped.index.db.open) stopped.index.db.close();
    stopped.lock?.release();
    // A request the dead process had sent still reaches the device; a restart takes longer than that
    // (seed 2742: a create landing after the new process had looked for it in its recovery).
    await stopped.relay.settled();
    await stopped.relay.close();
  }

  /**
   * One pass. The scenario's deletes are the user's own: asked about an emptied folder, they confirm
   * (`answerEmptied`, the default). `sync`: the user's answer to a hold, for this pass.
   */
  async pass(options: { answerEmptied?: boolean; sync?: SyncOptions } = {}): Promise<PassReport | Error> {
    this.passes += 1;
    const current = this.host;
    const run = async (): Promise<PassReport> => {
      const signal = AbortSignal.any([current.abort.signal, AbortSignal.timeout(PASS_LIMIT_MS)]);
      let report = await current.engine.syncOnce({ ...options.sync, signal });
      if (options.answerEmptied !== false && report.hold?.reason === 'emptied-root')
        report = await current.engine.syncOnce({ confirmDeletes: true, signal });
      return report;
    };
    try {
      const report = await current.process.run(run);
      this.issues.push(...report.issues);
      this.last = report;
    } catch (error) {
      this.last = error instanceof Error ? error : new Error(String(error));
    } finally {
      if (current.process.dead) {
        // A new process: new index connection, engine, client and relay; the dead one's are dropped.
        await this.stop(current);
        this.host = await this.#start();
      }
    }
    return this.last;
  }

  /**
   * Passes (each through `pass`, by default `this.pass()`) until one is quiet; a violation when that
   * takes more than MAX_PASSES_TO_QUIET.
   */
  async untilQuiet(
    phase: string,
    pass: () => Promise<PassReport | Error> = () => this.pass(),
  ): Promise<Violation[]> {
    for (let count = 1; count <= MAX_PASSES_TO_QUIET; count++) {
      const report = await pass();
      if (report instanceof Error) {
        const where = (report.stack ?? report.message).split('\n').slice(0, 4).join('\n');
        return [{ code: 'pass-failed', message: `${phase}, pass ${count} after it: threw ${where}` }];
      }
      if (isQuiet(report, this.#options.expected)) return [];
      if (report.hold !== null) {
        return [
          { code: 'not-quiet', message: `${phase}, pass ${count} after it: held (${report.hold.reason})` },
        ];
      }
    }
    return [{ code: 'not-quiet', message: `${phase}: still not quiet after ${MAX_PASSES_TO_QUIET} passes` }];
  }

  /** Arms the planned crash on the current process. */
  armCrash(crash: CrashPlan | null): void {
    if (crash === null) return;
    const host = this.host;
    const onCrash = (): void => this.kill(host);
    if (crash.how === 'in-transaction') {
      host.relay.arm({ onCrash });
      host.index.crashInTransaction(crash.at, () => {
        this.kill(host);
      });
    } else {
      host.relay.arm({ crash: { at: crash.at, how: crash.how }, onCrash });
    }
  }

  /** What the last passes reported as skipped: those items may be on one side only. */
  skippedNow(): Pick<PassState, 'skipped' | 'skippedLocal' | 'skippedRemote' | 'nameClashes'> {
    return skippedIn(this.last instanceof Error || this.last === undefined ? [] : this.last.issues);
  }
}

export function skippedIn(
  issues: readonly PassIssue[],
): Pick<PassState, 'skipped' | 'skippedLocal' | 'skippedRemote' | 'nameClashes'> {
  const on = (side: PassIssue['side']): string[] =>
    issues.filter((issue) => staysOut(issue) && issue.side === side).map((issue) => issue.path);
  const nameClashes = issues
    .filter((issue) => staysOut(issue) && issue.code === 'NAME_CLASH')
    .map((issue) => issue.path);
  return { skipped: on(undefined), skippedLocal: on('local'), skippedRemote: on('remote'), nameClashes };
}

/**
 * The same device (one store, one set of content files) answering on a second port with its own fault
 * injection (device/faults.ts, what `mch-device --faults` installs): the engine's requests go there
 * while the other client and the checks use the plain port.
 */
export async function startFaultyFront(
  device: TestDevice,
  plan: FaultPlan,
): Promise<{ url: string; close: () => Promise<void> }> {
  const spec = {
    error: plan.error,
    reset: plan.reset,
    lost: plan.lost,
    scope: 'device' as const,
    ...(plan.latencyMs > 0 ? { latency: { min: 0, max: plan.latencyMs } } : {}),
  };
  const app = buildApp(device.running.context, 'silent', { spec, seed: plan.seed });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
}
