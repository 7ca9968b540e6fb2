// The items a pass left unsynced, for people: groups by what the user can do, and one safe line each.
import { describe, expect, it } from 'vitest';
import { issueLine, issueSections, unsyncedWords } from '../../../../app/cli/terminal/issue-lines.ts';
import type { PassIssue } from '../../../../app/sync/pass-report.ts';

function issue(kind: PassIssue['kind'], code: string, path = 'p'): PassIssue {
  return { kind, path, code, message: 'm' };
}

describe('unsyncedWords', () => {
  it('counts only what leaves the sides different, by what can be done', () => {
    const issues = [
      issue('failed', 'PERMISSION_DENIED'),
      issue('failed', 'DISK_FULL'),
      issue('failed', 'PATH_TOO_LONG'),
      issue('retry', 'NETWORK'),
      issue('skipped', 'IGNORED'),
    ];
    expect(unsyncedWords(issues)).toBe(
      '4 items are not synced (2 need you, 1 cannot sync as it is, 1 is tried again next run)',
    );
    expect(unsyncedWords([issue('skipped', 'SYMLINK'), issue('warning', 'NOT_PORTABLE')])).toBeUndefined();
  });
});

describe('issueLine and issueSections', () => {
  it('puts a name with a newline or an escape sequence on one inert line', () => {
    expect(issueLine({ path: 'a\nb\u001b[31m', message: 'x\ry', code: 'C' })).toBe(
      'a\\u000ab\\u001b[31m: x\\u000dy [C]',
    );
    expect(issueLine({ path: '', message: 'm', code: 'C' })).toBe('.: m [C]');
  });

  it('shortens each group to the most it shows', () => {
    const issues = Array.from({ length: 3 }, (_, n) => issue('retry', 'NETWORK', `f${n}`));
    expect(issueSections(issues, 2)).toEqual([
      '',
      'Not synced yet, tried again next run (3):',
      '  f0: m [NETWORK]',
      '  f1: m [NETWORK]',
      '  ... and 1 more (--json lists all)',
    ]);
  });
});
