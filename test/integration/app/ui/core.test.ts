// The contract's implementation against the real device, every call through dispatch as a host makes it:
// sign-in, a folder pair syncing live, activity, a conflict, a held emptied folder, shares, search, settings.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import type {
  EventName,
  EventPayload,
  InvokeName,
  InvokeRequest,
  InvokeResponse,
  IssueView,
  PairView,
  UiError,
} from '../../../../common/contract.ts';
import { dispatch } from '../../../../app/ui/dispatch.ts';
import { callCore, openTestCore } from '../../../helpers/core-call.ts';
import type { UiCore } from '../../../../app/ui/ui-core.ts';
import { waitFor } from '../../../helpers/live-pair.ts';

let home: string;
let core: UiCore;
let folder: string;
let pairId: string;
const opened: string[] = [];
const events: Array<{ name: EventName; payload: unknown }> = [];

function call<N extends InvokeName>(name: N, request: InvokeRequest<N>): Promise<InvokeResponse<N>> {
  return callCore(core, name, request);
}

async function failure(name: string, request: unknown): Promise<UiError> {
  const result = await dispatch(core.handlers, name, request);
  if (result.ok) throw new Error(`${name} succeeded`);
  return result.error;
}

function lastEvent<E extends EventName>(name: E): EventPayload<E> | undefined {
  return events.filter((event) => event.name === name).at(-1)?.payload as EventPayload<E> | undefined;
}

/** The folder's items, without the sync's own state folder. */
function synced(): string[] {
  return readdirSync(folder)
    .filter((name) => name !== '.mch-sync')
    .sort();
}

async function pairBecomes(check: (pair: PairView) => boolean, what: string): Promise<PairView> {
  return waitFor(what, async () => {
    const pair = (await call('pairs:list', {})).find((candidate) => candidate.id === pairId);
    return pair !== undefined && check(pair) ? pair : undefined;
  });
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'mch-ui-core-'));
  mkdirSync(join(home, '.local', 'share'), { recursive: true });
  folder = join(home, 'Docs');
  mkdirSync(folder);
  writeFileSync(join(folder, 'plan.txt'), 'the plan\n');
  writeFileSync(join(folder, 'budget.csv'), 'rent,100\n');
  core = await openTestCore(home, {
    // The system's applications cannot be shown here: what would be opened is recorded.
    openExternal: (target) => {
      opened.push(target);
      // As xdg-open fails without a graphical session.
      if (target.includes('unopenable')) return Promise.reject(new Error('there is no graphical session'));
      return Promise.resolve();
    },
  });
  core.onEvent((name, payload) => events.push({ name, payload }));
}, 60_000);

afterAll(async () => {
  await core?.close();
  if (home !== undefined) rmSync(home, { recursive: true, force: true });
});

