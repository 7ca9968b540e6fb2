// Shrunk soak scenarios (issue 18) that once broke an invariant, kept so that `npm test` runs each again.
import type { SoakScenario } from './soak-scenario.ts';

export interface SoakRegression {
  /** What broke, the fix, and the command that found it. */
  why: string;
  /** The minimal reproduction `npm run soak` printed (its JSON). */
  scenario: SoakScenario;
}

export const SOAK_REGRESSIONS: readonly SoakRegression[] = [
  {
    why:
      'content lost (npm run soak -- --seeds 300, seeds 253 and 411): another client edited a file in a ' +
      'folder after the walk and before the DELETE of that folder (replaced locally by a file); the ' +
      "folder's If-Match does not cover its children's content, so the edit went with it. Fixed: " +
      'subtree-check.ts lists the folder again before the DELETE and re-plans when a child is new or changed',
    scenario: {
      seed: 253,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [
        { path: 'Docs', kind: 'folder' },
        { path: 'Docs/Docs', kind: 'folder' },
        { path: 'Docs/caf\u00e9.txt', kind: 'file', content: '253:i2 abcdefghijklmnopqrstu\n' },
      ],
      local: [{ op: 'folder-to-file', path: 'Docs', content: '253:l6 \n' }],
      remote: [{ op: 'edit', path: 'Docs/caf\u00e9.txt', content: '253:r7 abcdefghi\n' }],
      soak: {
        crash: null,
        faults: null,
        during: { localFrom: 3, remoteFrom: 0, at: 4, where: 'before' },
        live: false,
      },
    },
  },
];
