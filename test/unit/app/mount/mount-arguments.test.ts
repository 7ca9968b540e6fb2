// The mount process's command line: what it needs, what it refuses, and the list it passes to C.
import { describe, expect, it } from 'vitest';
import { mountArgumentList, parseMountArguments } from '../../../../app/mount/mount-arguments.ts';
import { DEFAULT_NO_DOWNLOAD } from '../../../../app/mount/no-download.ts';

const BASE = ['--source', '/cache/C', '--mount', '/home/ann/Cloud', '--socket', '/run/user/1000/h.sock'];

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

describe('parseMountArguments', () => {
  it('reads the three paths and takes the default no-download list', () => {
    expect(parseMountArguments(BASE)).toEqual({
      source: '/cache/C',
      mountPoint: '/home/ann/Cloud',
      socket: '/run/user/1000/h.sock',
      noDownload: DEFAULT_NO_DOWNLOAD,
    });
  });

  it('takes the no-download list from JSON', () => {
    expect(parseMountArguments([...BASE, '--no-download-json', '["cat"]']).noDownload).toEqual(['cat']);
  });

  it('normalizes the paths (a trailing slash, dots)', () => {
    const args = parseMountArguments(['--source', '/cache/./C/', '--mount', '/m/', '--socket', '/s']);
    expect([args.source, args.mountPoint]).toEqual(['/cache/C', '/m']);
  });

  it.each([
    ['a missing path', BASE.slice(0, 4)],
    ['a relative path', ['--source', 'cache', ...BASE.slice(2)]],
    ['an unknown flag', [...BASE, '--debug', 'yes']],
    ['a flag without a value', [...BASE, '--no-download-json']],
    ['a flag twice', [...BASE, '--mount', '/x']],
    ['a list that is not an array of names', [...BASE, '--no-download-json', '{"a":1}']],
    ['a mount point inside the cache folder', ['--source', '/c', '--mount', '/c/m', '--socket', '/s']],
    ['a cache folder inside the mount point', ['--source', '/m/c', '--mount', '/m', '--socket', '/s']],
    ['the same folder twice', ['--source', '/m', '--mount', '/m', '--socket', '/s']],
  ])('refuses %s with MOUNT_BAD_ARGUMENTS', (_, argv) => {
    expect(codeOf(() => parseMountArguments(argv))).toBe('MOUNT_BAD_ARGUMENTS');
  });

  it('reads back what mountArgumentList writes', () => {
    const args = parseMountArguments([...BASE, '--no-download-json', '["a b","c*"]']);
    expect(parseMountArguments(mountArgumentList(args))).toEqual(args);
  });
});