describe('the desktop core', () => {
  it('starts signed out, and says so for calls that need a sign-in', async () => {
    expect(await call('account:get', {})).toMatchObject({ signedIn: false, user: null });
    expect(await call('pairs:list', {})).toEqual([]);
    expect((await failure('shares:list', {})).code).toBe('SIGN_IN_REQUIRED');
  });

  it('refuses unknown calls and bad requests with contract errors', async () => {
    expect((await failure('files:delete', {})).code).toBe('CONTRACT_UNKNOWN_CALL');
    expect((await failure('pairs:add', { localRoot: folder })).code).toBe('CONTRACT_BAD_REQUEST');
    expect((await failure('account:get', { extra: 1 })).code).toBe('CONTRACT_BAD_REQUEST');
  });

  it('says where a sign-in found nothing, the connection words only in the details', async () => {
    const error = await failure('account:signInPassword', {
      configUrl: 'http://127.0.0.1:9/config/v1/config',
      username: 'alice',
      password: 'alice-password',
    });
    expect(error).toMatchObject({
      code: 'SIGN_IN_UNREACHABLE',
      message:
        'Nothing answered at 127.0.0.1:9. Check the configuration URL under Advanced, and that the device is on and on this network, then sign in again.',
    });
    expect(error.details).toContain('ECONNREFUSED');
  });

  it('signs in with a password and tells the window', async ({ device }) => {
    const account = await call('account:signInPassword', {
      configUrl: device.running.urls.config,
      username: 'alice',
      password: 'alice-password',
    });
    expect(account).toMatchObject({ signedIn: true, user: { name: 'alice' }, secretStore: 'file' });
    expect(account.device?.url).not.toBeNull();
    expect(lastEvent('account:changed')).toEqual(account);
    expect(await call('devices:list', {})).toMatchObject([{ chosen: true }]);
  });

  it('browses the device folders and makes a new one', async () => {
    const root = await call('remote:listFolders', { folderId: null });
    expect(root).toMatchObject({ folder: { path: '/' }, parentId: null });
    const made = await call('remote:createFolder', { parentId: root.folder.id, name: 'Docs' });
    expect(made).toMatchObject({ name: 'Docs', path: '/Docs' });
    expect(
      (await call('remote:listFolders', { folderId: null })).children.map((child) => child.path),
    ).toContain('/Docs');
  });

  it('adds a folder pair that syncs live, with its activity told as it happens', async () => {
    const pair = await call('pairs:add', { localRoot: folder, remoteFolder: '/Docs' });
    pairId = pair.id;
    await pairBecomes((view) => view.state === 'idle' && view.itemsSynced === 2, 'the first pass');
    writeFileSync(join(folder, 'new.txt'), 'dropped in');
    await pairBecomes((view) => view.itemsSynced === 3, 'the new file');
    const activity = await call('activity:list', { pairId: null });
    expect(activity.find((entry) => entry.path === 'new.txt')).toMatchObject({
      kind: 'uploaded',
      localPath: join(folder, 'new.txt'),
    });
    await waitFor('the activity event', () =>
      events.some(
        (event) =>
          event.name === 'activity:added' &&
          (event.payload as Array<{ path: string }>)[0]?.path === 'new.txt',
      )
        ? true
        : undefined,
    );
    expect(lastEvent('pairs:changed')?.some((view) => view.id === pairId)).toBe(true);
    expect((await failure('pairs:add', { localRoot: folder, remoteFolder: '/Docs' })).code).toBe(
      'PAIR_EXISTS',
    );
  });

  it('pauses and resumes', async () => {
    expect((await call('sync:pause', { pairId })).find((view) => view.id === pairId)?.paused).toBe(true);
    expect((await call('sync:resume', { pairId: null })).find((view) => view.id === pairId)?.paused).toBe(
      false,
    );
  });

  it('makes a link from local paths, lists it, and revokes it', async () => {
    const made = await call('shares:create', {
      paths: [join(folder, 'plan.txt'), join(folder, 'budget.csv')],
      fresh: false,
    });
    expect(made.items.map((item) => item.localPath)).toEqual([
      join(folder, 'plan.txt'),
      join(folder, 'budget.csv'),
    ]);
    expect((await fetch(made.url)).status).toBe(200);
    expect((await call('shares:list', {})).map((share) => share.shareId)).toEqual([made.shareId]);
    await call('shares:revoke', { shareId: made.shareId });
    expect((await fetch(made.url)).status).toBe(404);
    expect((await failure('shares:create', { paths: [join(home, 'x')], fresh: false })).code).toBe(
      'NOT_IN_SYNCED_FOLDER',
    );
  });

  it('searches the device and says where each match is here', async () => {
    const found = await call('search:text', { query: 'plan', limit: null, pageToken: null });
    expect(found.matches).toMatchObject([
      { name: 'plan.txt', devicePath: '/Docs/plan.txt', localPath: join(folder, 'plan.txt') },
    ]);
    expect(found.matches[0]?.fragments[0]).toMatchObject({
      field: 'name',
      locations: [{ index: 0, length: 4 }],
    });
    expect(await call('search:photos', { from: '2020-01-01', to: '2020-12-31', limit: null })).toEqual({
      photos: [],
      more: false,
    });
  });

  it('browses and opens only synced items', async () => {
    expect(await call('local:browse', { path: null })).toEqual([
      { name: folder, path: folder, isFolder: true },
    ]);
    expect((await call('local:browse', { path: folder })).map((entry) => entry.name)).toEqual([
      'budget.csv',
      'new.txt',
      'plan.txt',
    ]);
    await call('shell:showItem', { path: join(folder, 'plan.txt') });
    await call('shell:openPath', { path: join(folder, 'plan.txt') });
    expect(opened.slice(-2)).toEqual([folder, join(folder, 'plan.txt')]);
    for (const name of ['shell:openPath', 'local:browse']) {
      expect((await failure(name, { path: '/etc/passwd' })).code).toBe('NOT_IN_SYNCED_FOLDER');
    }
  });

  it('shows a file changed on both sides as a conflict with both copies, and notifies once', async ({
    device,
  }) => {
    const [plan] = (await call('search:text', { query: 'plan', limit: null, pageToken: null })).matches;
    await call('sync:pause', { pairId });
    writeFileSync(join(folder, 'plan.txt'), 'changed here\n');
    const put = await device.fetchAs('alice', `/sdk/v2/files/${plan?.id ?? ''}/content`, {
      method: 'PUT',
      body: 'changed on the device\n',
    });
    expect(put.status).toBe(204);
    await call('sync:resume', { pairId });
    await call('sync:now', { pairId });
    const issues = await waitFor('the conflict', async () => {
      const found = await call('issues:list', { pairId });
      return found.some((issue) => issue.kind === 'conflict') ? found : undefined;
    });
    const conflict = issues.find((issue) => issue.kind === 'conflict');
    expect(conflict).toMatchObject({ path: 'plan.txt', localPath: join(folder, 'plan.txt') });
    expect(conflict?.otherCopy).toMatch(/plan \(conflicted copy .*\)\.txt$/);
    await waitFor('the conflict notification', () =>
      events.some(
        (event) => event.name === 'notification' && (event.payload as { kind: string }).kind === 'conflict',
      )
        ? true
        : undefined,
    );
  });

  it('holds an emptied folder with the list of what would go, and restores it', async () => {
    // The conflict's pass may still be uploading the conflicted copy: start from a settled folder, so
    // every file below is on the device and all four deletes wait together.
    await pairBecomes(
      (view) => view.state === 'idle' && view.itemsSynced === synced().length,
      'the conflict pass settled',
    );
    for (const name of synced()) unlinkSync(join(folder, name));
    const held = await pairBecomes((view) => view.hold !== null, 'the hold');
    expect(held.hold).toMatchObject({
      reason: 'emptied-root',
      remoteDeletes: 4,
      canRestore: true,
    });
    expect(held.hold?.paths).toHaveLength(4);
    expect(held.hold?.paths).toContain('plan.txt');
    await waitFor('the held notification', () =>
      events.some(
        (event) =>
          event.name === 'notification' && (event.payload as { kind: string }).kind === 'held-deletes',
      )
        ? true
        : undefined,
    );
    // An answer for another hold than the one standing is refused, nothing changed.
    const changed = await failure('sync:confirmDeletes', { pairId, reason: 'folder-changed' });
    expect(changed.code).toBe('HOLD_CHANGED');
    expect(changed.message).toContain('nothing was changed');
    expect(await failure('sync:restore', { pairId })).toMatchObject({ code: 'CONTRACT_BAD_REQUEST' });
    await call('sync:restore', { pairId, reason: 'emptied-root' });
    await pairBecomes((view) => view.hold === null && view.state === 'idle', 'the restore');
    expect(synced()).toHaveLength(4);
    // The card's buttons read before the hold ended answer nothing: no pass goes ahead with a confirm.
    const late = await failure('sync:confirmDeletes', { pairId, reason: 'emptied-root' });
    expect(late).toMatchObject({ code: 'NOT_HELD', title: 'Nothing to answer' });
    expect(synced()).toHaveLength(4);
  });

  it('keeps settings and tells the window', async () => {
    const next = await call('settings:update', { pollIntervalSeconds: 60, notifications: false });
    // This core has no system switches (start at login, file-manager entries): those read as off.
    expect(next).toEqual({
      pollIntervalSeconds: 60,
      notifications: false,
      startAtLogin: false,
      fileManagerEntries: false,
      ignoreRules: '',
    });
    expect(await call('settings:get', {})).toEqual(next);
    expect(lastEvent('settings:changed')).toEqual(next);
    expect(await failure('settings:update', { pollIntervalSeconds: 1 })).toMatchObject({
      code: 'SETTING_INVALID',
      message: expect.stringContaining('1 is too short') as unknown,
    });
    await pairBecomes((view) => view.state === 'idle', 'the pair after the restart');
  });

  it('answers a window that asks while a saved setting restarts the pairs with the pair and its conflict', async () => {
    // A window reloaded just after Save asks for its lists while the pairs stop and start again. An
    // empty answer would stay: the window asks for Issues again only when a pair's count, hold or state
    // changes, and the restarted pair comes back just as it was.
    let asked: Promise<[PairView[], IssueView[]]> | undefined;
    let askedDuringRestart = false;
    const stopListening = core.onEvent((name) => {
      if (name !== 'settings:changed' || asked !== undefined) return;
      // The restart begins as this event goes out; the next turn of the loop finds it under way.
      setImmediate(() => {
        askedDuringRestart = !core.isConnected();
        asked = Promise.all([call('pairs:list', {}), call('issues:list', { pairId: null })]);
      });
    });
    try {
      await call('settings:update', { pollIntervalSeconds: 50 });
    } finally {
      stopListening();
    }
    const [pairs, issues] = (await asked) ?? [[], []];
    await pairBecomes((view) => view.state === 'idle', 'the pair after the restart');
    expect(askedDuringRestart).toBe(true);
    expect(pairs.map((pair) => pair.id)).toEqual([pairId]);
    expect(issues.filter((issue) => issue.kind === 'conflict').map((issue) => issue.path)).toEqual([
      'plan.txt',
    ]);
  });

  it('keeps the activity and the conflict across that restart, and lets the conflict go once settled', async () => {
    expect((await call('activity:list', { pairId: null })).map((entry) => entry.path)).toContain('new.txt');
    const [conflict] = (await call('issues:list', { pairId })).filter((issue) => issue.kind === 'conflict');
    expect(conflict?.path).toBe('plan.txt');
    expect((await call('pairs:list', {}))[0]).toMatchObject({
      conflictCount: 1,
      words: 'Up to date · 1 conflict',
    });
    // The person kept the device's version: the conflicted copy goes, and with it the issue.
    unlinkSync(conflict?.otherCopy ?? '');
    await pairBecomes(
      (view) => view.conflictCount === 0 && view.words === 'Up to date',
      'the settled conflict',
    );
    expect(await call('issues:list', { pairId })).toEqual([]);
    await waitFor('the window told', () =>
      lastEvent('pairs:changed')?.find((view) => view.id === pairId)?.issueCount === 0 ? true : undefined,
    );
  });

  it('refuses ignore rules it cannot read, and counts what they leave out without listing it', async () => {
    const refused = await failure('settings:update', { ignoreRules: '*.log\nreport[2024.pdf' });
    expect(refused).toMatchObject({ code: 'IGNORE_RULE_INVALID', title: 'Ignore rules not saved' });
    expect(refused.message).toMatch(/^Line 2 \("report\[2024\.pdf"\) cannot be read/);
    expect((await call('settings:get', {})).ignoreRules).toBe('');
    await call('settings:update', { ignoreRules: '*.log' });
    writeFileSync(join(folder, 'debug.log'), 'noise');
    writeFileSync(join(folder, '.DS_Store'), 'finder');
    const view = await pairBecomes(
      (pair) => pair.leftOut.ignored === 1 && pair.leftOut.systemFiles === 1,
      'the files left out counted',
    );
    expect(view).toMatchObject({ issueCount: 0, words: 'Up to date' });
    expect(await call('issues:list', { pairId })).toEqual([]);
  });

  it('keeps the issues and the activity across a restart of the pairs and a new sign-in', async ({
    device,
  }) => {
    symlinkSync('/etc/hostname', join(folder, 'link'));
    await call('sync:now', { pairId });
    // Left out by the client's rules: listed under Issues, quietly (the card and the tray count it not).
    const linkListed = async (): Promise<true | undefined> => {
      const codes = (await call('issues:list', { pairId })).map((issue) => issue.code);
      return codes.length === 1 && codes[0] === 'SYMLINK' ? true : undefined;
    };
    await waitFor('the link listed', linkListed);
    // The restarted service has not finished a pass yet: the index's record of the last one stands.
    await call('settings:update', { pollIntervalSeconds: 45 });
    expect(await linkListed()).toBe(true);
    expect((await call('pairs:list', {}))[0]).toMatchObject({ issueCount: 0 });
    await call('account:signOut', {});
    await call('account:signInPassword', {
      configUrl: device.running.urls.config,
      username: 'alice',
      password: 'alice-password',
    });
    expect((await call('issues:list', { pairId })).map((issue) => issue.code)).toEqual(['SYMLINK']);
    expect((await call('activity:list', { pairId: null })).map((entry) => entry.path)).toContain('new.txt');
    unlinkSync(join(folder, 'link'));
    await call('sync:now', { pairId });
    await waitFor('the link gone', async () =>
      (await call('issues:list', { pairId })).length === 0 ? true : undefined,
    );
  });

  it('says why a device folder cannot be made before it is added', async () => {
    const elsewhere = join(home, 'Elsewhere');
    mkdirSync(elsewhere);
    expect(await call('pairs:check', { localRoot: elsewhere, remoteFolder: '/Back\\slash' })).toMatchObject({
      problem: {
        code: 'PAIR_FOLDER_INVALID',
        message: 'The device folder name "Back\\\\slash" contains "\\".',
      },
    });
  });

  it('says what to open by hand when nothing could open an item, and keeps its log where Settings says', async () => {
    writeFileSync(join(folder, 'unopenable.txt'), 'x');
    expect(await failure('shell:openPath', { path: join(folder, 'unopenable.txt') })).toEqual({
      code: 'OPEN_FAILED',
      title: 'Could not open it',
      message: `No application opened ${join(folder, 'unopenable.txt')}. Open it from your file manager.`,
      details: "The system's opener failed: there is no graphical session.",
    });
    const about = await call('app:about', {});
    expect(about.logFile).toBe(join(home, 'profile', 'logs', 'window.log'));
    expect(about.logsDir).toBe(dirname(about.logFile));
    expect(existsSync(about.logFile)).toBe(true);
  });

  it('removes a pair keeping its files, and signs out', async () => {
    const kept = synced();
    await call('pairs:remove', { pairId, keepLocalFiles: true });
    expect(await call('pairs:list', {})).toEqual([]);
    expect(synced()).toEqual(kept);
    const account = await call('account:signOut', {});
    expect(account).toMatchObject({ signedIn: false, user: null });
    expect((await call('app:about', {})).version).toMatch(/^\d+\.\d+\.\d+/);
  });
});
