// Failures the on-demand model (issue 30) found in the engine: fixed ones run again, open ones must still fail.
import type { Scenario } from './scenario.ts';

/** A shrunk reproduction `npm run sync-random` printed (MCH_ON_DEMAND_RATE=1), and what it found. */
export interface OnDemandRegression {
  why: string;
  scenario: Scenario;
}

/** Fixed: each must pass. */
export const ON_DEMAND_REGRESSIONS: readonly OnDemandRegression[] = [
  {
    why:
      'a placeholder moved here while the device deleted it (seed 52): planned as an upload of the moved ' +
      'file, which never sends a placeholder: LOCAL_CHANGED every round, never quiet, the placeholder ' +
      'left without a row (fixed in pass-inputs.ts, followGonePlaceholders: the row follows it, so it is removed)',
    scenario: {
      seed: 52,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [
        { path: 'A.txt', kind: 'file', content: '52:i1 abcdefghijklmnopqrstuvwxyzabcdefghijklmn\n' },
        { path: 'sub', kind: 'folder' },
      ],
      local: [{ op: 'move', from: 'A.txt', to: 'sub/a.txt' }],
      remote: [{ op: 'delete', path: 'A.txt' }],
      onDemand: { pinned: [], before: [], after: [] },
    },
  },
  {
    why:
      'a freed file renamed here while the device replaced it with a folder (seed 47): the placeholder ' +
      'became a conflicted copy to upload, LOCAL_CHANGED every round (fixed with seed 52)',
    scenario: {
      seed: 47,
      caseInsensitive: false,
      initialSide: 'local',
      initial: [{ path: 'x.bin', kind: 'file', content: '47:i2 abcdefghijklmnopqrstuvwxy\n' }],
      local: [{ op: 'move', from: 'x.bin', to: 'X.bin' }],
      remote: [{ op: 'file-to-folder', path: 'x.bin' }],
      onDemand: { pinned: [], before: [{ op: 'free', path: 'x.bin' }], after: [] },
    },
  },
];

/** Not fixed yet: each must still fail (run as `it.fails`). */
export const ON_DEMAND_OPEN: readonly OnDemandRegression[] = [
  {
    why:
      'a placeholder pinned while the device renames it stays a placeholder for good (seed 188; soak 44, ' +
      '69, 200, 282): the pass after a change of the pins plans kept placeholders only for items ' +
      'unchanged on both sides (round-plan.ts, keptPlaceholders: localChange and remoteChange "none"), ' +
      'the rename is carried out instead, and every later pass ends quiet (keptVersion unchanged) without ' +
      'looking at kept placeholders again. Also a placeholder moved on the device into a pinned folder',
    scenario: {
      seed: 188,
      caseInsensitive: false,
      initialSide: 'local',
      initial: [{ path: 'A.txt', kind: 'file', content: '188:i1 abcde\n' }],
      local: [],
      remote: [{ op: 'move', from: 'A.txt', to: 'a.txt' }],
      onDemand: {
        pinned: [],
        before: [{ op: 'free', path: 'A.txt' }],
        after: [{ op: 'pin', path: 'A.txt' }],
      },
    },
  },
  {
    why:
      'content lost: a folder holding a placeholder moved here to a name left out (NAME_CLASH: the other ' +
      'Unicode spelling of a sibling) reads as deleted, and the pass deletes it on the device (seed 190; ' +
      'soak 133). A whole file keeps its bytes in the folder left out; a placeholder held only the ' +
      "device's: nothing of it is left. The planner deletes a row whose item vanished into a path the scan " +
      'skipped (pass-inputs.ts leaves out only rows below the skipped path, not rows whose inode went there)',
    scenario: {
      seed: 190,
      caseInsensitive: false,
      initialSide: 'local',
      initial: [
        { path: 'notes', kind: 'folder' },
        { path: 'r\u00e9sum\u00e9', kind: 'folder' },
        { path: 'notes/notes', kind: 'file', content: '190:i1 \n' },
      ],
      local: [{ op: 'move', from: 'notes', to: 're\u0301sume\u0301' }],
      remote: [],
      onDemand: { pinned: [], before: [{ op: 'free', path: 'notes/notes' }], after: [] },
    },
  },
];
