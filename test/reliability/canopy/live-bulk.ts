// Issue 26's bulk deletes in a live seed: rm -rf of folders of many items, held as a whole by the guard, nothing of them on the device gone until the user confirms.
import { setTimeout as sleep } from 'node:timers/promises';
import type { LocalSide, RemoteSide } from './apply.ts';
import { folderTree, treeFolders } from './bulk-tree.ts';
import type { Violation } from './invariants.ts';
import type { Ledger } from './ledger.ts';
import type { LiveService } from './live-service.ts';
import { isWithin, type TreeItem } from './model.ts';
import { GUARD_FRACTION, GUARD_ITEMS, type BulkPlan } from './soak-plans.ts';
import { readDeviceTree } from './snapshot.ts';

const PREFIX = 'bulk';

/** The holds the guard makes of deletes. */
const GUARD_HOLDS = ['mass-delete', 'emptied-root'] as const;

export class BulkDeletes {
  readonly plan: BulkPlan;
  readonly items: TreeItem[];
  readonly #seed: number;
  readonly #deleted: string[];
  /** The deleted folders' items on the device when the service first showed a hold. */
  #atHold: Set<string> | undefined;
  /** The first guard hold the service showed. */
  #hold: string | undefined;
  #watching: ReturnType<typeof setInterval> | undefined;
  /** Files inside the deleted folders the other client edited: an edit beats a delete, they come back. */
  readonly #edited: string[] = [];

  constructor(seed: number, plan: BulkPlan) {
    this.#seed = seed;
    this.plan = plan;
    this.items = folderTree(seed, PREFIX, plan.folders, plan.files);
    this.#deleted = treeFolders(PREFIX, plan.folders).slice(0, plan.deleted);
  }

  /** Items of the deleted folders, the folders themselves included. */
  get #deletedItems(): string[] {
    return this.items
      .filter((item) => this.#deleted.some((folder) => isWithin(item.path, folder)))
      .map((item) => item.path);
  }

  /** The user's `rm -rf`, in one go or folder by folder, then the other client's edits inside them. */
  async run(ledger: Ledger, local: LocalSide, remote: RemoteSide, service: LiveService): Promise<void> {
    this.#watchForHold(service, remote);
    for (const [index, folder] of this.#deleted.entries()) {
      if (index > 0 && this.plan.gapMs !== null) await sleep(this.plan.gapMs);
      ledger.local(local, { op: 'delete', path: folder });
    }
    for (let n = 0; n < this.plan.remoteEdits; n++) {
      const folder = this.#deleted[n % this.#deleted.length] ?? '';
      const files = this.items.filter((item) => item.kind === 'file' && isWithin(item.path, folder));
      const file = files[Math.floor(n / this.#deleted.length)];
      if (file === undefined) continue;
      const content = `${this.#seed}:bulk edit ${n + 1} on the device\n`;
      this.#edited.push(file.path);
      await service.relay.exclusive(() => ledger.remote(remote, { op: 'edit', path: file.path, content }));
    }
  }

  /** Notes which deleted items the device still has at the first hold the service shows. */
  #watchForHold(service: LiveService, remote: RemoteSide): void {
    this.#watching = setInterval(() => {
      const hold = service.live.hold();
      if (
        this.#atHold !== undefined ||
        hold === null ||
        !GUARD_HOLDS.some((reason) => reason === hold.reason)
      )
        return;
      this.#atHold = this.#onDevice(remote);
      this.#hold = hold.reason;
    }, 5);
  }

  #onDevice(remote: RemoteSide): Set<string> {
    const there = new Set(readDeviceTree(remote.device, remote.folderId).map((item) => item.path));
    return new Set(this.#deletedItems.filter((path) => there.has(path)));
  }

  /**
   * Once every change is made: the service holds; before that the device lost none of the deleted
   * items (deleted in one go) or at most what the guard lets through and never all (in parts); two
   * passes later it still has every one it had at the hold. `total`: items of the initial tree.
   */
  async check(service: LiveService, remote: RemoteSide, total: number): Promise<Violation[]> {
    const deleted = this.#deletedItems.length;
    // What the deletion really deletes: an edited file comes back with the folders above it, and a
    // deletion that is then no more than the guard's limits is no mass delete (seed 9: 56 rm'ed, 50 gone).
    const survivors = new Set<string>();
    for (const path of this.#edited) {
      for (let at = path; at !== ''; at = at.includes('/') ? at.slice(0, at.lastIndexOf('/')) : '') {
        survivors.add(at);
      }
    }
    const deletes = this.#deletedItems.filter((path) => !survivors.has(path)).length;
    if (!(deletes > GUARD_ITEMS && deletes > GUARD_FRACTION * total)) {
      clearInterval(this.#watching);
      return [];
    }
    const bound = Math.max(GUARD_ITEMS, Math.floor(GUARD_FRACTION * total));
    // The watcher may hold a ripe deletion up to 10 s for younger ones; more than the guard lets
    // through gone from the device with no hold is the answer already.
    const deadline = Date.now() + 15_000;
    let goneUnheld = 0;
    while (this.#atHold === undefined && Date.now() < deadline) {
      goneUnheld = deleted - this.#onDevice(remote).size;
      if (goneUnheld > bound) break;
      await sleep(20);
    }
    clearInterval(this.#watching);
    const atHold = this.#atHold;
    const hold = this.#hold;
    if (atHold === undefined || hold === undefined) {
      return [
        {
          code: 'not-held',
          message: `the rm -rf of ${deleted} items (${this.#deleted.join(', ')}) was never held: ${goneUnheld} of them went from the device (${service.live.status().state})`,
        },
      ];
    }
    const violations: Violation[] = [];
    const gone = deleted - atHold.size;
    if (this.plan.gapMs === null && gone > 0) {
      violations.push({
        code: 'not-held',
        message: `${gone} of ${deleted} items deleted in one go reached the device before the ${hold} hold`,
      });
    } else if (gone >= deleted || gone > bound) {
      violations.push({
        code: 'not-held',
        message: `${gone} of ${deleted} items deleted folder by folder reached the device before the ${hold} hold (the guard lets ${bound} through)`,
      });
    }
    await service.morePasses(2);
    const now = this.#onDevice(remote);
    const lost = [...atHold].filter((path) => !now.has(path));
    if (lost.length > 0) {
      violations.push({
        code: 'held-wrote',
        message: `while the deletes were held (${hold}) ${lost.length} of their items went from the device: ${lost.slice(0, 4).join(', ')}`,
      });
    }
    return violations;
  }

  stop(): void {
    clearInterval(this.#watching);
  }
}
