// Shrunk reproductions of seeds that once broke an invariant, kept so that `npm test` runs each again.
import type { Scenario } from './scenario.ts';

export interface Regression {
  /** What broke, and the command that found it. */
  why: string;
  /** The minimal reproduction `npm run sync-random` printed (its JSON, names spelled with escapes). */
  scenario: Scenario;
}

export const REGRESSIONS: readonly Regression[] = [
  {
    why:
      'content lost (--seed 5242 --items 14 --changes 6): the DELETE of a folder replaced by a local file ' +
      'took a new remote file the round left out (its name equal to a deleted one under NFC)',
    scenario: {
      seed: 5242,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [
        { path: 'docs', kind: 'folder' },
        {
          path: 'docs/caf\u00e9.txt',
          kind: 'file',
          content: '5242:i4 abcdefghijklmnopqrstuvwxyzabcdefghijk\n',
        },
      ],
      local: [{ op: 'folder-to-file', path: 'docs', content: '5242:l9 a\n' }],
      remote: [
        {
          op: 'create-file',
          path: 'docs/cafe\u0301.txt',
          content: '5242:r13 abcdefghijklmnopqrstuvwxyzabcdefghijkl\n',
        },
      ],
    },
  },
  {
    why:
      'EINVAL (--seed 1208): remote `notes → d/Notes` then `d → notes` made the plan move `notes` ' +
      'into `notes/Notes`, the final path, before `d` had moved',
    scenario: {
      seed: 1208,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [
        { path: 'd', kind: 'folder' },
        { path: 'notes', kind: 'folder' },
      ],
      local: [],
      remote: [
        { op: 'move', from: 'notes', to: 'd/Notes' },
        { op: 'move', from: 'd', to: 'notes' },
      ],
    },
  },
];
