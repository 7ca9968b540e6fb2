// Checks the conventions of the source tree that ESLint does not: file names and module headers.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const SOURCE_FOLDERS = ['common', 'app', 'main', 'renderer', 'device', 'bench', 'scripts', 'test'];

function sourceFiles(folder: string): string[] {
  let entries;
  try {
    entries = readdirSync(join(root, folder), { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

const files = SOURCE_FOLDERS.flatMap(sourceFiles);

describe('source tree conventions', () => {
  it('finds the source files', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it('names every TypeScript file in kebab-case', () => {
    const badNames = files.filter(
      (file) => !/^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z]+)*\.tsx?$/.test(file.split('/').at(-1) ?? ''),
    );
    expect(badNames).toEqual([]);
  });

  it('starts every module with a one-line purpose comment', () => {
    const missing = files.filter((file) => {
      const lines = readFileSync(join(root, file), 'utf8').split('\n');
      const first = lines[0]?.startsWith('#!') ? lines[1] : lines[0];
      return !first?.startsWith('// ');
    });
    expect(missing).toEqual([]);
  });

  it('keeps device/ and common/ free of imports from the client and the UI', () => {
    const crossing = files
      .filter((file) => file.startsWith('device/') || file.startsWith('common/'))
      .filter((file) => /from '(\.\.\/)+(app|main|renderer)\//.test(readFileSync(join(root, file), 'utf8')));
    expect(crossing).toEqual([]);
  });
});
