// The disturbances of issue 26 ("data safety on every path"), drawn from a stream of the seed's own: bulk deletes, replaced roots, disk trash, a second process, uploads that change.
import { Random } from './random.ts';
import type { Scenario } from './scenario.ts';

/**
 * A live seed's local changes include `rm -rf` of folders holding many items: `folders` folders
 * `bulk-1`... (bulk-tree.ts) of `files` files each are added to the initial tree, and the first
 * `deleted` of them are deleted, together or one at a time `gapMs` apart (`gapMs` null: in one go).
 */
export interface BulkPlan {
  folders: number;
  files: number;
  deleted: number;
  gapMs: number | null;
  /** How many of the seed's own local changes come before the deletes. */
  after: number;
  /** Files in the deleted folders the other client edits while the deletes are held (the edit wins). */
  remoteEdits: number;
}

/**
 * After the first pass the local folder stops being the synced one: `replace` (moved aside, a new
 * folder made at its path), `unmount` (its disk unplugged, the bare mount point written into) or
 * `other-disk` (another disk plugged in at its path). Passes must hold; then the user puts the right
 * folder back or answers restore (merge). `unmount` is always answered by plugging the disk back.
 */
export interface RootPlan {
  how: 'replace' | 'unmount' | 'other-disk';
  /** Files written into the new folder (or the mount point, or the other disk)... */
  writes: number;
  /** ...of which this many at paths of synced files (the rest at new names). */
  atSynced: number;
  /** Passes (or, live, passes seen) that must hold before the user acts. */
  heldPasses: number;
  answer: 'put-back' | 'restore';
  /** Extra files in the initial tree (bulk-tree.ts), so that roots of every size are replaced. */
  extra: { folders: number; files: number } | null;
}

/**
 * The synced folder is the root of its own file system (a tmpfs, bind-mounted), so a delete from the
 * device that the versions cannot take (issue 31; odd seeds run with versions off, seed-setup.ts) puts
 * the local file in `<root>/.Trash-<uid>/` (or `<root>/.Trash/<uid>/` when `shared`: an
 * administrator's sticky `.Trash`). `foreign`: the other client puts a `.Trash-1000` folder on the
 * device; `lostFound`: the disk has a `lost+found` with a file. Neither may reach the other side.
 */
export interface TrashPlan {
  shared: boolean;
  foreign: boolean;
  lostFound: boolean;
}

/**
 * `big.bin` (bytes `size`, made locally before the first pass) is changed while its upload's body
 * is on its way: in the first pass (its create) or in the pass after the changes (after a local edit
 * of it). `overwrite`: new bytes over the old ones in place; `rewrite`: truncated and written again
 * (another size); `append`; `replace`: a new file renamed over it. `resumable`: the engine's client
 * sends files above 1 MiB as resumable uploads in chunks of 512 KiB.
 */
export interface UploadPlan {
  pass: 'first' | 'changes';
  how: 'overwrite' | 'rewrite' | 'append' | 'replace';
  size: number;
  resumable: boolean;
}

/**
 * While request `at` of the pass after the changes is held, a second engine tries the same folder
 * (through another profile, a symlink to the folder, or both), or a real `mch-sync run` child does.
 */
export interface SecondPlan {
  via: 'profile' | 'symlink' | 'both';
  at: number;
  child: boolean;
}

/** How often each disturbance of issue 26 comes (0 to 1); bulk seeds are live seeds. */
export interface Issue26Rates {
  bulk: number;
  root: number;
  trash: number;
  upload: number;
  second: number;
}

export const DEFAULT_ISSUE26_RATES: Issue26Rates = {
  bulk: 0.02,
  root: 0.02,
  trash: 0.03,
  upload: 0.02,
  second: 0.015,
};

export interface Issue26Disturbances {
  bulk: BulkPlan | null;
  root: RootPlan | null;
  trash: TrashPlan | null;
  upload: UploadPlan | null;
  second: SecondPlan | null;
}

/** Most items the guard lets through (planner.ts DEFAULT_DELETE_GUARD: more than 50 and 30 %). */
export const GUARD_ITEMS = 50;
export const GUARD_FRACTION = 0.3;

/** Items of one bulk folder: the folder, its two subfolders, its files. */
export function bulkFolderItems(files: number): number {
  return 3 + files;
}

/**
 * The seed's issue-26 disturbances, from a stream of their own: the seeds of earlier sweeps keep
 * their trees and their other disturbances. `live`: the seed is live already (then no second
 * process: that one comes during a pass of `syncOnce`).
 */
