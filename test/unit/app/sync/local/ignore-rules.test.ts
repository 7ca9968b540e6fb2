// .mchignore semantics: gitignore patterns, negation, folder-only patterns, nested files, and the scan using them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IgnoreRules } from '../../../../../app/sync/local/ignore-rules.ts';
import { scanLocalFolder } from '../../../../../app/sync/local/scanner.ts';

const rules = (text: string, folder = ''): IgnoreRules =>
  IgnoreRules.empty({ ignoreCase: false }).withFile(folder, text);

describe('IgnoreRules', () => {
  it('has no rules until a file is added', () => {
    const empty = IgnoreRules.empty();
    expect(empty.isEmpty).toBe(true);
    expect(empty.ignores('anything', false)).toBe(false);
  });

  it('matches glob patterns at any depth, and anchored ones from their folder only', () => {
    const r = rules('*.log\n/todo.txt\n');
    expect(r.ignores('a.log', false)).toBe(true);
    expect(r.ignores('deep/er/a.log', false)).toBe(true);
    expect(r.ignores('todo.txt', false)).toBe(true);
    expect(r.ignores('sub/todo.txt', false)).toBe(false);
  });

  it('brings a file back with a later negation', () => {
    const r = rules('*.log\n!keep.log\n');
    expect(r.ignores('x.log', false)).toBe(true);
    expect(r.ignores('keep.log', false)).toBe(false);
  });

  it('lets a trailing slash match folders only', () => {
    const r = rules('cache/\n');
    expect(r.ignores('cache', true)).toBe(true);
    expect(r.ignores('a/cache', true)).toBe(true);
    expect(r.ignores('cache', false)).toBe(false);
  });

  it('reads a nested file relative to its folder, and its rules win over the parent', () => {
    const r = rules('*.tmp\n').withFile('proj', '!*.tmp\n/out\n');
    expect(r.ignores('a.tmp', false)).toBe(true);
    expect(r.ignores('proj/a.tmp', false)).toBe(false);
    expect(r.ignores('proj/out', true)).toBe(true);
    expect(r.ignores('out', true)).toBe(false);
  });

  it('ignores comments and blank lines, and matches case as asked', () => {
    expect(rules('# *.txt\n\n').ignores('a.txt', false)).toBe(false);
    expect(rules('*.TXT').ignores('a.txt', false)).toBe(false);
    expect(IgnoreRules.empty({ ignoreCase: true }).withFile('', '*.TXT').ignores('a.txt', false)).toBe(true);
  });
});

describe('scan with nested .mchignore files', () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('applies each file to its own folder and below', () => {
    root = mkdtempSync(join(tmpdir(), 'mch-ignore-'));
    const files: Record<string, string> = {
      '.mchignore': '*.bak\n',
      'a.bak': '',
      'proj/.mchignore': 'node_modules/\n!important.bak\n',
      'proj/node_modules/x/index.js': '',
      'proj/important.bak': '',
      'proj/other.bak': '',
      'other/node_modules/y.js': '',
    };
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), content);
    }
    const result = scanLocalFolder(root, { ignoreCase: false });
    expect(result.entries.map((entry) => entry.path).sort()).toEqual([
      '.mchignore',
      'other',
      'other/node_modules',
      'other/node_modules/y.js',
      'proj',
      'proj/.mchignore',
      'proj/important.bak',
    ]);
    expect(result.skipped.map((item) => `${item.path} ${item.reason}`).sort()).toEqual([
      'a.bak ignored',
      'proj/node_modules ignored',
      'proj/other.bak ignored',
    ]);
  });
});
