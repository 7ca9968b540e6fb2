// `mch-sync restore`: a kept version put back at its file (which is kept in turn) or elsewhere, and deleted files put back where they were.
import { existsSync } from 'node:fs';
import { VersionsError } from '../../versions/versions-errors.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import { UsageError, type CommandContext } from '../terminal/cli-context.ts';
import { restoreDeletedAt, restoreDeletedSince } from './restore-deleted.ts';
import { newRestoreReport, printRestoreReport, restoredJson, type RestoreReport } from './restore-report.ts';
import { changeVersions, outcomeOf } from './versions-access.ts';
import { destinationOf, placeOfPath } from './versions-place.ts';
import { sinceOf } from './versions-words.ts';

export const RESTORE_USAGE = `Usage: mch-sync [--profile DIR] restore PATH [--version N] [--to DEST] [--json]
       mch-sync [--profile DIR] restore --deleted PATH [--json]
       mch-sync [--profile DIR] restore --all-since TIME [--folder DIR] [--json]

Puts a kept version back (\`mch-sync versions PATH\` lists them). \`restore PATH\` puts the newest
version of the file PATH (or version N) at its place; the file there now is kept as a version first
("replaced by a restore"), so a restore can be undone the same way. With --to DEST the version goes
to DEST instead, where nothing may be, and the file at PATH stays as it is.

--deleted PATH puts back a deleted file, or every deleted file that was below the folder PATH, where
it was (\`mch-sync deleted\` lists them): from the versions (deleted on the device, a conflicted copy
settled away) and from the trash (deleted here). --all-since TIME puts back every file deleted since
TIME in every synced folder, or below --folder DIR. A deleted file whose place is taken again stays
where it is (in the versions, or the trash), and is said.

A file put back is a change like any other: it goes up to the device, over the device's version.
While live sync runs for the folder, the restore goes through it and syncs at once; otherwise it
syncs at the next \`mch-sync run\`. A version restored leaves the versions (it is the file now).

Options:
  --version N       the version to put back (1 the newest, as \`versions\` numbers them; default 1)
  --to DEST         put it at DEST (absolute, or relative to the current folder) instead
  --deleted         PATH is a deleted file, or a folder whose deleted files all come back
  --all-since TIME  every file deleted since TIME: an age (30min, 2h, 3d, 1w), a day (2026-11-20,
                    from its start on this computer's clock) or a time (2026-11-20T18:00)
  --folder DIR      with --all-since: only below DIR (a synced folder, or a folder in one)
  --json            {"restored": [{"path", "to", "from", "version", "size", "replacedKept",
                    "syncsNow"}], "skipped": [{"path", "reason"}]}; paths absolute, from "versions"
                    or "trash" (version null)
  -h, --help        show this help

Exit codes: 0 put back, 1 failed or not all put back: no such version, DEST exists, nothing
deleted there (nothing changed), or a deleted file's place is taken; 2 usage error (a PATH outside
every synced folder: nothing changed).`;

type Values = Record<string, string | boolean | undefined>;

export async function runRestore(context: CommandContext, values: Values, args: string[]): Promise<number> {
  const deleted = values['deleted'] === true;
  const since = values['all-since'];
  if (args.length > 1) throw new UsageError(`Unexpected argument "${args[1]}".`, RESTORE_USAGE);
  if (deleted && typeof since === 'string') {
    throw new UsageError('Say --deleted PATH or --all-since TIME, not both.', RESTORE_USAGE);
  }
  if (
    (deleted || typeof since === 'string') &&
    (values['version'] !== undefined || values['to'] !== undefined)
  ) {
    throw new UsageError('--version and --to go with restore PATH, not with deleted files.', RESTORE_USAGE);
  }
  if (values['folder'] !== undefined && typeof since !== 'string') {
    throw new UsageError('--folder goes with --all-since.', RESTORE_USAGE);
  }
  const report = newRestoreReport();
  if (typeof since === 'string') {
    if (args.length > 0) throw new UsageError('--all-since takes no PATH: give --folder DIR.', RESTORE_USAGE);
    const sinceMs = sinceOf(since, '--all-since', RESTORE_USAGE);
    await restoreDeletedSince(context, sinceMs, values['folder'], RESTORE_USAGE, report);
  } else if (deleted) {
    const place = await placeOfPath(context, args[0], RESTORE_USAGE);
    await restoreDeletedAt(context, place, report);
  } else {
    await restoreOne(context, values, args[0], report);
  }
  if (values['json'] === true) {
    context.print(JSON.stringify({ restored: report.restored, skipped: report.skipped }, null, 2));
  } else {
    printRestoreReport(context, report);
  }
  return report.skipped.length > 0 ? 1 : 0;
}

function versionOf(values: Values): number | undefined {
  const given = values['version'];
  if (given === undefined) return undefined;
  const text = String(given).trim();
  const number = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(number) || number < 1) {
    throw new UsageError(
      `--version: ${JSON.stringify(given)} is not a version number (1, 2, ...).`,
      RESTORE_USAGE,
    );
  }
  return number;
}

async function restoreOne(
  context: CommandContext,
  values: Values,
  given: string | undefined,
  report: RestoreReport,
): Promise<void> {
  const number = versionOf(values);
  const place = await placeOfPath(context, given, RESTORE_USAGE);
  if (place.path === '') {
    throw new UsageError(
      'Give a file inside the synced folder (or --deleted with a folder, for its deleted files).',
      RESTORE_USAGE,
    );
  }
  const to =
    typeof values['to'] === 'string' ? await destinationOf(context, values['to'], RESTORE_USAGE) : undefined;
  // Said with the path the user gave: an on-demand pair's cache folder is no name of theirs.
  if (to !== undefined && (existsSync(to.absolute) || existsSync(to.shown))) {
    throw new VersionsError(
      'DESTINATION_EXISTS',
      `${terminalSafe(to.shown)} exists; choose a name that is free.`,
    );
  }
  const change = await changeVersions(context, place, {
    kind: 'restore',
    path: place.path,
    ...(number === undefined ? {} : { number }),
    ...(to === undefined ? {} : { to: to.absolute }),
  });
  const restored = outcomeOf(change, 'restored').restored;
  report.single = true;
  report.restored.push(restoredJson(place, restored, change.way, to));
  if (to === undefined || to.pair?.localRoot === place.pair.localRoot) {
    report.pairs.set(place.pair.localRoot, change.way);
  } else if (to.pair !== undefined) {
    // Another pair's live sync sees the new file by itself; without one, its next run sends it.
    report.pairs.set(to.pair.localRoot, { kind: 'next-run' });
  }
}
