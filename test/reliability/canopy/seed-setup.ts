// What a soak seed needs around its passes, with syncOnce or live: folders, the initial tree with the harness's own items, the state read for the checks, and the checks of issue 26.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeviceClient } from '../../../app/api/device-client.ts';
import type { IndexStore } from '../../../app/index/index-store.ts';
import type { IndexRow } from '../../../app/model/items.ts';
import { DEFAULT_VERSIONS_POLICY, type VersionsPolicy } from '../../../app/sync/engine-options.ts';
import type { PassIssue } from '../../../app/sync/pass-report.ts';
import { ensureRemoteFolder } from '../../../app/sync/remote/remote-folder.ts';
import { clientFor } from '../../helpers/api-client.ts';
import type { TestDevice } from '../../helpers/device.ts';
import { buildLocalTree, buildRemoteTree, type LocalSide, type RemoteSide } from './apply.ts';
import { checkBookkeeping, withoutBookkeeping } from './bookkeeping.ts';
import { folderTree } from './bulk-tree.ts';
import {
  checkNoContentLost,
  checkState,
  type PassState,
  type RequiredContent,
  type Violation,
} from './invariants.ts';
import type { Ledger, SyncedCopies } from './ledger.ts';
import { BulkDeletes } from './live-bulk.ts';
import { mountsUnavailable, placeLocal, type LocalPlace } from './local-disk.ts';
import type { TreeItem } from './model.ts';
import { RootChange } from './root-change.ts';
import { skippedIn } from './soak-host.ts';
import { checkNoDuplicatesIn, checkNothingTorn } from './soak-invariants.ts';
import type { Issue26Disturbances } from './soak-plans.ts';
import type { Disturbances, SoakScenario } from './soak-scenario.ts';
import { OnDemandWorld } from './on-demand-world.ts';
import { SelectionWorld } from './selection-world.ts';
import { readDeviceTree, readLocalTree, readTrashedContents, readVersionStore } from './snapshot.ts';
import { UploadChange } from './upload-change.ts';

let toldNoMounts = false;

/** A seed's disturbances with each of issue 26's given (null when absent: JSON kept before them). */
export type SeedDisturbances = Disturbances & Issue26Disturbances;

/**
 * The seed's disturbances as this machine can make them: without mounts (not root, not Linux) a
 * folder at a disk's root is a plain folder, and an unplugged or swapped disk is a folder moved
 * aside. The run says so once.
 */
export function disturbancesHere(
  soak: Disturbances,
  problem: string | undefined = mountsUnavailable(),
): SeedDisturbances {
  const given: SeedDisturbances = {
    ...soak,
    bulk: soak.bulk ?? null,
    root: soak.root ?? null,
    trash: soak.trash ?? null,
    upload: soak.upload ?? null,
    second: soak.second ?? null,
  };
  const needsMounts = given.trash !== null || (given.root !== null && given.root.how !== 'replace');
  if (problem === undefined || !needsMounts) return given;
  if (!toldNoMounts) {
    toldNoMounts = true;
    console.log(
      `(no mounts here, ${problem}: disk seeds use a plain folder, unplugged or swapped disks a folder moved aside)`,
    );
  }
  return { ...given, trash: null, root: given.root === null ? null : { ...given.root, how: 'replace' } };
}

