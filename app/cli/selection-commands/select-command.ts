// `mch-sync select --folder F`: the device folder tree of a pair with each folder's state (synced, excluded, waiting).
import { formatBytes } from '../../../common/units.ts';
import type { RelativePath } from '../../model/items.ts';
import { readPairSelection } from '../../profile/pair-selection.ts';
import { selectionChildren, type SelectionFolder } from '../../selection/selection-tree.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import { openDeviceSession } from '../account-commands/device-session.ts';
import { UsageError, type CommandContext } from '../terminal/cli-context.ts';
import { pairOfFolder } from './selection-place.ts';
import { existsSync } from 'node:fs';
import { openIndexDb } from '../../index/index-db.ts';
import { IndexStore } from '../../index/index-store.ts';
import type { DeviceClient } from '../../api/device-client.ts';
import type { PairSelection } from '../../model/selection.ts';

export const SELECT_USAGE = `Usage: mch-sync [--profile DIR] select --folder DIR [--depth N] [--json]

Prints the device folder tree of a synced folder with each folder's state: synced, partly (something
below it is excluded), excluded, or waiting (a new folder over the size threshold, not synced until
you answer with \`mch-sync include\` or \`mch-sync exclude\`). Sizes are what this computer knows: the
synced files below a synced folder, what was counted of a waiting one; an excluded folder's is unknown.
Excluded and waiting folders are not listed further.

Options:
  --folder DIR   the synced folder
  --depth N      list N levels at most (default: all)
  --json         {"folder", "remoteFolder", "askOverBytes", "folders": [{"path", "state", "bytes", "files"}]}
  -h, --help     show this help`;

type Values = Record<string, string | boolean | undefined>;

const MARKS: Record<SelectionFolder['state'], string> = {
  synced: '[x]',
  partly: '[~]',
  excluded: '[ ]',
  waiting: '[?]',
};

export async function runSelect(context: CommandContext, values: Values): Promise<number> {
  const folder = values['folder'];
  if (typeof folder !== 'string' || folder === '') throw new UsageError('--folder is needed.', SELECT_USAGE);
  const depth = depthOf(values['depth']);
  const pair = await pairOfFolder(context, folder, SELECT_USAGE);
  const selection = readPairSelection(context.profileDir, pair.localRoot);
  const { client } = await openDeviceSession(context);
  const read = (index: IndexStore | undefined): Promise<SelectionFolder[]> =>
    folderTree(client, pair, selection, depth, index);
  // The index gives synced folders' sizes; it is read, never created, by this command.
  const folders = existsSync(pair.indexPath)
    ? await withIndexAsync(pair.indexPath, read)
    : await read(undefined);
  if (values['json'] === true) {
    context.print(
      JSON.stringify(
        {
          folder: pair.localRoot,
          remoteFolder: pair.remoteFolder,
          askOverBytes: selection.askOverBytes,
          folders: folders.map(({ path, state, bytes, files }) => ({ path, state, bytes, files })),
        },
        null,
        2,
      ),
    );
    return 0;
  }
  context.print(`${terminalSafe(pair.remoteFolder)}  ↔  ${terminalSafe(pair.localRoot)}`);
  if (folders.length === 0) context.print('  (no folders)');
  for (const found of folders) {
    const indent = '  '.repeat(found.path.split('/').length);
    context.print(`${indent}${MARKS[found.state]} ${terminalSafe(found.name)}  ${wordsOf(found)}`);
  }
  const threshold = selection.askOverBytes === null ? 'off' : formatBytes(selection.askOverBytes);
  context.print(
    `New folders over ${threshold} wait for an answer (\`mch-sync folders set --ask-over SIZE|off\`).`,
  );
  return 0;
}

function depthOf(given: string | boolean | undefined): number {
  if (given === undefined) return Number.POSITIVE_INFINITY;
  const depth = typeof given === 'string' ? Number(given) : NaN;
  if (!Number.isInteger(depth) || depth < 1)
    throw new UsageError('--depth takes a whole number, 1 or more.', SELECT_USAGE);
  return depth;
}

function wordsOf(folder: SelectionFolder): string {
  const size =
    folder.bytes === null || folder.files === null
      ? 'size unknown'
      : `${folder.files} ${folder.files === 1 ? 'file' : 'files'}, ${formatBytes(folder.bytes)}`;
  switch (folder.state) {
    case 'synced':
      return size;
    case 'partly':
      return `partly synced, ${size} here`;
    case 'excluded':
      return 'excluded';
    case 'waiting':
      return `waiting for an answer (${size}): \`mch-sync include\` or \`mch-sync exclude\``;
  }
}

/** The tree, depth first: synced and partly folders are listed further, excluded and waiting ones are not. */
async function folderTree(
  client: DeviceClient,
  pair: { remoteFolder: string },
  selection: PairSelection,
  depth: number,
  index: IndexStore | undefined,
): Promise<SelectionFolder[]> {
  const found: SelectionFolder[] = [];
  const visit = async (path: RelativePath, level: number): Promise<void> => {
    for (const child of await selectionChildren(client, pair, selection, path, index)) {
      found.push(child);
      if (level < depth && (child.state === 'synced' || child.state === 'partly'))
        await visit(child.path, level + 1);
    }
  };
  await visit('', 1);
  return found;
}

/** Runs `read` on the pair's index, closed once `read` is over. */
async function withIndexAsync<T>(indexPath: string, read: (store: IndexStore) => Promise<T>): Promise<T> {
  const db = openIndexDb(indexPath);
  try {
    return await read(new IndexStore(db));
  } finally {
    db.close();
  }
}
