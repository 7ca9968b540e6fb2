// How a failing scenario is printed: readable steps that tell NFC from NFD, and the command to run it again.
import { describe, expect, it } from 'vitest';
import { describeScenario, reproduceCommand } from '../../reliability/canopy/format.ts';
import { DEFAULT_GENERATOR, type Scenario } from '../../reliability/canopy/scenario.ts';

describe('describeScenario', () => {
  it('lists the steps in order, with names that differ only in normalisation told apart', () => {
    const scenario: Scenario = {
      seed: 7,
      caseInsensitive: true,
      initialSide: 'remote',
      initial: [
        { path: 'docs', kind: 'folder' },
        { path: 'docs/caf\u00e9.txt', kind: 'file', content: '7:i1 x\n' },
      ],
      local: [{ op: 'move', from: 'docs/caf\u00e9.txt', to: 'docs/cafe\u0301.txt' }],
      remote: [{ op: 'edit', path: 'docs/caf\u00e9.txt', content: '7:r2 y\n' }],
    };
    expect(describeScenario(scenario).split('\n')).toEqual([
      'seed 7: local volume case-insensitive, initial tree made on the device',
      '1. make the initial tree on the device and run a pass:',
      '     "docs"/',
      '     "docs/caf\\u{e9}.txt" "7:i1 x\\n"',
      '2. local changes:',
      '     move "docs/caf\\u{e9}.txt" to "docs/cafe\\u{301}.txt"',
      '3. remote changes (another client):',
      '     edit "docs/caf\\u{e9}.txt" to "7:r2 y\\n"',
      '4. run one pass',
    ]);
  });
});

describe('reproduceCommand', () => {
  it('names the seed, and the tree sizes when they are not the defaults', () => {
    expect(reproduceCommand(12)).toBe('npm run sync-random -- --seed 12');
    expect(reproduceCommand(12, { ...DEFAULT_GENERATOR, maxInitialItems: 20 })).toBe(
      'npm run sync-random -- --seed 12 --items 20',
    );
  });
});
