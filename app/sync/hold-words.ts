// The ways out of a hold, said for whoever answers it: `run --once` (flags), the live service (`mch-sync resume`), the window (buttons).
import { assertNever } from '../../common/errors.ts';
import type { PassHold } from './pass-report.ts';

/**
 * Who reads the words: `command`, a `run --once` that exits (answered by running again with a flag);
 * `service`, a live service that waits (answered by `mch-sync resume`); `window`, the hold's card
 * (answered by its buttons).
 */
export type HoldAudience = 'command' | 'service' | 'window';

/** The words of a hold's two answers in the window; null where an answer does not apply. */
export interface HoldAnswerLabels {
  confirm: string | null;
  restore: string | null;
}

/** The hold's words for `audience`: what happened, then the ways out that work there. */
export function holdAdvice(hold: PassHold, localRoot: string, audience: HoldAudience): string {
  const what = hold.what ?? hold.advice;
  return `${what} ${holdWays(hold, localRoot, audience)}`;
}

/** What the window's buttons say, by the hold and, for deletes, by which side would lose items. */
export function holdAnswerLabels(hold: Pick<PassHold, 'reason' | 'deletes'>): HoldAnswerLabels {
  switch (hold.reason) {
    case 'mass-delete': {
      const { local, remote } = hold.deletes;
      if (local === 0) return { confirm: 'Delete them on the device too', restore: 'Restore them here' };
      if (remote === 0)
        return { confirm: 'Move them to the trash here too', restore: 'Put them back on the device' };
      return { confirm: 'Go ahead with the deletes', restore: 'Undo these deletes' };
    }
    case 'emptied-root':
      return { confirm: 'Delete them on the device too', restore: 'Restore them here' };
    case 'folder-changed':
      return { confirm: 'Sync it as it is now', restore: 'Keep everything on both sides' };
    case 'device-changed':
      return { confirm: null, restore: 'Sync with this device' };
    case 'local-root-missing':
      return { confirm: null, restore: null };
    default:
      return assertNever(hold.reason, 'hold reason');
  }
}

/** The ways out alone. */
export function holdWays(hold: PassHold, localRoot: string, audience: HoldAudience): string {
  const labels = holdAnswerLabels(hold);
  const answer = (choice: 'confirm' | 'restore'): string => {
    const flag = choice === 'confirm' ? '--confirm-deletes' : '--restore';
    switch (audience) {
      case 'command':
        return `run again with ${flag}`;
      case 'service':
        return `run \`mch-sync resume --folder ${quoted(localRoot)} ${flag}\``;
      case 'window':
        return `choose "${labels[choice] ?? ''}"`;
      default:
        return assertNever(audience, 'hold audience');
    }
  };
  switch (hold.reason) {
    case 'mass-delete': {
      const undo =
        hold.deletes.local === 0
          ? 'bring them back from the device'
          : hold.deletes.remote === 0
            ? 'send them up to the device again'
            : 'bring back what was deleted here and send up again what was deleted on the device';
      return `If that is what you want, ${answer('confirm')}. To ${undo} instead, ${answer('restore')}.`;
    }
    case 'emptied-root':
      return (
        `If you deleted them on purpose, ${answer('confirm')} and they are deleted on the device too. ` +
        `To bring them back from the device, ${answer('restore')}.`
      );
    case 'folder-changed':
      return (
        `If it is the wrong folder (a disk that is not mounted, a folder put back from elsewhere), put the ` +
        `right one back${audience === 'command' ? ' and run again' : ': nothing needs answering'}. To keep ` +
        `everything on both sides, ${answer('restore')}: what the device holds comes into this folder, what ` +
        `it holds goes up, nothing is deleted, and files that differ keep both versions. To sync it as it is ` +
        `now, ${answer('confirm')}: what it lacks is deleted on the device.`
      );
    case 'device-changed':
      return (
        `If you signed in to the wrong device, sign in to the one you synced with (mch-sync login)` +
        `${audience === 'command' ? ' and run again' : ': nothing needs answering'}. To sync this folder with ` +
        `the device you use now, ${answer('restore')}: its folder is found or made there and both sides are ` +
        `brought together; nothing is deleted, and files that differ keep both versions.`
      );
    case 'local-root-missing':
      return audience === 'command'
        ? 'If it is on a disk that is not mounted, mount it and run again.'
        : 'If it is on a disk that is not mounted, mount it: syncing goes on by itself.';
    default:
      return assertNever(hold.reason, 'hold reason');
  }
}

/** A path as a shell word: quoted when it holds anything a shell would read. */
function quoted(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}
