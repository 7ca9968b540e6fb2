// Invariant (3), no content lost: what must survive a scenario, found among the trees, the trash and the versions store (issue 31), and the store itself sound.
import { showPath, shorten, type PassState, type RequiredContent, type Violation } from './invariants.ts';
import { isWithin } from './model.ts';
import { simulate, type SideOutcome } from './replay.ts';
import type { Scenario } from './scenario.ts';

/** The engine's state folder: it never reaches the device, at any depth. */
const STATE_FOLDER = '.mch-sync';

/**
 * The versions that must survive the pass. A version a side still holds may vanish only when it is
 * the first pass's version, that side did not write it, and the other side's user deleted or
 * overwrote it: a delete or edit against an unchanged copy is on purpose. Even then the engine never
 * unlinks here (issue 31): a local copy that the device's edit replaces is kept as a version first,
 * and one the device's delete removes goes into the versions (or, when they cannot take it, the trash).
 * Everything else (an edit against a delete, both sides' edits, new files) must be somewhere: in the
 * tree, a conflicted copy, the versions or the trash.
 */
export function requiredContents(scenario: Scenario): RequiredContent[] {
  const { base, local, remote } = simulate(scenario);
  const baseContents = new Set(
    [...base.values()].flatMap((item) => (item.content === undefined ? [] : [item.content])),
  );
  const required = new Map<string, RequiredContent>();
  for (const [side, mine, theirs] of [
    ['local', local, remote],
    ['remote', remote, local],
  ] as const) {
    for (const item of mine.tree.values()) {
      const content = item.content;
      if (content === undefined || required.has(content)) continue;
      const where = `${side} ${showPath(item.path)}`;
      const need = (why: string, kept?: 'versions'): void => {
        required.set(content, { content, why, ...(kept === undefined ? {} : { in: kept }) });
      };
      if (baseContents.has(content) && !mine.written.has(content) && theirs.removed.has(content)) {
        // The device keeps no versions: what this computer's user removed there is gone on purpose.
        if (side === 'remote') continue;
        // An edit that stands there comes down over this copy; one deleted after it there does not.
        if (theirs.overwritten.has(content) && stands(theirs, content))
          need(`${where}, unchanged here and overwritten on the device: belongs in the versions`, 'versions');
        else need(`${where}, unchanged here and deleted on the device: belongs in the versions or the trash`);
        continue;
      }
      need(
        `${where}, ${mine.written.has(content) ? 'written by the user' : 'unchanged since the first pass'}`,
      );
    }
  }
  return [...required.values()];
}

/** Whether the last of the edits that followed `content` on a side is still in its final tree. */
function stands(side: SideOutcome, content: string): boolean {
  let last = content;
  const seen = new Set<string>();
  while (side.replacedBy.has(last) && !seen.has(last)) {
    seen.add(last);
    last = side.replacedBy.get(last) ?? last;
  }
  return last !== content && [...side.tree.values()].some((item) => item.content === last);
}

/**
 * (3) Every required version is in the local tree, on the device, in the trash or in the versions
 * store; one required `in: 'versions'` is in the store, or here under a name the pass left out (anywhere
 * will do when the state has no store read).
 */
export function checkNoContentLost(required: readonly RequiredContent[], state: PassState): Violation[] {
  const kept = new Set((state.versions?.files ?? []).map((file) => file.content));
  const present = new Set(kept);
  for (const item of [...state.local, ...state.remote])
    if (item.content !== undefined) present.add(item.content);
  for (const content of state.trashed) present.add(content);
  // A copy under a name the pass leaves out (a NAME_CLASH) is not synced: nothing comes down over it.
  const hidden = [...(state.skipped ?? []), ...(state.skippedLocal ?? [])];
  for (const item of state.local)
    if (item.content !== undefined && hidden.some((path) => isWithin(item.path, path)))
      kept.add(item.content);
  const violations: Violation[] = [];
  for (const version of required) {
    const shown = JSON.stringify(shorten(version.content));
    if (!present.has(version.content))
      violations.push({ code: 'content-lost', message: `lost ${shown} (${version.why})` });
    else if (version.in === 'versions' && state.versions !== undefined && !kept.has(version.content))
      violations.push({ code: 'content-lost', message: `${shown} is not a version (${version.why})` });
  }
  return violations;
}

/**
 * Issue 31: the versions store agrees with its rows (every kept row's file is there, every file has its
 * row, none left pending, none a placeholder or linked to another file), and the engine's state folder
 * never reaches the device.
 */
export function checkVersionStore(state: PassState): Violation[] {
  const violations: Violation[] = (state.versions?.disagreements ?? []).map((message) => ({
    code: 'version-store',
    message,
  }));
  for (const item of state.remote) {
    if (item.path.split('/').includes(STATE_FOLDER))
      violations.push({
        code: 'trash-synced',
        message: `the device holds ${showPath(item.path)}, of this computer's state folder`,
      });
  }
  return violations;
}
