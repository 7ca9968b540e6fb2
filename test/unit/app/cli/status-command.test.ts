// `mch-sync status`, `pause` and `resume`: reading an index the engine wrote, and asking a running service.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncStatus } from '../../../../common/sync-status.ts';
import {
  commandContext,
  type CliDependencies,
  type CommandContext,
} from '../../../../app/cli/terminal/cli-context.ts';
import { runPause } from '../../../../app/cli/sync-commands/pause-command.ts';
import { runResume } from '../../../../app/cli/sync-commands/resume-command.ts';
import { runStatus } from '../../../../app/cli/sync-commands/status-command.ts';
import type { StatusJson } from '../../../../app/cli/sync-commands/status-json.ts';
import { indexFilePath, openIndexDb } from '../../../../app/index/index-db.ts';
import { IndexStore } from '../../../../app/index/index-store.ts';
import { startControlServer, type ControlHandler } from '../../../../app/live-service/control-server.ts';
import { controlSocketPath } from '../../../../app/live-service/control-socket-path.ts';
import { type StoredPassSummary } from '../../../../app/sync/pass/pass-record.ts';
import {
  META_LAST_PASS,
  META_LAST_SYNC,
  META_LOCAL_ROOT,
  META_REMOTE_FOLDER,
} from '../../../../app/index/meta-keys.ts';
import { emptyCounts } from '../../../../app/sync/pass-report.ts';

const FINISHED = Date.parse('2025-06-01T12:00:00.000Z');

let dir: string;
let profile: string;
let folder: string;
let stdout: string;
let stderr: string;
let context: CommandContext;
const cleanup: Array<() => Promise<void>> = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mch-status-'));
  profile = join(dir, 'profile');
  folder = join(dir, 'Photos');
  stdout = '';
  stderr = '';
  const deps: CliDependencies = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    stdin: Readable.from([]),
    env: {},
    openBrowser: () => Promise.reject(new Error('no browser in unit tests')),
  };
  context = commandContext(deps, profile);
});

afterEach(async () => {
  for (const step of cleanup.splice(0)) await step();
  rmSync(dir, { recursive: true, force: true });
});

function pass(overrides: Partial<StoredPassSummary> = {}): StoredPassSummary {
  return {
    status: 'errors',
    finishedAtMs: FINISHED,
    counts: { ...emptyCounts(), uploaded: 2, downloaded: 1, bytesUp: 2048 },
    hold: null,
    issues: [
      { kind: 'failed', path: 'a/locked.doc', code: 'LOCAL_LOCKED', message: 'The file is locked.' },
      { kind: 'skipped', path: 'link', code: 'SYMLINK', message: 'A symbolic link is not synced.' },
    ],
    issueCount: 2,
    ...overrides,
  };
}

/** An index as the engine leaves it after a pass: the meta keys, three items and one pending intent. */
function writeIndex(localRoot: string, lastPass: StoredPassSummary | null = pass(), synced = true): void {
  const db = openIndexDb(indexFilePath(profile, localRoot));
  try {
    const store = new IndexStore(db);
    store.setMeta(META_LOCAL_ROOT, localRoot);
    store.setMeta(META_REMOTE_FOLDER, '/Photos');
    if (lastPass !== null) store.setMeta(META_LAST_PASS, JSON.stringify(lastPass));
    if (synced) store.setMeta(META_LAST_SYNC, String(FINISHED - 60_000));
    for (const [id, path] of [
      ['f1', 'a'],
      ['f2', 'a/b.jpg'],
      ['f3', 'c.jpg'],
    ] as const) {
      store.upsert({
        remoteId: id,
        parentRemoteId: 'root',
        path,
        name: path.split('/').at(-1) ?? path,
        kind: path === 'a' ? 'folder' : 'file',
        eTag: `"${id}"`,
        size: 1,
        mTimeMs: FINISHED,
        inode: null,
        localSize: null,
        localMtimeNs: null,
        contentHash: null,
      });
    }
    store.recordIntent({
      action: 'upload',
      path: 'd.jpg',
      remoteId: null,
      parentRemoteId: 'root',
      detail: {},
    });
  } finally {
    db.close();
  }
}

