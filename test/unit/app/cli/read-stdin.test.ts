// Reading the password from stdin: the trailing newline of echo is dropped, nothing else.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readSecretFromStdin } from '../../../../app/cli/terminal/read-stdin.ts';

describe('readSecretFromStdin', () => {
  it('drops one trailing line ending and keeps every other character', async () => {
    expect(await readSecretFromStdin(Readable.from(['pass word \n']))).toBe('pass word ');
    expect(await readSecretFromStdin(Readable.from(['a\r\n']))).toBe('a');
    expect(await readSecretFromStdin(Readable.from(['a\n\n']))).toBe('a\n');
    expect(await readSecretFromStdin(Readable.from([Buffer.from('pä'), Buffer.from('ss')]))).toBe('päss');
  });

  it('refuses more than 64 KiB', async () => {
    await expect(readSecretFromStdin(Readable.from([Buffer.alloc(70_000, 'a')]))).rejects.toThrow(
      'more than 65536 bytes',
    );
  });
});
