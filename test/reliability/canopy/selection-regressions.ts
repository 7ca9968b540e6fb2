// Shrunk reproductions of failures issue 29's model (selective sync) found and that were fixed, kept so that `npm test` runs each again.
import type { Regression } from './regressions.ts';
import type { SoakRegression } from './soak-regressions.ts';

export const SELECTION_REGRESSIONS: readonly Regression[] = [
  {
    why:
      "MOVED_INTO_EXCLUDED for a file that never moved (issue 29's model: npm run sync-random -- " +
      "--seeds 2000, seed 532): an editor's save of the synced b.md freed its inode and a new file " +
      'written into the kept copy Docs got it; the save was taken for a move into the copy, the ' +
      'edit never went up and its upload was retried as CONFLICT. Fixed in 7f58e18: a file counts ' +
      'as moved into a kept copy only when nothing is at its path and the item there has its inode, ' +
      'kind, size and time. (Passes anyway where the inode is not reused.)',
    scenario: {
      seed: 532,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [
        { path: 'Docs', kind: 'folder' },
        { path: 'b.md', kind: 'file', content: '532:i3 abcdefghijklm\n' },
      ],
      local: [{ op: 'edit', path: 'b.md', content: '532:l7 abc\n', atomic: true }],
      remote: [],
      selection: {
        exclude: [{ path: 'Docs', localCopy: 'keep' }],
        before: [],
        local: [
          { op: 'create-file', path: 'Docs/kept.md', content: '532:s1 abcdefghijklmnopqrstuvwxyzabcdefg\n' },
        ],
        remote: [],
        include: [],
      },
    },
  },
  {
    why:
      "MOVED_INTO_EXCLUDED for a deleted file (seed 532's sweep, seed 675): a.txt deleted here " +
      'while a new file in the kept copy d took its inode; the delete was read as a move into the ' +
      'copy and never reached the device. Fixed in 7f58e18 (as seed 532)',
    scenario: {
      seed: 675,
      caseInsensitive: false,
      initialSide: 'local',
      initial: [
        { path: 'a.txt', kind: 'file', content: '675:i5 abcdefgh\n' },
        { path: 'd', kind: 'folder' },
      ],
      local: [{ op: 'delete', path: 'a.txt' }],
      remote: [],
      selection: {
        exclude: [{ path: 'd', localCopy: 'keep' }],
        before: [],
        local: [{ op: 'create-file', path: 'd/a.txt', content: '675:s2 abcdefghijklmno\n' }],
        remote: [],
        include: [],
      },
    },
  },
  {
    why:
      'a new folder taken for a kept copy (seed 163): the kept copy r\u00e9sum\u00e9/notes deleted and b.md ' +
      "replaced by a folder, which took the copy's inode and was skipped as EXCLUDED for good. " +
      'Fixed in 7f58e18: a kept copy is known by its inode and its birth time',
    scenario: {
      seed: 163,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [
        { path: 'b.md', kind: 'file', content: '163:i2 abcdefghijklmnopqrstuvwxyzabc\n' },
        { path: 're\u0301sume\u0301', kind: 'folder' },
        { path: 're\u0301sume\u0301/notes', kind: 'folder' },
      ],
      local: [
        { op: 'delete', path: 're\u0301sume\u0301/notes' },
        { op: 'file-to-folder', path: 'b.md' },
      ],
      remote: [],
      selection: {
        exclude: [{ path: 're\u0301sume\u0301/notes', localCopy: 'keep' }],
        before: [],
        local: [],
        remote: [],
        include: [],
      },
    },
  },
  {
    why:
      'one pass late (seed 1495): a folder the user made at the path of an excluded folder (copy ' +
      'removed) that another client renamed went up only with the next pass. Fixed in fa150f6: an ' +
      'excluded folder renamed on the device is followed in the same round, which reads again what ' +
      'it left out by the old name',
    scenario: {
      seed: 1495,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [{ path: 'notes', kind: 'folder' }],
      local: [],
      remote: [{ op: 'move', from: 'notes', to: 'Notes' }],
      selection: {
        exclude: [{ path: 'notes', localCopy: 'remove' }],
        before: [],
        local: [{ op: 'create-folder', path: 'notes' }],
        remote: [],
        include: [],
      },
    },
  },
  {
    why:
      'one pass late (seed 469): the excluded r\u00e9sum\u00e9 moved on the device and a new folder made at ' +
      'its old path came down only with the next pass. Fixed in fa150f6 (as seed 1495)',
    scenario: {
      seed: 469,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [
        { path: 'notes', kind: 'folder' },
        { path: 'r\u00e9sum\u00e9', kind: 'folder' },
      ],
      local: [],
      remote: [
        { op: 'move', from: 'r\u00e9sum\u00e9', to: 'notes/re\u0301sume\u0301' },
        { op: 'create-folder', path: 'r\u00e9sum\u00e9' },
      ],
      selection: {
        exclude: [{ path: 'r\u00e9sum\u00e9', localCopy: 'remove' }],
        before: [],
        local: [],
        remote: [],
        include: [],
      },
    },
  },
  {
    why:
      'a file stranded at an excluded path (seed 500): another client replaced the excluded ' +
      'Notes/docs by a file of that name; the file came down and every whole scan after skipped it ' +
      'as EXCLUDED (a local edit never went up). Fixed in fa150f6: only folders are excluded by ' +
      'name',
    scenario: {
      seed: 500,
      caseInsensitive: false,
      initialSide: 'local',
      initial: [
        { path: 'Notes', kind: 'folder' },
        { path: 'Notes/docs', kind: 'folder' },
      ],
      local: [],
      remote: [{ op: 'folder-to-file', path: 'Notes/docs', content: '500:r1 abcdefghijklmnopqr\n' }],
      selection: {
        exclude: [{ path: 'Notes/docs', localCopy: 'remove' }],
        before: [],
        local: [],
        remote: [],
        include: [],
      },
    },
  },
  {
    why:
      'a device file never synced nor reported (seed 272): the excluded r\u00e9sum\u00e9 (copy kept) deleted ' +
      'by another client, which renamed caf\u00e9.txt to r\u00e9sum\u00e9; the file could not come down and no ' +
      'pass said so. Fixed in fa150f6: the issue KEPT_COPY_HOLDS_NAME',
    scenario: {
      seed: 272,
      caseInsensitive: false,
      initialSide: 'local',
      initial: [
        { path: 'caf\u00e9.txt', kind: 'file', content: '272:i1 abcdefghijklmnopq\n' },
        { path: 'r\u00e9sum\u00e9', kind: 'folder' },
      ],
      local: [],
      remote: [
        { op: 'delete', path: 'r\u00e9sum\u00e9' },
        { op: 'move', from: 'caf\u00e9.txt', to: 're\u0301sume\u0301' },
      ],
      selection: {
        exclude: [{ path: 'r\u00e9sum\u00e9', localCopy: 'keep' }],
        before: [],
        local: [],
        remote: [],
        include: [],
      },
    },
  },
  {
    why:
      'a stale row after an inclusion (seed 458): caf\u00e9.txt moved here into the kept copy r\u00e9sum\u00e9 and ' +
      'edited while another client moved it to the same place; including r\u00e9sum\u00e9 again left its row ' +
      'at caf\u00e9.txt until the next pass. Passes since fa150f6',
    scenario: {
      seed: 458,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [
        { path: 'cafe\u0301.txt', kind: 'file', content: '458:i1 abcdefg\n' },
        { path: 're\u0301sume\u0301', kind: 'folder' },
      ],
      local: [],
      remote: [],
      selection: {
        exclude: [{ path: 're\u0301sume\u0301', localCopy: 'keep' }],
        before: [],
        local: [
          { op: 'move', from: 'cafe\u0301.txt', to: 're\u0301sume\u0301/cafe\u0301.txt' },
          { op: 'edit', path: 're\u0301sume\u0301/cafe\u0301.txt', content: '458:s1 abcdefghijkl\n' },
        ],
        remote: [{ op: 'move', from: 'cafe\u0301.txt', to: 're\u0301sume\u0301/cafe\u0301.txt' }],
        include: ['re\u0301sume\u0301'],
      },
    },
  },
  {
    why:
      'device changes never brought down (npm run sync-random -- --seeds 2000, seed 861, new at ' +
      'fa150f6, passes at ac745a0): d excluded (copy removed); another client makes a folder docs ' +
      'and renames d to R\u00e9sum\u00e9. The pass follows the rename in the same round (fa150f6) and brings ' +
      'nothing of the round down: docs never comes here, and every pass after says synced (a probe ' +
      'with a new file beside it: neither comes down in four passes)' +
      '. Fixed in the commit after 06834a4: the walk that follows a moved exclusion again keeps the changed listings of the first walk as changes, and that round is no quiet one',
    scenario: {
      seed: 861,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [{ path: 'd', kind: 'folder' }],
      local: [],
      remote: [
        { op: 'create-folder', path: 'docs' },
        { op: 'move', from: 'd', to: 'R\u00e9sum\u00e9' },
      ],
      selection: {
        exclude: [{ path: 'd', localCopy: 'remove' }],
        before: [],
        local: [],
        remote: [],
        include: [],
      },
    },
  },
  {
    why:
      'a device change never applied (seed 587 of the same sweep, new at fa150f6): sub excluded ' +
      '(copy kept); another client renames sub to d and replaces the file notes by a folder; notes ' +
      'stays a file here, its row names an item the device no longer has, and every pass after says ' +
      'synced' +
      '. Fixed in the commit after 06834a4: the walk that follows a moved exclusion again keeps the changed listings of the first walk as changes, and that round is no quiet one',
    scenario: {
      seed: 587,
      caseInsensitive: false,
      initialSide: 'local',
      initial: [
        { path: 'notes', kind: 'file', content: '587:i1 abcdefghijklmnopqrstuvwxyzabc\n' },
        { path: 'sub', kind: 'folder' },
      ],
      local: [],
      remote: [
        { op: 'move', from: 'sub', to: 'd' },
        { op: 'file-to-folder', path: 'notes' },
      ],
      selection: {
        exclude: [{ path: 'sub', localCopy: 'keep' }],
        before: [],
        local: [],
        remote: [],
        include: [],
      },
    },
  },
  {
    why:
      'a duplicate on the device (npm run sync-random -- --seeds 2000, seed 775, open at fa150f6): ' +
      'caf\u00e9.txt renamed here to x.bin while another client moves it into the excluded d (copy ' +
      'kept); the walk does not list d, so the move read as a delete and the rename beat it: x.bin ' +
      'went up as a new file and the device held that version twice (d/caf\u00e9.txt and x.bin). ' +
      'Fixed: a file moved here and gone from the walk is looked for on the device; below an ' +
      "excluded folder, the device's move wins (as any move on both sides) and the local copy goes " +
      'to the trash (selection/moves-into-excluded.ts)',
    scenario: {
      seed: 775,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [
        { path: 'caf\u00e9.txt', kind: 'file', content: '775:i3 abcdefghijklmnopqrstuvwxyzabcdefghijklm\n' },
        { path: 'd', kind: 'folder' },
      ],
      local: [{ op: 'move', from: 'caf\u00e9.txt', to: 'x.bin' }],
      remote: [],
      selection: {
        exclude: [{ path: 'd', localCopy: 'keep' }],
        before: [],
        local: [],
        remote: [{ op: 'move', from: 'caf\u00e9.txt', to: 'd/caf\u00e9.txt' }],
        include: ['d'],
      },
    },
  },
  {
    why:
      'a duplicate on the device (npm run sync-random -- --seed 1495): b.md renamed here to ' +
      'caf\u00e9.txt while another client renames the excluded notes (copy removed) to Notes and ' +
      'moves b.md into it; caf\u00e9.txt went up as a new file beside Notes/b.md. The same cause and ' +
      'fix as seed 775, with the copy removed and the excluded folder renamed',
    scenario: {
      seed: 1495,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [
        { path: 'b.md', kind: 'file', content: '1495:i2 abcdefghijklmnopqrstuv\n' },
        { path: 'notes', kind: 'folder' },
      ],
      local: [{ op: 'move', from: 'b.md', to: 'caf\u00e9.txt' }],
      remote: [{ op: 'move', from: 'notes', to: 'Notes' }],
      selection: {
        exclude: [{ path: 'notes', localCopy: 'remove' }],
        before: [],
        local: [],
        remote: [{ op: 'move', from: 'b.md', to: 'Notes/b.md' }],
        include: [],
      },
    },
  },
  {
    why:
      'a new file retried for ever (npm run sync-random -- --seeds 2000, seed 615, open at ' +
      'fa150f6): the synced cafe\u0301.txt moved here into the kept copy Docs while another file ' +
      'moved out of the copy to caf\u00e9.txt, the same name spelled NFC. The row was taken for ' +
      'moved into the copy (nothing at its exact path) and left out with the device item, and the ' +
      "new file's upload met the device's twin: CONFLICT in every pass, never synced. Fixed: " +
      "something at the row's path under NFC is its item, as the reconciler pairs it (an edit " +
      "that goes up over the device's version; the old bytes stay in the kept copy). The model " +
      'no longer hides a device place something here took since',
    scenario: {
      seed: 615,
      caseInsensitive: false,
      initialSide: 'local',
      initial: [
        { path: 'Docs', kind: 'folder' },
        { path: 'cafe\u0301.txt', kind: 'file', content: '615:i3 abcdefghijklm\n' },
        { path: 'Docs/cafe\u0301.txt', kind: 'file', content: '615:i8 abcdefg\n' },
      ],
      local: [{ op: 'move', from: 'Docs/cafe\u0301.txt', to: 'caf\u00e9.txt' }],
      remote: [],
      selection: {
        exclude: [{ path: 'Docs', localCopy: 'keep' }],
        before: [],
        local: [{ op: 'move', from: 'cafe\u0301.txt', to: 'Docs/a.txt' }],
        remote: [],
        include: [],
      },
    },
  },
  {
    why:
      'seed 615 spelled one way (made by hand): b.txt moved into the kept copy Docs and Docs/c.txt ' +
      "moved out to b.txt. The engine always took the new b.txt for the row's item (its bytes go up " +
      "over the device's b.txt, the old ones stay in the kept copy); the model hid the device's " +
      'b.txt and its row while a file was here at that place, which no outcome could meet',
    scenario: {
      seed: 615,
      caseInsensitive: false,
      initialSide: 'local',
      initial: [
        { path: 'Docs', kind: 'folder' },
        { path: 'b.txt', kind: 'file', content: '615:i3 abcdefghijklm\n' },
        { path: 'Docs/c.txt', kind: 'file', content: '615:i8 abcdefg\n' },
      ],
      local: [],
      remote: [],
      selection: {
        exclude: [{ path: 'Docs', localCopy: 'keep' }],
        before: [],
        local: [
          { op: 'move', from: 'b.txt', to: 'Docs/a.txt' },
          { op: 'move', from: 'Docs/c.txt', to: 'b.txt' },
        ],
        remote: [],
        include: [],
      },
    },
  },
  {
    why:
      'a kept copy trashed with its parent, a file then deleted on the device (MCH_SELECTION_RATE=1 ' +
      'npm run sync-random, seed 76): docs/r\u00e9sum\u00e9 excluded, its copy kept; x.bin moved here into ' +
      'the copy (MOVED_INTO_EXCLUDED: the device keeps it at x.bin) while another client deleted docs. ' +
      'The pass saw docs here as empty (the scan skips the copy) and moved it to the trash, the kept ' +
      'copy and x.bin with it; the pass after found x.bin gone here and deleted it on the device, its ' +
      'bytes left only in the OS trash. Fixed in the commit of this entry: a local folder holding a ' +
      'kept copy is kept (holdsLeftOut), made again on the device',
    scenario: {
      seed: 76,
      caseInsensitive: false,
      initialSide: 'local',
      initial: [
        { path: 'docs', kind: 'folder' },
        { path: 'x.bin', kind: 'file', content: '76:i2 abcd\n' },
        { path: 'docs/r\u00e9sum\u00e9', kind: 'folder' },
      ],
      local: [],
      remote: [{ op: 'delete', path: 'docs' }],
      selection: {
        exclude: [{ path: 'docs/r\u00e9sum\u00e9', localCopy: 'keep' }],
        before: [],
        local: [{ op: 'move', from: 'x.bin', to: 'docs/r\u00e9sum\u00e9/x.bin' }],
        remote: [],
        include: [],
      },
    },
  },
  {
    why:
      'the same with the kept copy moved here first (seed 489): d/notes excluded, its copy kept and ' +
      'renamed d/d, A.txt moved into it, while another client deleted d: d went to the trash with ' +
      'the copy, and the pass after deleted A.txt on the device. Fixed as seed 76',
    scenario: {
      seed: 489,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [
        { path: 'A.txt', kind: 'file', content: '489:i1 a\n' },
        { path: 'd', kind: 'folder' },
        { path: 'd/notes', kind: 'folder' },
      ],
      local: [
        { op: 'move', from: 'd/notes', to: 'd/d' },
        { op: 'move', from: 'A.txt', to: 'd/d/A.txt' },
      ],
      remote: [{ op: 'delete', path: 'd' }],
      selection: {
        exclude: [{ path: 'd/notes', localCopy: 'keep' }],
        before: [],
        local: [],
        remote: [],
        include: [],
      },
    },
  },
  {
    why:
      'a copy to remove that waits (seed 20466, and 113, 346, 650 of MCH_SELECTION_RATE=1 npm run ' +
      'sync-random): Notes excluded, its copy to be removed, holding a new file whose name is the NFC ' +
      'twin of a synced one. The twin cannot sync (NAME_CLASH), so the copy stays, and since 819e17c the ' +
      'pass says why (EXCLUDED_COPY_WAITING): right for a user, the trash would take what the device ' +
      'lacks. The model counted it as a copy left behind and its file as lost; it now accepts a copy ' +
      'the pass reports waiting beside a NAME_CLASH in it, its unsynced files still here (a model fix)',
    scenario: {
      seed: 20466,
      caseInsensitive: false,
      initialSide: 'local',
      initial: [
        { path: 'Notes', kind: 'folder' },
        { path: 'Notes/cafe\u0301.txt', kind: 'file', content: '20466:i9 abcdefghi\n' },
      ],
      local: [],
      remote: [],
      selection: {
        exclude: [{ path: 'Notes', localCopy: 'remove' }],
        before: [{ op: 'create-file', path: 'Notes/caf\u00e9.txt', content: '20466:s1 abcdef\n' }],
        local: [],
        remote: [],
        include: [],
      },
    },
  },
  {
    why:
      'the waiting copy set free (MCH_SELECTION_RATE=1 npm run sync-random -- --seed 650): as seed ' +
      "20466, then another client moves the synced twin out of the excluded folder; the copy's new " +
      'file no longer clashes, goes up into the excluded folder and the copy goes to the trash, as the ' +
      'rule for a copy to remove says (what is unsynced goes up first). The model allowed that upload ' +
      'only in the exclusion pass; it now allows it while the copy waits (a model fix)',
    scenario: {
      seed: 650,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [
        { path: 're\u0301sume\u0301', kind: 'folder' },
        {
          path: 're\u0301sume\u0301/cafe\u0301.txt',
          kind: 'file',
          content: '650:i8 abcdefghijklmnopqrstuvwxyzabcdef\n',
        },
      ],
      local: [],
      remote: [],
      selection: {
        exclude: [{ path: 're\u0301sume\u0301', localCopy: 'remove' }],
        before: [
          {
            op: 'create-file',
            path: 're\u0301sume\u0301/caf\u00e9.txt',
            content: '650:s1 abcdefghijklmnopqrst\n',
          },
        ],
        local: [],
        remote: [{ op: 'move', from: 're\u0301sume\u0301/caf\u00e9.txt', to: 'A.txt' }],
        include: [],
      },
    },
  },
  {
    why:
      'a synced folder skipped as an excluded one (MCH_SELECTION_RATE=1 npm run sync-random -- --seed ' +
      '624): Docs excluded, its copy removed; another client moves it to r\u00e9sum\u00e9/r\u00e9sum\u00e9, the NFC ' +
      'twin of the synced folder r\u00e9sum\u00e9/re\u0301sume\u0301 here. The scan skips excluded paths by ' +
      'their NFC key, and the check that a synced folder standing there is not the copy looked the ' +
      'row up by the exact spelling: the synced folder was skipped as EXCLUDED, its row left for ' +
      'nothing, and it no longer synced. Fixed in selection-keeper.ts (the row found in any spelling); ' +
      'the model no longer hides nor counts as the copy a synced folder at a twin spelling',
    scenario: {
      seed: 624,
      caseInsensitive: false,
      initialSide: 'local',
      initial: [
        { path: 'Docs', kind: 'folder' },
        { path: 'r\u00e9sum\u00e9', kind: 'folder' },
        { path: 'r\u00e9sum\u00e9/re\u0301sume\u0301', kind: 'folder' },
      ],
      local: [],
      remote: [{ op: 'move', from: 'Docs', to: 'r\u00e9sum\u00e9/r\u00e9sum\u00e9' }],
      selection: {
        exclude: [{ path: 'Docs', localCopy: 'remove' }],
        before: [],
        local: [],
        remote: [],
        include: [],
      },
    },
  },
  {
    why:
      'the kept copy of a twin taken for a removed one (seed 624, shrunk again after 46197aa): Docs ' +
      'excluded, its copy removed, and r\u00e9sum\u00e9/re\u0301sume\u0301 excluded, its copy kept; another client ' +
      'moves Docs to r\u00e9sum\u00e9/r\u00e9sum\u00e9, the NFC twin of the kept copy. The engine keeps the copy ' +
      "(EXCLUDED, rightly: it is the other folder's); the model counted it as Docs still here. A model " +
      "fix: a kept copy spelled as the twin of an excluded path is not that folder's copy",
    scenario: {
      seed: 624,
      caseInsensitive: false,
      initialSide: 'local',
      initial: [
        { path: 'Docs', kind: 'folder' },
        { path: 'r\u00e9sum\u00e9', kind: 'folder' },
        { path: 'r\u00e9sum\u00e9/re\u0301sume\u0301', kind: 'folder' },
      ],
      local: [],
      remote: [{ op: 'move', from: 'Docs', to: 'r\u00e9sum\u00e9/r\u00e9sum\u00e9' }],
      selection: {
        exclude: [
          { path: 'Docs', localCopy: 'remove' },
          { path: 'r\u00e9sum\u00e9/re\u0301sume\u0301', localCopy: 'keep' },
        ],
        before: [],
        local: [],
        remote: [],
        include: [],
      },
    },
  },
  {
    why:
      'a synced file downloaded for ever (MCH_SELECTION_RATE=1 npm run sync-random -- --seed 784): ' +
      'docs excluded, its copy kept; another client moves it to r\u00e9sum\u00e9, the NFC twin of the synced ' +
      'file re\u0301sume\u0301. The excluded folder, left out of the round, made its NFC name unknown, and so ' +
      'the synced file (row and local item left out, the device item not): a download to a place ' +
      'taken, LOCAL_CHANGED in every round, no pass quiet. Fixed in pass-inputs.ts: an excluded ' +
      "folder that loses its name to a synced twin is left out as that twin's shadow, the name known",
    scenario: {
      seed: 784,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [
        { path: 'd', kind: 'folder' },
        { path: 'docs', kind: 'folder' },
        { path: 're\u0301sume\u0301', kind: 'file', content: '784:i1 abcdefghijklmnop\n' },
      ],
      local: [],
      remote: [
        { op: 'move', from: 'docs', to: 'd/docs' },
        { op: 'move', from: 'd/docs', to: 'r\u00e9sum\u00e9' },
      ],
      selection: {
        exclude: [{ path: 'docs', localCopy: 'keep' }],
        before: [],
        local: [],
        remote: [],
        include: [],
      },
    },
  },
];