function json(): StatusJson {
  return JSON.parse(stdout) as StatusJson;
}

/** A running service for `folder`, on the socket the commands look for; `overrides` change its status. */
async function startService(overrides: Partial<SyncStatus> = {}): Promise<{ calls: string[] }> {
  const calls: string[] = [];
  let state: SyncStatus['state'] = 'syncing';
  const handler: ControlHandler = {
    status: () => ({
      state,
      detail: null,
      localRoot: folder,
      remoteFolder: '/Photos',
      progress: {
        itemsDone: 3,
        itemsTotal: 10,
        bytesDone: 1_500_000,
        bytesTotal: 5_000_000,
        transfers: [{ path: 'a/b.jpg', direction: 'up', bytesDone: 50, bytesTotal: 200 }],
      },
      lastSyncAtMs: FINISHED,
      activity: [{ atMs: FINISHED, action: 'uploaded', path: 'c.jpg' }],
      issues: [],
      pid: 4242,
      ...overrides,
    }),
    pause: () => {
      calls.push('pause');
      state = 'paused';
    },
    resume: () => {
      calls.push('resume');
      state = 'scanning';
    },
    syncNow: () => {
      calls.push('sync-now');
    },
    confirmDeletes: () => {
      calls.push('confirm-deletes');
      state = 'scanning';
    },
    restore: () => {
      calls.push('restore');
      state = 'scanning';
    },
  };
  const server = await startControlServer({ socketPath: controlSocketPath(profile, folder), handler });
  cleanup.push(() => server.close());
  return { calls };
}

describe('status without a running service', () => {
  it('prints what the last pass left in the index', async () => {
    writeIndex(folder);
    expect(await runStatus(context, {})).toBe(0);
    expect(stdout).toContain(`folder:        ${folder}\n`);
    expect(stdout).toContain('device folder: /Photos\n');
    expect(stdout).toContain('live sync:     not running\n');
    expect(stdout).toContain(
      'state:         error (as the last pass left it): 1 item is not synced (1 needs you); see the issues.\n',
    );
    expect(stdout).toMatch(/last sync: {5}2025-06-01T11:59:00\.000Z \(\d+ (s|min|h|days) ago\)\n/);
    expect(stdout).toContain('last pass:     2025-06-01T12:00:00.000Z: errors, 2 uploaded, 1 downloaded\n');
    expect(stdout).toContain('items synced:  3\n');
    expect(stdout).toContain('pending:       1 change whose outcome is checked at the next pass\n');
    expect(stdout).toContain('issues:        2\n');
    expect(stdout).toContain('  needs you:   a/locked.doc: The file is locked. [LOCAL_LOCKED]\n');
    expect(stdout).toContain('  left out:    link: A symbolic link is not synced. [SYMLINK]\n');
    expect(stderr).toBe('');
  });

  it('prints a SyncStatus-shaped object with --json: pid null, the state the last pass left', async () => {
    writeIndex(folder);
    expect(await runStatus(context, { json: true })).toBe(0);
    const { issues, ...lastPass } = pass();
    expect(json()).toEqual({
      state: 'error',
      detail: '1 item is not synced (1 needs you); see the issues.',
      localRoot: folder,
      remoteFolder: '/Photos',
      progress: null,
      lastSyncAtMs: FINISHED - 60_000,
      activity: [],
      issues,
      pid: null,
      running: false,
      itemsSynced: 3,
      pendingChanges: 1,
      lastPass,
      // No pair record: the whole device folder, with the default question for new folders.
      selection: { excluded: 0, waiting: [], askOverBytes: 500_000_000 },
      // Not on demand: every file is here.
      onDemand: null,
    });
  });

  it('maps a held pass to held, with the advice as detail, and a synced one to idle', async () => {
    const hold = {
      reason: 'mass-delete' as const,
      deletes: { local: 60, localTotal: 100, remote: 0, remoteTotal: 100 },
      advice: 'Run again with --confirm-deletes to go ahead.',
    };
    writeIndex(folder, pass({ status: 'held', hold, issues: [], issueCount: 0 }));
    await runStatus(context, { json: true });
    expect(json()).toMatchObject({ state: 'held', detail: hold.advice, pid: null });
    stdout = '';
    writeIndex(folder, pass({ status: 'synced', issues: [], issueCount: 0 }));
    await runStatus(context, { json: true });
    expect(json()).toMatchObject({ state: 'idle', detail: null, issues: [] });
  });

  it('keeps each issue’s remedy and side in --json, as the index holds them', async () => {
    const issues: StoredPassSummary['issues'] = [
      {
        kind: 'failed',
        path: 'big.iso',
        code: 'DISK_FULL',
        message: 'The disk is full.',
        remedy: 'needs-you',
      },
      {
        kind: 'failed',
        path: 'Read.me',
        code: 'NAME_CLASH',
        message: 'Another spelling of this name is synced.',
        remedy: 'never-as-is',
        side: 'remote',
      },
    ];
    writeIndex(folder, pass({ issues, issueCount: 2 }));
    expect(await runStatus(context, { json: true })).toBe(0);
    expect(json().issues).toEqual(issues);
  });

  it('leaves out a damaged last-pass record with a warning', async () => {
    writeIndex(folder);
    const db = openIndexDb(indexFilePath(profile, folder));
    new IndexStore(db).setMeta(META_LAST_PASS, '{"status":"weird"}');
    db.close();
    expect(await runStatus(context, { json: true })).toBe(0);
    expect(json()).toMatchObject({ state: 'idle', lastPass: null, lastSyncAtMs: FINISHED - 60_000 });
    expect(stderr).toContain(
      'mch-sync: warning: the record of the last pass in the sync index is unreadable',
    );
  });

  it('fails with FOLDER_NEVER_SYNCED for a folder without an index, and creates none', async () => {
    await expect(runStatus(context, { folder })).rejects.toMatchObject({ code: 'FOLDER_NEVER_SYNCED' });
    expect(existsSync(indexFilePath(profile, folder))).toBe(false);
    expect(stdout).toBe('');
  });

  it('fails with FOLDER_NEVER_SYNCED when no pass ever finished', async () => {
    writeIndex(folder, null, false);
    await expect(runStatus(context, { folder })).rejects.toMatchObject({ code: 'FOLDER_NEVER_SYNCED' });
  });
});

