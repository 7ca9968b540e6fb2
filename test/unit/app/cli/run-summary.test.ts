// The summary `mch-sync run` prints for each kind of pass: synced, nothing to do, problems, held.
import { describe, expect, it } from 'vitest';
import { formatRunSummary, nothingMoved } from '../../../../app/cli/sync-commands/run-summary.ts';
import { emptyCounts, type PassIssue, type PassReport } from '../../../../app/sync/pass-report.ts';

const CONTEXT = {
  localRoot: '/home/ann/Docs',
  remoteFolder: '/Docs',
  confirmCommand: 'mch-sync run --folder /home/ann/Docs --remote-folder /Docs --once --confirm-deletes',
  restoreCommand: 'mch-sync run --folder /home/ann/Docs --remote-folder /Docs --once --restore',
};

function report(overrides: Partial<PassReport> = {}): PassReport {
  return {
    status: 'synced',
    counts: emptyCounts(),
    issues: [],
    hold: null,
    rounds: 1,
    operations: {},
    startedAtMs: 0,
    finishedAtMs: 1,
    ...overrides,
  };
}

function issue(kind: PassIssue['kind'], path: string, code = 'CODE'): PassIssue {
  return { kind, path, code, message: `${path} is ${kind}` };
}

describe('formatRunSummary', () => {
  it('says there was nothing to do, in one line, when nothing moved', () => {
    expect(formatRunSummary(report(), CONTEXT)).toEqual([
      'Nothing to do: /home/ann/Docs and /Docs on the device already match.',
    ]);
  });

  it('lists every count in the order of the issue: uploaded, downloaded, renamed, moved, deleted, conflicts', () => {
    const counts = {
      ...emptyCounts(),
      uploaded: 3,
      bytesUp: 12_345,
      downloaded: 1,
      bytesDown: 999,
      renamed: 2,
      moved: 4,
      deleted: 5,
      conflicts: 1,
      foldersCreated: 2,
    };
    expect(formatRunSummary(report({ counts }), CONTEXT)).toEqual([
      'Synced: /home/ann/Docs and /Docs on the device match.',
      '',
      'uploaded:        3 (12 kB)',
      'downloaded:      1 (999 B)',
      'renamed:         2',
      'moved:           4',
      'deleted:         5',
      'conflicts:       1 (both versions kept: see "conflicted copy")',
      'folders created: 2',
    ]);
  });

  it('lists what was left out on purpose and why, even when nothing else happened', () => {
    const lines = formatRunSummary(
      report({ issues: [issue('skipped', 'link', 'SYMLINK'), issue('skipped', '.DS_Store', 'TEMPORARY')] }),
      CONTEXT,
    );
    expect(lines).toEqual([
      'Nothing to do: /home/ann/Docs and /Docs on the device already match.',
      '',
      'Left out on purpose (2):',
      '  link: link is skipped [SYMLINK]',
      '  .DS_Store: .DS_Store is skipped [TEMPORARY]',
    ]);
  });

  it('never says the sides match when items are not synced: counts them by what the user can do', () => {
    const lines = formatRunSummary(
      report({
        status: 'errors',
        issues: [
          issue('skipped', 's', 'IGNORED'),
          issue('retry', 'r', 'NETWORK'),
          issue('failed', 'f', 'PERMISSION_DENIED'),
          issue('failed', 'n', 'PATH_TOO_LONG'),
          issue('warning', 'w', 'NOT_PORTABLE'),
        ],
      }),
      CONTEXT,
    );
    expect(lines[0]).toBe(
      'Not all synced: 3 items are not synced between /home/ann/Docs and /Docs on the device ' +
        '(1 needs you, 1 cannot sync as it is, 1 is tried again next run); listed below.',
    );
    const headings = lines.filter((line) => /^\S.*\(\d+\):$/.test(line));
    expect(headings).toEqual([
      'Needs you (1):',
      'Cannot sync as it is (1):',
      'Not synced yet, tried again next run (1):',
      'Left out on purpose (1):',
      'Synced, with a warning (1):',
    ]);
  });

  it('shows names from the disk or the device escaped: no escape sequence reaches the terminal, no line splits', () => {
    const evil = 'evil\u001b[2J\u001b[31mFAKE\u001b[0m\nSynced: all fine.txt';
    const lines = formatRunSummary(
      report({ status: 'errors', issues: [issue('failed', evil, 'PERMISSION_DENIED')] }),
      { ...CONTEXT, localRoot: '/home/ann/new\nline' },
    );
    // eslint-disable-next-line no-control-regex -- control characters are what must not be printed
    expect(lines.join('\n')).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(lines[0]).toContain('/home/ann/new\\u000aline and /Docs');
    // The message of the test's issue repeats the path.
    const shown = 'evil\\u001b[2J\\u001b[31mFAKE\\u001b[0m\\u000aSynced: all fine.txt';
    expect(lines).toContain(`  ${shown}: ${shown} is failed [PERMISSION_DENIED]`);
  });

  it('shortens a long list of issues of one kind', () => {
    const issues = Array.from({ length: 25 }, (_, i) => issue('skipped', `f${i}`));
    const lines = formatRunSummary(report({ issues }), { ...CONTEXT, maxIssuesPerKind: 3 });
    expect(lines.slice(-5)).toEqual([
      'Left out on purpose (25):',
      '  f0: f0 is skipped [CODE]',
      '  f1: f1 is skipped [CODE]',
      '  f2: f2 is skipped [CODE]',
      '  ... and 22 more (--json lists all)',
    ]);
  });

  it('explains a held pass: how many deletes on which side, and the command that goes ahead', () => {
    const lines = formatRunSummary(
      report({
        status: 'held',
        hold: {
          reason: 'mass-delete',
          deletes: { local: 2, localTotal: 100, remote: 60, remoteTotal: 100 },
          advice: 'run again with --confirm-deletes',
        },
      }),
      CONTEXT,
    );
    expect(lines).toEqual([
      'Held: this run would delete many items, so nothing was deleted.',
      'Deletes waiting:',
      '  on the device: 60 of 100 items (deleted or moved away in /home/ann/Docs)',
      '  in /home/ann/Docs: 2 of 100 items, to the trash (deleted on the device)',
      'If that is what you want, run:',
      `  ${CONTEXT.confirmCommand}`,
      'To undo these deletes instead (what was deleted here comes back, what was deleted on the device goes up again):',
      `  ${CONTEXT.restoreCommand}`,
    ]);
  });

  it('leaves out the side of a held pass that deletes nothing', () => {
    const lines = formatRunSummary(
      report({
        status: 'held',
        hold: {
          reason: 'mass-delete',
          deletes: { local: 70, localTotal: 80, remote: 0, remoteTotal: 80 },
          advice: '',
        },
      }),
      CONTEXT,
    );
    expect(lines.filter((line) => line.startsWith('  on the device'))).toEqual([]);
    expect(lines).toContain('  in /home/ann/Docs: 70 of 80 items, to the trash (deleted on the device)');
  });

  it('says a missing local folder stopped the pass', () => {
    const lines = formatRunSummary(
      report({
        status: 'held',
        hold: {
          reason: 'local-root-missing',
          deletes: { local: 0, localTotal: 0, remote: 0, remoteTotal: 3 },
          advice: '',
        },
      }),
      CONTEXT,
    );
    expect(lines[0]).toBe('Stopped: /home/ann/Docs is missing, so nothing was synced or deleted.');
    expect(lines.join('\n')).not.toContain('--confirm-deletes');
  });

  it('names both ways out of an emptied folder', () => {
    const lines = formatRunSummary(
      report({
        status: 'held',
        hold: {
          reason: 'emptied-root',
          deletes: { local: 0, localTotal: 0, remote: 120, remoteTotal: 121 },
          advice: '',
        },
      }),
      CONTEXT,
    );
    expect(lines).toEqual([
      'Held: /home/ann/Docs is empty, so nothing was deleted or brought back.',
      'Everything synced into it was deleted here (120 of 121 items on the device); nothing was changed on either side.',
      'If you deleted them on purpose, delete them on the device too:',
      `  ${CONTEXT.confirmCommand}`,
      'To bring them back from the device instead:',
      `  ${CONTEXT.restoreCommand}`,
    ]);
  });
});

describe('helpers', () => {
  it('sees a pass with only byte counts or index updates as one where nothing moved', () => {
    expect(nothingMoved({ ...emptyCounts(), bytesDown: 5 })).toBe(true);
    expect(nothingMoved({ ...emptyCounts(), foldersCreated: 1 })).toBe(false);
  });
});
