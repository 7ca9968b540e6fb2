// `mch-sync share`, `shares` and `unshare` against the real device: one link for several items, reuse,
// --new, revocation, a failure between the share and its permissions, and the paths that are refused.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it, test } from '../../../helpers/fixtures.ts';
import type { Wrapped } from '../../../../common/wire/cloud.ts';
import type { FilePermsSearchResponse, Share } from '../../../../common/wire/sharing.ts';
import type { ShareJson } from '../../../../app/cli/share-commands/share-command.ts';
import type { SharesJson } from '../../../../app/cli/share-commands/shares-command.ts';
import type { TestDevice } from '../../../helpers/device.ts';
import type { HostileServer } from '../../../helpers/hostile-server.ts';
import { runMchSync, type CliRun } from '../../../helpers/mch-sync.ts';
import type { SignedInProfile } from '../../../helpers/signed-in-profile.ts';
import { createShare, grant } from '../../../helpers/shares.ts';
import { startDeviceProxy } from '../../../helpers/sync-pair.ts';
import { expectExit } from '../../../helpers/expect-cli.ts';

const REPORT = 'report 2024 "final".pdf';

let folder: string;
const proxies: HostileServer[] = [];

function mch(profile: SignedInProfile, args: string[]): Promise<CliRun> {
  return runMchSync(['--profile', profile.profile, ...args], { env: profile.env, timeoutMs: 60_000 });
}

async function shareJson(profile: SignedInProfile, args: string[]): Promise<ShareJson> {
  const run = await mch(profile, ['share', '--json', ...args]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as ShareJson;
}

async function allShares(device: TestDevice): Promise<Share[]> {
  const response = await device.fetchAs('alice', '/cloud/v1/shares?limit=1000');
  return ((await response.json()) as Wrapped<Share[]>).data ?? [];
}

/** The cloudShare permissions set on the item itself. */
async function linkGrants(device: TestDevice, fileId: string): Promise<FilePermsSearchResponse['filePerms']> {
  const response = await device.fetchAs('alice', `/sdk/v1/filePermsSearch/granting?fileID=${fileId}`);
  const body = (await response.json()) as FilePermsSearchResponse;
  return body.filePerms.filter((record) => record.entity.type === 'cloudShare' && record.fileID === fileId);
}

/** What the link shows a recipient without an account: the names of the shared items. */
async function linkPage(url: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url);
  const html = await response.text();
  // The page escapes quotes in names; the test compares names as they are.
  return { status: response.status, text: html.replaceAll('&#34;', '"').replaceAll('&quot;', '"') };
}

/** Points the profile's device address elsewhere (a proxy in front of the device), or back. */
function useDeviceUrl(profile: SignedInProfile, url: string): void {
  const path = join(profile.profile, 'settings.json');
  const settings = JSON.parse(readFileSync(path, 'utf8')) as { device: { url: string } };
  settings.device.url = url;
  writeFileSync(path, JSON.stringify(settings));
}

test.beforeAll(async ({ profile }) => {
  folder = join(profile.home, 'Work');
  mkdirSync(join(folder, 'Trip'), { recursive: true });
  writeFileSync(join(folder, 'notes.txt'), 'meeting notes\n');
  writeFileSync(join(folder, REPORT), 'the final report\n');
  writeFileSync(join(folder, 'Trip', 'day-1.txt'), 'arrived\n');
  writeFileSync(join(folder, 'solo.txt'), 'alone\n');
  const run = await mch(profile, ['run', '--folder', folder, '--once']);
  expectExit(run, 0);
}, 60_000);

test.afterEach(async ({ device, profile }) => {
  for (const proxy of proxies.splice(0)) await proxy.close();
  useDeviceUrl(profile, device.base);
});

