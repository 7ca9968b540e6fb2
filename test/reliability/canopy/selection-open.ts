// Failures the selective sync model (issue 29) found in the engine and not fixed yet: each shrunk reproduction, kept failing until its fix moves it to regressions.ts.
import type { Scenario } from './scenario.ts';
import type { OpenSoakFailure } from './soak-regressions.ts';

/** A reproduction of a failure not fixed yet (as soak-regressions.ts SOAK_OPEN). */
export interface OpenFailure {
  /** What breaks, where the model found it, and what the engine does. */
  why: string;
  /** The minimal reproduction `npm run sync-random` printed (its JSON). */
  scenario: Scenario;
  /** `every run`: run as a test that must fail; `some runs` (the file system reusing an inode): kept, not run. */
  fails: 'every run' | 'some runs';
}

export const SYNC_OPEN: readonly OpenFailure[] = [
  {
    why:
      'a synced folder taken for an excluded one (seed 20594 of the same sweep, open at fa150f6): ' +
      'sub/sub excluded, its copy removed; another client renames sub to r\u00e9sum\u00e9 and moves the ' +
      "excluded folder out to sub. The local folder sub now stands at the excluded folder's path " +
      'and is left out: at ac745a0 the engine made r\u00e9sum\u00e9 anew here and left the old sub behind as ' +
      'if it were a kept copy; at fa150f6 r\u00e9sum\u00e9 is not made here at all (only the device has it)',
    fails: 'every run',
    scenario: {
      seed: 20594,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [
        { path: 'sub', kind: 'folder' },
        { path: 'sub/sub', kind: 'folder' },
      ],
      local: [],
      remote: [
        { op: 'move', from: 'sub', to: 'r\u00e9sum\u00e9' },
        { op: 'move', from: 'r\u00e9sum\u00e9/sub', to: 'sub' },
      ],
      selection: {
        exclude: [{ path: 'sub/sub', localCopy: 'remove' }],
        before: [],
        local: [],
        remote: [],
        include: [],
      },
    },
  },
  {
    why:
      'an excluded folder carried into a new folder (seed 20852 of the same sweep, open at ' +
      'fa150f6): docs (holding the excluded docs/Docs, copy removed) deleted here while the user ' +
      'makes sub/d, renames it sub/docs and makes sub/docs/Docs; sub/d gets the freed inode of ' +
      'docs, so the delete reads as a move: docs goes to sub/docs on the device with the excluded ' +
      "folder in it, and the user's new sub/docs/Docs is then at the excluded path and skipped as " +
      'EXCLUDED for good. Needs the file system to reuse the inode',
    fails: 'some runs',
    scenario: {
      seed: 20852,
      caseInsensitive: false,
      initialSide: 'local',
      initial: [
        { path: 'docs', kind: 'folder' },
        { path: 'sub', kind: 'folder' },
        { path: 'docs/Docs', kind: 'folder' },
      ],
      local: [
        { op: 'delete', path: 'docs' },
        { op: 'create-folder', path: 'sub/d' },
        { op: 'move', from: 'sub/d', to: 'sub/docs' },
        { op: 'create-folder', path: 'sub/docs/Docs' },
      ],
      remote: [],
      selection: {
        exclude: [{ path: 'docs/Docs', localCopy: 'remove' }],
        before: [],
        local: [],
        remote: [],
        include: [],
      },
    },
  },
];

/** The same for soak seeds (run by soak-regressions.test.ts with SOAK_OPEN). */
export const SELECTION_SOAK_OPEN: readonly OpenSoakFailure[] = [];
