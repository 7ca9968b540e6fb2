// What `mch-sync restore` did, for people and for `--json`: the files put back, those left where they were, and how each pair's change reaches the device.
import { formatBytes } from '../../../common/units.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import type { RestoreResult } from '../../versions/version-restore.ts';
import type { CommandContext } from '../terminal/cli-context.ts';
import { syncWords, type SyncWay } from './versions-access.ts';
import { userPath, type Destination, type VersionsPlace } from './versions-place.ts';
import { counted, shellWord } from './versions-words.ts';

export interface RestoredJson {
  path: string;
  to: string;
  /** Where it came back from: a kept version, or the OS trash. */
  from: 'versions' | 'trash';
  /** The version put back (1 the newest); null for the trash. */
  version: number | null;
  size: number;
  replacedKept: boolean;
  syncsNow: boolean;
}

export interface RestoreReport {
  restored: RestoredJson[];
  skipped: { path: string; reason: string }[];
  /** How the change to each pair touched reaches the device. */
  pairs: Map<string, SyncWay>;
  /** One version restored (`restore PATH`), not deleted files. */
  single: boolean;
}

export function newRestoreReport(): RestoreReport {
  return { restored: [], skipped: [], pairs: new Map(), single: false };
}

/** A version put back, as `--json` shows it (`to`: DEST as the user gave it, for `--to`). */
export function restoredJson(
  place: VersionsPlace,
  result: RestoreResult,
  way: SyncWay,
  to?: Destination,
): RestoredJson {
  return {
    path: userPath(place, result.path),
    to: to === undefined ? userPath(place, result.restoredTo) : to.shown,
    from: 'versions',
    version: result.number,
    size: result.size,
    replacedKept: result.replacedKept,
    syncsNow: way.kind === 'now' && (to === undefined || to.pair?.localRoot === place.pair.localRoot),
  };
}

export function printRestoreReport(context: CommandContext, report: RestoreReport): void {
  const [only] = report.restored;
  if (report.single && only !== undefined) {
    const what = `version ${only.version ?? 1} of ${terminalSafe(only.path)}`;
    if (only.to !== only.path) {
      context.print(`Restored ${what} to ${terminalSafe(only.to)} (${formatBytes(only.size)}).`);
      if (report.pairs.size === 0) {
        context.print(
          `${terminalSafe(only.to)} is outside every synced folder: it stays on this computer only.`,
        );
      }
    } else if (only.replacedKept) {
      context.print(
        `Restored ${what} (${formatBytes(only.size)}); the file it replaced is kept as version 1 (\`mch-sync versions ${shellWord(only.path)}\`).`,
      );
    } else {
      context.print(`Restored ${what} (${formatBytes(only.size)}).`);
    }
  } else if (report.restored.length > 0) {
    context.print(`Restored ${counted(report.restored.length, 'file')}:`);
    for (const restored of report.restored) {
      context.print(`  ${terminalSafe(restored.to)}${restored.from === 'trash' ? ' (from the trash)' : ''}`);
    }
  }
  if (report.skipped.length > 0) {
    context.print(`Left where they are (${report.skipped.length}):`);
    for (const skipped of report.skipped) {
      context.print(`  ${terminalSafe(skipped.path)}: ${terminalSafe(skipped.reason)}`);
    }
  }
  for (const [folder, way] of report.pairs) context.print(syncWords(folder, way));
}