/** The same for soak seeds (run by soak-regressions.test.ts with SOAK_REGRESSIONS). */
export const SELECTION_SOAK_REGRESSIONS: readonly SoakRegression[] = [
  {
    why:
      "index mismatch (npm run soak -- --seeds 200, seed 62; issue 29's model): the excluded " +
      'r\u00e9sum\u00e9/d kept its copy, which moved here with its parent (r\u00e9sum\u00e9 renamed sub) while another ' +
      'client replaced the folder by a file r\u00e9sum\u00e9/d; the file came down to the path left free, and ' +
      'every whole scan after skipped it as EXCLUDED (the exclusion stayed on the path): its row ' +
      'had no item for the checks, a local edit of it never went up. The same without the crashes. ' +
      'Fixed in fa150f6: only folders are excluded by name',
    scenario: {
      seed: 62,
      caseInsensitive: false,
      initialSide: 'local',
      initial: [
        { path: 're\u0301sume\u0301', kind: 'folder' },
        { path: 're\u0301sume\u0301/d', kind: 'folder' },
      ],
      local: [],
      remote: [
        {
          op: 'folder-to-file',
          path: 're\u0301sume\u0301/d',
          content: '62:r5 abcdefghijklmnopqrstuvwxyzabcde\n',
        },
      ],
      selection: {
        exclude: [{ path: 're\u0301sume\u0301/d', localCopy: 'keep' }],
        before: [],
        local: [{ op: 'move', from: 're\u0301sume\u0301', to: 'sub' }],
        remote: [],
        include: [],
      },
      soak: {
        crash: { pass: 'first', how: 'in-transaction', at: 5 },
        faults: null,
        during: null,
        live: false,
        bulk: null,
        root: null,
        trash: null,
        upload: null,
        second: null,
        selectionCrash: { pass: 'exclusion', how: 'in-transaction', at: 1 },
      },
    },
  },
  {
    why:
      'device changes never applied (npm run soak -- --seeds 200, seed 106, new at fa150f6; issue ' +
      "29's model): d excluded (copy kept); another client renames d to Sub and moves A.txt into " +
      'it. The pass follows the rename in the same round and applies nothing else of it: A.txt ' +
      'stays here (its local copy should go to the trash), its row names an item the engine no ' +
      'longer sees, and every pass after says synced. As SYNC_OPEN seeds 861 and 587 ' +
      '(canopy/selection-open.ts)' +
      '. Fixed in the commit after 06834a4: the walk that follows a moved exclusion again keeps the changed listings of the first walk as changes, and that round is no quiet one',
    scenario: {
      seed: 106,
      caseInsensitive: false,
      initialSide: 'local',
      initial: [
        { path: 'A.txt', kind: 'file', content: '106:i6 abcdefghijklmnopqrstuvwxy\n' },
        { path: 'd', kind: 'folder' },
      ],
      local: [],
      remote: [],
      selection: {
        exclude: [{ path: 'd', localCopy: 'keep' }],
        before: [],
        local: [],
        remote: [
          { op: 'move', from: 'd', to: 'Sub' },
          { op: 'move', from: 'A.txt', to: 'Sub/A.txt' },
        ],
        include: [],
      },
      soak: {
        crash: null,
        faults: null,
        during: null,
        live: false,
        bulk: null,
        root: null,
        trash: null,
        upload: null,
        second: null,
      },
    },
  },
];
