// `--since` and `--all-since` read as people write them, and the versions commands' local times.
import { describe, expect, it } from 'vitest';
import { localTime, shellWord, sinceOf } from '../../../../../app/cli/version-commands/versions-words.ts';
import { UsageError } from '../../../../../app/cli/terminal/cli-context.ts';

const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);

describe('sinceOf', () => {
  it.each([
    ['30min', NOW - 30 * 60_000],
    ['2h', NOW - 2 * 3_600_000],
    ['3d', NOW - 3 * 86_400_000],
    ['1w', NOW - 7 * 86_400_000],
    ['2026-11-20T18:00:00Z', Date.UTC(2026, 10, 20, 18, 0, 0)],
  ])('reads %s', (text, expected) => {
    expect(sinceOf(text, '--since', 'usage', NOW)).toBe(expected);
  });

  it("reads a day as its start on this computer's clock", () => {
    expect(sinceOf('2026-11-20', '--since', 'usage', NOW)).toBe(new Date(2026, 10, 20, 0, 0, 0).getTime());
    expect(localTime(new Date(2026, 10, 20, 7, 5).getTime())).toBe('2026-11-20 07:05');
  });

  it.each(['yesterday', '2h ago', '-3d', '2026-13-01', ''])('refuses %j as a usage error', (text) => {
    expect(() => sinceOf(text, '--all-since', 'usage', NOW)).toThrow(UsageError);
  });
});

describe('shellWord', () => {
  it('quotes a path only when a shell would split or expand it', () => {
    expect(shellWord('/home/ann/MyCloud/report.odt')).toBe('/home/ann/MyCloud/report.odt');
    expect(shellWord("/home/ann/My Cloud/Ann's plan.txt")).toBe(`'/home/ann/My Cloud/Ann'\\''s plan.txt'`);
  });
});
