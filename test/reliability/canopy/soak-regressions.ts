// Shrunk soak scenarios (issue 18) that once broke an invariant, kept so that `npm test` runs each again.
import type { SoakScenario } from './soak-scenario.ts';

export interface SoakRegression {
  /** What broke, the fix, and the command that found it. */
  why: string;
  /** The minimal reproduction `npm run soak` printed (its JSON). */
  scenario: SoakScenario;
}

/** A reproduction of a failure not fixed yet: expected to fail, until the fix moves it to SOAK_REGRESSIONS. */
export interface OpenSoakFailure extends SoakRegression {
  /** `every run`: run as a test that must fail; `some runs` (timing): kept, skipped in `npm test`. */
  fails: 'every run' | 'some runs';
}

export const SOAK_REGRESSIONS: readonly SoakRegression[] = [
  {
    why:
      'trees differ (npm run soak -- --live --seeds 200 --from 74001, seed 74084, after the fix of seed ' +
      '73131): the engine made the NFD folder re\u0301sume\u0301; its event matched the index and made no ' +
      "change, so the echo expected for it stayed, and took the user's own NFC folder r\u00e9sum\u00e9 " +
      '(names compare in NFC) for it: the clash was never reported. Fixed in expected-echoes.ts: a change ' +
      "at another spelling that holds another item than the executor's spelling is not its echo",
    scenario: {
      seed: 74084,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [{ path: 're\u0301sume\u0301', kind: 'folder' }],
      local: [{ op: 'create-folder', path: 'r\u00e9sum\u00e9' }],
      remote: [],
      soak: { crash: null, faults: null, during: null, live: true },
    },
  },
  {
    why:
      'trees differ (npm run soak -- --live --seeds 200 --from 73001, seed 73131): a file synced before ' +
      'the service started was saved (a temporary renamed over it) and then deleted; the event cleaner ' +
      'looked up only its own memory for the add, which had never seen the file (the service keeps no ' +
      'scan), so it read a file made and gone, and the delete never reached the device. Fixed in ' +
      "watch-events.ts: what was at a path is the cleaner's memory, else the index, for every event",
    scenario: {
      seed: 73131,
      caseInsensitive: false,
      initialSide: 'local',
      initial: [{ path: 'Notes', kind: 'file', content: '73131:i1 abcdefghijklmnopqrstuvwxyzabcdefghi\n' }],
      local: [
        { op: 'edit', path: 'Notes', content: '73131:l2 abcdefghijklmnopqrstuvwxyzabcdef\n', atomic: true },
        { op: 'delete', path: 'Notes' },
      ],
      remote: [],
      soak: { crash: null, faults: null, during: null, live: true },
    },
  },
  {
    why:
      'trees differ (npm run soak -- --live --seeds 300 --from 30001, seed 30088, with our own watcher): ' +
      'a folder replaced by a file went out at once, but the deletion of its subfolder sub/d was held for ' +
      'the move window; the folder the engine made at sub meanwhile got the freed inode number of sub/d ' +
      "and was taken for its move, so the executor's creation was no echo and the next pass trashed " +
      'Sub/x.bin. Fixed in watch-events.ts: what vanished below a replaced folder goes out with it',
    scenario: {
      seed: 30088,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [
        { path: 'sub', kind: 'folder' },
        { path: 'sub/d', kind: 'folder' },
      ],
      local: [{ op: 'folder-to-file', path: 'sub', content: '30088:l2 abcdefghijklmnopqrstuvwxyzabc\n' }],
      remote: [
        { op: 'create-file', path: 'sub/x.bin', content: '30088:r1 abcdefghijklmnopq\n' },
        { op: 'move', from: 'sub', to: 'Sub' },
      ],
      soak: { crash: null, faults: null, during: null, live: true },
    },
  },
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
  {
    why:
      'trees differ (npm run soak -- --live --seeds 60, seed 30): a folder another client made while ' +
      'watched local changes were synced never came down. A scoped pass listed its parent in full ' +
      '(the engine had written there) but planned only its own scope; the walk cache kept the new ' +
      'listing, so every later poll got a 304 for that folder and planned nothing. Fixed: the engine ' +
      'remembers such folders (pass-scope.ts unplannedRemoteRoots) and the next poll scopes them in. ' +
      'Timing-dependent: without the fix it failed 3 runs of 4',
    scenario: {
      seed: 30,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [
        { path: 'd', kind: 'folder' },
        { path: 'docs', kind: 'file', content: '30:i1 abcdefghijklmnopqrstuvwxyzabcdef\n' },
        { path: 'sub', kind: 'folder' },
        { path: 'd/sub', kind: 'folder' },
      ],
      local: [
        { op: 'edit', path: 'docs', content: '30:l2 abcdefg\n' },
        { op: 'create-folder', path: 'sub/re\u0301sume\u0301' },
        { op: 'edit', path: 'docs', content: '30:l3 abcd\n' },
      ],
      remote: [{ op: 'create-folder', path: 'sub/notes' }],
      soak: {
        crash: null,
        faults: null,
        during: { localFrom: 2, remoteFrom: 1, at: 2, where: 'before' },
        live: true,
      },
    },
  },
  {
    why:
      'content lost, in the harness (npm run soak -- --seeds 300 --from 1301, seed 1454): the other ' +
      "client's edit read the device's version, then the engine's upload of another version landed, " +
      'then the edit overwrote it unseen: a lost update of that client, not of the engine. Fixed in ' +
      'canopy/wire.ts: a change made mid-pass has the device to itself (exclusive)',
    scenario: {
      seed: 1454,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [
        { path: 'docs', kind: 'folder' },
        { path: 'notes', kind: 'file', content: '1454:i1 \n' },
        { path: 're\u0301sume\u0301', kind: 'folder' },
        { path: 'x.bin', kind: 'file', content: '1454:i5 abcdefgh\n' },
      ],
      local: [
        { op: 'edit', path: 'notes', content: '1454:l8 abcdefghijklmnopqrstuvwxyza\n' },
        { op: 'edit', path: 'x.bin', content: '1454:l9 abcdefghijklmnopqrs\n' },
        { op: 'delete', path: 'docs' },
      ],
      remote: [
        { op: 'create-file', path: 'docs/caf\u00e9.txt', content: '1454:r6 abcdefghijkl\n' },
        { op: 'edit', path: 'x.bin', content: '1454:r7 abcdefghijklmnopqrstuvwxyzabcd\n' },
      ],
      soak: {
        crash: null,
        faults: null,
        during: { localFrom: 2, remoteFrom: 0, at: 4, where: 'before' },
        live: false,
      },
    },
  },
  {
    why:
      'content lost (npm run soak -- --seeds 300 --from 1901, seed 2176): an edit inside a folder made ' +
      'between the listings of the folder check (seed 253) and the DELETE of the folder went with it. ' +
      'Fixed: a subtree of up to 32 files and 8 folders is emptied item by item, each DELETE under its ' +
      'own If-Match, and the folder deleted under its eTag of after that (subtree-check.ts)',
    scenario: {
      seed: 2176,
      caseInsensitive: true,
      initialSide: 'remote',
      initial: [
        { path: 'Notes', kind: 'file', content: '2176:i1 abcdefghijklmnopqrstuvwxyzab\n' },
        { path: 'a.txt', kind: 'file', content: '2176:i2 abcdefghijklmn\n' },
        { path: 'b.md', kind: 'file', content: '2176:i4 abcdefghijklmnopqrs\n' },
        { path: 'caf\u00e9.txt', kind: 'folder' },
        { path: 'sub', kind: 'folder' },
        { path: 'sub/A.txt', kind: 'file', content: '2176:i3 abcdefghijklmnopqrstuvwxyzabcde\n' },
      ],
      local: [
        { op: 'move', from: 'sub/A.txt', to: 'sub/x.bin' },
        { op: 'delete', path: 'sub' },
        { op: 'delete', path: 'Notes' },
      ],
      remote: [{ op: 'edit', path: 'sub/A.txt', content: '2176:r5 ab\n' }],
      soak: {
        crash: null,
        faults: null,
        during: { localFrom: 2, remoteFrom: 0, at: 4, where: 'in-flight' },
        live: false,
      },
    },
  },
  {
    why:
      'index row astray (npm run soak -- --seeds 300 --from 2201, live seed 2382): the move of a folder ' +
      'failed with a 412 (moved on the device meanwhile) and a file created in it was then recorded at ' +
      "the plan's local path, outside the folder's row; when the folder's row moved later, the file's " +
      "row stayed behind. Fixed: a created item's row goes below its folder's row as the index has it " +
      '(execute-create.ts). Timing-dependent: without the fix it failed about 1 run in 2',
    scenario: {
      seed: 2382,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [
        { path: 'Docs', kind: 'folder' },
        { path: 'b.md', kind: 'file', content: '2382:i1 abcdefghijklmnopqrstuvwxyzabcdefghijk\n' },
        { path: 'sub', kind: 'folder' },
        { path: 'x.bin', kind: 'file', content: '2382:i2 ab\n' },
        { path: 'sub/caf\u00e9.txt', kind: 'file', content: '2382:i3 abcdefghijklm\n' },
      ],
      local: [
        { op: 'move', from: 'x.bin', to: 'X.bin' },
        { op: 'create-file', path: 'sub/Notes', content: '2382:l5 abcdefghijklmnop\n' },
        { op: 'move', from: 'sub', to: 'Docs/docs' },
      ],
      remote: [{ op: 'move', from: 'sub', to: 'Sub' }],
      soak: { crash: null, faults: null, during: null, live: true },
    },
  },
  {
    why:
      'content lost, in the harness (npm run soak -- --seeds 300 --from 3701, seed 3766): the local ' +
      'move of sub to résumé, made mid-pass, renamed over the file résumé the engine had just downloaded ' +
      "(rename() replaces a file), and the engine rightly sent that user's overwrite up. Fixed in " +
      "canopy/ledger.ts: a move to a taken name is impossible, as the scenario's move is to a free name",
    scenario: {
      seed: 3766,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [{ path: 'sub', kind: 'folder' }],
      local: [{ op: 'move', from: 'sub', to: 'r\u00e9sum\u00e9' }],
      remote: [
        { op: 'folder-to-file', path: 'sub', content: '3766:r4 abcdefghijklmnopqrstuvwxyzabcde\n' },
        { op: 'create-file', path: 'r\u00e9sum\u00e9', content: '3766:r5 abcdefghijklmnopqr\n' },
      ],
      soak: {
        crash: null,
        faults: { error: 0.056, reset: 0.028, lost: 0.028, latencyMs: 1, seed: 823658 },
        during: { localFrom: 0, remoteFrom: 2, at: 7, where: 'before' },
        live: false,
      },
    },
  },
  {
    why:
      'duplicate (npm run soak -- --seeds 300 --from 7001 --crash-rate 1 --fault-rate 0.5, seed 7090; ' +
      'shrunk, then without its faults and mid-pass changes, which it does not need): the device moved ' +
      "and edited café.txt while it was edited here, so the pass kept both and downloaded the device's " +
      'version to b.md; the process died in the transaction of its index row, after the file was in ' +
      "place. The next process took b.md for a new local file and uploaded it beside the device's. " +
      'Fixed: a download is recorded as an intent before it is put in place, and recovery writes its ' +
      'row when the file at the path is still the one downloaded (execute-local.ts, intent-recovery.ts)',
    scenario: {
      seed: 7090,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [
        { path: 'caf\u00e9.txt', kind: 'file', content: '7090:i1 abcdefghijklmnopqrstuvwxyzabcdef\n' },
      ],
      local: [{ op: 'edit', path: 'caf\u00e9.txt', content: '7090:l4 abcdefghijklmnopqrstuvwxyzabcd\n' }],
      remote: [
        { op: 'move', from: 'caf\u00e9.txt', to: 'b.md' },
        { op: 'edit', path: 'b.md', content: '7090:r2 abcdefghijklmnopqrstuv\n' },
      ],
      soak: {
        crash: { pass: 'changes', how: 'in-transaction', at: 2 },
        faults: null,
        during: null,
        live: false,
      },
    },
  },
  {
    why:
      'trees differ (npm run soak -- --seeds 300 --from 6001 --items 12 --changes 6, seed 6296, live): ' +
      'beside the synced folder résumé the user made its twin spelled in NFD. The watched pass scanned ' +
      'only the new spelling while its scope, compared under NFC, took the synced one as scanned too: ' +
      'no clash was reported and both were left locally with one on the device. Fixed: the scoped scan ' +
      "compares paths under NFC as the pass's scope does (scan-walk.ts ScanScope), so both are read and " +
      'the new one is left out as a NAME_CLASH, as a full pass does',
    scenario: {
      seed: 6296,
      caseInsensitive: false,
      initialSide: 'local',
      initial: [
        { path: 'r\u00e9sum\u00e9', kind: 'folder' },
        { path: 'r\u00e9sum\u00e9/re\u0301sume\u0301', kind: 'folder' },
        { path: 'r\u00e9sum\u00e9/re\u0301sume\u0301/r\u00e9sum\u00e9', kind: 'folder' },
      ],
      local: [{ op: 'create-folder', path: 'r\u00e9sum\u00e9/re\u0301sume\u0301/re\u0301sume\u0301' }],
      remote: [],
      soak: { crash: null, faults: null, during: null, live: true },
    },
  },
  {
    why:
      'trees differ (npm run soak -- --live --seeds 100 --from 5001, seed 5059): a synced file replaced ' +
      'at once by a folder of its name never reached the device, and nothing made inside that folder ' +
      'would have: chokidar 6 sends no event for that replacement and does not watch the new folder ' +
      "(its issues #165, #996). Fixed in local-watcher.ts (now chokidar-source.ts): chokidar's raw event of the name is read, the " +
      'unlink and addDir are made there and the folder is watched. Any name shows it; this is the shrunk one',
    scenario: {
      seed: 5059,
      caseInsensitive: false,
      initialSide: 'local',
      initial: [
        { path: 're\u0301sume\u0301', kind: 'folder' },
        { path: 're\u0301sume\u0301/d', kind: 'file', content: '5059:i2 abcdefghijklmnopqrstu\n' },
      ],
      local: [{ op: 'file-to-folder', path: 're\u0301sume\u0301/d' }],
      remote: [],
      soak: { crash: null, faults: null, during: null, live: true },
    },
  },
  {
    why:
      'trees differ (npm run soak -- --seeds 10000, seed 5921, live): the user saved notes/a.txt (a new ' +
      'file renamed over it) right after the first pass downloaded it, and the watcher took the one ' +
      "change the batch made of both for the download's echo: the edit never went up. Fixed: the " +
      'executor tells the watcher what a download leaves at the path (inode, size, mtime), and an echo ' +
      'is only swallowed while the path still holds that file (expected-echoes.ts). It failed about 2 ' +
      'runs in 3 without the fix',
    scenario: {
      seed: 5921,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [
        { path: 'A.txt', kind: 'file', content: '5921:i1 abcdefghijklmnopqrstuvwxyzabcdef\n' },
        { path: 'notes', kind: 'folder' },
        { path: 'notes/a.txt', kind: 'file', content: '5921:i2 abcd\n' },
        { path: 'notes/r\u00e9sum\u00e9', kind: 'folder' },
      ],
      local: [{ op: 'edit', path: 'notes/a.txt', content: '5921:l3 abcdef\n', atomic: true }],
      remote: [],
      soak: { crash: null, faults: null, during: null, live: true },
    },
  },
  {
    why:
      'index row astray (npm run soak -- --seeds 10000, seed 6750): the user moved Docs to d while the ' +
      'device got a new file in Docs/résumé and moved Docs elsewhere, mid-pass; the PATCH of the move ' +
      "failed (412) and the new file's download wrote its row at d/résumé/sub, below no folder row (the " +
      "folder's row was still at Docs/résumé), so it stayed behind when the folder's row moved. Fixed: " +
      "a download's row (and a local folder's) goes below its folder's row as the index has it " +
      '(execute-local.ts rowFor), as creates already did (seed 2382)',
    scenario: {
      seed: 6750,
      caseInsensitive: false,
      initialSide: 'local',
      initial: [
        { path: 'Docs', kind: 'folder' },
        { path: 'Docs/re\u0301sume\u0301', kind: 'folder' },
        { path: 'Docs/re\u0301sume\u0301/re\u0301sume\u0301', kind: 'folder' },
      ],
      local: [{ op: 'move', from: 'Docs', to: 'd' }],
      remote: [
        {
          op: 'create-file',
          path: 'Docs/re\u0301sume\u0301/sub',
          content: '6750:r3 abcdefghijklmnopqrstuv\n',
        },
        { op: 'move', from: 'Docs', to: 'r\u00e9sum\u00e9' },
      ],
      soak: {
        crash: null,
        faults: null,
        during: { localFrom: 3, remoteFrom: 1, at: 5, where: 'before' },
        live: false,
      },
    },
  },
  {
    why:
      'trees differ (npm run soak -- --seeds 10000, seed 8522, live): the NAME_CLASH of résumé (NFC, new) ' +
      "beside résumé (NFD, synced) was reported, then the next watched pass's report dropped it: an " +
      "incremental round reported only the issues inside its scope, so the user's list of what is not " +
      "synced lost it. Fixed: such a round keeps the last settled pass's issues outside its scope " +
      '(pass-scope.ts withStandingOutside). It failed 3 runs in 4 without the fix',
    scenario: {
      seed: 8522,
      caseInsensitive: false,
      initialSide: 'local',
      initial: [
        { path: 're\u0301sume\u0301', kind: 'folder' },
        { path: 'sub', kind: 'folder' },
        { path: 'x.bin', kind: 'file', content: '8522:i1 abcdefghijk\n' },
        { path: 'sub/d', kind: 'folder' },
      ],
      local: [
        { op: 'delete', path: 'x.bin' },
        { op: 'create-folder', path: 'notes' },
        { op: 'create-folder', path: 'r\u00e9sum\u00e9' },
      ],
      remote: [
        { op: 'delete', path: 'sub/d' },
        {
          op: 'create-file',
          path: 're\u0301sume\u0301/Notes',
          content: '8522:r2 abcdefghijklmnopqrstuvwxyzabcdefghijk\n',
        },
      ],
      soak: { crash: null, faults: null, during: null, live: true },
    },
  },
  {
    why:
      'not held (npm run soak -- --seeds 12 --bulk-rate 1, seeds 3, 6 and 9; seed 6 at the default rates): ' +
      'rm -rf of bulk-1 (56 of 115 items) while the other client edits one of its files. A poll pass ' +
      "scoped to the device's changed listing (bulk-1/s2) plans and makes that folder's 26 deletes (under " +
      "the guard), fails to make the edited file's folder (its parent is gone), and its second round " +
      'plans the rest (28) against the guard alone: 55 DELETEs, never held. Cause: app/sync/engine.ts ' +
      "#pass gives a re-planning round earlierDeletes of the passes before only, not this pass's own " +
      'deletes already made (and noteDeleteRun records the largest round, not their sum)' +
      ". Fixed: a re-planning round's guard counts the deletes this pass's earlier rounds made (engine.ts, ExecutionContext.deletedItems), and the live service lets the deletions its watcher holds out before a pass (LocalWatcher.deletionsOut)",
    scenario: {
      seed: 6,
      caseInsensitive: false,
      initialSide: 'local',
      initial: [],
      local: [],
      remote: [],
      soak: {
        crash: null,
        faults: null,
        during: null,
        live: true,
        bulk: { folders: 2, files: 53, deleted: 1, gapMs: null, after: 0, remoteEdits: 1 },
        root: null,
        trash: null,
        upload: null,
        second: null,
      },
    },
  },
  {
    why:
      'second process let in (npm run soak -- --seeds 40 --from 501 --root-rate 0.5 --second-rate 0.5 ' +
      '--trash-rate 0.5 --upload-rate 0.5 --bulk-rate 0.1, seeds 526 and 528): the process took the ' +
      "folder's locks at its start (as mch-sync run does); the folder was moved aside and made again, " +
      'held, and restored; the process syncs the new folder at that path, while its locks are those of ' +
      "the old folder: another profile's engine takes the new folder's locks. Cause: the locks are taken " +
      'once, by the host (app/cli/sync-commands/run-command.ts, app/ui/pairs/pair-manager.ts lockSyncedFolder), and ' +
      'app/sync/guards/folder-check.ts checkFolder adopts a changed folder (restore, confirm) without them' +
      ". Fixed: the engine renews the host's lock (SyncedFolderLock.renew, SyncEngineOptions.folderLock) before it takes a changed folder as the pair's (folder-check.ts)",
    scenario: {
      seed: 528,
      caseInsensitive: false,
      initialSide: 'local',
      initial: [{ path: 'a.txt', kind: 'file', content: '528:i1 abc\n' }],
      local: [],
      remote: [],
      soak: {
        crash: null,
        faults: null,
        during: null,
        live: false,
        bulk: null,
        root: { how: 'replace', writes: 0, atSynced: 0, heldPasses: 1, answer: 'restore', extra: null },
        trash: null,
        upload: null,
        second: { via: 'profile', at: 1, child: false },
      },
    },
  },
  {
    why:
      'duplicate (npm run soak -- --live --seeds 300, seed 257; fails 3 runs in 4 at f06da41, 7 in 8 at ' +
      'c8c767a under load 3-4: older than issue 26): the device moved re\u0301sume\u0301/r\u00e9sum\u00e9 to ' +
      'cafe\u0301.txt while the user renamed and edited x.bin. The trust-cache pass for X.bin re-lists the root ' +
      '(the engine wrote there) and finds the moved item in it; its index row, still at the old path, is ' +
      'outside the scope and dropped, so the item reads as new: downloaded beside the old local copy, which ' +
      'the next whole pass uploads as new. Cause: app/sync/pass/pass-scope.ts scopeInputs keeps a remote entry ' +
      'around the scope but drops the index row its id leads to when the row is outside the scope' +
      '. Fixed in pass-scope.ts: scopedPassInputs brings the row of a remote entry moved into the scope, and scopeInputs keeps it with its item on disk',
    scenario: {
      seed: 257,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [
        { path: 're\u0301sume\u0301', kind: 'folder' },
        { path: 'x.bin', kind: 'file', content: '257:i2 abcdefghijklmnop\n' },
        { path: 're\u0301sume\u0301/r\u00e9sum\u00e9', kind: 'file', content: '257:i8 abcdefghijklmnop\n' },
      ],
      local: [
        { op: 'move', from: 'x.bin', to: 'X.bin' },
        { op: 'edit', path: 'X.bin', content: '257:l9 abcdefghijklmnopqrstuvwxyzabcdefghijklm\n' },
      ],
      remote: [{ op: 'move', from: 're\u0301sume\u0301/r\u00e9sum\u00e9', to: 'cafe\u0301.txt' }],
      soak: {
        crash: null,
        faults: null,
        during: null,
        live: true,
        bulk: null,
        root: null,
        trash: null,
        upload: null,
        second: null,
      },
    },
  },
  {
    why:
      'guard hold let through in part (npm run soak -- --bulk-rate 1 --seeds 200 --from 3001, seed 3009; ' +
      'fails about 1 run in 5): rm -rf of bulk-1 and bulk-2 (78 items), beside changes on the device. A ' +
      'poll pass that reads the whole tree (the root listing changed) is held as mass-delete; the watcher ' +
      'then hands out the deletion in batches, and a trust-cache pass scoped to one of them (bulk-2, 39 ' +
      'items) is under the guard on its own: bulk-2 goes from the device while the hold stands. Cause: ' +
      'deletes a held plan listed are not remembered (app/sync/guards/delete-run.ts counts only deletes made, ' +
      'noteDeleteRun in app/sync/engine.ts #pass runs only for a plan carried out), so a later scoped ' +
      'round of part of the same deletion is judged alone' +
      '. Fixed in engine.ts: after a pass held deletes, every pass is a whole pass until the hold is gone',
    scenario: {
      seed: 3009,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [
        { path: 'caf\u00e9.txt', kind: 'file', content: '3009:i5 abcdefghijklmnopqrstuvwxy\n' },
        { path: 'r\u00e9sum\u00e9', kind: 'folder' },
        { path: 'x.bin', kind: 'file', content: '3009:i1 abcde\n' },
        {
          path: 'r\u00e9sum\u00e9/cafe\u0301.txt',
          kind: 'file',
          content: '3009:i3 abcdefghijklmnopqrstuvwxyza\n',
        },
        { path: 'r\u00e9sum\u00e9/notes', kind: 'folder' },
      ],
      local: [
        { op: 'delete', path: 'r\u00e9sum\u00e9' },
        { op: 'edit', path: 'x.bin', content: '3009:l7 ab\n' },
        { op: 'edit', path: 'x.bin', content: '3009:l8 abcdefghijklmnopqrstuvwxyz\n', atomic: true },
      ],
      remote: [
        { op: 'folder-to-file', path: 'r\u00e9sum\u00e9', content: '3009:r6 abcdefghijklmnopq\n' },
        { op: 'file-to-folder', path: 'x.bin' },
        { op: 'create-folder', path: 'sub' },
      ],
      soak: {
        crash: null,
        faults: null,
        during: null,
        live: true,
        bulk: { folders: 3, files: 36, deleted: 2, gapMs: null, after: 2, remoteEdits: 0 },
        root: null,
        trash: null,
        upload: null,
        second: null,
      },
    },
  },
  {
    why:
      'trees differ (npm run soak -- --live --seeds 300 --from 20001, seed 20258, at 4672424): the synced ' +
      'folder is swapped for another disk (a mount over its path), held, and restored; the watches still ' +
      "followed the old folder's inodes (a mount says nothing to them), so the user's edit after the " +
      'restore was never seen and never sent. Fixed in live-sync.ts: once a folder-changed hold is over ' +
      '(answered, or the right folder back), the folder is watched anew and read whole',
    scenario: {
      seed: 20258,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [{ path: 'notes', kind: 'file', content: '20258:i1 abcdefghijklmnopqrstuvwxyz\n' }],
      local: [{ op: 'edit', path: 'notes', content: '20258:l4 abcdefghijklmnopqrstuvw\n' }],
      remote: [],
      soak: {
        crash: null,
        faults: null,
        during: null,
        live: true,
        bulk: null,
        root: { how: 'other-disk', writes: 2, atSynced: 1, heldPasses: 2, answer: 'restore', extra: null },
        trash: null,
        upload: null,
        second: null,
      },
    },
  },
  {
    why:
      'issue 30, soak seed 181 (--on-demand-rate 1), never quiet: a placeholder moved here while the pass ' +
      "runs (after its scan), its item replaced on the device by a folder: the type change's local-trash " +
      'found nothing at the old path and dropped the row, and the moved placeholder, a file of no row, was ' +
      'planned as an upload that never sends a placeholder: LOCAL_CHANGED every round of every pass. Fixed ' +
      'in app/sync/on-demand/orphan-placeholders.ts: a placeholder no row stands for is removed (its item, ' +
      'its only content, is gone), never planned as new',
    scenario: {
      seed: 181,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [
        { path: 'b.md', kind: 'file', content: '181:i1 abcdefghijklmnopqrstuvwxyzabcdefghijklmn\n' },
        { path: 'r\u00e9sum\u00e9', kind: 'folder' },
        { path: 'r\u00e9sum\u00e9/notes', kind: 'folder' },
        { path: 'r\u00e9sum\u00e9/r\u00e9sum\u00e9', kind: 'folder' },
      ],
      local: [{ op: 'move', from: 'b.md', to: 'r\u00e9sum\u00e9/r\u00e9sum\u00e9/b.md' }],
      remote: [{ op: 'file-to-folder', path: 'b.md' }],
      onDemand: { pinned: [], before: [], after: [] },
      soak: {
        crash: null,
        faults: null,
        during: { localFrom: 0, remoteFrom: 3, at: 5, where: 'in-flight' },
        live: false,
        bulk: null,
        root: null,
        trash: null,
        upload: null,
        second: null,
      },
    },
  },
  {
    why:
      'issue 30, soak seed 2036 (--on-demand-rate 1): a placeholder moved here to a name left out (the other ' +
      'Unicode spelling of a folder) while the other client edited it on the device. The row stays at the old ' +
      'name until the rename, and the edit waits with it; the model took the row behind the device for a ' +
      'wrong index (fixed in on-demand-world.ts: such a row must be the device item at its path and kind)',
    scenario: {
      seed: 2036,
      caseInsensitive: false,
      initialSide: 'remote',
      initial: [
        { path: 'a.txt', kind: 'file', content: '2036:i2 abcdefghijklmnopqr\n' },
        { path: 're\u0301sume\u0301', kind: 'folder' },
      ],
      local: [{ op: 'move', from: 'a.txt', to: 'r\u00e9sum\u00e9' }],
      remote: [{ op: 'edit', path: 'a.txt', content: '2036:r7 abcdefghijklmnopqrstuvwxyzabcdefgh\n' }],
      onDemand: { pinned: [], before: [], after: [] },
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
  {
    why:
      'issue 31, soak seed 606 (--conflict-rate 1 --on-demand-rate 1, from 601), content lost: a file edited on ' +
      "both sides of an on-demand pair whose policy keeps this computer's copy. The device's version came down " +
      'as a placeholder at the original name, and settling kept that placeholder (its zeros) as the version ' +
      "before the copy's content went over it and up: the device's version was gone on both sides. Fixed in " +
      "app/sync/versions/conflict-settle.ts: a placeholder is never kept as a conflict's loser; the conflict " +
      'stays listed (CONFLICT_ONLINE_ONLY) until it is opened',
    scenario: {
      seed: 606,
      caseInsensitive: false,
      initialSide: 'local',
      initial: [
        { path: 'Docs', kind: 'folder' },
        { path: 'Docs/A.txt', kind: 'file', content: '606:i4 abcdefghijklmno\n' },
      ],
      local: [{ op: 'edit', path: 'Docs/A.txt', content: '606:l9 abcdefgh\n' }],
      remote: [{ op: 'edit', path: 'Docs/A.txt', content: '606:c2 x\n' }],
      onDemand: { pinned: [], before: [], after: [] },
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
        conflicts: 'this',
      },
    },
  },
  {
    why:
      'issue 29 in the soak, seed 470 (--conflict-rate 1 --crash-rate 1, from 301), never quiet: the device ' +
      "edited A.txt and the changes' pass downloaded it (a new inode); the user then moved it into the kept " +
      'copy of the excluded d. The engine rightly says MOVED_INTO_EXCLUDED, which the model did not expect: it ' +
      'knew the inode of the last check only (fixed in selection-world.ts, soak-run.ts: after a pass ran since ' +
      'that check, the old path is expected as in a live seed). Failed at bf3ab62 too',
    scenario: {
      seed: 470,
      caseInsensitive: false,
      initialSide: 'local',
      initial: [
        { path: 'A.txt', kind: 'file', content: '470:i2 abcdefghijklmnopqrstuvwxyzabcd\n' },
        { path: 'd', kind: 'folder' },
      ],
      local: [
        { op: 'create-file', path: 'd/caf\u00e9.txt', content: '470:l6 abcdefghijklmnopqrstuvwxyzabcde\n' },
      ],
      remote: [{ op: 'edit', path: 'A.txt', content: '470:c2 xxxxxxxxxxxxxxxxxxx\n' }],
      selection: {
        exclude: [{ path: 'd', localCopy: 'keep' }],
        before: [],
        local: [{ op: 'move', from: 'A.txt', to: 'd/A.txt' }],
        remote: [],
        include: [],
      },
      soak: {
        crash: { pass: 'first', how: 'before-request', at: 3 },
        faults: null,
        during: { localFrom: 1, remoteFrom: 1, at: 8, where: 'in-flight' },
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

export const SOAK_OPEN: readonly OpenSoakFailure[] = [];
