// Where each item ends up: its final parent and name, folders kept for what is in them, name clashes.
import { BugError } from '../../../common/errors.ts';
import { caseClashName, conflictedCopyName } from './conflict-names.ts';
import { nameKey, sameName, type RelativePath } from '../../model/items.ts';
import { CONFLICT, type Decision } from './planner-decide.ts';
import { baseName, parentPath } from '../../model/paths.ts';
import type { ReconciledItem } from './reconcile.ts';

/** One item being planned; a conflict adds a second node for the local copy (`isCopy`). */
export interface PlanNode {
  item: ReconciledItem;
  decision: Decision;
  isCopy: boolean;
  /** The remote id the item has now (index or remote), null for a new local item or a copy. */
  remoteId: string | null;
  /** Null: the sync root. */
  parent: PlanNode | null;
  /** The name on disk at the end of the pass. */
  name: string;
  /** Set when a case clash renames a remote item; the remote side is renamed to match. */
  clashName: string | null;
}

export interface TreeOptions {
  remoteRootId: string;
  caseInsensitive: boolean;
  now: Date;
}

export class PlanTree {
  readonly nodes: PlanNode[] = [];
  private readonly byRemoteId = new Map<string, PlanNode>();
  private readonly byLocalPath = new Map<string, PlanNode>();
  private readonly paths = new Map<PlanNode, RelativePath>();
  private readonly options: TreeOptions;

  constructor(decided: readonly { item: ReconciledItem; decision: Decision }[], options: TreeOptions) {
    this.options = options;
    for (const { item, decision } of decided) {
      // The live id: an item the device re-created has a new one.
      const remoteId = item.remote?.id ?? item.index?.remoteId ?? null;
      const node = this.addItem(item, decision, remoteId);
      if (remoteId !== null) this.byRemoteId.set(remoteId, node);
      if (item.remote) this.byRemoteId.set(item.remote.id, node);
      if (decision.action === 'conflict') {
        this.addConflictCopy(node);
      } else if (item.local) {
        this.byLocalPath.set(nameKey(item.local.path), node);
      }
    }
    this.findParents();
    this.keepFoldersWithContent();
    if (this.keepReplacedFoldersWithContent()) {
      this.findParents();
      this.keepFoldersWithContent();
    }
    if (this.mergeFoldersOfOneName()) this.findParents();
    this.nameItems();
  }

  private findParents(): void {
    for (const node of this.nodes) node.parent = this.findParent(node);
    this.breakParentLoops();
  }

  /**
   * A move on each side can be fine alone and together put a folder inside itself: `a` moved into
   * `b/c` on this computer while `b` moved into `a` on the device (seeds 21749, 24102, 25559).
   * There is no tree that keeps both, so one local move on the loop gives way, as when both sides
   * moved the same item (the device's place wins): that item goes back where the device has it, and
   * the device's moves are followed. Only a place changes; nothing is lost.
   */
  private breakParentLoops(): void {
    for (let loop = this.findParentLoop(); loop !== null; loop = this.findParentLoop()) {
      const yielding = loop.find((node) => node.decision.pushMove && node.item.remote !== null);
      if (yielding === undefined) {
        const names = loop.map((node) => node.item.local?.path ?? node.item.remote?.path ?? '?');
        throw new BugError(`planned parents form a loop with no local move to undo: ${names.join(', ')}`);
      }
      // Each round turns one local move into a remote one, so the loop ends.
      yielding.decision = { ...yielding.decision, location: 'remote', pushMove: false, pullMove: true };
      yielding.parent = this.findParent(yielding);
    }
  }

  /** The nodes of one loop of parents, or null when every chain of parents reaches the root. */
  private findParentLoop(): PlanNode[] | null {
    // The chain (its start's position) each node was first met on; earlier chains reach the root.
    const metOn = new Map<PlanNode, number>();
    for (const [start, first] of this.nodes.entries()) {
      const chain: PlanNode[] = [];
      let node: PlanNode | null = first;
      while (node !== null && !metOn.has(node)) {
        metOn.set(node, start);
        chain.push(node);
        node = node.parent;
      }
      if (node !== null && metOn.get(node) === start) return chain.slice(chain.indexOf(node));
    }
    return null;
  }

