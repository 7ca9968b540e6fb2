// What is never synced (symlinks, temporary and system files, .mchignore patterns) stays local and is reported.
import { symlinkSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { expectLocalText, expectRemoteFiles, expectSynced } from '../../../helpers/expect-sync.ts';

describe('items that are not synced', () => {
  it('leaves symlinks on this computer and reports them as skipped', async ({ newPair }) => {
    const pair = newPair();
    pair.writeLocal('a.txt', 'alpha');
    symlinkSync('a.txt', pair.local('link-to-a'));
    symlinkSync('/etc', pair.local('link-to-etc'));
    const report = await pair.sync();
    expectSynced(report);
    await expectRemoteFiles(pair, { 'a.txt': 'alpha' });
    const skipped = report.issues.filter((issue) => issue.kind === 'skipped').map((issue) => issue.path);
    expect(skipped.sort()).toEqual(['link-to-a', 'link-to-etc']);
  });

  it('leaves temporary and system files on this computer and reports them as skipped', async ({
    newPair,
  }) => {
    const pair = newPair();
    const temporary = [
      '.DS_Store',
      '~$report.docx',
      'docs/.notes.txt.swp',
      'docs/Thumbs.db',
      'docs/.~lock.notes.odt#',
      'backup.txt~',
    ];
    pair.writeLocal('report.docx', 'the report');
    pair.writeLocal('docs/notes.txt', 'notes');
    for (const path of temporary) pair.writeLocal(path, 'temporary');
    const report = await pair.sync();
    await expectRemoteFiles(pair, { 'report.docx': 'the report', 'docs/notes.txt': 'notes' });
    const skipped = report.issues.filter((issue) => issue.kind === 'skipped').map((issue) => issue.path);
    for (const path of temporary) expect(skipped).toContain(path);
    // Still there: skipping is not deleting.
    for (const path of temporary) expectLocalText(pair, path, 'temporary');
  });

  it('follows .mchignore: matching files and folders stay local, the .mchignore itself is synced', async ({
    newPair,
  }) => {
    const pair = newPair();
    pair.writeLocal('.mchignore', '*.log\nbuild/\n!keep.log\n');
    pair.writeLocal('app.log', 'noise');
    pair.writeLocal('keep.log', 'kept');
    pair.writeLocal('build/out.bin', 'binary');
    pair.writeLocal('src/main.txt', 'code');
    pair.writeLocal('src/debug.log', 'noise');
    const report = await pair.sync();
    expectSynced(report);
    await expectRemoteFiles(pair, {
      '.mchignore': '*.log\nbuild/\n!keep.log\n',
      'keep.log': 'kept',
      'src/main.txt': 'code',
    });
    const skipped = report.issues.filter((issue) => issue.kind === 'skipped').map((issue) => issue.path);
    expect(skipped).toEqual(expect.arrayContaining(['app.log', 'build', 'src/debug.log']));
  });

  it('does not delete on the device a synced file that a new .mchignore line now ignores', async ({
    newPair,
  }) => {
    const pair = newPair();
    pair.writeLocal('data.csv', 'numbers');
    expectSynced(await pair.sync());
    pair.writeLocal('.mchignore', '*.csv\n');
    const { writes } = await pair.syncCounting();
    expect(writes.filter((write) => write.startsWith('DELETE'))).toEqual([]);
    await expectRemoteFiles(pair, { '.mchignore': '*.csv\n', 'data.csv': 'numbers' });
  });
});