describe('mch-sync share', () => {
  it('makes one link for three items, whose page shows exactly them', async ({ device, profile }) => {
    const paths = [join(folder, 'notes.txt'), join(folder, REPORT), join(folder, 'Trip')];
    const shared = await shareJson(profile, paths);
    expect(shared.reused).toBe(false);
    expect(shared.items.map((item) => item.path)).toEqual(paths);
    const share = (await allShares(device)).find((candidate) => candidate.shareId === shared.shareId);
    expect(share?.url).toBe(shared.url);
    expect(share?.fileIds).toEqual(shared.items.map((item) => item.id));
    for (const item of shared.items) {
      expect((await linkGrants(device, item.id)).map((record) => [record.entity.id, record.value])).toEqual([
        [share?.authId, 'ReadFile'],
      ]);
    }
    const page = await linkPage(shared.url);
    expect(page.status).toBe(200);
    for (const name of ['notes.txt', REPORT, 'Trip']) expect(page.text).toContain(name);
    expect(page.text).not.toContain('solo.txt');
  });

  it('gives the live link again for the same items, in any order, and a second one with --new', async ({
    profile,
  }) => {
    const paths = [join(folder, 'Trip'), join(folder, 'notes.txt')];
    const first = await shareJson(profile, paths);
    const again = await shareJson(profile, [...paths].reverse());
    expect(again).toMatchObject({ url: first.url, shareId: first.shareId, reused: true });
    const fresh = await shareJson(profile, ['--new', ...paths]);
    expect(fresh.reused).toBe(false);
    expect(fresh.url).not.toBe(first.url);
    expect((await linkPage(fresh.url)).status).toBe(200);
    // A selection that is a subset is another selection: its own link.
    const subset = await shareJson(profile, [join(folder, 'notes.txt')]);
    expect(subset.url).not.toBe(first.url);
  });

  it('completes an existing link of the same items that misses a permission, and gives it', async ({
    device,
    profile,
  }) => {
    const paths = [join(folder, 'Trip', 'day-1.txt'), join(folder, REPORT)];
    const ids = await idsOf(device, paths);
    // Another client made this share and crashed after its first grant.
    const half = await createShare(device, 'alice', ids);
    await grant(device, 'alice', ids[0] ?? '', { id: half.authId, type: 'cloudShare' }, 'ReadFile');
    const shared = await shareJson(profile, paths);
    expect(shared).toMatchObject({ shareId: half.shareId, url: half.url, reused: true });
    for (const id of ids) {
      expect((await linkGrants(device, id)).map((record) => record.entity.id)).toContain(half.authId);
    }
    // The tests below expect these items without links.
    expect((await mch(profile, ['unshare', half.url])).code).toBe(0);
  });

  it('prints only the link without --json, and shares the synced folder itself', async ({ profile }) => {
    const run = await mch(profile, ['share', folder]);
    expectExit(run, 0);
    expect(run.stdout.trim()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/(.*\/)?s\/[\w-]+$/);
    const page = await linkPage(run.stdout.trim());
    expect(page.text).toContain('Work');
  });

  it('refuses paths outside every synced folder, in the state folder, or missing, before signing in', async ({
    profile,
  }) => {
    mkdirSync(join(folder, '.mch-sync', 'trash'), { recursive: true });
    writeFileSync(join(profile.home, 'elsewhere.txt'), 'x');
    const cases: Array<[string, RegExp]> = [
      [join(profile.home, 'elsewhere.txt'), /is not in a synced folder.*Synced folders: .*Work/s],
      [join(folder, '.mch-sync', 'trash'), /\.mch-sync folder, which holds the sync's own state/],
      [join(folder, 'nothing-here.txt'), /does not exist/],
    ];
    // Each is refused before anything is made: they run at once.
    const runs = await Promise.all(cases.map(([path]) => mch(profile, ['share', path])));
    for (const [index, [, message]] of cases.entries()) {
      const run = runs[index] ?? { code: null, stdout: '', stderr: '' };
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(message);
    }
  });

  it('says how to sync an item that is not uploaded yet when no live sync runs', async ({ profile }) => {
    writeFileSync(join(folder, 'new.txt'), 'just made');
    const run = await mch(profile, ['share', join(folder, 'new.txt')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('not on the device yet, and no live sync runs for');
    expect(run.stderr).toContain(`mch-sync run --folder ${folder} --once`);
  });

  it('undoes a link whose permission failed half-way: no share and no grant is left', async ({
    device,
    profile,
  }) => {
    let grants = 0;
    const proxy = await startDeviceProxy(device.base, {
      refuse: (request) => {
        if (request.method !== 'POST' || !request.url.startsWith('/sdk/v1/filePerms')) return undefined;
        grants += 1;
        // The second item's permission is refused: the first one was granted by then.
        return grants === 2 ? { status: 403, json: { label: 'FORBIDDEN', message: 'injected' } } : undefined;
      },
    });
    proxies.push(proxy);
    useDeviceUrl(profile, proxy.base);
    const before = await allShares(device);
    const paths = [join(folder, 'solo.txt'), join(folder, 'Trip', 'day-1.txt')];
    const run = await mch(profile, ['share', ...paths]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('could not be completed');
    expect(run.stderr).toContain('so it was removed: nothing was shared');
    expect(grants).toBe(2);
    expect((await allShares(device)).map((share) => share.shareId)).toEqual(
      before.map((share) => share.shareId),
    );
    for (const id of await idsOf(device, paths)) expect(await linkGrants(device, id)).toEqual([]);
  });

  it('removes a half link it could not undo at once with the next share command', async ({
    device,
    profile,
  }) => {
    const paths = [join(folder, 'notes.txt'), join(folder, 'solo.txt')];
    const ids = await idsOf(device, paths);
    let refusing = true;
    let grantsSeen = 0;
    const refusal = { status: 403, json: { label: 'FORBIDDEN', message: 'injected' } };
    const proxy = await startDeviceProxy(device.base, {
      refuse: (request) => {
        if (!refusing || !request.url.startsWith('/sdk/v1/filePerms')) return undefined;
        // The second grant fails, and so does every removal of a permission: the undo cannot finish.
        if (request.method === 'DELETE') return refusal;
        if (request.method === 'POST') return grantsSeen++ === 1 ? refusal : undefined;
        return undefined;
      },
    });
    proxies.push(proxy);
    useDeviceUrl(profile, proxy.base);
    const before = new Set((await allShares(device)).map((share) => share.shareId));
    const failed = await mch(profile, ['share', '--new', ...paths]);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toContain('the next share command removes it');
    const half = (await allShares(device)).filter((share) => !before.has(share.shareId));
    expect(half.map((share) => share.fileIds)).toEqual([ids]);
    const halfAuthId = half[0]?.authId;
    expect((await linkGrants(device, ids[0] ?? '')).map((record) => record.entity.id)).toContain(halfAuthId);
    refusing = false;
    await shareJson(profile, [join(folder, 'Trip')]);
    expect((await allShares(device)).some((share) => share.shareId === half[0]?.shareId)).toBe(false);
    expect((await linkGrants(device, ids[0] ?? '')).map((record) => record.entity.id)).not.toContain(
      halfAuthId,
    );
  });
});

describe('mch-sync shares and unshare', () => {
  it('lists every link with its items and their local paths', async ({ profile }) => {
    const made = await shareJson(profile, [join(folder, REPORT), join(folder, 'Trip', 'day-1.txt')]);
    const run = await mch(profile, ['shares', '--json']);
    expectExit(run, 0);
    const listed = (JSON.parse(run.stdout) as SharesJson).shares.find(
      (share) => share.shareId === made.shareId,
    );
    expect(listed?.url).toBe(made.url);
    expect(Date.parse(listed?.createdAt ?? '')).toBeGreaterThan(Date.now() - 60_000);
    expect(listed?.items).toEqual([
      { id: made.items[0]?.id, name: REPORT, localPath: join(folder, REPORT), devicePath: `/Work/${REPORT}` },
      {
        id: made.items[1]?.id,
        name: 'day-1.txt',
        localPath: join(folder, 'Trip', 'day-1.txt'),
        devicePath: '/Work/Trip/day-1.txt',
      },
    ]);
    const human = await mch(profile, ['shares']);
    expect(human.stdout).toContain(`${made.url}  (made `);
    expect(human.stdout).toContain(`  ${join(folder, REPORT)}\n`);
  });

  it('revokes by URL: the page is gone at once, and the permissions with it', async ({ device, profile }) => {
    const made = await shareJson(profile, [join(folder, 'Trip')]);
    expect((await linkPage(made.url)).status).toBe(200);
    const run = await mch(profile, ['unshare', made.url]);
    expectExit(run, 0);
    expect(run.stdout).toBe(`Revoked ${made.url} (1 item).\n`);
    expect((await linkPage(made.url)).status).toBe(404);
    const authIds = (await linkGrants(device, made.items[0]?.id ?? '')).map((record) => record.entity.id);
    expect((await allShares(device)).some((share) => share.shareId === made.shareId)).toBe(false);
    const liveAuthIds = new Set((await allShares(device)).map((share) => share.authId));
    expect(authIds.every((authId) => liveAuthIds.has(authId))).toBe(true);
    const again = await mch(profile, ['unshare', made.shareId]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('revoked already?');
  });

  it('revokes by path every link of exactly that item, and leaves links of several items', async ({
    profile,
  }) => {
    const path = join(folder, 'solo.txt');
    const one = await shareJson(profile, [path]);
    const two = await shareJson(profile, ['--new', path]);
    const withOthers = await shareJson(profile, [path, join(folder, 'notes.txt')]);
    const run = await mch(profile, ['unshare', path]);
    expectExit(run, 0);
    expect(run.stdout).toContain(`Revoked ${one.url}`);
    expect(run.stdout).toContain(`Revoked ${two.url}`);
    expect(run.stderr).toContain(`also in 1 link(s) with other items, left alone: ${withOthers.url}`);
    expect((await linkPage(withOthers.url)).status).toBe(200);
    const after = await mch(profile, ['unshare', path]);
    expect(after.code).toBe(1);
    expect(after.stderr).toContain('has no link of its own');
  });

  it('needs a sign-in, and says how to get one', async ({ profile }) => {
    const signedOut = await mch(profile, ['logout']);
    expectExit(signedOut, 0);
    try {
      const refused = [['share', join(folder, 'notes.txt')], ['shares'], ['unshare', 'abc']];
      const runs = await Promise.all(refused.map((args) => mch(profile, args)));
      for (const [index, args] of refused.entries()) {
        expect(runs[index]?.code, args.join(' ')).toBe(1);
        expect(runs[index]?.stderr, args.join(' ')).toContain('mch-sync login');
      }
    } finally {
      const login = await runMchSync(
        ['--profile', profile.profile, 'login', '--username', 'alice', '--password-stdin'],
        { input: 'alice-password\n', env: profile.env },
      );
      expectExit(login, 0);
    }
  });

  it('refuses bad usage with exit 2', async ({ profile }) => {
    const usages = [['share'], ['unshare'], ['unshare', 'a', 'b'], ['shares', 'extra']];
    const runs = await Promise.all(usages.map((args) => mch(profile, args)));
    usages.forEach((args, index) => expect(runs[index]?.code, args.join(' ')).toBe(2));
  });
});

/** The device ids of synced paths, read from the device by name (`parentAndName`) from its root down. */
async function idsOf(device: TestDevice, paths: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const path of paths) {
    let parent = 'root';
    for (const name of ['Work', ...path.slice(folder.length + 1).split('/')]) {
      const query = new URLSearchParams({ parentID: parent, name });
      const response = await device.fetchAs('alice', `/sdk/v2/filesSearch/parentAndName?${query.toString()}`);
      expect(response.status).toBe(200);
      parent = ((await response.json()) as { id: string }).id;
    }
    ids.push(parent);
  }
  return ids;
}

describe('an unreachable device', () => {
  it('fails the share before anything is made, saying so', async ({ device, profile }) => {
    const before = await allShares(device);
    useDeviceUrl(profile, 'http://127.0.0.1:9');
    const run = await mch(profile, ['share', '--new', join(folder, 'notes.txt')]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /Could not make the share link: the device did not answer \(.*ECONNREFUSED.*\)\. Check that it is on/,
    );
    expect(await allShares(device)).toEqual(before);
  });
});
