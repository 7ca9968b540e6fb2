// Conflicted-copy and case-clash names: extensions, dot files, the 255-byte limit, uniqueness.
import { describe, expect, it } from 'vitest';
import {
  caseClashName,
  conflictedCopyName,
  splitExtension,
  truncateUtf8,
  utf8Bytes,
} from '../../../../../app/sync/plan/conflict-names.ts';

const NOW = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
const free = (): boolean => false;

describe('conflictedCopyName', () => {
  it('puts the stamp before the extension, in UTC', () => {
    expect(conflictedCopyName('report.txt', NOW, free)).toBe(
      'report (conflicted copy 2026-01-02 030405).txt',
    );
  });
  it('uses only the last extension', () => {
    expect(conflictedCopyName('backup.tar.gz', NOW, free)).toBe(
      'backup.tar (conflicted copy 2026-01-02 030405).gz',
    );
  });
  it('treats a dot file as having no extension', () => {
    expect(conflictedCopyName('.bashrc', NOW, free)).toBe('.bashrc (conflicted copy 2026-01-02 030405)');
  });
  it('handles names without an extension and names ending in a dot', () => {
    expect(conflictedCopyName('Makefile', NOW, free)).toBe('Makefile (conflicted copy 2026-01-02 030405)');
    expect(conflictedCopyName('odd.', NOW, free)).toBe('odd. (conflicted copy 2026-01-02 030405)');
  });
  it('numbers a second conflicted copy made in the same second', () => {
    const taken = new Set(['a (conflicted copy 2026-01-02 030405).txt']);
    expect(conflictedCopyName('a.txt', NOW, (name) => taken.has(name))).toBe(
      'a (conflicted copy 2026-01-02 030405 2).txt',
    );
    taken.add('a (conflicted copy 2026-01-02 030405 2).txt');
    expect(conflictedCopyName('a.txt', NOW, (name) => taken.has(name))).toBe(
      'a (conflicted copy 2026-01-02 030405 3).txt',
    );
  });
  it('shortens the stem of a name near 255 bytes, keeping the stamp and extension', () => {
    const name = `${'x'.repeat(250)}.txt`;
    const copy = conflictedCopyName(name, NOW, free);
    expect(utf8Bytes(copy)).toBe(255);
    expect(copy.endsWith(' (conflicted copy 2026-01-02 030405).txt')).toBe(true);
  });
  it('never cuts a multi-byte character or an emoji in half', () => {
    const name = `${'é'.repeat(120)}😀😀.md`;
    const copy = conflictedCopyName(name, NOW, free);
    expect(utf8Bytes(copy)).toBeLessThanOrEqual(255);
    expect(copy).toBe(copy.normalize('NFC'));
    expect(copy.endsWith(' (conflicted copy 2026-01-02 030405).md')).toBe(true);
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(copy)).toBe(false);
  });
});

describe('caseClashName', () => {
  it('marks the second name', () => {
    expect(caseClashName('README.txt', free)).toBe('README (case clash).txt');
  });
  it('finds a free one when that is taken too', () => {
    expect(caseClashName('a.txt', (name) => name === 'a (case clash).txt')).toBe('a (case clash 2).txt');
  });
});

describe('splitExtension', () => {
  it('does not take a very long tail for an extension', () => {
    const name = `a.${'y'.repeat(100)}`;
    expect(splitExtension(name)).toEqual({ stem: name, extension: '' });
  });
});

describe('truncateUtf8', () => {
  it('keeps text that fits and cuts at whole code points', () => {
    expect(truncateUtf8('abc', 3)).toBe('abc');
    expect(truncateUtf8('aé', 2)).toBe('a');
    expect(truncateUtf8('😀x', 3)).toBe('');
  });
});