  /**
   * A folder replaced by a file on one side while the other side changed something inside it (a new
   * file, an edit) or holds something the round left out is not cleared: both are kept, as in any
   * conflict. The folder keeps the name and the file becomes a conflicted copy (or the other way
   * round, when the file came from the device).
   * Returns whether any decision changed (the parents are then worked out again).
   */
  private keepReplacedFoldersWithContent(): boolean {
    // Folders (by remote id, and by local path) that hold an item this pass keeps, on that side.
    const remoteHolders = new Set<string>();
    const localHolders = new Set<string>();
    for (const node of this.nodes) {
      if (node.item.remote?.holdsLeftOut) remoteHolders.add(node.item.remote.id);
      if (node.item.local?.holdsLeftOut) localHolders.add(nameKey(node.item.local.path));
      if (isDeleted(node)) continue;
      if (node.item.remote) remoteHolders.add(node.item.remote.parentId);
      if (node.item.local) localHolders.add(nameKey(parentPath(node.item.local.path)));
    }
    let changed = false;
    for (const node of [...this.nodes]) {
      const { decision, item } = node;
      const clearsContent =
        (decision.clearRemote && item.remote !== null && remoteHolders.has(item.remote.id)) ||
        (decision.clearLocal && item.local !== null && localHolders.has(nameKey(item.local.path)));
      if (!clearsContent) continue;
      node.decision = CONFLICT();
      this.addConflictCopy(node);
      changed = true;
    }
    return changed;
  }

  /**
   * A local folder going up as a new item (restored after a delete, seed 6722) and a new remote folder
   * coming down under the very same name in the same folder are one folder, as when both sides made
   * it: the local one takes the device's folder over (its row with it) and what each holds lands in
   * it, instead of the device's folder being renamed aside as a clash. Returns whether any merged.
   */
  private mergeFoldersOfOneName(): boolean {
    // New remote folders coming down, by their parent node and name (NFC).
    const pulled = new Map<PlanNode | null, Map<string, PlanNode>>();
    for (const node of this.nodes) {
      const { item, decision } = node;
      if (node.isCopy || item.local || item.index || item.remote?.kind !== 'folder') continue;
      if (decision.pull !== 'create') continue;
      const siblings = pulled.get(node.parent) ?? new Map<string, PlanNode>();
      siblings.set(nameKey(item.remote.name), node);
      pulled.set(node.parent, siblings);
    }
    if (pulled.size === 0) return false;
    let merged = false;
    for (const node of [...this.nodes]) {
      const { item, decision } = node;
      if (node.isCopy || item.remote || item.local?.kind !== 'folder' || decision.push !== 'create') continue;
      const siblings = pulled.get(node.parent);
      const name = nameKey(baseName(item.local.path));
      const twin = siblings?.get(name);
      if (twin === undefined || twin.item.remote === null) continue;
      siblings?.delete(name);
      node.item = { ...item, remote: twin.item.remote };
      node.decision = { ...decision, action: 'index-update', location: 'remote', push: 'none' };
      node.remoteId = twin.item.remote.id;
      this.byRemoteId.set(twin.item.remote.id, node);
      this.nodes.splice(this.nodes.indexOf(twin), 1);
      merged = true;
    }
    return merged;
  }

  /** The local item of a conflict moves aside under a conflicted name and goes up as a new item. */
  private addConflictCopy(node: PlanNode): void {
    const copy = this.addCopy(node.item, {
      ...node.decision,
      location: 'local',
      push: 'create',
      pull: 'none',
    });
    // The local children of a folder that moved aside belong to its copy.
    if (node.item.local) this.byLocalPath.set(nameKey(node.item.local.path), copy);
  }

  /** The node's path relative to the sync root at the end of the pass. */
  finalPath(node: PlanNode | null): RelativePath {
    if (!node) return '';
    const known = this.paths.get(node);
    if (known !== undefined) return known;
    const parent = this.finalPath(node.parent);
    const path = parent === '' ? node.name : `${parent}/${node.name}`;
    this.paths.set(node, path);
    return path;
  }

  /** The node at a local path as the scan saw it (for the parent of a local item). */
  nodeAtLocalPath(path: RelativePath): PlanNode | null {
    return this.byLocalPath.get(nameKey(path)) ?? null;
  }

  nodeWithRemoteId(remoteId: string): PlanNode | null {
    return this.byRemoteId.get(remoteId) ?? null;
  }

  private addItem(item: ReconciledItem, decision: Decision, remoteId: string | null): PlanNode {
    const node: PlanNode = {
      item,
      decision,
      isCopy: false,
      remoteId,
      parent: null,
      name: '',
      clashName: null,
    };
    this.nodes.push(node);
    return node;
  }

  /** A conflict's local copy: a new item, with no remote id. */
  private addCopy(item: ReconciledItem, decision: Decision): PlanNode {
    const node: PlanNode = {
      item,
      decision,
      isCopy: true,
      remoteId: null,
      parent: null,
      name: '',
      clashName: null,
    };
    this.nodes.push(node);
    return node;
  }

  private findParent(node: PlanNode): PlanNode | null {
    const { local, remote, index } = node.item;
    if (node.decision.location === 'remote' && remote) {
      return remote.parentId === this.options.remoteRootId ? null : this.nodeWithRemoteId(remote.parentId);
    }
    if (local) {
      const parent = parentPath(local.path);
      return parent === '' ? null : this.nodeAtLocalPath(parent);
    }
    if (index && index.parentRemoteId !== this.options.remoteRootId) {
      return this.nodeWithRemoteId(index.parentRemoteId);
    }
    return null;
  }