export class SeedSetup {
  readonly work: string;
  readonly place: LocalPlace;
  readonly local: LocalSide;
  readonly env: { HOME: string; XDG_DATA_HOME: string };
  readonly remoteFolder: string;
  remote!: RemoteSide;
  readonly other: DeviceClient;
  /** The initial tree: the scenario's, the harness's folders of many files, big.bin. */
  readonly base: TreeItem[];
  readonly upload: UploadChange | undefined;
  readonly bulk: BulkDeletes | undefined;
  readonly root: RootChange | undefined;
  /** The disk's own folders the other client put on the device (a `.Trash-1000`). */
  readonly madeOnDevice = new Set<string>();
  /** Every version any user wrote in this seed: what any file may hold. */
  readonly versions = new Set<string>();
  /** Issue 29: the seed's selective sync, when it has a plan. */
  readonly world: SelectionWorld | undefined;
  /** Issue 30: the seed's on-demand pair, when it is one. */
  readonly onDemand: OnDemandWorld | undefined;
  /**
   * Issue 31: odd disk-trash seeds run the engine with versions off, so that a device delete still goes
   * to the disk's own trash (the engine's way when the versions cannot take it) as before.
   */
  readonly versionsOff: boolean;
  /** The index of the engine process running now (the run sets it once it has one). */
  indexNow: () => IndexStore = () => {
    throw new Error('no engine process yet');
  };
  readonly #scenario: SoakScenario;
  readonly #soak: SeedDisturbances;

  constructor(scenario: SoakScenario, soak: SeedDisturbances, device: TestDevice, name: string) {
    this.#scenario = scenario;
    this.#soak = soak;
    this.work = mkdtempSync(join(tmpdir(), `mch-${name}-${scenario.seed}-`));
    const onDisk = soak.trash !== null || (soak.root !== null && soak.root.how !== 'replace');
    this.place = placeLocal(this.work, { disk: onDisk, sharedTrash: soak.trash?.shared === true });
    this.local = this.place.local;
    const home = join(this.work, 'home');
    this.env = { HOME: home, XDG_DATA_HOME: join(home, '.local', 'share') };
    mkdirSync(this.env.XDG_DATA_HOME, { recursive: true });
    this.place.offTree.push(join(this.env.XDG_DATA_HOME, 'Trash', 'files'));
    this.other = clientFor(device).device;
    this.remoteFolder = `/${name}-${scenario.seed}-${Date.now().toString(36)}`;
    this.bulk = soak.bulk === null ? undefined : new BulkDeletes(scenario.seed, soak.bulk);
    this.root =
      soak.root === null ? undefined : new RootChange(soak.root, this.place, this.work, scenario.seed);
    const extra = soak.root?.extra ?? null;
    this.base = [
      ...scenario.initial.map((item) => ({ ...item })),
      ...(this.bulk?.items ?? []),
      ...(extra === null ? [] : folderTree(scenario.seed, 'more', extra.folders, extra.files)),
    ];
    this.upload =
      soak.upload === null
        ? undefined
        : new UploadChange(scenario.seed, soak.upload, this.local, () => this.remote);
    if (this.upload !== undefined) this.base.push(this.upload.baseItem());
    this.world = scenario.selection === undefined ? undefined : new SelectionWorld(scenario.selection);
    this.versionsOff = soak.trash !== null && scenario.seed % 2 === 1;
    this.onDemand =
      scenario.onDemand === undefined
        ? undefined
        : new OnDemandWorld({
            plan: scenario.onDemand,
            local: this.local,
            index: () => this.indexNow(),
            remote: () => this.remote,
            client: clientFor(device).device,
            trash: this.place.offTree,
          });
  }

  /**
   * Issue 31: the engine's versions options for this seed: off (odd disk-trash seeds), a conflict
   * policy, or none (the default, `ask`).
   */
  get engineVersions(): { versions?: 'off' | VersionsPolicy } {
    if (this.versionsOff) return { versions: 'off' };
    const conflicts = this.#soak.conflicts;
    return conflicts === undefined ? {} : { versions: { ...DEFAULT_VERSIONS_POLICY, conflicts } };
  }

  /** Where a ledger finds the synced local copy of a device item (issue 31). */
  get synced(): SyncedCopies {
    return { local: this.local, index: () => this.indexNow() };
  }

  async connect(device: TestDevice): Promise<void> {
    this.remote = {
      client: this.other,
      device: device.running.context,
      folderId: (await ensureRemoteFolder(this.other, this.remoteFolder)).id,
    };
  }

