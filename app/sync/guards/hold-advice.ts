// The words of a hold: what a held pass would have done, and the advice of the command line that older records show.
import type { PassHold } from '../pass-report.ts';
import { holdAdvice } from '../hold-words.ts';
import type { Plan } from '../plan/planner.ts';
import type { ScanResult } from '../local/scanner.ts';

export function rootHold(localRoot: string, scan: ScanResult): PassHold {
  const why =
    scan.root === 'missing'
      ? 'is missing'
      : scan.root === 'not-a-folder'
        ? 'is not a folder'
        : `cannot be read (${scan.rootDetail ?? 'unknown error'})`;
  return withAdvice(localRoot, {
    reason: 'local-root-missing',
    deletes: { local: 0, localTotal: 0, remote: 0, remoteTotal: 0 },
    what: `The folder ${localRoot} ${why}. Nothing was changed.`,
  });
}

export function massDeleteHold(planned: Extract<Plan, { status: 'held' }>, localRoot: string): PassHold {
  const { deletes } = planned;
  const paths = planned.deletedPaths;
  if (planned.reason === 'emptied-root') {
    return withAdvice(localRoot, {
      reason: planned.reason,
      deletes,
      paths,
      what:
        `The folder ${localRoot} is empty, but ${count(deletes.remote)} of ${deletes.remoteTotal} on the ` +
        `device were synced into it. Nothing was changed on either side.`,
    });
  }
  const earlier = planned.earlierDeletes;
  const before =
    earlier.local + earlier.remote === 0
      ? ''
      : ` Just before, ${count(earlier.remote)} were deleted on the device and ${count(earlier.local)} ` +
        `moved to the trash here: together they are too many to go ahead unasked.`;
  const sides = [
    ...(deletes.remote > 0
      ? [
          `delete ${count(deletes.remote)} of ${deletes.remoteTotal} on the device (they were deleted on ` +
            `this computer)`,
        ]
      : []),
    ...(deletes.local > 0
      ? [
          `move ${count(deletes.local)} of ${deletes.localTotal} on this computer to the trash (they were ` +
            `deleted on the device)`,
        ]
      : []),
  ];
  return withAdvice(localRoot, {
    reason: planned.reason,
    deletes,
    paths,
    what: `This pass would ${sides.join(' and ')}.${before} Nothing ${before === '' ? '' : 'more '}was deleted.`,
  });
}

/** The hold with the command line's advice, which older records and `mch-sync status` show. */
export function withAdvice(localRoot: string, hold: Omit<PassHold, 'advice'> & { what: string }): PassHold {
  const held: PassHold = { ...hold, advice: hold.what };
  held.advice = holdAdvice(held, localRoot, 'command');
  return held;
}

function count(items: number): string {
  return `${items} ${items === 1 ? 'item' : 'items'}`;
}
