// Live sync of local changes against the real device: a rename or move is one PATCH; editor saves are edits of the same item.
import { closeSync, openSync, renameSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { afterEach, describe, expect } from 'vitest';
import { it, type NewLivePair } from '../../../helpers/fixtures.ts';
import type { LivePair } from '../../../helpers/live-pair.ts';
import { digestTree, waitFor } from '../../../helpers/live-pair.ts';
import { files } from '../../../helpers/sync-pair.ts';

afterEach(async () => {});

/** A live pair whose folder holds `texts`, started and synced once. */
async function syncedLivePair(newLivePair: NewLivePair, texts: Record<string, string>): Promise<LivePair> {
  const live = newLivePair();
  for (const [path, text] of Object.entries(texts)) live.pair.writeLocal(path, text);
  await live.start({ synced: true });
  return live;
}

describe('a live rename or move', () => {
  it('a rename costs exactly one PATCH: no upload, download or delete', async ({ newLivePair }) => {
    const live = await syncedLivePair(newLivePair, { 'notes.txt': 'hello', 'docs/keep.txt': 'keep' });
    const id = await live.pair.remoteId('notes.txt');
    const mark = live.mark();
    live.pair.renameLocal('notes.txt', 'renamed.txt');
    expect(await live.waitUntilSynced()).toEqual(
      digestTree(files({ 'docs/keep.txt': 'keep', 'renamed.txt': 'hello' })),
    );
    expect(live.writesSince(mark)).toEqual([`PATCH /sdk/v2/files/${id}`]);
    expect(await live.pair.remoteId('renamed.txt')).toBe(id);
  }, 120_000);

  it('a move into another folder costs exactly one PATCH', async ({ newLivePair }) => {
    const live = await syncedLivePair(newLivePair, { 'notes.txt': 'hello', 'docs/keep.txt': 'keep' });
    const id = await live.pair.remoteId('notes.txt');
    const mark = live.mark();
    live.pair.renameLocal('notes.txt', 'docs/notes.txt');
    expect(await live.waitUntilSynced()).toEqual(
      digestTree(files({ 'docs/keep.txt': 'keep', 'docs/notes.txt': 'hello' })),
    );
    expect(live.writesSince(mark)).toEqual([`PATCH /sdk/v2/files/${id}`]);
    expect(await live.pair.remoteId('docs/notes.txt')).toBe(id);
  }, 120_000);
});

/** How an editor saves `notes.txt` with `text`, given the folder's absolute path maker. */
type SavePattern = (
  at: (path: string) => string,
  text: string,
  waitForPass: () => Promise<void>,
) => Promise<void>;

/** Writes a temporary file, lets a pass run while it exists, then renames it over the file. */
function renameOverFrom(temporary: string): SavePattern {
  return async (at, text, waitForPass) => {
    writeFileSync(at(temporary), text);
    await waitForPass();
    renameSync(at(temporary), at('notes.txt'));
  };
}

const savePatterns: Array<[string, SavePattern]> = [
  ['a Vim swap name renamed over the file', renameOverFrom('.notes.txt.swp')],
  ['a backup name (notes.txt~) renamed over the file', renameOverFrom('notes.txt~')],
  ['a gedit .goutputstream-XXXXXX renamed over the file', renameOverFrom('.goutputstream-K3F9QZ')],
  [
    'Vim with a backup: the file renamed away, written anew, the backup deleted',
    async (at, text) => {
      writeFileSync(at('.notes.txt.swp'), 'swap');
      renameSync(at('notes.txt'), at('notes.txt~'));
      writeFileSync(at('notes.txt'), text);
      unlinkSync(at('notes.txt~'));
      unlinkSync(at('.notes.txt.swp'));
    },
  ],
  [
    'the file deleted, then created again',
    async (at, text) => {
      unlinkSync(at('notes.txt'));
      writeFileSync(at('notes.txt'), text);
    },
  ],
  [
    'the file truncated, then written in two pieces',
    async (at, text) => {
      const descriptor = openSync(at('notes.txt'), 'w');
      try {
        writeSync(descriptor, text.slice(0, 5));
        writeSync(descriptor, text.slice(5));
      } finally {
        closeSync(descriptor);
      }
    },
  ],
];

describe('editor save patterns', () => {
  it.for(savePatterns)(
    '%s: the same remote item gets the new content',
    { timeout: 120_000 },
    async ([_name, save], { newLivePair }) => {
      const live = await syncedLivePair(newLivePair, { 'notes.txt': 'first version', 'other.txt': 'other' });
      const id = await live.pair.remoteId('notes.txt');
      const mark = live.mark();
      const waitForPass = async (): Promise<void> => {
        const before = live.passes.length;
        await waitFor('a pass', () => (live.passes.length > before ? true : undefined));
        await live.live.whenIdle();
      };
      await save((path) => live.pair.local(path), 'second version, saved by an editor', waitForPass);
      expect(await live.waitUntilSynced()).toEqual(
        digestTree(files({ 'notes.txt': 'second version, saved by an editor', 'other.txt': 'other' })),
      );
      expect(await live.pair.remoteId('notes.txt')).toBe(id);
      const writes = live.writesSince(mark);
      expect(writes).toContain(`PUT /sdk/v2/files/${id}/content`);
      // An edit of that item only: no create (no temporary file ever reached the device), no delete.
      expect(writes.filter((write) => !write.startsWith(`PUT /sdk/v2/files/${id}/`))).toEqual(
        writes.filter((write) => write === `PATCH /sdk/v2/files/${id}`),
      );
    },
  );
});
