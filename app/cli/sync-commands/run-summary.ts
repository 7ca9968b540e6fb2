// Formats a sync pass report for people: what moved each way, what was skipped and why, and what to do next.
import { assertNever } from '../../../common/errors.ts';
import { formatBytes } from '../../../common/units.ts';
import type { PassCounts, PassHold, PassReport } from '../../sync/pass-report.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import { issueSections, shownPath, unsyncedCounts } from '../terminal/issue-lines.ts';
import { table } from '../terminal/output.ts';

export interface SummaryContext {
  /** The local folder, as shown to the user. */
  localRoot: string;
  /** The remote folder path (`/Documents`). */
  remoteFolder: string;
  /** The command that goes ahead with a held pass (`mch-sync run ... --confirm-deletes`). */
  confirmCommand: string;
  /** The command that fills an emptied folder again from the device (`mch-sync run ... --restore`). */
  restoreCommand: string;
  /** Issues of one kind listed before "... and N more" (default 20). */
  maxIssuesPerKind?: number;
}

/** The summary as lines without newlines. */
export function formatRunSummary(report: PassReport, context: SummaryContext): string[] {
  const lines = [headline(report, context)];
  if (report.hold !== null) lines.push(...describeHold(report.hold, context));
  if (!nothingMoved(report.counts)) lines.push('', ...countLines(report.counts));
  lines.push(...issueSections(report.issues, context.maxIssuesPerKind ?? 20));
  // Each is one line: whatever a name or a device's text holds, it can neither drive the terminal nor
  // forge a line (issue 27).
  return lines.map(terminalSafe);
}

/** True when the pass transferred, renamed, moved, deleted and created nothing. */
export function nothingMoved(counts: PassCounts): boolean {
  return (
    counts.uploaded +
      counts.downloaded +
      counts.renamed +
      counts.moved +
      counts.deleted +
      counts.conflicts +
      counts.foldersCreated +
      counts.timesUpdated ===
    0
  );
}

function headline(report: PassReport, context: SummaryContext): string {
  const pair = `${shownPath(context.localRoot)} and ${shownPath(context.remoteFolder)} on the device`;
  switch (report.status) {
    case 'synced':
      return nothingMoved(report.counts) ? `Nothing to do: ${pair} already match.` : `Synced: ${pair} match.`;
    case 'errors': {
      // Never "match": an item left unsynced leaves the sides different (issue 27).
      const unsynced = unsyncedCounts(report.issues);
      const total = unsynced?.total ?? 0;
      return `Not all synced: ${total} ${total === 1 ? 'item is' : 'items are'} not synced between ${pair} (${unsynced?.detail ?? 'see below'}); listed below.`;
    }
    case 'held': {
      const reason = report.hold?.reason;
      switch (reason) {
        case 'local-root-missing':
          return `Stopped: ${context.localRoot} is missing, so nothing was synced or deleted.`;
        case 'emptied-root':
          return `Held: ${context.localRoot} is empty, so nothing was deleted or brought back.`;
        case 'folder-changed':
          return `Held: ${context.localRoot} is not the folder that was synced, so nothing was changed.`;
        case 'device-changed':
          return `Held: the device is not the one ${context.localRoot} was synced with, so nothing was changed.`;
        case 'mass-delete':
        case undefined:
          return 'Held: this run would delete many items, so nothing was deleted.';
        default:
          return assertNever(reason, 'hold reason');
      }
    }
    default:
      return assertNever(report.status, 'pass status');
  }
}

function describeHold(hold: PassHold, context: SummaryContext): string[] {
  switch (hold.reason) {
    case 'local-root-missing':
      return [
        hold.what ?? hold.advice,
        'Check that the folder exists (a disk that is not mounted?) and run again.',
      ];
    case 'emptied-root': {
      const { remote, remoteTotal } = hold.deletes;
      return [
        `Everything synced into it was deleted here (${remote} of ${remoteTotal} ${items(remoteTotal)} on the device); nothing was changed on either side.`,
        'If you deleted them on purpose, delete them on the device too:',
        `  ${context.confirmCommand}`,
        'To bring them back from the device instead:',
        `  ${context.restoreCommand}`,
      ];
    }
    case 'folder-changed':
      return [
        hold.what ?? hold.advice,
        'If it is the wrong folder (a disk that is not mounted, a folder put back from elsewhere), put the right one back and run again.',
        'To keep everything on both sides (nothing deleted; files that differ keep both versions):',
        `  ${context.restoreCommand}`,
        'To sync the folder as it is now (what it lacks is deleted on the device):',
        `  ${context.confirmCommand}`,
      ];
    case 'device-changed':
      return [
        hold.what ?? hold.advice,
        'If you signed in to the wrong device, sign in to the one you synced with (mch-sync login --device ID) and run again.',
        'To sync this folder with the device you use now (nothing is deleted on either side):',
        `  ${context.restoreCommand}`,
      ];
    case 'mass-delete': {
      const { deletes } = hold;
      const lines: string[] = [];
      if (deletes.remote > 0) {
        lines.push(
          `  on the device: ${deletes.remote} of ${deletes.remoteTotal} ${items(deletes.remoteTotal)} (deleted or moved away in ${context.localRoot})`,
        );
      }
      if (deletes.local > 0) {
        lines.push(
          `  in ${context.localRoot}: ${deletes.local} of ${deletes.localTotal} ${items(deletes.localTotal)}, to the trash (deleted on the device)`,
        );
      }
      const undo =
        deletes.local === 0
          ? 'To bring them back from the device instead:'
          : deletes.remote === 0
            ? 'To send them up to the device again instead:'
            : 'To undo these deletes instead (what was deleted here comes back, what was deleted on the device goes up again):';
      return [
        'Deletes waiting:',
        ...lines,
        ...(hold.what?.includes('Just before') === true ? [hold.what] : []),
        'If that is what you want, run:',
        `  ${context.confirmCommand}`,
        undo,
        `  ${context.restoreCommand}`,
      ];
    }
    default:
      return assertNever(hold.reason, 'hold reason');
  }
}

function items(count: number): string {
  return count === 1 ? 'item' : 'items';
}

function countLines(counts: PassCounts): string[] {
  return table([
    ['uploaded', `${counts.uploaded}${counts.bytesUp > 0 ? ` (${formatBytes(counts.bytesUp)})` : ''}`],
    [
      'downloaded',
      `${counts.downloaded}${counts.bytesDown > 0 ? ` (${formatBytes(counts.bytesDown)})` : ''}`,
    ],
    ['renamed', String(counts.renamed)],
    ['moved', String(counts.moved)],
    ['deleted', String(counts.deleted)],
    [
      'conflicts',
      `${counts.conflicts}${counts.conflicts > 0 ? ' (both versions kept: see "conflicted copy")' : ''}`,
    ],
    ['folders created', String(counts.foldersCreated)],
    ...(counts.timesUpdated > 0 ? [['times updated', String(counts.timesUpdated)] as [string, string]] : []),
  ]);
}
