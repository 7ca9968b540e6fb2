// `mch-sync versions PATH`: the versions this computer keeps of a file, newest first, with when and why each was kept; `versions --clear` removes a folder's.
import { formatBytes } from '../../../common/units.ts';
import { listVersions } from '../../versions/version-list.ts';
import { UsageError, type CommandContext } from '../terminal/cli-context.ts';
import { changeVersions, outcomeOf, readVersions } from './versions-access.ts';
import { placeOfPath, userPath, wholePairOf } from './versions-place.ts';
import { counted, shellWord, versionLine } from './versions-words.ts';
import { terminalSafe } from '../../search/terminal-text.ts';

export const VERSIONS_USAGE = `Usage: mch-sync [--profile DIR] versions PATH [--json]
       mch-sync [--profile DIR] versions --clear [--folder DIR] --yes [--json]

Lists the versions this computer keeps of a synced file, newest first: number, when it was kept
(this computer's clock), size, and why: "replaced by the device's version" (a newer version came
down over it), "deleted on the device", "conflict settled" (the side that lost), "replaced by a
restore". PATH is the file in its synced folder (absolute, or relative to the current folder),
there now or not. \`mch-sync restore PATH --version N\` puts version N back.

--clear removes every version kept of a synced folder (--folder DIR, or the profile's only one):
their content is deleted, the folder's own files stay as they are. Without --yes nothing is removed.

Options:
  --clear        remove every kept version of a synced folder (needs --yes)
  --folder DIR   with --clear: the synced folder
  --yes          with --clear: yes, delete them
  --json         {"path", "folder", "versions": [{"number", "keptAtMs", "mTimeMs", "size",
                 "reason", "why"}]}, reason one of replaced, deleted, conflict, restored; with
                 --clear {"folder", "removed", "bytes", "running"}
  -h, --help     show this help

Exit codes: 0 listed (none kept too) or cleared, 1 failed, 2 usage error: a PATH outside every
synced folder, --clear without --yes (nothing removed).`;

type Values = Record<string, string | boolean | undefined>;

export async function runVersions(context: CommandContext, values: Values, args: string[]): Promise<number> {
  if (values['clear'] === true) {
    if (args.length > 0) throw new UsageError('--clear takes no PATH: give --folder DIR.', VERSIONS_USAGE);
    return clearVersions(context, values);
  }
  if (values['folder'] !== undefined || values['yes'] !== undefined) {
    throw new UsageError('--folder and --yes go with --clear.', VERSIONS_USAGE);
  }
  if (args.length > 1) throw new UsageError(`Unexpected argument "${args[1]}".`, VERSIONS_USAGE);
  const place = await placeOfPath(context, args[0], VERSIONS_USAGE);
  if (place.path === '') {
    throw new UsageError('Give a file inside the synced folder, not the folder itself.', VERSIONS_USAGE);
  }
  const versions = (await readVersions(place, ({ index }) => listVersions(index, place.path))) ?? [];
  const shown = userPath(place, place.path);
  if (values['json'] === true) {
    const rows = versions.map(({ number, keptAtMs, mTimeMs, size, reason, why }) => ({
      number,
      keptAtMs,
      mTimeMs,
      size,
      reason,
      why,
    }));
    context.print(JSON.stringify({ path: shown, folder: place.pair.localRoot, versions: rows }, null, 2));
    return 0;
  }
  if (versions.length === 0) {
    context.print(`No versions of ${terminalSafe(shown)} are kept.`);
    return 0;
  }
  context.print(`${terminalSafe(shown)}: ${counted(versions.length, 'version')} kept, newest first:`);
  const width = String(versions.length).length;
  for (const entry of versions) context.print(versionLine(entry, width));
  context.print(`Put one back: mch-sync restore ${shellWord(shown)} --version N [--to DEST]`);
  return 0;
}

async function clearVersions(context: CommandContext, values: Values): Promise<number> {
  const pair = await wholePairOf(context, values['folder'], VERSIONS_USAGE);
  const folder = terminalSafe(pair.pair.localRoot);
  if (values['yes'] !== true) {
    const usage = await readVersions(pair, ({ index }) => index.versions.usage());
    const kept = usage ?? { count: 0, bytes: 0 };
    throw new UsageError(
      `This deletes the ${counted(kept.count, 'version')} (${formatBytes(kept.bytes)}) kept of ${folder}, for good; the folder's own files stay. Add --yes to go ahead.`,
      VERSIONS_USAGE,
    );
  }
  const change = await changeVersions(context, pair, { kind: 'clear' });
  const outcome = outcomeOf(change, 'cleared');
  const running = change.running;
  if (values['json'] === true) {
    context.print(
      JSON.stringify(
        { folder: pair.pair.localRoot, removed: outcome.count, bytes: outcome.bytes, running },
        null,
        2,
      ),
    );
    return 0;
  }
  context.print(
    `Removed ${counted(outcome.count, 'version')} (${formatBytes(outcome.bytes)}) kept of ${folder}.`,
  );
  return 0;
}
