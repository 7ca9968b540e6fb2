// How search results are printed for people: marks on a terminal only, camera names, the summaries.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliDependencies } from '../../../../app/cli/terminal/cli-context.ts';
import { cameraName } from '../../../../app/cli/search-commands/photos-output.ts';
import { highlightStyleFor, matchLines } from '../../../../app/cli/search-commands/search-output.ts';
import { remoteFile } from '../../../helpers/remote-file.ts';

function deps(env: NodeJS.ProcessEnv, terminal: boolean): CliDependencies {
  return {
    stdout: () => {},
    stderr: () => {},
    stdin: Readable.from(['']),
    env,
    openBrowser: () => Promise.reject(new Error('no browser in unit tests')),
    terminal: terminal ? ({ isTTY: true } as unknown as NodeJS.WriteStream) : undefined,
  };
}

const file = remoteFile;

describe('highlightStyleFor', () => {
  it('marks with escapes only on a terminal that has not asked for plain text', () => {
    expect(highlightStyleFor(deps({}, true))).toBe('ansi');
    expect(highlightStyleFor(deps({}, false))).toBe('brackets');
    expect(highlightStyleFor(deps({ NO_COLOR: '1' }, true))).toBe('brackets');
    expect(highlightStyleFor(deps({ NO_COLOR: '' }, true))).toBe('ansi');
    expect(highlightStyleFor(deps({ TERM: 'dumb' }, true))).toBe('brackets');
  });
});

describe('matchLines', () => {
  it('marks the name inside the device path and labels the other fragments', () => {
    const lines = matchLines(
      {
        file: file({ name: 'canon.jpg', image: { cameraMake: 'Canon' } }),
        fragments: [
          { field: 'name', text: 'canon.jpg', locations: [{ index: 0, length: 5 }] },
          { field: 'cameraMake', text: 'Canon', locations: [{ index: 0, length: 5 }] },
          { field: undefined, text: 'Canon?', locations: [{ index: 0, length: 5 }] },
        ],
        // A folder named like the file must not be marked: only the last segment is the name.
        devicePath: '/canon.jpg/canon.jpg',
        localPath: undefined,
      },
      'brackets',
    );
    expect(lines).toEqual([
      '/canon.jpg/[canon].jpg',
      '  local: not synced here',
      '  camera make: [Canon]',
      '  matched: [Canon]?',
    ]);
  });

  it('says so when the place on the device is unknown', () => {
    const lines = matchLines(
      { file: file({ name: 'x.txt' }), fragments: [], devicePath: undefined, localPath: '/home/me/x.txt' },
      'brackets',
    );
    expect(lines[0]).toBe('(place on the device unknown: a folder above it could not be read) x.txt');
    expect(lines[1]).toBe('  local: /home/me/x.txt');
  });
});

describe('cameraName', () => {
  it('shows the model alone when it starts with the maker, else both', () => {
    const camera = (cameraMake?: string, cameraModel?: string): string | undefined =>
      cameraName(file({ image: { cameraMake, cameraModel } }));
    expect(camera('Canon', 'Canon EOS R5')).toBe('Canon EOS R5');
    expect(camera('NIKON CORPORATION', 'NIKON Z 6')).toBe('NIKON Z 6');
    expect(camera('Apple', 'iPhone 15 Pro')).toBe('Apple iPhone 15 Pro');
    expect(camera('Apple', undefined)).toBe('Apple');
    expect(camera(undefined, 'X100V')).toBe('X100V');
    expect(camera(undefined, undefined)).toBeUndefined();
  });
});