export function drawIssue26(
  scenario: Scenario,
  rates: Issue26Rates,
  live: boolean,
): Issue26Disturbances & { live: boolean } {
  const random = new Random(scenario.seed ^ 0x26_da7a);
  const bulkRoll = random.chance(rates.bulk);
  const rootRoll = random.chance(rates.root);
  const trashRoll = random.chance(rates.trash);
  const uploadRoll = random.chance(rates.upload);
  const secondRoll = random.chance(rates.second);
  const bulk = bulkRoll ? drawBulk(random, scenario) : null;
  // A seed deletes in bulk or replaces its folder, not both: each has its own hold to answer.
  const trash: TrashPlan | null = trashRoll
    ? { shared: random.chance(0.3), foreign: random.chance(0.5), lostFound: random.chance(0.5) }
    : null;
  const root = rootRoll && bulk === null ? drawRoot(random, trash !== null) : null;
  const upload: UploadPlan | null = uploadRoll
    ? {
        pass: random.chance(0.4) ? 'first' : 'changes',
        how: random.weighted({ overwrite: 3, rewrite: 2, append: 2, replace: 2 }),
        // Well past what sockets and streams read ahead of a paused body (a few hundred KiB).
        size: random.int(3 * 64, 6 * 1024) * 1024,
        resumable: random.chance(0.25),
      }
    : null;
  const second: SecondPlan | null =
    secondRoll && bulk === null && !live
      ? {
          via: random.weighted({ profile: 1, symlink: 1, both: 1 }),
          at: random.int(1, 4),
          child: random.chance(0.2),
        }
      : null;
  return { bulk, root, trash, upload, second, live: live || bulk !== null };
}

function drawBulk(random: Random, scenario: Scenario): BulkPlan {
  const folders = random.int(1, 3);
  // Deleted folders are more than 36 % of all (1 of 1 or 2, 2 or 3 of 3): past the guard's share with
  // room to spare, whatever the seed's own few changes add or remove first.
  const deleted = random.int(Math.ceil(folders * 0.4), folders);
  const others = scenario.initial.length + scenario.local.length + 4;
  let files = random.int(20, 45);
  const gone = (): number => deleted * bulkFolderItems(files);
  while (gone() < GUARD_ITEMS + 6 || gone() < 0.36 * (folders * bulkFolderItems(files) + others)) files += 1;
  return {
    folders,
    files,
    deleted,
    gapMs: deleted > 1 && random.chance(0.4) ? random.int(500, 2500) : null,
    after: random.int(0, scenario.local.length),
    remoteEdits: random.chance(0.4) ? random.int(1, 2) : 0,
  };
}

function drawRoot(random: Random, onDisk: boolean): RootPlan {
  // A folder that is the root of a mount cannot be moved aside: seeds with a disk unplug or swap it.
  const how = onDisk
    ? random.weighted({ unmount: 1, 'other-disk': 1 })
    : random.weighted({ replace: 2, unmount: 1, 'other-disk': 1 });
  const count = random.int(0, 3);
  const big = random.chance(0.35);
  return {
    how,
    writes: count,
    atSynced: count === 0 ? 0 : random.int(0, count),
    heldPasses: random.int(1, 2),
    answer: how !== 'unmount' && random.chance(0.5) ? 'restore' : 'put-back',
    // Under the guard (a few items) or well past it: the folder's identity holds either way.
    extra: big ? { folders: random.int(1, 3), files: random.int(20, 50) } : null,
  };
}

/** The words for the issue-26 part of a seed's disturbances. */
export function describeIssue26(soak: Partial<Issue26Disturbances>): string[] {
  const parts: string[] = [];
  const { bulk, root, trash, upload, second } = soak;
  if (bulk) {
    const how = bulk.gapMs === null ? 'in one go' : `one by one ${bulk.gapMs} ms apart`;
    parts.push(
      `rm -rf of ${bulk.deleted} of ${bulk.folders} folders of ${bulk.files} files ${how}, after local change #${bulk.after}` +
        (bulk.remoteEdits > 0 ? `, ${bulk.remoteEdits} of their files edited on the device` : ''),
    );
  }
  if (root) {
    const what = {
      replace: 'moved aside and made again',
      unmount: 'unplugged',
      'other-disk': 'swapped for another disk',
    }[root.how];
    parts.push(
      `folder ${what} after the first pass${root.extra ? ` (+${root.extra.folders * bulkFolderItems(root.extra.files)} items)` : ''}, ` +
        `${root.writes} files written there (${root.atSynced} at synced paths), ${root.heldPasses} held passes, then ${root.answer}`,
    );
  }
  if (trash) {
    const extras = [
      trash.shared ? 'shared .Trash' : '',
      trash.foreign ? 'a .Trash-1000 on the device' : '',
      trash.lostFound ? 'lost+found' : '',
    ]
      .filter((text) => text !== '')
      .join(', ');
    parts.push(`folder at a mount root${extras === '' ? '' : ` (${extras})`}`);
  }
  if (upload) {
    parts.push(
      `big.bin (${Math.round(upload.size / 1024)} KiB${upload.resumable ? ', resumable' : ''}) ${upload.how} while its upload is sent in the ${upload.pass} pass`,
    );
  }
  if (second) {
    parts.push(
      `a second ${second.child ? 'mch-sync run' : 'engine'} on the folder through ${second.via === 'both' ? 'another profile and a symlink' : second.via === 'profile' ? 'another profile' : 'a symlink'} at request ${second.at}`,
    );
  }
  return parts;
}
