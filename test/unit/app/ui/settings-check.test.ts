// Settings refused before they are saved: an ignore rule that cannot be read (named by its line), a poll interval out of range, in words.
import { describe, expect, it } from 'vitest';
import { ignoreRuleProblems } from '../../../../app/ui/ignore-check.ts';
import { checkSettingsChange } from '../../../../app/ui/settings-check.ts';
import { uiErrorOf } from '../../../../app/ui/ui-errors.ts';
import { MchError } from '../../../../common/errors.ts';

function refusal(change: Parameters<typeof checkSettingsChange>[0]): ReturnType<typeof uiErrorOf> {
  try {
    checkSettingsChange(change);
  } catch (error) {
    if (error instanceof MchError) return uiErrorOf(error);
    throw error;
  }
  throw new Error('accepted');
}

describe('ignoreRuleProblems', () => {
  it('reads every line Git reads: patterns, negations, comments, escapes, classes, a leading ]', () => {
    const fine = [
      '*.tmp',
      'node_modules/',
      '# a comment',
      '',
      '   ',
      '!keep.log',
      '\\#not-a-comment',
      'photo\\[1\\].jpg',
      'file[0-9].txt',
      '[]]x',
      '[!a]*',
      '[[:digit:]][[:alpha:]]',
      '[[:x]',
      'trailing\\ ',
      'windows\r',
    ];
    expect(ignoreRuleProblems(fine.join('\n'))).toEqual([]);
  });

  it('names each line that matches nothing because it cannot be read, and why', () => {
    const problems = ignoreRuleProblems(
      ['*.tmp', 'report[2024.pdf', 'folder\\', '[[:foo:]]', '[z-a].txt', '!'].join('\n'),
    );
    expect(problems.map(({ line, text }) => [line, text])).toEqual([
      [2, 'report[2024.pdf'],
      [3, 'folder\\'],
      [4, '[[:foo:]]'],
      [5, '[z-a].txt'],
      [6, '!'],
    ]);
    expect(problems[0]?.problem).toBe(
      'the "[" at character 7 is never closed (write "\\[" for a bracket in a name)',
    );
    expect(problems[3]?.problem).toBe('the range "z-a" runs backwards (write "a-z")');
  });
});

describe('checkSettingsChange', () => {
  it('refuses ignore rules with the first line that cannot be read, the others in the details', () => {
    const error = refusal({ ignoreRules: '*.log\n[abc\nx\\' });
    expect(error).toMatchObject({ code: 'IGNORE_RULE_INVALID', title: 'Ignore rules not saved' });
    expect(error.message).toMatch(
      /^Line 2 \("\[abc"\) cannot be read: the "\[" at character 1 is never closed/,
    );
    expect(error.message).toContain('1 more line has the same kind of problem');
    expect(error.details?.split('\n')).toHaveLength(2);
  });

  it('refuses a poll interval out of range in words, not a schema', () => {
    expect(refusal({ pollIntervalSeconds: 5 })).toMatchObject({
      code: 'SETTING_INVALID',
      message:
        'Ask the device every 10 to 3,600 seconds (an hour), in whole seconds; 5 is too short. The interval stays as it was.',
    });
    expect(refusal({ pollIntervalSeconds: 12.5 }).message).toContain('12.5 is not a whole number');
    expect(() => checkSettingsChange({ pollIntervalSeconds: 60, ignoreRules: '*.tmp' })).not.toThrow();
  });
});