  /** The initial tree on its side (big.bin always here: the engine must upload it), and the disk's own folders. */
  async makeInitialTree(): Promise<void> {
    const upload = this.upload === undefined ? [] : [this.upload.baseItem()];
    const others = this.base.filter((item) => !upload.some((big) => big.path === item.path));
    if (this.#scenario.initialSide === 'local') buildLocalTree(this.local, others);
    else await buildRemoteTree(this.remote, others);
    buildLocalTree(this.local, upload);
    for (const item of this.base) if (item.content !== undefined) this.versions.add(item.content);
    const trash = this.#soak.trash;
    if (trash?.lostFound === true) {
      mkdirSync(join(this.local.root, 'lost+found'));
      writeFileSync(join(this.local.root, 'lost+found', '#4021'), `${this.#scenario.seed}:fsck found this\n`);
    }
    if (trash?.foreign === true) {
      // Another computer's client that synced its disk's trash up (an older client, or another program).
      const client = this.remote.client;
      const top = await client.createFolder({ parentId: this.remote.folderId, name: '.Trash-1000' });
      const files = await client.createFolder({ parentId: top.id, name: 'files' });
      await client.upload({
        parentId: files.id,
        name: 'old.txt',
        content: Buffer.from(`${this.#scenario.seed}:foreign trash\n`),
      });
      for (const path of ['.Trash-1000', '.Trash-1000/files', '.Trash-1000/files/old.txt'])
        this.madeOnDevice.add(path);
    }
  }

  /** Both sides (a disk's own folders left out), the index and what lies in trash or aside. */
  state(index: readonly IndexRow[], issues: readonly PassIssue[]): PassState {
    const state: PassState = {
      local: withoutBookkeeping(readLocalTree(this.local.root)),
      remote: withoutBookkeeping(readDeviceTree(this.remote.device, this.remote.folderId)),
      index,
      trashed: readTrashedContents(this.place.offTree),
      // The index of every process of the seed (soak-run.ts, live-service.ts), read-only here.
      versions: readVersionStore(this.local.root, join(this.work, 'index.db')),
      remoteRootId: this.remote.folderId,
      ...skippedIn(issues),
    };
    // Issue 30: a placeholder holds, for the checks, what the device holds for it (checked first).
    return this.onDemand === undefined ? state : this.onDemand.view(state);
  }

  /**
   * The invariants at quiet: issue 5's and 18's, and nothing torn, no disk's own folder across; with a
   * selection (issue 29), the trees and the index over what is not excluded, its own checks, and the
   * content anywhere, kept copies included.
   */
  check(
    state: PassState,
    ledger: Ledger,
    wanted: readonly RequiredContent[],
    phase = 'at quiet',
  ): Violation[] {
    // Versions off: a device edit replaces the copy here in place, as before issue 31 (soak seed 15).
    const required = this.versionsOff ? wanted.filter((version) => version.in !== 'versions') : wanted;
    for (const version of ledger.versions()) this.versions.add(version);
    for (const version of this.upload?.versions ?? []) this.versions.add(version);
    const world = this.world;
    const view = world === undefined ? state : world.view(state);
    return [
      ...(world === undefined
        ? checkState(state, required)
        : [
            ...checkState(view, []),
            ...checkNoContentLost([...required, ...world.required(ledger)], state),
            ...world.check(state, this.remote, ledger, phase),
          ]),
      ...checkNoDuplicatesIn(view, world?.allowedCopies(ledger) ?? ledger.allowedCopies()),
      ...checkNothingTorn(state, this.versions),
      ...checkBookkeeping(
        readLocalTree(this.local.root),
        readDeviceTree(this.remote.device, this.remote.folderId),
        this.madeOnDevice,
      ),
      ...(this.upload?.violations ?? []),
      ...(this.onDemand?.check(state) ?? []),
    ];
  }

  /** After the service or engine let go of the folder: mounts undone, folders and the remote folder gone. */
  async cleanup(): Promise<void> {
    this.bulk?.stop();
    this.place.cleanup();
    rmSync(this.work, { recursive: true, force: true });
    try {
      if (this.remote !== undefined) await this.other.delete(this.remote.folderId);
    } catch {
      // Cleanup only.
    }
  }
}
