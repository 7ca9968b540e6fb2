// Unit tests of item-name rules: validation, extensions and conflict names.
import { describe, expect, it } from 'vitest';
import { alternativeName, checkName, extensionOf } from '../../../../device/files/names.ts';
import { HttpError } from '../../../../device/http/errors.ts';

function rejection(name: unknown): HttpError {
  try {
    checkName(name);
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error(`checkName accepted ${JSON.stringify(name)}`);
}

describe('checkName', () => {
  it('accepts ordinary, unicode and 255-byte names as given', () => {
    expect(checkName('Report.PDF')).toBe('Report.PDF');
    expect(checkName('été 🌞.txt')).toBe('été 🌞.txt');
    expect(checkName('a\\b')).toBe('a\\b');
    expect(checkName('é'.repeat(127) + 'a')).toHaveLength(128);
  });

  it.each([
    ['', 'empty'],
    ['.', 'dot'],
    ['..', 'dot dot'],
    ['a/b', 'slash'],
    ['a\0b', 'NUL'],
    ['a'.repeat(256), '256 bytes'],
    ['é'.repeat(128), '256 bytes of two-byte characters'],
    ['\ud800x', 'a lone surrogate'],
    [5, 'a number'],
    [null, 'null'],
  ])('refuses %j (%s) with a 400', (name, _why) => {
    const error = rejection(name);
    expect(error.status).toBe(400);
    expect(error.label).toBe('INVALID_NAME');
  });
});

describe('extensionOf', () => {
  it('keeps the case and the dot, and gives none for dot files and trailing dots', () => {
    expect(extensionOf('photo.JPG')).toBe('.JPG');
    expect(extensionOf('archive.tar.gz')).toBe('.gz');
    expect(extensionOf('.bashrc')).toBeUndefined();
    expect(extensionOf('notes.')).toBeUndefined();
    expect(extensionOf('README')).toBeUndefined();
  });
});

describe('alternativeName', () => {
  it('puts the number before the extension', () => {
    expect(alternativeName('a.txt', 1)).toBe('a (1).txt');
    expect(alternativeName('folder', 2)).toBe('folder (2)');
    expect(alternativeName('.env', 3)).toBe('.env (3)');
  });

  it('shortens the stem, not the suffix, to stay within 255 bytes', () => {
    const long = `${'ü'.repeat(125)}.txt`;
    const alternative = alternativeName(long, 12);
    expect(Buffer.byteLength(alternative)).toBeLessThanOrEqual(255);
    expect(alternative.endsWith(' (12).txt')).toBe(true);
  });
});