describe('which folder', () => {
  it('takes the only synced folder of the profile', async () => {
    writeIndex(folder);
    await runStatus(context, { json: true });
    expect(json().localRoot).toBe(folder);
  });

  it('takes --folder, relative to the working folder', async () => {
    writeIndex(folder);
    writeIndex(join(dir, 'Music'));
    await runStatus(context, { json: true, folder: join(dir, 'x', '..', 'Music') });
    expect(json().localRoot).toBe(join(dir, 'Music'));
  });

  it('lists the folders in a usage error when there are several', async () => {
    writeIndex(folder);
    writeIndex(join(dir, 'Music'));
    await expect(runStatus(context, {})).rejects.toMatchObject({
      name: 'UsageError',
      message: `This profile syncs several folders; choose one with --folder:\n  ${join(dir, 'Music')}\n  ${folder}`,
    });
  });

  it('lists each folder on one line, whatever its name holds', async () => {
    writeIndex(folder);
    writeIndex(join(dir, 'Two\nlines'));
    await expect(runStatus(context, {})).rejects.toMatchObject({
      message: `This profile syncs several folders; choose one with --folder:\n  ${folder}\n  ${join(dir, 'Two\\u000alines')}`,
    });
  });

  it('says so when the profile syncs no folder', async () => {
    await expect(runStatus(context, {})).rejects.toMatchObject({ code: 'NO_SYNCED_FOLDER' });
  });
});