  /**
   * A folder deleted on one side that still holds something kept (a file never synced, an edit, an
   * item the round left out) is not deleted: it is created again on the side that deleted it.
   * Deepest folders first, so a kept folder keeps its own parent.
   */
  private keepFoldersWithContent(): void {
    const keptChildren = new Map<PlanNode, boolean>();
    for (const node of this.nodes) {
      if (node.parent && !isDeleted(node)) keptChildren.set(node.parent, true);
      // What the round left out of a remote folder is content too, only not seen.
      if (node.decision.action === 'remote-delete' && node.item.remote?.holdsLeftOut) {
        keptChildren.set(node, true);
      }
      // So is a kept copy of an excluded folder in a local one: the user's, unsynced (seeds 76, 489).
      if (node.decision.action === 'local-trash' && node.item.local?.holdsLeftOut) {
        keptChildren.set(node, true);
      }
    }
    const deletedFolders = this.nodes
      .filter((node) => isDeleted(node) && kindOf(node) === 'folder')
      .sort((a, b) => depth(b) - depth(a));
    for (const folder of deletedFolders) {
      if (!keptChildren.get(folder)) continue;
      folder.decision =
        folder.decision.action === 'local-trash'
          ? {
              ...folder.decision,
              action: 'sync',
              location: 'local',
              push: 'create',
              reason: 'kept-unsynced-content',
            }
          : {
              ...folder.decision,
              action: 'sync',
              location: 'remote',
              pull: 'create',
              reason: 'edit-beats-delete',
            };
      if (folder.parent) keptChildren.set(folder.parent, true);
    }
  }

  /** Final names; conflicted copies and case clashes get names no sibling has. */
  private nameItems(): void {
    const siblings = new Map<PlanNode | null, PlanNode[]>();
    for (const node of this.nodes) {
      if (isDeleted(node)) continue;
      node.name = plainName(node);
      const group = siblings.get(node.parent) ?? [];
      group.push(node);
      siblings.set(node.parent, group);
    }
    for (const group of siblings.values()) {
      // Items already on disk under their name keep it; remote items placed by this pass come after.
      group.sort((a, b) => Number(isPulledIntoPlace(a)) - Number(isPulledIntoPlace(b)));
      const taken = new Set<string>();
      const key = (name: string): string => {
        const normal = nameKey(name);
        return this.options.caseInsensitive ? normal.toLowerCase() : normal;
      };
      for (const node of group) if (!node.isCopy) taken.add(key(node.name));
      const seen = new Set<string>();
      for (const node of group) {
        if (node.isCopy) {
          node.name = conflictedCopyName(node.name, this.options.now, (name) => taken.has(key(name)));
          taken.add(key(node.name));
          continue;
        }
        if (seen.has(key(node.name)) && isPulledIntoPlace(node)) {
          node.clashName = caseClashName(node.name, (name) => taken.has(key(name)));
          node.name = node.clashName;
          taken.add(key(node.name));
        }
        seen.add(key(node.name));
      }
    }
  }
}

export function isDeleted(node: PlanNode): boolean {
  const action = node.decision.action;
  return action === 'local-trash' || action === 'remote-delete' || action === 'index-remove';
}

export function isPulledIntoPlace(node: PlanNode): boolean {
  return !node.isCopy && (node.decision.pull === 'create' || node.decision.pullMove);
}

function kindOf(node: PlanNode): 'file' | 'folder' {
  const { local, remote, index } = node.item;
  return (local ?? remote ?? index)?.kind ?? 'file';
}

function depth(node: PlanNode): number {
  const path = node.item.index?.path ?? node.item.local?.path ?? node.item.remote?.path ?? '';
  return path.split('/').length;
}

/** The name before clashes: the winning side's, or as on disk when the item stays where it is. */
function plainName(node: PlanNode): string {
  const { local, remote, index } = node.item;
  if (node.isCopy && local) return baseName(local.path);
  if (isPulledIntoPlace(node) && remote) {
    // A spelling that differs only in Unicode normalisation is no change (as a remote move's PATCH and
    // the change detection read it): an item moved to the device's place keeps the spelling it has on
    // disk. The other spelling is another name to Linux, and may be held by the other item of a local
    // name clash, one the round leaves out (seed 22705: that rename was refused in every round).
    const onDisk = local && node.decision.pull !== 'create' ? baseName(local.path) : null;
    return onDisk !== null && sameName(onDisk, remote.name) ? onDisk : remote.name;
  }
  if (local) return baseName(local.path);
  return remote?.name ?? index?.name ?? '';
}
