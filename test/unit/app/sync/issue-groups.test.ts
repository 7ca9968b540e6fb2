// Issues grouped by what the user can do, the same for the command line and the window.
import { describe, expect, it } from 'vitest';
import { groupOf, isUnsynced } from '../../../../app/sync/issue-groups.ts';
import type { PassIssue } from '../../../../app/sync/pass-report.ts';

function issue(kind: PassIssue['kind'], code: string, path = 'p'): PassIssue {
  return { kind, path, code, message: 'm' };
}

describe('groupOf', () => {
  it('classes by the code, also for records of older passes that carry no remedy', () => {
    expect(groupOf(issue('failed', 'DISK_FULL'))).toBe('needs-you');
    expect(groupOf(issue('failed', 'NAME_CLASH'))).toBe('never-as-is');
    expect(groupOf(issue('retry', 'NETWORK'))).toBe('retry-later');
    expect(groupOf(issue('retry', 'SOMETHING_NEW'))).toBe('retry-later');
    expect(groupOf(issue('failed', 'SOMETHING_NEW'))).toBe('needs-you');
    expect(groupOf(issue('skipped', 'IGNORED'))).toBe('skipped');
    expect(groupOf(issue('warning', 'NOT_PORTABLE'))).toBe('warning');
  });
});

describe('isUnsynced', () => {
  it('is true only for what leaves the two sides different', () => {
    expect(isUnsynced(issue('retry', 'NETWORK'))).toBe(true);
    expect(isUnsynced(issue('failed', 'DISK_FULL'))).toBe(true);
    expect(isUnsynced(issue('skipped', 'SYMLINK'))).toBe(false);
    expect(isUnsynced(issue('warning', 'NOT_PORTABLE'))).toBe(false);
  });
});