describe.skipIf(process.platform === 'win32')('status of a running service', () => {
  it('prints state, progress, transfers and recent activity', async () => {
    writeIndex(folder);
    await startService();
    expect(await runStatus(context, {})).toBe(0);
    expect(stdout).toContain('live sync:     running (pid 4242)\n');
    expect(stdout).toContain('state:         syncing: 3 of 10 items, 1.5 MB of 5.0 MB\n');
    expect(stdout).toContain('transfer:      up a/b.jpg (25%)\n');
    expect(stdout).toContain('recent:\n  2025-06-01T12:00:00.000Z uploaded c.jpg\n');
  });

  it('never says only "idle" while the service’s issues leave items unsynced', async () => {
    writeIndex(folder);
    await startService({
      state: 'idle',
      progress: null,
      detail: '2 items could not be synced; see the issues.',
      issues: [
        // As the control socket carries them: classed by their codes.
        { kind: 'failed', path: 'a.doc', code: 'PERMISSION_DENIED', message: 'No.' },
        { kind: 'retry', path: 'b.doc', code: 'NETWORK', message: 'Broke.' },
        { kind: 'skipped', path: 'link', code: 'SYMLINK', message: 'A link.' },
      ],
    });
    expect(await runStatus(context, {})).toBe(0);
    expect(stdout).toContain(
      'state:         idle, not all synced: 2 items are not synced (1 needs you, 1 is tried again next run)\n',
    );
    expect(stdout).toContain('issues:        3\n');
  });

  it('says "idle" alone when the service’s issues leave nothing unsynced', async () => {
    writeIndex(folder);
    await startService({
      state: 'idle',
      progress: null,
      issues: [{ kind: 'skipped', path: 'link', code: 'SYMLINK', message: 'A link.' }],
    });
    expect(await runStatus(context, {})).toBe(0);
    expect(stdout).toContain('state:         idle\n');
  });

  it('prints the service’s status with --json, plus what the index knows', async () => {
    writeIndex(folder);
    await startService();
    await runStatus(context, { json: true });
    expect(json()).toMatchObject({
      state: 'syncing',
      pid: 4242,
      running: true,
      itemsSynced: 3,
      pendingChanges: 1,
    });
    expect(json().lastPass).toMatchObject({ status: 'errors', issueCount: 2 });
  });

  it('shows a service whose first pass has not finished, without an index', async () => {
    await startService();
    await runStatus(context, { json: true, folder });
    expect(json()).toMatchObject({ state: 'syncing', running: true, itemsSynced: null, lastPass: null });
  });
});

describe.skipIf(process.platform === 'win32')('pause and resume', () => {
  it('ask the running service and say what happened', async () => {
    writeIndex(folder);
    const service = await startService();
    expect(await runPause(context, {})).toBe(0);
    expect(await runResume(context, {})).toBe(0);
    expect(service.calls).toEqual(['pause', 'resume']);
    expect(stdout).toBe(
      `Paused live sync of ${folder}; \`mch-sync resume\` continues it.\nResumed live sync of ${folder} (scanning).\n`,
    );
  });

  it('resume --confirm-deletes releases the deletes the service holds', async () => {
    writeIndex(folder);
    const service = await startService();
    expect(await runResume(context, { 'confirm-deletes': true })).toBe(0);
    expect(service.calls).toEqual(['confirm-deletes']);
    expect(stdout).toBe(`Going ahead with the held deletes in ${folder}.\n`);
  });

  it('resume --restore asks the service to bring an emptied folder back', async () => {
    writeIndex(folder);
    const service = await startService();
    expect(await runResume(context, { restore: true })).toBe(0);
    expect(service.calls).toEqual(['restore']);
    expect(stdout).toBe(`Bringing the items of ${folder} back from the device.\n`);
    await expect(runResume(context, { restore: true, 'confirm-deletes': true })).rejects.toMatchObject({
      name: 'UsageError',
    });
  });

  it('fail with SERVICE_NOT_RUNNING when no service runs', async () => {
    writeIndex(folder);
    await expect(runPause(context, {})).rejects.toMatchObject({ code: 'SERVICE_NOT_RUNNING' });
    await expect(runResume(context, { folder })).rejects.toMatchObject({ code: 'SERVICE_NOT_RUNNING' });
    expect(stdout).toBe('');
  });
});
