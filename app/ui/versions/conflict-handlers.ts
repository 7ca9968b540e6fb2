// Contract calls of conflicts: the conflicts waiting with both sides to compare, and settling some alike (this computer's, the device's, or both kept), the loser kept as a version; the pair syncs at once.
import type { ConflictResolveView, ConflictView } from '../../../common/contract.ts';
import { MchError } from '../../../common/errors.ts';
import { listConflicts } from '../../versions/conflict-list.ts';
import type { ContractHandlers } from '../dispatch.ts';
import type { HandlerCore } from '../handler-core.ts';
import { conflictView, PREVIEWED_CONFLICTS } from './conflict-views.ts';
import { runningPairIds, versionsTarget, type VersionsTarget } from './versions-place.ts';

type Handlers = Pick<ContractHandlers, 'conflicts:list' | 'conflicts:resolve'>;

export function conflictHandlers(core: HandlerCore): Handlers {
  return {
    'conflicts:list': async ({ pairId }) => {
      const views: ConflictView[] = [];
      for (const id of pairId === null ? runningPairIds(core) : [pairId]) {
        const target = versionsTarget(core, id);
        for (const entry of await listConflicts(target.place)) {
          views.push(await conflictView(target, entry, views.length < PREVIEWED_CONFLICTS));
        }
      }
      return views;
    },
    'conflicts:resolve': async ({ pairId, copyPaths, keep }) => {
      const target = versionsTarget(core, pairId);
      const outcome: ConflictResolveView = { settled: [], failed: [], words: '' };
      /** Whose copies the settled conflicts' were: "this computer's version keeps the name". */
      const whose = new Set<boolean>();
      let named = '';
      // One at a time, each between two passes: a pass may settle one by the pair's policy meanwhile,
      // or the user delete a copy; each settle looks at both files again before it changes anything.
      for (const copyPath of new Set(copyPaths)) {
        try {
          const done = await target.change({ kind: 'resolve', path: copyPath, keep });
          if (done.kind === 'resolved') {
            whose.add(done.conflict.madeHere);
            named = done.conflict.originalPath;
          }
          outcome.settled.push(copyPath);
        } catch (error) {
          if (!(error instanceof MchError)) throw error;
          outcome.failed.push({ copyPath, code: error.code, message: error.message });
        }
      }
      if (outcome.settled.length > 0) {
        core.conflicts.changed(pairId);
        core.emit('pairs:changed', core.pairViews());
      }
      outcome.words = settledWords(
        target,
        outcome.settled.length === 1 ? named : outcome.settled.length,
        keep,
        whose,
      );
      return outcome;
    },
  };
}

/** `settled`: the one file whose conflict was settled, or how many were. */
function settledWords(
  target: VersionsTarget,
  settled: string | number,
  keep: 'this' | 'device' | 'both',
  madeHere: ReadonlySet<boolean>,
): string {
  if (settled === 0) return 'Nothing was settled.';
  const what =
    typeof settled === 'string'
      ? `The conflict of ${settled} is settled`
      : `${settled} conflicts are settled`;
  if (keep === 'both') return `${what}: both files stay, each under its own name.`;
  const copies = !madeHere.has(false)
    ? "this computer's version"
    : !madeHere.has(true)
      ? "the other computer's version"
      : "the conflicted copy's version";
  if (typeof settled === 'string') {
    const kept = keep === 'this' ? copies : "the device's version";
    return `${what}: ${kept} keeps the name; the other is kept as a version. ${target.deviceWords(1)}`;
  }
  const kept = keep === 'this' ? copies.replace('version', 'versions') : "the device's versions";
  return `${what}: ${kept} keep the names; the others are kept as versions. ${target.deviceWords(settled)}`;
}
