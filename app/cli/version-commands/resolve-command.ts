// `mch-sync resolve PATH --keep this|device|both`: a conflict settled by the user, the side that loses kept as a version.
import { terminalSafe } from '../../search/terminal-text.ts';
import { UsageError, type CommandContext } from '../terminal/cli-context.ts';
import { changeVersions, outcomeOf, syncWords } from './versions-access.ts';
import { placeOfPath, userPath } from './versions-place.ts';
import { shellWord } from './versions-words.ts';

export const RESOLVE_USAGE = `Usage: mch-sync [--profile DIR] resolve PATH --keep this|device|both [--json]

Settles a conflict (\`mch-sync conflicts\` lists them); PATH is the file or its conflicted copy.
  this     this computer's version (the conflicted copy's content) takes the file's name; the
           device's version goes into the versions
  device   the device's version stays at the name; the conflicted copy goes into the versions
  both     both files stay as they are, and the conflict is no longer listed
What loses is kept as a version (\`mch-sync versions PATH\`, \`mch-sync deleted\` for a copy), never
deleted. The change goes to the device like any other: at once while live sync runs for the folder,
else at the next \`mch-sync run\`. A file with several conflicted copies needs the copy named.

Options:
  --keep this|device|both   which side stays
  --json                    {"path", "copyPath", "kept", "syncsNow"}, paths absolute
  -h, --help                show this help

Exit codes: 0 settled, 1 not a conflict waiting (or several copies: name one), nothing changed;
2 usage error (no --keep, or a PATH outside every synced folder).`;

type Values = Record<string, string | boolean | undefined>;

const KEEPS = ['this', 'device', 'both'] as const;
type Keep = (typeof KEEPS)[number];

function keepOf(values: Values): Keep {
  const given = values['keep'];
  const found = KEEPS.find((keep) => keep === given);
  if (found === undefined) {
    throw new UsageError(
      given === undefined
        ? 'Say which side stays: --keep this, --keep device or --keep both.'
        : `--keep: ${JSON.stringify(given)} is not this, device or both.`,
      RESOLVE_USAGE,
    );
  }
  return found;
}

export async function runResolve(context: CommandContext, values: Values, args: string[]): Promise<number> {
  if (args.length > 1) throw new UsageError(`Unexpected argument "${args[1]}".`, RESOLVE_USAGE);
  const keep = keepOf(values);
  const place = await placeOfPath(context, args[0], RESOLVE_USAGE);
  if (place.path === '') throw new UsageError('Give the file in conflict, not the folder.', RESOLVE_USAGE);
  const change = await changeVersions(context, place, { kind: 'resolve', path: place.path, keep });
  const { conflict } = outcomeOf(change, 'resolved');
  const path = userPath(place, conflict.originalPath);
  const copyPath = userPath(place, conflict.copyPath);
  if (values['json'] === true) {
    context.print(
      JSON.stringify(
        { path, copyPath, kept: keep, syncsNow: change.way.kind === 'now' && keep !== 'both' },
        null,
        2,
      ),
    );
    return 0;
  }
  const file = terminalSafe(path);
  const copy = terminalSafe(copyPath);
  if (keep === 'this') {
    context.print(
      `Kept ${conflict.copy.from}'s version of ${file}; ${conflict.original.from}'s is kept as a version (\`mch-sync versions ${shellWord(path)}\`).`,
    );
  } else if (keep === 'device') {
    context.print(
      `Kept ${conflict.original.from}'s version of ${file}; the conflicted copy ${copy} is kept as a version (\`mch-sync versions ${shellWord(copyPath)}\`).`,
    );
  } else {
    context.print(`Kept both: ${file} and ${copy} stay as they are, and the conflict is no longer listed.`);
    return 0;
  }
  context.print(syncWords(place.pair.localRoot, change.way));
  return 0;
}
