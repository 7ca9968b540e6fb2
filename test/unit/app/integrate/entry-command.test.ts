// `--command`: split into words by shell rules without a shell, and its program made absolute.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveProgram, splitCommandLine } from '../../../../app/integrate/entry-command.ts';
import { IntegrateError } from '../../../../app/integrate/integrate-errors.ts';

describe('splitting --command', () => {
  it.each([
    ['/usr/bin/mch-sync', ['/usr/bin/mch-sync']],
    ['  node   /opt/mch/bin/mch-sync.js\t--verbose ', ['node', '/opt/mch/bin/mch-sync.js', '--verbose']],
    [`'/opt/My Apps/mch "sync"/node' x`, ['/opt/My Apps/mch "sync"/node', 'x']],
    [String.raw`"/opt/My Apps/it's \"here\" \$1 \\ \a"`, [String.raw`/opt/My Apps/it's "here" $1 \ \a`]],
    [String.raw`/opt/My\ Apps/run a\'b`, ['/opt/My Apps/run', "a'b"]],
    [`run '' ""`, ['run', '', '']],
    [`run a'b c'"d"`, ['run', 'ab cd']],
    ['run --name=x~ a#b 100%', ['run', '--name=x~', 'a#b', '100%']],
    ['run a\\\nb', ['run', 'ab']],
    ['/opt/Résumé ✓/run', ['/opt/Résumé', '✓/run']],
  ])('%j', (text, words) => {
    expect(splitCommandLine(text)).toEqual(words);
  });

  it.each([
    ['', 'is empty'],
    ['   ', 'is empty'],
    ["run 'open", 'a single quote is not closed'],
    ['run "open', 'a double quote is not closed'],
    ['run \\', 'ends with a backslash'],
    ['run $HOME/x', '"$" outside quotes'],
    ['run "$HOME"', 'inside double quotes would be expanded'],
    ['run `id`', '"`" outside quotes'],
    ['run *.txt', '"*" outside quotes'],
    ['run a; rm x', '";" outside quotes'],
    ['run | tee', '"|" outside quotes'],
    ['run > out', '">" outside quotes'],
    ['~/bin/mch-sync', '"~" outside quotes'],
    ['run #comment', '"#" outside quotes'],
  ])('refuses %j', (text, message) => {
    expect(() => splitCommandLine(text)).toThrow(IntegrateError);
    expect(() => splitCommandLine(text)).toThrow(message);
  });

  it('splits as POSIX sh does for the quoting it accepts', () => {
    const text = String.raw`'/opt/My Apps/x' "a \"b\" \\ \$c" d\ e f'g'"h" '' "it's" Résumé`;
    // printf repeats its format for each word sh made of the text: one NUL after each.
    const sh = spawnSync('/bin/sh', ['-c', `printf '%s\\0' ${text}`], { encoding: 'utf8' });
    expect(sh.status).toBe(0);
    expect(splitCommandLine(text)).toEqual(sh.stdout.split('\0').slice(0, -1));
  });
});

describe('the program of --command', () => {
  const work = mkdtempSync(join(tmpdir(), 'mch-integrate-command-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const binDir = join(work, 'my bin');
  mkdirSync(binDir);
  const program = join(binDir, 'mch-wrapper');
  writeFileSync(program, '#!/bin/sh\n');
  chmodSync(program, 0o755);
  const notExecutable = join(binDir, 'plain');
  writeFileSync(notExecutable, '');
  const env = { PATH: `/nonexistent:relative/bin:${binDir}` };

  it('keeps an absolute path and the words after it', () => {
    expect(resolveProgram([program, '-v'], { env, cwd: '/' })).toEqual([program, '-v']);
  });

  it('makes a relative path absolute from the working folder', () => {
    expect(resolveProgram(['./mch-wrapper'], { env, cwd: binDir })).toEqual([program]);
  });

  it('finds a bare name in PATH (absolute folders only)', () => {
    expect(resolveProgram(['mch-wrapper', 'x'], { env, cwd: '/' })).toEqual([program, 'x']);
  });

  it.each([
    [[join(binDir, 'missing')], 'is not an executable file'],
    [[notExecutable], 'is not an executable file'],
    [[binDir], 'is not an executable file'],
    [['plain'], 'no program "plain" in PATH'],
  ])('refuses %j', (words, message) => {
    expect(() => resolveProgram(words, { env, cwd: '/' })).toThrow(message);
  });
});
